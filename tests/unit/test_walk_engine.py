"""The walk engine in entity mode over a small dict graph with a scripted decider: greedy and beam search with
exact scores, tie-breaks by offer order, forced moves, forced STOP at dead ends, never-decided walks, budgets,
errors, expander contract checks, and the per-depth trace."""

from __future__ import annotations

import asyncio
import math
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.decide.base import ChoiceResult, DecisionRequest, DecisionResponse
from graphwalk_neo4j.errors import ConfigError, ExpanderContractError, StoreError
from graphwalk_neo4j.walk.config import Budget, WalkConfig
from graphwalk_neo4j.walk.engine import WalkEngine
from graphwalk_neo4j.walk.memory import InMemoryExpander
from graphwalk_neo4j.walk.ports import ExpandRequest, Expansion, NodeRef, Option
from graphwalk_neo4j.walk.trace_sinks import RecordingTraceSink
from tests.helpers import FILM_EDGES, FILM_NODES, ScriptedBackend

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from graphwalk_neo4j.walk.trace_records import DepthRecord

L = math.log
FLOOR = 1e-3

NODES: list[NodeRef] = [
    *FILM_NODES,
    NodeRef(id="lonely", name="Lonely", type="film"),
    NodeRef(id="a", name="A", type="t"),
    NodeRef(id="b", name="B", type="t"),
    NodeRef(id="c", name="C", type="t"),
    NodeRef(id="d", name="D", type="t"),
    NodeRef(id="leaf_start", name="Leaf start", type="t"),
    NodeRef(id="leaf", name="Leaf", type="t"),
]
BY_ID = {n.id: n for n in NODES}
EDGES = [
    *FILM_EDGES,
    ("a", "has", "b"),  # a has exactly one neighbour: a forced move
    ("b", "x", "c"),
    ("b", "y", "d"),
    ("leaf_start", "has", "leaf"),  # forced move, then a dead end
]


def start(*ids: str) -> list[NodeRef]:
    return [BY_ID[i] for i in ids]


WHO_DIRECTED = {
    "Memento (film)": {"Christopher Nolan": 0.9, "Jonathan Nolan": 0.05, "Guy Pearce": 0.05},
    "Christopher Nolan (person)": {"STOP": 0.8, "Inception": 0.2},
}


def engine(
    script: Mapping[str, Mapping[str, float]],
    config: WalkConfig | None = None,
    *,
    sink: RecordingTraceSink | None = None,
    **backend_kw: object,
) -> tuple[WalkEngine, InMemoryExpander, ScriptedBackend, RecordingTraceSink]:
    expander = InMemoryExpander(NODES, EDGES)
    backend = ScriptedBackend(script, **backend_kw)  # type: ignore[arg-type]
    sink = sink or RecordingTraceSink()
    return WalkEngine(expander, backend, sink, config or WalkConfig(hop_mode="entity")), expander, backend, sink


# --- greedy ------------------------------------------------------------------------------------------------


