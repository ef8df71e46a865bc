"""Hostile files and names through the real ingest: Cypher and Lucene look-alikes stay data, bad files are refused
with the file named and nothing written, and other graphs are never touched."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.ledger import list_documents
from graphwalk_neo4j.graph.search import search_entities
from graphwalk_neo4j.ingest.structured import ingest_file, ingest_files
from tests.hostile.conftest import BYSTANDER_COUNTS

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.store import GraphStore

INJECTIONS = [
    "x'}) DETACH DELETE n //",
    'x"}) MATCH (m) DETACH DELETE m RETURN 1 //',
    "`Entity` {graph: 'other'}",
    "${graph}",
    "name:* OR [",
    "[/] [red]x[/red]",
    "\u202eevil\u202c",
]


async def test_cypher_and_lucene_lookalikes_are_stored_as_names(
    store: GraphStore, graph_name: str, tmp_path: Path, bystander: str
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text("".join(f"{name}|rel|Target {i}\n" for i, name in enumerate(INJECTIONS)))
    result = await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert result.rows == len(INJECTIONS)
    names = {
        r["name"] for r in await store.query("MATCH (n:Entity {graph: $g}) RETURN n.name AS name", {"g": graph_name})
    }
    assert set(INJECTIONS) <= names
    for name in INJECTIONS:
        hits = await search_entities(store, graph_name, name, k=3)
        assert hits
        assert hits[0].name == name
    assert (await store.read("graph/counts", graph=bystander))[0] == BYSTANDER_COUNTS


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\xff\xfeA\x00|\x00r\x00", "looks like UTF-16"),
        (b"\x00\x01\x02\x03binary" * 50, "looks binary"),
        (b"", "is empty"),
        (b"A|rel|B\nC|rel|caf\xe9\n", ":2: not valid UTF-8"),
        (b"A|rel|B\nA|ANSWERED|B\n", ":2: relationship type 'ANSWERED' is reserved"),
        (b"A|rel|B\n" + b"x" * (1 << 20) + b"|rel|y\n", ":2: line is longer than the limit"),
    ],
)
async def test_bad_files_are_refused_naming_the_file_and_nothing_is_written(
    store: GraphStore, graph_name: str, tmp_path: Path, content: bytes, expected: str
) -> None:
    good = tmp_path / "good.txt"
    good.write_text("Fine|rel|Here\n")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    with pytest.raises(InputError) as info:
        await ingest_files(store, [good, bad], graph=graph_name, root=tmp_path)
    assert "bad.txt" in str(info.value)
    assert expected in str(info.value)
    assert await list_documents(store, graph_name) == []
    assert (await store.read("graph/counts", graph=graph_name))[0] == {"entities": 0, "relationships": 0}
