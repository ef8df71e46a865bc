"""The per-walk work budget (``Budget.max_nodes_read``, ``Budget.max_memory_mb``) with exact counts: the worst
combination of options the limits allow is cut with a partial answer, the memory estimate cuts after an
expansion, and a walk well inside the budget reads exactly what it did before (its frontier cap untouched)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.walk.config import (
    MAX_BEAM_WIDTH,
    MAX_DECISION_CALLS,
    MAX_DEPTH,
    MAX_FRONTIER,
    MAX_NEIGHBORS,
    NODE_ID_BYTES,
    NODE_REF_BYTES,
    Budget,
    WalkConfig,
)
from graphwalk_neo4j.walk.engine import WalkEngine
from graphwalk_neo4j.walk.memory import InMemoryExpander
from graphwalk_neo4j.walk.ports import ExpandRequest, Expansion, NodeRef, Option
from graphwalk_neo4j.walk.trace_sinks import RecordingTraceSink
from tests.helpers import FILM_EDGES, FILM_NODES

if TYPE_CHECKING:
    from collections.abc import Sequence

SAMPLE = 50  # names per unresolved move, as the Neo4j expander's RELATION_SCAN


class EveryNodeAHub:
    """A graph where every node is a hub: ``moves`` relation moves, each to the same ``members`` nodes, offered
    unresolved with a sample of names (as the Neo4j expander offers a hub's moves) and read, capped at the
    request's ``max_frontier``, when the walk follows one. The members are built once, so the test stays small."""

    def __init__(self, moves: int, members: int) -> None:
        self.moves = moves
        self.members = tuple(NodeRef(id=f"m{i}", name=f"member {i}", type="film") for i in range(members))
        self.requests: list[list[ExpandRequest]] = []

    async def expand(self, requests: Sequence[ExpandRequest]) -> list[Expansion]:
        self.requests.append(list(requests))
        return [self._one(r) for r in requests]

    def _one(self, request: ExpandRequest) -> Expansion:
        excluded = set(request.exclude_ids)
        reached = [m for m in self.members if m.id not in excluded]
        options = tuple(
            Option(
                relation=f"r{j}",
                direction="out",
                targets=tuple(reached[:SAMPLE]),
                total_targets=len(reached),
                resolved=False,
            )
            for j in range(min(self.moves, request.limit))
        )
        if request.follow is None:
            return Expansion(beam_key=request.beam_key, options=options, total_count=len(options))
        kept = tuple(reached[: request.max_frontier])
        return Expansion(
            beam_key=request.beam_key,
            options=options if request.moves else (),
            total_count=len(options),
            frontier=kept,
            frontier_total=len(reached),
            frontier_pruned_ids=tuple(m.id for m in reached[request.max_frontier :]),
        )


def worst_allowed(**budget: int) -> WalkConfig:
    """Every option at its maximum: the widest beam, the deepest walk, the most options per question, the
    biggest frontier, the most decision calls; relation hops."""
    return WalkConfig(
        strategy="beam",
        beam_width=MAX_BEAM_WIDTH,
        hop_mode="relation",
        max_neighbors=MAX_NEIGHBORS,
        prefilter_keep=MAX_NEIGHBORS,
        max_frontier=MAX_FRONTIER,
        budget=Budget.model_validate({"max_depth": MAX_DEPTH, "max_decision_calls": MAX_DECISION_CALLS, **budget}),
    )


async def test_the_worst_allowed_combination_is_cut_by_the_work_budget() -> None:
    expander = EveryNodeAHub(moves=MAX_NEIGHBORS, members=MAX_FRONTIER)
    sink = RecordingTraceSink()
    engine = WalkEngine(expander, FakeBackend(seed=3), sink, worst_allowed())
    result = await engine.run("which films are linked to the start", [NodeRef(id="s", name="start")])

    # depth 1: one request, 200 unresolved moves of 50 names each; the decision keeps 64 beams, each on a
    # pending move. Depth 2 would ask 64 requests as wide as the first plus 64 frontiers at their share of the
    # 190,000 nodes left (2,968 each): the forecast passes the budget, so the walk stops before reading it.
    assert result.status == "budget"
    assert result.stop_reason == (
        "max_nodes_read: 10000 nodes read and the next depth would read about 829952 more, limit 200000"
    )
    assert result.totals.depths == 1
    assert result.totals.decision_requests == 1
    # only the best beam's move is read (one request, its frontier capped at the nodes left): the partial answer
    assert [len(r) for r in expander.requests] == [1, 1]
    last = expander.requests[-1][0]
    assert (last.moves, last.max_frontier) == (False, MAX_FRONTIER)
    assert result.totals.nodes_read == 10_000 + 10_000
    assert len(result.paths) == 1
    assert len(result.answers) == MAX_FRONTIER
    assert result.totals.memory_mb == round((10_001 * NODE_REF_BYTES + 20_000 * NODE_ID_BYTES) / 2**20, 3)
    assert [r.stop_reason for r in sink.results] == [result.stop_reason]  # the stored walk says why it stopped


async def test_at_the_largest_nodes_budget_the_forecast_still_stops_before_the_wide_depth() -> None:
    expander = EveryNodeAHub(moves=MAX_NEIGHBORS, members=MAX_FRONTIER)
    engine = WalkEngine(expander, FakeBackend(seed=3), None, worst_allowed(max_nodes_read=1_000_000))
    result = await engine.run("which films are linked to the start", [NodeRef(id="s", name="start")])
    # the share is 990,000 // 64 = 15,468, capped at max_frontier: 64 * (10,000 + 10,000) = 1,280,000 more
    assert result.stop_reason == (
        "max_nodes_read: 10000 nodes read and the next depth would read about 1280000 more, limit 1000000"
    )
    assert result.totals.nodes_read == 20_000


async def test_the_memory_estimate_cuts_after_the_expansion_that_passed_it() -> None:
    expander = EveryNodeAHub(moves=MAX_NEIGHBORS, members=MAX_FRONTIER)
    engine = WalkEngine(expander, FakeBackend(seed=3), None, worst_allowed(max_memory_mb=1))
    result = await engine.run("which films are linked to the start", [NodeRef(id="s", name="start")])
    # after depth 1's expansion: 1 start ref + 10,000 option targets held, 10,000 ids recorded
    held = (10_001 * NODE_REF_BYTES + 10_000 * NODE_ID_BYTES) / 2**20
    assert result.status == "budget"
    assert result.stop_reason == f"max_memory_mb: about {held:.1f} MiB held, limit 1"
    assert result.totals.decision_requests == 0
    assert result.answers == []


async def test_a_walk_inside_the_budget_counts_its_reads_and_keeps_its_frontier_cap() -> None:
    expander = InMemoryExpander(FILM_NODES, FILM_EDGES)
    config = WalkConfig(hop_mode="relation", max_frontier=2000)
    result = await WalkEngine(expander, FakeBackend(seed=1), None, config).run(
        "who directed Memento", [n for n in FILM_NODES if n.id == "memento"]
    )
    assert {r.max_frontier for depth in expander.requests for r in depth} == {2000}
    # every node read is in the step records: the targets of each offered option (no pruning, no frontier here)
    offered = sum(len(o.target_ids) for step in result.steps for o in step.options)
    assert sum(len(p.target_ids) for step in result.steps for p in step.pruned) == 0
    assert result.totals.nodes_read == offered == 4
