"""The engine's per-depth observer (``on_depth``): one event per depth, in order, carrying that depth's trace
record, the answers of the walks finished so far and the depth's wall time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.engine import WalkEngine
from graphwalk_neo4j.walk.memory import InMemoryExpander
from graphwalk_neo4j.walk.trace_sinks import RecordingTraceSink
from tests.helpers import FILM_EDGES, FILM_NODES, ScriptedBackend

if TYPE_CHECKING:
    from graphwalk_neo4j.walk.result import DepthEvent

WHO_DIRECTED = {
    "Memento (film)": {"Christopher Nolan": 0.9, "Jonathan Nolan": 0.05, "Guy Pearce": 0.05},
    "Christopher Nolan (person)": {"STOP": 0.8, "Inception": 0.2},
}


async def test_observer_hears_each_depth_with_its_record_and_the_answers_so_far() -> None:
    sink = RecordingTraceSink()
    engine = WalkEngine(
        InMemoryExpander(FILM_NODES, FILM_EDGES), ScriptedBackend(WHO_DIRECTED), sink, WalkConfig(hop_mode="entity")
    )
    events: list[DepthEvent] = []
    memento = next(n for n in FILM_NODES if n.id == "memento")
    result = await engine.run("Who directed Memento?", [memento], walk_id="w", on_depth=events.append)
    assert [(e.walk_id, e.depth) for e in events] == [("w", 1), ("w", 2)]
    assert [e.record for e in events] == sink.depths  # the same records the trace sink got
    first, second = events
    assert first.record.steps[0].chosen_relation == "directed_by"
    assert first.answers == []
    assert first.record.steps[0].distribution == {"o1": 0.9, "o2": 0.05, "o3": 0.05, "o4": 0.0}
    assert second.record.steps[0].is_stop
    assert [a.name for a in second.answers] == ["Christopher Nolan"] == result.answer_names
    assert second.answers[0].score == result.answers[0].score


async def test_no_observer_and_no_start_mean_no_events() -> None:
    engine = WalkEngine(InMemoryExpander(FILM_NODES, FILM_EDGES), ScriptedBackend(WHO_DIRECTED))
    events: list[DepthEvent] = []
    result = await engine.run("Who directed Memento?", [], on_depth=events.append)
    assert result.status == "no_start"
    assert events == []
