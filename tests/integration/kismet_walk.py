"""The Kismet scenario shared by the trace tests (Neo4jTraceSink, recipes, the trace CLI): a seven-triple movie
graph, its ids, the co-star question and a scripted walk over the real Neo4j expander and trace sink.

The scripted decider is :class:`tests.helpers.ScriptedBackend`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.graph.identity import entity_id
from graphwalk_neo4j.ingest.structured import ingest_file
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.engine import WalkEngine
from graphwalk_neo4j.walk.graph_expander import Neo4jExpander
from graphwalk_neo4j.walk.neo4j_trace_sink import Neo4jTraceSink
from graphwalk_neo4j.walk.ports import NodeRef
from tests.helpers import ScriptedBackend

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.walk.result import WalkResult

KB = """Kismet|directed_by|William Dieterle
Kismet|written_by|Edward Knoblock
Kismet|starred_actors|Marlene Dietrich
Kismet|release_year|1944
The Blue Angel|starred_actors|Marlene Dietrich
The Blue Angel|directed_by|Josef von Sternberg
The Blue Angel|release_year|1930
"""
TYPES = {
    "directed_by": ("Movie", "Person"),
    "written_by": ("Movie", "Person"),
    "starred_actors": ("Movie", "Person"),
    "release_year": ("Movie", "Year"),
}
KIND = {
    "Kismet": "Movie",
    "The Blue Angel": "Movie",
    "William Dieterle": "Person",
    "Edward Knoblock": "Person",
    "Marlene Dietrich": "Person",
    "Josef von Sternberg": "Person",
    "1944": "Year",
    "1930": "Year",
}
ID = {name: entity_id(name) for name in KIND}  # the type map labels nodes; ids stay untyped

# "Which other film did the star of Kismet appear in?" Kismet -> Marlene Dietrich -> The Blue Angel -> STOP
CO_STAR = {
    "Kismet (Movie)": {"Marlene Dietrich": 0.7, "William Dieterle": 0.2, "Edward Knoblock": 0.05, "1944": 0.05},
    "Marlene Dietrich (Person)": {"The Blue Angel": 0.6, "STOP": 0.4},
    "The Blue Angel (Movie)": {"STOP": 0.9, "Josef von Sternberg": 0.05, "1930": 0.05},
}
QUESTION = "Which other film did the star of Kismet appear in?"


def node(name: str) -> NodeRef:
    return NodeRef(id=ID[name], name=name, type=KIND[name])


async def load_kb(store: GraphStore, graph: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB)
    await ingest_file(store, kb, graph=graph, type_map=TYPES)


async def run_walk(
    store: GraphStore,
    graph: str,
    *,
    walk_id: str,
    start: Sequence[str] = ("Kismet",),
    script: Mapping[str, Mapping[str, float]] = CO_STAR,
    config: WalkConfig | None = None,
    question: str = QUESTION,
    fail_on: Sequence[int] = (),
    sink: Neo4jTraceSink | None = None,
) -> WalkResult:
    engine = WalkEngine(
        Neo4jExpander(store, graph),
        ScriptedBackend(script, fail_on=fail_on),
        sink or Neo4jTraceSink(store, graph),
        config or WalkConfig(hop_mode="entity"),
    )
    starts = [node(s) if s in KIND else NodeRef(id=s, name=s) for s in start]
    return await engine.run(question, starts, walk_id=walk_id)