async def test_greedy_walk_exact_scores_calls_and_trace() -> None:
    walker, expander, backend, sink = engine(WHO_DIRECTED)
    result = await walker.run("Who directed Memento?", start("memento"), walk_id="w")
    assert result.status == "ok"
    assert result.stop_reason.startswith("stop")
    assert [a.name for a in result.answers] == ["Christopher Nolan"]
    answer = result.answers[0]
    assert answer.score == (L(0.9) + L(0.8)) / 2
    assert (answer.rank, answer.votes, answer.n_choices, answer.terminated_by) == (1, 1, 2, "stop")
    assert answer.min_confidence == pytest.approx(0.6)  # (2 * 0.8 - 1) / 1 at the STOP decision
    assert result.best_path is not None
    assert result.best_path.describe() == "Memento --directed_by--> Christopher Nolan -> STOP"
    totals = result.totals
    assert (totals.depths, totals.decision_calls, totals.decision_requests, totals.expansions) == (2, 2, 2, 2)
    assert (totals.input_tokens, totals.output_tokens) == (200, 20)
    assert totals.cost_usd == pytest.approx(0.002)
    assert totals.decision_latency_s == 0.5
    # one request per depth; state is the question only; no STOP at the start node
    assert [r.state for r in backend.requests] == [{"query": "Who directed Memento?"}] * 2
    first, second = (r.questions[0] for r in backend.requests)
    assert list(first.options) == ["o1", "o2", "o3", "o4"]
    assert list(second.options) == ["o1", "STOP"]
    assert expander.requests[1][0] == ExpandRequest(
        beam_key="b0",
        node_ids=("nolan",),
        exclude_ids=("memento", "nolan"),
        direction="both",
        limit=50,
        keep=30,
        max_frontier=2000,
        query="Who directed Memento?",
    )
    # trace: start, one record per depth, finish
    assert sink.events == [("start", "w", None), ("depth", "w", 1), ("depth", "w", 2), ("finish", "w", None)]
    d1, d2 = sink.depths
    assert d1.call is not None
    assert d1.call.call_id == "w/c1"
    assert d1.call.request_id == "req-1"
    assert d1.call.model == "scripted-1-20260917"
    assert d1.call.input_tokens == 100
    assert d1.call.n_questions == 1
    [s1] = d1.steps
    assert (s1.kind, s1.chosen, s1.chosen_relation, s1.chosen_direction) == ("decision", "o1", "directed_by", "out")
    assert s1.chosen_target_ids == ["nolan"]
    assert s1.distribution == {"o1": 0.9, "o2": 0.05, "o3": 0.05, "o4": 0.0}
    assert s1.used_distribution == s1.distribution
    assert [o.target_ids for o in s1.options] == [["nolan"], ["jnolan"], ["pearce"], ["y2000"]]
    assert (s1.p, s1.step_logp, s1.cum_logp, s1.score) == (0.9, L(0.9), L(0.9), L(0.9))
    assert s1.parent_step_id is None
    assert s1.step_id == "w/d1/0"
    assert s1.call_id == "w/c1"
    assert s1.confidence == pytest.approx((4 * 0.9 - 1) / 3)
    [s2] = d2.steps
    assert (s2.chosen, s2.is_stop, s2.parent_step_id, s2.node_ids) == ("STOP", True, "w/d1/0", ["nolan"])
    assert s2.cum_logp == L(0.9) + L(0.8)
    assert s2.score == (L(0.9) + L(0.8)) / 2
    assert s2.options[-1].is_stop
    assert s2.options[-1].label == "STOP"
    assert sink.results == [result]
    assert result.steps == [s1, s2]
    [meta] = sink.metas
    assert (meta.walk_id, meta.question, meta.start_ids, meta.start_names) == (
        "w",
        "Who directed Memento?",
        ["memento"],
        ["Memento"],
    )
    assert (meta.strategy, meta.hop_mode, meta.model, meta.config["prob_floor"]) == (
        "greedy",
        "entity",
        "scripted-1",
        1e-3,
    )


async def test_greedy_tie_breaks_by_offer_order() -> None:
    script = {
        "Memento (film)": {"Christopher Nolan": 0.5, "Jonathan Nolan": 0.5},
        "Christopher Nolan (person)": {"STOP": 1.0},
    }
    walker, *_ = engine(script)
    result = await walker.run("q", start("memento"))
    assert [a.node_id for a in result.answers] == ["nolan"]  # o1 beats o2 at equal p


async def test_greedy_with_two_starts_records_the_losing_decision() -> None:
    script = {**WHO_DIRECTED, "Inception (film)": {"Christopher Nolan": 0.5, "Leonardo DiCaprio": 0.5}}
    walker, _, backend, sink = engine(script)
    result = await walker.run("Who directed Memento?", start("memento", "inception"), walk_id="w")
    assert [a.node_id for a in result.answers] == ["nolan"]
    assert [q.key for q in backend.requests[0].questions] == ["b0", "b1"]  # both beams, one request
    kept, lost = sink.depths[0].steps
    assert (kept.beam, kept.kept, kept.chosen_target_ids) == ("b0", True, ["nolan"])
    assert (lost.beam, lost.kept, lost.chosen, lost.score) == ("b1", False, "o1", L(0.5))


# --- forced steps ------------------------------------------------------------------------------------------


