"""Text ingest under bad input and failing services: each case ends in a clear message and a consistent graph.

Consistent means: every entity reaches a document through FROM_CHUNK/HAS_CHUNK, every relationship's sources are
documents in the ledger and its chunks exist, and nothing refers to a document that was not applied.
"""

from __future__ import annotations

import shutil
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.decide.jev import JevBackend
from graphwalk_neo4j.errors import DecisionError
from tests.integration.text_ingest_support import (
    DOCS,
    H,
    R,
    S,
    entities,
    expected_entities,
    expected_relations,
    relations,
    scripted_decider,
)
from tests.integration.text_ingest_support import ingest as ingest_text
from tests.standins.jev_server import JevStandIn

if TYPE_CHECKING:
    from pathlib import Path

    from tests.standins.extraction import ExtractionStandIn

pytestmark = pytest.mark.neo4j

ingest = partial(ingest_text, timeout_s=10)  # a stalled extraction fails fast


async def assert_consistent(store: Any, graph: str) -> None:
    """Every element answers "where did this come from" with a complete document."""
    orphans = await store.query(
        "MATCH (n:Entity {graph: $g}) WHERE NOT EXISTS { (n)-[:FROM_CHUNK]->(:Chunk)<-[:HAS_CHUNK]-(:Document) } "
        "RETURN n.name AS name",
        {"g": graph},
        read=True,
    )
    assert orphans == []
    bad_sources = await store.query(
        "MATCH (n:Entity {graph: $g}) UNWIND n.sources AS s "
        "OPTIONAL MATCH (d:Document {key: s}) WITH s, d WHERE d IS NULL OR d.status <> 'complete' "
        "RETURN DISTINCT s",
        {"g": graph},
        read=True,
    )
    assert bad_sources == []
    bad_rels = await store.query(
        "MATCH (:Entity {graph: $g})-[r]->(:Entity) UNWIND r.chunks AS k "
        "OPTIONAL MATCH (c:Chunk {key: k}) WITH k, c WHERE c IS NULL OR c.status <> 'done' RETURN k",
        {"g": graph},
        read=True,
    )
    assert bad_rels == []


async def test_garbage_twice_marks_document_incomplete_and_next_run_retries(
    store: Any, graph_name: str, standin: ExtractionStandIn
) -> None:
    standin.garbage_passages["The Harrow Point Light stands"] = 2
    report = await ingest(store, graph_name, standin, [DOCS])
    light = next(d for d in report.documents if d.doc_id == H)
    assert (light.status, light.failed) == ("incomplete", 1)
    assert "invalid reply twice" in (light.message or "")
    assert "no JSON object" in (light.message or "")
    assert not report.ok
    assert report.extraction["retries"] >= 1
    assert report.extraction["failures"] == 1
    chunk = await store.query(
        "MATCH (c:Chunk {graph: $g}) WHERE c.document ENDS WITH $h RETURN c.status AS status, c.error AS error",
        {"g": graph_name, "h": H},
        read=True,
    )
    assert chunk[0]["status"] == "failed"
    assert "invalid reply twice" in chunk[0]["error"]
    doc = await store.query(
        "MATCH (d:Document {graph: $g, doc_id: $h}) RETURN d.status AS s, d.complete AS c",
        {"g": graph_name, "h": H},
        read=True,
    )
    assert doc == [{"s": "incomplete", "c": False}]
    graph = await entities(store, graph_name)
    assert "Kestle Quarry" not in graph
    assert all(H not in e["sources"] for e in graph.values())
    await assert_consistent(store, graph_name)

    # The next run retries only the incomplete document (its one chunk), and the graph is the full corpus graph.
    calls = standin.extraction_calls
    report = await ingest(store, graph_name, standin, [DOCS])
    assert {d.doc_id: d.status for d in report.documents}[H] == "reloaded"
    assert [d.status for d in report.documents if d.doc_id != H] == ["unchanged"] * 4
    assert standin.extraction_calls == calls + 1
    assert await entities(store, graph_name) == expected_entities()
    assert await relations(store, graph_name) == expected_relations()
    await assert_consistent(store, graph_name)


async def test_garbage_once_is_retried_with_the_error(store: Any, graph_name: str, standin: ExtractionStandIn) -> None:
    standin.garbage_passages["The Harrow Point Light stands"] = 1
    report = await ingest(store, graph_name, standin, [DOCS])
    assert report.ok
    assert report.extraction["retries"] == 1
    assert report.extraction["failures"] == 0
    retry = next(r for r in standin.requests if len(r["messages"]) == 4)
    assert "Your reply was not valid: the reply contains no JSON object" in retry["messages"][3]["content"]
    assert await entities(store, graph_name) == expected_entities()


async def test_llm_down_leaves_every_document_incomplete(
    store: Any, graph_name: str, standin: ExtractionStandIn
) -> None:
    standin.status = 503
    report = await ingest(store, graph_name, standin, [DOCS])
    assert {d.status for d in report.documents} == {"incomplete"}
    assert all("extraction model openai/standin-extractor" in (d.message or "") for d in report.documents)
    assert await entities(store, graph_name) == {}
    standin.status = None
    report = await ingest(store, graph_name, standin, [DOCS])
    assert report.ok
    assert {d.status for d in report.documents} == {"reloaded"}
    assert await entities(store, graph_name) == expected_entities()
    await assert_consistent(store, graph_name)


