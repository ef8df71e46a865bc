"""The expansion contract as the in-memory expander implements it, and the trace sinks / ordered writer."""

from __future__ import annotations

import asyncio

import pytest

from graphwalk_neo4j.walk.memory import InMemoryExpander
from graphwalk_neo4j.walk.ports import Expander, ExpandRequest, NodeRef, Option, PrunedOption, TraceSink
from graphwalk_neo4j.walk.trace_records import DepthRecord
from graphwalk_neo4j.walk.trace_sinks import NullTraceSink, OrderedTraceWriter, RecordingTraceSink

TRIPLES = [
    ("Memento", "directed_by", "Christopher Nolan"),
    ("Memento", "written_by", "Jonathan Nolan"),
    ("Memento", "release_year", "2000"),
    ("Inception", "directed_by", "Christopher Nolan"),
    ("Inception", "release_year", "2010"),
    ("Memento", "directed_by", "Christopher Nolan"),  # duplicate, ignored
]
TYPES = {"Memento": "film", "Inception": "film", "Christopher Nolan": "person", "2000": "year", "2010": "year"}


def graph() -> InMemoryExpander:
    return InMemoryExpander.from_triples(TRIPLES, TYPES)


def moves(options: tuple[Option, ...]) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(o.relation, o.direction, o.target_ids) for o in options]


async def test_the_in_memory_parts_fit_the_ports() -> None:
    # The structural fit is checked by mypy on these annotations (`make lint` type-checks the tests); the
    # calls below go through the port types only.
    expander: Expander = graph()
    sinks: list[TraceSink] = [RecordingTraceSink(), NullTraceSink()]
    [expansion] = await expander.expand([ExpandRequest(beam_key="b0", node_ids=("Memento",))])
    assert [(o.relation, o.direction) for o in expansion.options] == [
        ("directed_by", "out"),
        ("written_by", "out"),
        ("release_year", "out"),
    ]
    assert len(sinks) == 2


async def test_entity_expansion_both_directions_in_insertion_order() -> None:
    expander = graph()
    [expansion] = await expander.expand([ExpandRequest(beam_key="b0", node_ids=("Christopher Nolan",))])
    assert expansion.beam_key == "b0"
    assert moves(expansion.options) == [
        ("directed_by", "in", ("Memento",)),
        ("directed_by", "in", ("Inception",)),
    ]
    assert expansion.options[0].target == NodeRef(id="Memento", name="Memento", type="film")
    assert expansion.total_count == 2
    assert expansion.pruned == ()
    assert expander.calls == 1


async def test_direction_and_exclusion() -> None:
    expander = graph()
    out, inward, excluded = await expander.expand(
        [
            ExpandRequest(beam_key="a", node_ids=("Christopher Nolan",), direction="out"),
            ExpandRequest(beam_key="b", node_ids=("Memento",), direction="in"),
            ExpandRequest(beam_key="c", node_ids=("Memento",), exclude_ids=("Christopher Nolan", "2000")),
        ]
    )
    assert out.options == ()
    assert inward.options == ()
    assert moves(excluded.options) == [("written_by", "out", ("Jonathan Nolan",))]
    assert expander.calls == 1  # one round trip for all beams


async def test_limit_and_keep_prune_with_a_record() -> None:
    [expansion] = await graph().expand([ExpandRequest(beam_key="b0", node_ids=("Memento",), limit=2, keep=1)])
    assert moves(expansion.options) == [("directed_by", "out", ("Christopher Nolan",))]
    assert expansion.total_count == 3
    assert expansion.pruned == (
        PrunedOption(relation="written_by", direction="out", target_ids=("Jonathan Nolan",), reason="truncated"),
        PrunedOption(relation="release_year", direction="out", target_ids=("2000",), reason="truncated"),
    )


async def test_importance_orders_entity_options() -> None:
    nodes = [NodeRef(id="a", name="A"), NodeRef(id="b", name="B", importance=1.0), NodeRef(id="c", name="C")]
    expander = InMemoryExpander(nodes, [("a", "r", "c"), ("a", "r", "b")])
    [expansion] = await expander.expand([ExpandRequest(beam_key="b0", node_ids=("a",))])
    assert [o.target.id for o in expansion.options] == ["b", "c"]


async def test_relation_expansion_groups_dedups_and_caps_frontier() -> None:
    expander = graph()
    [expansion] = await expander.expand(
        [
            ExpandRequest(
                beam_key="b0",
                hop_mode="relation",
                node_ids=("Memento", "Inception"),
                exclude_ids=("Memento", "Inception"),
                max_frontier=1,
            )
        ]
    )
    assert moves(expansion.options) == [
        ("directed_by", "out", ("Christopher Nolan",)),
        ("written_by", "out", ("Jonathan Nolan",)),
        ("release_year", "out", ("2000",)),
    ]
    years = expansion.options[2]
    assert years.total_targets == 2
    assert years.count == 2
    assert years.pruned_target_ids == ("2010",)
    nolan = expansion.options[0]
    assert nolan.total_targets == 1
    assert nolan.pruned_target_ids == ()


async def test_recording_sink_and_ordered_writer_keep_order() -> None:
    sink = RecordingTraceSink()
    writer = OrderedTraceWriter(sink)
    for depth in (1, 2, 3):
        writer.depth(DepthRecord(walk_id="w", depth=depth))
    await writer.drain()
    assert sink.events == [("depth", "w", 1), ("depth", "w", 2), ("depth", "w", 3)]
    assert [d.depth for d in sink.depths_for("w")] == [1, 2, 3]
    assert sink.depths_for("other") == []


class GatedFirstSink(RecordingTraceSink):
    """The first depth's write waits until the test lets it go."""

    def __init__(self) -> None:
        super().__init__()
        self.started, self.release = asyncio.Event(), asyncio.Event()

    async def record_depth(self, record: DepthRecord) -> None:
        if record.depth == 1:
            self.started.set()
            await self.release.wait()
        await super().record_depth(record)


async def test_ordered_writer_does_not_reorder_a_slow_write() -> None:
    sink = GatedFirstSink()
    writer = OrderedTraceWriter(sink)
    writer.depth(DepthRecord(walk_id="w", depth=1))
    writer.depth(DepthRecord(walk_id="w", depth=2))
    await sink.started.wait()
    for _ in range(20):  # give a writer that did not chain its writes every chance to run depth 2 now
        await asyncio.sleep(0)
    assert sink.events == []
    sink.release.set()
    await writer.drain()
    assert [e[2] for e in sink.events] == [1, 2]


class FailingSink(RecordingTraceSink):
    async def record_depth(self, record: DepthRecord) -> None:
        raise RuntimeError(f"disk full at depth {record.depth}")


async def test_ordered_writer_reraises_the_first_failure() -> None:
    writer = OrderedTraceWriter(FailingSink())
    writer.depth(DepthRecord(walk_id="w", depth=1))
    writer.depth(DepthRecord(walk_id="w", depth=2))
    with pytest.raises(RuntimeError, match="depth 1"):
        await writer.drain()