async def test_forced_move_makes_no_call_and_forced_stop_counts_as_decision() -> None:
    walker, expander, backend, sink = engine({"B (t)": {"C": 0.7, "D": 0.2, "STOP": 0.1}})
    result = await walker.run("q", start("a"), walk_id="w")
    assert result.status == "ok"
    assert [a.node_id for a in result.answers] == ["c"]
    # depth 1: forced move a -> b (no decision); depth 2: choice p=0.7; depth 3: dead end -> forced STOP (p=1)
    assert result.answers[0].score == (L(0.7) + 0.0) / 2
    assert result.totals.decision_calls == 1
    assert expander.calls == 3
    assert len(backend.requests) == 1
    assert [d.call is None for d in sink.depths] == [True, False, True]
    kinds = [(s.kind, s.chosen, s.p, s.n_decisions, s.n_choices) for s in result.steps]
    assert kinds == [
        ("forced_move", "o1", None, 0, 0),
        ("decision", "o1", 0.7, 1, 1),
        ("forced_stop", "STOP", 1.0, 2, 1),
    ]
    assert result.best_path is not None
    assert result.best_path.terminated_by == "forced_stop"
    assert result.answers[0].terminated_by == "forced_stop"


async def test_never_decided_walk_scores_log_floor() -> None:
    walker, _, backend, _ = engine({})
    result = await walker.run("q", start("leaf_start"))
    assert result.status == "ok"
    assert [a.node_id for a in result.answers] == ["leaf"]
    assert result.answers[0].score == L(FLOOR)
    assert result.answers[0].n_choices == 0
    assert result.answers[0].min_confidence is None
    assert backend.requests == []


async def test_isolated_start_is_a_dead_end_unless_stop_at_start_is_allowed() -> None:
    walker, *_ = engine({})
    result = await walker.run("q", start("lonely"))
    assert (result.status, result.answers) == ("dead_end", [])
    assert result.steps[0].kind == "dead_end"
    assert result.steps[0].kept is False

    walker, *_ = engine({}, WalkConfig(hop_mode="entity", allow_stop_at_start=True))
    result = await walker.run("q", start("lonely"))
    assert result.status == "ok"
    assert [(a.node_id, a.score) for a in result.answers] == [("lonely", L(FLOOR))]


async def test_stop_at_start_is_offered_when_allowed() -> None:
    script = {"Memento (film)": {"STOP": 0.6, "Christopher Nolan": 0.4}}
    walker, _, backend, _ = engine(script, WalkConfig(hop_mode="entity", allow_stop_at_start=True))
    result = await walker.run("q", start("memento"))
    assert list(backend.requests[0].questions[0].options)[-1] == "STOP"
    assert [(a.node_id, a.score) for a in result.answers] == [("memento", L(0.6))]


async def test_no_start() -> None:
    walker, expander, _, sink = engine({})
    result = await walker.run("q", [], walk_id="w")
    assert (result.status, result.answers, expander.calls) == ("no_start", [], 0)
    assert sink.events == [("start", "w", None), ("finish", "w", None)]


# --- beam --------------------------------------------------------------------------------------------------

FILM_YEAR = {
    "Memento (film)": {"Christopher Nolan": 0.6, "Jonathan Nolan": 0.3, "Guy Pearce": 0.1},
    "Christopher Nolan (person)": {"Inception": 0.9, "STOP": 0.1},
    "Inception (film)": {"2010": 0.8, "Leonardo DiCaprio": 0.1, "STOP": 0.1},
}


async def test_beam_keeps_finished_beams_competing_until_all_finish() -> None:
    walker, expander, backend, sink = engine(
        FILM_YEAR,
        WalkConfig.model_validate({"hop_mode": "entity", "strategy": "beam", "beam_width": 2, "max_depth": 5}),
    )
    result = await walker.run("When was Nolan's other film released?", start("memento"), walk_id="w")
    assert result.status == "ok"
    # depth 2: b0 -> Inception (-0.308) and Jonathan Nolan's forced STOP (log .3 / 2 = -0.602) beat b0's STOP
    # depth 3: Inception -> 2010 (-0.280) and the finished Jonathan Nolan beam survive
    # depth 4: 2010 is a dead end -> forced STOP, (log .6 + log .9 + log .8 + 0) / 4
    assert [(a.node_id, a.rank) for a in result.answers] == [("y2010", 1), ("jnolan", 2)]
    assert result.answers[0].score == (L(0.6) + L(0.9) + L(0.8)) / 4
    assert result.answers[1].score == L(0.3) / 2
    assert result.totals.decision_calls == 3
    assert expander.calls == 4
    assert [len(r.questions) for r in backend.requests] == [1, 1, 1]  # the finished beam is never re-asked
    steps = {d.depth: d.steps for d in sink.depths}
    assert [(s.beam, s.kind, s.chosen_target_ids or s.chosen) for s in steps[1]] == [
        ("b0", "decision", ["nolan"]),
        ("b0", "decision", ["jnolan"]),
    ]
    assert steps[1][0].decision_id == steps[1][1].decision_id == "w/d1/b0"
    assert [(s.beam, s.kind, s.kept) for s in steps[2]] == [("b0", "decision", True), ("b1", "forced_stop", True)]
    assert steps[3][0].parent_step_id == steps[2][0].step_id
    assert [p.describe() for p in result.paths] == [
        "Memento --directed_by--> Christopher Nolan <--directed_by-- Inception --release_year--> 2010 -> STOP",
        "Memento --written_by--> Jonathan Nolan -> STOP",
    ]


