"""Unresolved relation moves (issue 16): the engine takes a move whose targets the expander has not read, sends
it back as ``follow`` with the next depth's request, and settles the beam on the frontier it reached. Walks over
the same graph give the same result whether the expander reads every move whole or lazily."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.engine import WalkEngine
from graphwalk_neo4j.walk.memory import InMemoryExpander
from graphwalk_neo4j.walk.trace_sinks import RecordingTraceSink
from tests.helpers import FILM_EDGES, FILM_NODES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.decide.base import ChoiceQuestion


def preferring(*moves: tuple[str, str]) -> Any:
    """A decider that takes the first offered move of ``moves`` ((relation, direction); STOP when none is)."""

    def answer(question: ChoiceQuestion, state: Any) -> str:
        assert question.context is not None
        offered = {(o.relation, o.direction): o.label for o in question.context.options if not o.is_stop}
        return next((offered[m] for m in moves if m in offered), "STOP")

    return answer


async def walk(
    lazy_above: int | None, moves: Sequence[tuple[str, str]], **config: Any
) -> tuple[Any, InMemoryExpander, RecordingTraceSink]:
    expander = InMemoryExpander(FILM_NODES, FILM_EDGES, lazy_above=lazy_above)
    sink = RecordingTraceSink()
    engine = WalkEngine(
        expander, FakeBackend(answer=preferring(*moves)), sink, WalkConfig(hop_mode="relation", **config)
    )
    result = await engine.run("When were Christopher Nolan's films released?", ["nolan"])
    return result, expander, sink


def summary(result: Any, sink: RecordingTraceSink) -> Any:
    steps = [(s.depth, s.chosen, s.chosen_target_ids, [(o.label, o.count) for o in s.options]) for s in result.steps]
    traced = [(d.depth, [s.chosen_target_ids for s in d.steps]) for d in sink.depths]
    paths = [([n.id for n in p.end], [[n.id for n in s.nodes] for s in p.steps]) for p in result.paths]
    return [a.node_id for a in result.answers], steps, traced, paths, result.status


async def test_lazy_moves_reach_the_same_answers_and_trace() -> None:
    labels = (("directed_by", "in"), ("release_year", "out"))
    eager, eager_x, eager_sink = await walk(None, labels)
    lazy, lazy_x, lazy_sink = await walk(1, labels)
    assert [a.node_id for a in eager.answers] == ["y2000", "y2010"]
    assert summary(lazy, lazy_sink) == summary(eager, eager_sink)
    # both moves had two edges, so the lazy expander offered them unresolved and read each at the next depth
    follows = [
        (r.follow.relation, r.follow.direction, r.node_ids)
        for batch in lazy_x.requests
        for r in batch
        if r.follow is not None
    ]
    assert follows == [("directed_by", "in", ("nolan",)), ("release_year", "out", ("memento", "inception"))]
    assert lazy_x.calls == eager_x.calls == 3  # still one expansion per depth
    offered = lazy.steps[0].options
    assert [(o.label, o.count, o.resolved, o.target_ids) for o in offered] == [("o1", 2, False, ["memento"])]


async def test_a_walk_that_ends_right_after_a_lazy_move_reads_it_once_more() -> None:
    labels = (("directed_by", "in"), ("release_year", "out"))
    eager, eager_x, eager_sink = await walk(None, labels, max_depth=2)
    lazy, lazy_x, lazy_sink = await walk(1, labels, max_depth=2)
    assert lazy.status == eager.status == "budget"
    assert summary(lazy, lazy_sink) == summary(eager, eager_sink)
    assert [a.node_id for a in lazy.answers] == ["y2000", "y2010"]
    last = lazy_x.requests[-1]
    assert [(r.follow is not None, r.moves) for r in last] == [(True, False)]  # frontier only, no moves
    assert lazy_x.calls == eager_x.calls + 1


async def test_lazy_move_frontier_is_capped_like_a_read_one() -> None:
    labels = (("directed_by", "in"), ("release_year", "out"))
    eager, _, eager_sink = await walk(None, labels, max_frontier=1)
    lazy, _, lazy_sink = await walk(1, labels, max_frontier=1)
    assert summary(lazy, lazy_sink) == summary(eager, eager_sink)
    assert [a.node_id for a in lazy.answers] == ["y2000"]
    # both say the cap truncated the first move: 1 target kept of Nolan's 2 films, in the trace and the bundle
    for result, sink in ((eager, eager_sink), (lazy, lazy_sink)):
        first = sink.depths[0].steps[0]
        assert (first.chosen_target_ids, first.chosen_truncated, first.chosen_total) == (["memento"], True, 2)
        later = [s for d in sink.depths[1:] for s in d.steps]
        assert [(s.chosen_truncated, s.chosen_total) for s in later] == [(False, None)] * len(later)
        bundle = result.context_bundle()
        assert bundle["truncated"] is True
        assert bundle["truncated_moves"] == [
            {"hop": 1, "relation": "directed_by", "direction": "in", "kept": 1, "total": 2, "truncated": True}
        ]