async def test_decision_backend_down_merges_on_exact_names(
    store: Any, graph_name: str, standin: ExtractionStandIn
) -> None:
    decider = scripted_decider()
    decider.fail_with(DecisionError("Jev at http://127.0.0.1:9 could not be reached"))
    report = await ingest(store, graph_name, standin, [DOCS], decider=decider)
    assert report.ok
    assert report.routing["fallbacks"] > 0
    assert any("decision backend failed (Jev at http://127.0.0.1:9 could not be reached)" in w for w in report.warnings)
    graph = await entities(store, graph_name)
    # Other names are not merged without a decision; identical names still are.
    assert {"Harrow Point Light", "M. Quill"} <= set(graph)
    assert graph["Harrow Point Light"]["sources"] == [H]
    assert graph["Harrow Point Lighthouse"]["sources"] == [S, R]
    assert graph["Marta Quill"]["sources"] == [S, "03-quill-family.md"]
    assert graph["Marta Quill"]["aliases"] == []
    assert graph["Harrow Point Lighthouse"]["conflicts"] == {}
    await assert_consistent(store, graph_name)


async def test_exact_routing_makes_no_calls(store: Any, graph_name: str, standin: ExtractionStandIn) -> None:
    decider = scripted_decider()
    report = await ingest(store, graph_name, standin, [DOCS], decider=decider, mode="exact")
    assert decider.requests == []
    assert report.routing["decision_calls"] == 0
    assert report.warnings == []
    graph = await entities(store, graph_name)
    assert len(graph) == len(expected_entities()) + 2
    assert graph["Quill & Daughters"]["sources"] == sorted([S, "03-quill-family.md", "05-harbour-register.csv"])
    await assert_consistent(store, graph_name)


async def test_bad_files(store: Any, graph_name: str, standin: ExtractionStandIn, tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    folder.mkdir()
    shutil.copy(DOCS / H, folder / H)
    (folder / "blob.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (folder / "huge.md").write_text("word " * 3000, encoding="utf-8")
    (folder / "empty.md").write_text("  \n\n \n", encoding="utf-8")
    (folder / "broken.json").write_text('{"title": "x", "text": ', encoding="utf-8")
    (folder / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    report = await ingest(store, graph_name, standin, [folder], max_bytes=10_000)
    by_doc = {d.doc_id: d for d in report.documents}
    assert {k: d.status for k, d in by_doc.items()} == {
        "blob.txt": "rejected",
        "huge.md": "rejected",
        "empty.md": "empty",
        "broken.json": "rejected",
        "latin1.txt": "rejected",
        H: "loaded",
    }
    assert "binary" in (by_doc["blob.txt"].message or "")
    assert "15,000 bytes, over the 10,000-byte limit" in (by_doc["huge.md"].message or "")
    assert "invalid JSON at line 1" in (by_doc["broken.json"].message or "")
    assert "not UTF-8" in (by_doc["latin1.txt"].message or "")
    assert by_doc["empty.md"].message == "the document has no text; nothing to extract"
    assert not report.ok
    docs = await store.query("MATCH (d:Document {graph: $g}) RETURN d.doc_id AS d", {"g": graph_name}, read=True)
    assert docs == [{"d": H}]
    assert standin.extraction_calls == 1
    await assert_consistent(store, graph_name)

    # A document that becomes empty has its previous version retracted and forgotten.
    (folder / H).write_text("\n", encoding="utf-8")
    report = await ingest(store, graph_name, standin, [folder / H])
    assert report.documents[0].status == "empty"
    assert "retracted" in (report.documents[0].message or "")
    assert await entities(store, graph_name) == {}
    assert await store.query("MATCH (n {graph: $g}) RETURN n", {"g": graph_name}, read=True) == []


async def test_routing_through_jev_sdk(store: Any, graph_name: str, standin: ExtractionStandIn) -> None:
    """The real typesafe-sdk client against the Jev stand-in: one request per chunk with candidates."""
    with JevStandIn(api_key="test-key") as jev:
        backend = JevBackend("test-key", base_url=jev.typesafe_base_url)
        try:
            report = await ingest(store, graph_name, standin, [DOCS], decider=backend, adjudicator=None)
        finally:
            await backend.aclose()
        calls = jev.systemone_requests
    assert report.ok
    assert report.warnings == []
    assert len(calls) == 5
    for call in calls:
        assert call.authorized
        assert call.body["model"] == "jev-1.13.0"
        assert set(call.body["state"]) == {"passage"}
        for question in call.body["questions"].values():
            labels = list(question["criteria"])
            assert labels[-1] == "NEW"
            assert labels[:-1] == [f"c{i}" for i in range(1, len(labels))]
    assert report.routing["questions"] == sum(len(c.body["questions"]) for c in calls)
    await assert_consistent(store, graph_name)