async def test_beam_ranks_forced_stop_alongside_chosen_stop_and_ties_by_offer_order() -> None:
    script = {
        "Memento (film)": {"Christopher Nolan": 0.5, "Jonathan Nolan": 0.5},
        "Christopher Nolan (person)": {"STOP": 0.6, "Inception": 0.4},
    }
    walker, *_ = engine(script, WalkConfig(hop_mode="entity", strategy="beam", beam_width=2))
    result = await walker.run("q", start("memento"))
    # Jonathan Nolan: (log .5 + 0) / 2 ranks above Christopher Nolan: (log .5 + log .6) / 2
    assert [(a.node_id, a.score) for a in result.answers] == [
        ("jnolan", L(0.5) / 2),
        ("nolan", (L(0.5) + L(0.6)) / 2),
    ]


async def test_length_alpha_zero_uses_plain_sum() -> None:
    walker, *_ = engine(WHO_DIRECTED, WalkConfig(hop_mode="entity", length_alpha=0.0))
    result = await walker.run("q", start("memento"))
    assert result.answers[0].score == L(0.9) + L(0.8)


# --- budgets and errors ------------------------------------------------------------------------------------


async def test_decision_call_budget_aborts_with_partial_answer() -> None:
    walker, _, backend, sink = engine(WHO_DIRECTED, WalkConfig(hop_mode="entity", budget=Budget(max_decision_calls=1)))
    result = await walker.run("q", start("memento"))
    assert result.status == "budget"
    assert result.stop_reason == "max_decision_calls: 1 decision calls made, limit 1"
    assert [(a.node_id, a.terminated_by, a.finished) for a in result.answers] == [("nolan", "budget", False)]
    assert result.answers[0].score == L(0.9)
    assert len(backend.requests) == 1
    assert len(sink.depths) == 1
    assert len(sink.results) == 1


async def test_split_requests_count_every_wire_call() -> None:
    class Splitting(ScriptedBackend):
        async def decide(self, request: DecisionRequest) -> DecisionResponse:
            response = await super().decide(request)
            return response.model_copy(update={"calls": 2})

    walker = WalkEngine(InMemoryExpander(NODES, EDGES), Splitting(WHO_DIRECTED), None, WalkConfig(hop_mode="entity"))
    result = await walker.run("q", start("memento"))
    assert (result.totals.decision_requests, result.totals.decision_calls) == (2, 4)
    walker = WalkEngine(
        InMemoryExpander(NODES, EDGES),
        Splitting(WHO_DIRECTED),
        None,
        WalkConfig(hop_mode="entity", budget=Budget(max_decision_calls=2)),
    )
    result = await walker.run("q", start("memento"))
    assert result.status == "budget"
    assert result.stop_reason.startswith("max_decision_calls: 2 decision calls")


async def test_input_token_budget_is_checked_before_the_next_call() -> None:
    walker, _, backend, _ = engine(WHO_DIRECTED, WalkConfig(hop_mode="entity", budget=Budget(max_input_tokens=100)))
    result = await walker.run("q", start("memento"))
    assert result.status == "budget"
    assert result.stop_reason == "max_input_tokens: 100 input tokens used, limit 100"
    assert len(backend.requests) == 1
    assert result.totals.input_tokens == 100


