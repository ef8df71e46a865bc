"""Structured ingest against the real Neo4j: provenance, idempotence, retraction, conflicts, merges, bad input."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.identity import entity_id
from graphwalk_neo4j.graph.ledger import get_document, list_documents, retract_document
from graphwalk_neo4j.graph.merge import merge_entities
from graphwalk_neo4j.ingest.structured import ingest_file

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.store import GraphStore

KB = """Kismet|directed_by|William Dieterle
Kismet|written_by|Edward Knoblock
Kismet|starred_actors|Marlene Dietrich
Kismet|release_year|1944
The Blue Angel|starred_actors|Marlene Dietrich
The Blue Angel|directed_by|Josef von Sternberg
"""
TYPES = {
    "directed_by": ("Movie", "Person"),
    "written_by": ("Movie", "Person"),
    "starred_actors": ("Movie", "Person"),
    "release_year": ("Movie", "Year"),
}


async def graph_state(store: GraphStore, graph: str) -> dict[str, Any]:
    nodes = await store.query(
        "MATCH (n:Entity {graph: $g}) RETURN n.name AS name, n.sources AS sources, labels(n) AS labels ORDER BY name",
        {"g": graph},
    )
    rels = await store.query(
        "MATCH (a:Entity {graph: $g})-[r]->(b:Entity) RETURN a.name + ' ' + type(r) + ' ' + b.name AS t, "
        "r.sources AS sources ORDER BY t",
        {"g": graph},
    )
    return {"nodes": nodes, "rels": rels}


async def test_load_counts_provenance_and_labels(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB)
    result = await ingest_file(store, kb, graph=graph_name, root=tmp_path, type_map=TYPES, batch_size=4)
    assert result.status == "loaded"
    assert result.rows == 6
    assert result.batches == 2
    c = result.counts
    assert (c.nodes_created, c.rels_created, c.nodes_updated, c.rels_updated) == (7, 6, 0, 0)
    state = await graph_state(store, graph_name)
    doc = f"{graph_name}|files|kb.txt"
    assert [n["name"] for n in state["nodes"]] == [
        "1944",
        "Edward Knoblock",
        "Josef von Sternberg",
        "Kismet",
        "Marlene Dietrich",
        "The Blue Angel",
        "William Dieterle",
    ]
    assert all(n["sources"] == [doc] for n in state["nodes"])
    assert all(r["sources"] == [doc] for r in state["rels"])
    labels = {n["name"]: sorted(n["labels"]) for n in state["nodes"]}
    assert labels["Kismet"] == ["Entity", "Movie"]
    assert labels["1944"] == ["Entity", "Year"]
    ledger = await get_document(store, doc)
    assert ledger is not None
    assert ledger["complete"] is True
    assert ledger["rows"] == 6
    # where did this come from: relationship -> document, in Cypher
    rows = await store.query(
        "MATCH (:Entity {graph: $g, name: 'Kismet'})-[r:directed_by]->() "
        "MATCH (d:Document) WHERE d.key IN r.sources RETURN d.doc_id AS doc, d.content_hash AS h",
        {"g": graph_name},
    )
    assert rows[0]["doc"] == "kb.txt"
    assert len(rows[0]["h"]) == 64


async def test_reingest_unchanged_is_a_no_op(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB)
    await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    before = await graph_state(store, graph_name)
    again = await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert again.status == "unchanged"
    assert again.batches == 0
    assert await graph_state(store, graph_name) == before


async def test_changed_file_retracts_what_it_no_longer_says(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    other = tmp_path / "other.txt"
    kb.write_text(KB)
    other.write_text("The Blue Angel|directed_by|Josef von Sternberg\n")
    await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    await ingest_file(store, other, graph=graph_name, root=tmp_path)
    new = KB.replace("Kismet|release_year|1944\n", "")
    new = new.replace("The Blue Angel|directed_by|Josef von Sternberg\n", "")
    kb.write_text(new + "Kismet|has_genre|Drama\n")
    result = await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert result.status == "updated"  # the difference applied, nothing recreated
    state = await graph_state(store, graph_name)
    names = [n["name"] for n in state["nodes"]]
    assert "1944" not in names  # only kb.txt backed it
    assert "Drama" in names
    # still backed by other.txt, so kept, with only that provenance left
    sternberg = [r for r in state["rels"] if r["t"] == "The Blue Angel directed_by Josef von Sternberg"]
    assert sternberg == [
        {"t": "The Blue Angel directed_by Josef von Sternberg", "sources": [f"{graph_name}|files|other.txt"]}
    ]
    assert len(state["rels"]) == 6  # 5 from the new kb.txt + the one other.txt still backs


async def test_retract_on_request_deletes_unbacked_elements(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB)
    await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    report = await retract_document(store, graph=graph_name, key=f"{graph_name}|files|kb.txt", forget=True)
    assert report == {
        "entities_deleted": 7,
        "relationships_deleted": 6,
        "attributes_recomputed": 0,
        "entities_kept_for_traces": 0,
    }
    assert await list_documents(store, graph_name) == []


async def test_attribute_conflicts_keep_every_value_with_its_source(
    store: GraphStore, graph_name: str, tmp_path: Path
) -> None:
    a = tmp_path / "a.csv"
    b = tmp_path / "b.csv"
    a.write_text(
        "subject,relation,object,subject_type,object_type,country,founded\n"
        "Acme,based_in,Springfield,Company,City,US,1950\n"
    )
    b.write_text(
        "subject,relation,object,subject_type,object_type,country,founded\n"
        "Acme,based_in,Springfield,Company,City,US,1951\n"
    )
    await ingest_file(store, a, graph=graph_name, root=tmp_path)
    result = await ingest_file(store, b, graph=graph_name, root=tmp_path)
    assert result.counts.conflicts == 1
    uid = f"{graph_name}:{entity_id('Acme', 'Company')}"
    row = (await store.read("graph/entities_by_uid", uids=[uid]))[0]
    assert row["conflict_keys"] == ["founded"]
    claims = sorted(
        (json.loads(c)["value"], json.loads(c)["source"].split("|")[-1])
        for c in row["claims"]
        if json.loads(c)["key"] == "founded"
    )
    assert claims == [("1950", "a.csv"), ("1951", "b.csv")]  # CSV cells are text
    props = await store.query("MATCH (n:Entity {uid: $u}) RETURN n.founded AS f, n.country AS c", {"u": uid})
    assert props == [{"f": "1950", "c": "US"}]  # first value kept, not overwritten
    # retracting b resolves the conflict
    await retract_document(store, graph=graph_name, key=f"{graph_name}|files|b.csv")
    row = (await store.read("graph/entities_by_uid", uids=[uid]))[0]
    assert row["conflict_keys"] == []
    assert len(row["claims"]) == 2


async def test_merge_entities_rewires_and_unions(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.jsonl"
    kb.write_text(
        json.dumps(
            {"subject": "Marlene Dietrich", "relation": "born_in", "object": "Berlin", "attributes": {"height_cm": 165}}
        )
        + "\n"
        + json.dumps(
            {"subject": "M. Dietrich", "relation": "acted_in", "object": "Kismet", "attributes": {"height_cm": 164}}
        )
        + "\n"
    )
    await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    keep, absorb = entity_id("Marlene Dietrich"), entity_id("M. Dietrich")
    merged = await merge_entities(store, graph_name, keep, absorb)
    assert merged["aliases"] == ["M. Dietrich"]
    assert merged["conflict_keys"] == ["height_cm"]
    rels = await store.query(
        "MATCH (a:Entity {uid: $u})-[r]->(b) RETURN type(r) AS t, b.name AS b ORDER BY t", {"u": f"{graph_name}:{keep}"}
    )
    assert rels == [{"t": "acted_in", "b": "Kismet"}, {"t": "born_in", "b": "Berlin"}]
    gone = await store.read("graph/entities_by_uid", uids=[f"{graph_name}:{absorb}"])
    assert gone == []
    with pytest.raises(InputError, match="no entity with id"):
        await merge_entities(store, graph_name, keep, absorb)


async def test_fail_mode_writes_nothing_of_a_bad_file(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(KB + "Kismet|has\ttags|oops\n")  # a tab: names are data, control characters are not
    with pytest.raises(InputError) as info:
        await ingest_file(store, bad, graph=graph_name, root=tmp_path, batch_size=2)
    assert "bad.txt:7" in str(info.value)
    assert "U+0009" in str(info.value)
    counts = (await store.read("graph/counts", graph=graph_name))[0]
    assert counts == {"entities": 0, "relationships": 0}
    assert await list_documents(store, graph_name) == []


async def test_skip_mode_loads_the_rest_and_reports(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(KB + "Kismet|has_genre\nKismet|direct\x07ed|X\n")
    result = await ingest_file(store, bad, graph=graph_name, root=tmp_path, on_error="skip")
    assert result.rows == 6
    assert result.skipped == 2
    assert [p.line for p in result.problems] == [7, 8]
    counts = (await store.read("graph/counts", graph=graph_name))[0]
    assert counts == {"entities": 7, "relationships": 6}
