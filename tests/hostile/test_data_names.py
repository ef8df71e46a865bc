"""Relation names, type labels and attribute keys from data are stored as given (docs/names.md): Freebase, Wikidata,
spaces, any script, Cypher look-alikes and 1,000-character names reach Neo4j as dynamic types through
``$parameters`` only, walk, round-trip in the trace and the Browser recipes, and leave other graphs alone. Names
that Neo4j cannot store or that would garble output, and graphwalk's own types, are refused naming the line, with
nothing written."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.ledger import list_documents
from graphwalk_neo4j.graph.profile import graph_schema
from graphwalk_neo4j.graph.search import search_entities
from graphwalk_neo4j.ingest.structured import ingest_file, ingest_files
from graphwalk_neo4j.store import template
from graphwalk_neo4j.stored_walks.read import get_walk
from graphwalk_neo4j.walk.config import get_preset
from graphwalk_neo4j.walk.neo4j_trace_sink import MAX_CAPTION_RELATION
from graphwalk_neo4j.walk.service import WalkService
from tests.hostile.conftest import BYSTANDER_COUNTS

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.decide.base import ChoiceQuestion
    from graphwalk_neo4j.store import GraphStore

NAMES = [
    "/film/film/directed_by",
    "__film__film__written_by",
    "P161",
    "release year",
    "a`b]->(x) DETACH DELETE x //",
    "x'}) MATCH (m) DETACH DELETE m //",
    "${graph}",
    "مخرج",
    "監督",
    "l" * 1000,
]
LABEL = "Film / Movie` {x}"
KEY = "imdb votes $"


def _kb(tmp_path: Path, records: list[dict[str, Any]]) -> Path:
    path = tmp_path / "kb.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _pick(target: str) -> FakeBackend:
    """Move to ``target`` when it is offered, else stop."""

    def pick(question: ChoiceQuestion, _state: object) -> str:
        return next((label for label, text in question.options.items() if target in str(text)), "STOP")

    return FakeBackend(answer=pick)


async def test_any_data_name_is_stored_walked_and_drawn_as_given(
    store: GraphStore, graph_name: str, tmp_path: Path, bystander: str
) -> None:
    records = [
        {"subject": "Kismet", "relation": name, "object": f"Target {i}", "subject_type": LABEL, "attributes": {KEY: 3}}
        for i, name in enumerate(NAMES)
    ]
    result = await ingest_file(store, _kb(tmp_path, records), graph=graph_name, root=tmp_path)
    assert result.rows == len(NAMES)
    [row] = await store.query(
        "MATCH (a:Entity {graph: $g, name: 'Kismet'})-[r]->(:Entity) "
        "RETURN collect(type(r)) AS types, labels(a) AS labels, a[$key] AS votes",
        {"g": graph_name, "key": KEY},
    )
    assert sorted(row["types"]) == sorted(NAMES)
    assert sorted(row["labels"]) == sorted(["Entity", LABEL])
    assert row["votes"] == 3
    schema = await graph_schema(store, graph_name)
    assert sorted(r["relation"] for r in schema["relation_types"]) == sorted(NAMES)
    assert schema["entity_types"] == [{"type": LABEL, "count": 1}]
    assert (await search_entities(store, graph_name, "Target 9", k=1))[0].name == "Target 9"

    draw = template("recipes/draw_walk")
    for i, name in enumerate(NAMES):
        service = WalkService(store, graph_name, _pick(f"Target {i}"), embedder=FakeEmbedder())
        outcome = await service.walk("where does this name lead", get_preset("greedy"), start=["Kismet"])
        assert outcome.result.answer_names == [f"Target {i}"], name
        stored = await get_walk(store, graph_name, outcome.result.walk_id)
        assert stored.steps[0].chosen_relation == name
        [drawn] = await store.query(draw.body, {"walkId": outcome.result.walk_id}, read=True)
        [hop] = drawn["hops"]
        assert hop.relationships[0]["relation"] == name
        assert hop.relationships[0].type.startswith(name[: MAX_CAPTION_RELATION - 1].rstrip())
        assert len(hop.relationships[0].type) <= MAX_CAPTION_RELATION + len(" → 1")
    assert (await store.read("graph/counts", graph=bystander))[0] == BYSTANDER_COUNTS


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"relation": "nul\u0000byte"}, "relationship type 'nul\\x00byte' contains the control character U+0000"),
        ({"relation": "line\nbreak"}, "contains the control character U+000A"),
        ({"relation": "\u202eevil\u202c"}, "contains the control character U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ({"relation": "x" * 1001}, "is 1001 characters long (at most 1000)"),
        ({"relation": "ANSWERED"}, "relationship type 'ANSWERED' is reserved for graphwalk's own links"),
        ({"subject_type": "GwAdopted"}, "entity type label 'GwAdopted' is reserved for graphwalk's own nodes"),
        ({"attributes": {"a\tb": 1}}, "property key 'a\\tb' contains the control character U+0009"),
    ],
)
async def test_names_that_cannot_be_stored_are_refused_naming_the_line_and_nothing_is_written(
    store: GraphStore, graph_name: str, tmp_path: Path, record: dict[str, Any], expected: str
) -> None:
    good = {"subject": "A", "relation": "/film/film/directed_by", "object": "B"}
    path = _kb(tmp_path, [good, {**good, **record}])
    with pytest.raises(InputError) as info:
        await ingest_files(store, [path], graph=graph_name, root=tmp_path)
    assert "kb.jsonl:2: " in str(info.value)
    assert expected in str(info.value)
    assert "\n" not in str(info.value)
    assert await list_documents(store, graph_name) == []
    assert (await store.read("graph/counts", graph=graph_name))[0] == {"entities": 0, "relationships": 0}