async def test_max_depth_reports_open_walks_after_finished_ones() -> None:
    walker, *_ = engine(WHO_DIRECTED, WalkConfig.model_validate({"hop_mode": "entity", "max_depth": 1}))
    result = await walker.run("q", start("memento"))
    assert result.status == "budget"
    assert result.stop_reason.startswith("max_depth: 1 decision depths reached")
    assert [(a.node_id, a.terminated_by) for a in result.answers] == [("nolan", "max_depth")]

    walker, *_ = engine(
        FILM_YEAR,
        WalkConfig.model_validate({"hop_mode": "entity", "strategy": "beam", "beam_width": 2, "max_depth": 3}),
    )
    result = await walker.run("q", start("memento"))
    assert result.status == "budget"
    # the open 2010 beam scores higher but ranks after the beam that stopped on its own
    assert [(a.node_id, a.finished, a.terminated_by) for a in result.answers] == [
        ("jnolan", True, "forced_stop"),
        ("y2010", False, "max_depth"),
    ]
    assert result.answers[1].score == (L(0.6) + L(0.9) + L(0.8)) / 3 > result.answers[0].score


async def test_plain_start_ids_take_names_and_types_from_the_caller() -> None:
    walker, _, _backend, _ = engine(WHO_DIRECTED)
    result = await walker.run("q", ["memento"], start_names={"memento": "Memento"}, start_types={"memento": "film"})
    assert [a.node_id for a in result.answers] == ["nolan"]
    assert result.paths[0].start == [NodeRef(id="memento", name="Memento", type="film")]
    walker, *_ = engine(WHO_DIRECTED)
    result = await walker.run("q", ["memento"], start_names=["Memento"], start_types={"memento": "film"})
    assert [a.node_id for a in result.answers] == ["nolan"]


async def test_decision_error_returns_error_status_with_what_was_found() -> None:
    walker, _, _, sink = engine(WHO_DIRECTED, fail_on=[2])
    result = await walker.run("q", start("memento"))
    assert result.status == "error"
    assert result.stop_reason == "decision_error: scripted failure on call 2"
    assert [(a.node_id, a.terminated_by) for a in result.answers] == [("nolan", "error")]
    assert len(sink.depths) == 1
    assert sink.results == [result]


async def test_decision_error_on_first_call_has_no_answers() -> None:
    walker, *_ = engine(WHO_DIRECTED, fail_on=[1])
    result = await walker.run("q", start("memento"))
    assert (result.status, result.answers) == ("error", [])


class BrokenExpander(InMemoryExpander):
    async def expand(self, requests: Sequence[ExpandRequest]) -> list[Expansion]:
        raise StoreError("connection refused")


async def test_store_error_returns_error_status() -> None:
    walker = WalkEngine(BrokenExpander(NODES, EDGES), ScriptedBackend({}), None, WalkConfig(hop_mode="entity"))
    result = await walker.run("q", start("memento"))
    assert (result.status, result.stop_reason) == ("error", "expander_error: connection refused")


# --- contract checks ---------------------------------------------------------------------------------------


class UncappedExpander(InMemoryExpander):
    """Ignores limit/keep: a contract violation."""

    async def expand(self, requests: Sequence[ExpandRequest]) -> list[Expansion]:
        wide = [r.model_copy(update={"limit": 1000, "keep": 1000}) for r in requests]
        return await super().expand(wide)


async def test_too_many_options_for_the_backend_raises_clearly() -> None:
    walker = WalkEngine(
        UncappedExpander(NODES, EDGES),
        ScriptedBackend({}, max_options=3),
        None,
        WalkConfig(hop_mode="entity", max_neighbors=2, prefilter_keep=2),
    )
    with pytest.raises(ExpanderContractError, match="offered 4 options for beam b0"):
        await walker.run("q", start("memento"))


class ForgetfulExpander(InMemoryExpander):
    async def expand(self, requests: Sequence[ExpandRequest]) -> list[Expansion]:
        return []


async def test_missing_expansion_raises() -> None:
    walker = WalkEngine(ForgetfulExpander(NODES, EDGES), ScriptedBackend({}), None, WalkConfig(hop_mode="entity"))
    with pytest.raises(ExpanderContractError, match="missing beams"):
        await walker.run("q", start("memento"))


def test_prefilter_keep_must_fit_the_backend() -> None:
    with pytest.raises(ConfigError, match="prefilter_keep=30"):
        WalkEngine(
            InMemoryExpander(NODES, EDGES), ScriptedBackend({}, max_options=10), None, WalkConfig(hop_mode="entity")
        )


async def test_limit_passed_to_expander_is_capped_by_backend_and_pruned_options_are_traced() -> None:
    script = {"Memento (film)": {"Christopher Nolan": 1.0}, "Christopher Nolan (person)": {"STOP": 1.0}}
    walker, expander, _, sink = engine(
        script, WalkConfig(hop_mode="entity", max_neighbors=3, prefilter_keep=2), max_options=10
    )
    await walker.run("q", start("memento"))
    assert (expander.requests[0][0].limit, expander.requests[0][0].keep) == (3, 2)
    first = sink.depths[0].steps[0]
    assert first.total_count == 4
    assert [(p.relation, p.target_ids, p.reason) for p in first.pruned] == [
        ("starred_actors", ("pearce",), "truncated"),
        ("release_year", ("y2000",), "truncated"),
    ]
    assert [o.label for o in first.options] == ["o1", "o2"]


# --- direction and visited ---------------------------------------------------------------------------------


async def test_direction_out_from_a_person_is_a_dead_end() -> None:
    walker, expander, *_ = engine({}, WalkConfig(hop_mode="entity", direction="out"))
    result = await walker.run("q", start("nolan"))
    assert result.status == "dead_end"
    assert expander.requests[0][0].direction == "out"


async def test_exclude_visited_off_offers_the_way_back() -> None:
    script = {"Memento (film)": {"Christopher Nolan": 1.0}, "Christopher Nolan (person)": {"STOP": 1.0}}
    walker, expander, backend, _ = engine(script, WalkConfig(hop_mode="entity", exclude_visited=False))
    await walker.run("q", start("memento"))
    assert expander.requests[1][0].exclude_ids == ()
    descriptions = list(backend.requests[1].questions[0].options.values())
    assert [str(d).split(" — ")[0] for d in descriptions] == [
        "Memento (film)",
        "Inception (film)",
        "Stop here: the current node, Christopher Nolan (person), is itself the answer.",
    ]


# --- trace writes do not block decisions -------------------------------------------------------------------


class GatedSink(RecordingTraceSink):
    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def record_depth(self, record: DepthRecord) -> None:
        await self.gate.wait()
        await super().record_depth(record)


class OpeningBackend(ScriptedBackend):
    def __init__(self, script: Mapping[str, Mapping[str, float]], sink: GatedSink) -> None:
        super().__init__(script)
        self.sink = sink

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        if self.requests:  # the second decision runs while depth 1's trace write is still blocked
            assert self.sink.depths == []
            self.sink.gate.set()
        return await super().decide(request)


async def test_trace_writes_run_in_the_background_in_order() -> None:
    sink = GatedSink()
    walker = WalkEngine(
        InMemoryExpander(NODES, EDGES), OpeningBackend(WHO_DIRECTED, sink), sink, WalkConfig(hop_mode="entity")
    )
    result = await asyncio.wait_for(walker.run("q", start("memento"), walk_id="w"), timeout=5)
    assert result.status == "ok"
    assert sink.events == [("start", "w", None), ("depth", "w", 1), ("depth", "w", 2), ("finish", "w", None)]


class FailingSink(RecordingTraceSink):
    async def record_depth(self, record: DepthRecord) -> None:
        raise StoreError("trace write failed")


async def test_a_failed_trace_write_is_raised() -> None:
    walker, *_ = engine(WHO_DIRECTED, sink=FailingSink())
    with pytest.raises(StoreError, match="trace write failed"):
        await walker.run("q", start("memento"))


async def test_unknown_label_from_backend_is_an_error_status() -> None:
    class Confused(ScriptedBackend):
        async def decide(self, request: DecisionRequest) -> DecisionResponse:
            response = await super().decide(request)
            bad = ChoiceResult(key="b0", probabilities={"o9": 1.0}, top="o9")
            return response.model_copy(update={"results": {"b0": bad}})

    script = {"Memento (film)": {"Christopher Nolan": 1.0}}
    walker = WalkEngine(InMemoryExpander(NODES, EDGES), Confused(script), None, WalkConfig(hop_mode="entity"))
    result = await walker.run("q", start("memento"))
    assert result.status == "error"
    assert "not offered" in result.stop_reason


def test_option_helpers() -> None:
    option = Option(relation="r", direction="out", targets=(NODES[0], NODES[1]), total_targets=5)
    assert option.target_ids == ("memento", "inception")
    assert option.count == 5
    assert option.target == NODES[0]
