"""Text ingest end to end against the real Neo4j, an OpenAI-compatible extraction stand-in (through litellm) and a
scripted decision backend: the corpus graph asserted exactly, the lexical graph, re-ingest without writes, an
edited document touching only its own elements, the extraction cache, pruning and orphaned chunks.
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.graph.ledger import document_key, retract_document
from graphwalk_neo4j.graph.search import search_entities
from graphwalk_neo4j.ingest.documents import TextIngest, TextIngestReport
from graphwalk_neo4j.ingest.extraction import Extractor
from graphwalk_neo4j.ingest.resolution import new_entity_id
from graphwalk_neo4j.ingest.routing import Router
from tests.helpers import json_object
from tests.integration.text_ingest_support import (
    DOCS,
    MODEL,
    C,
    H,
    S,
    entities,
    expected_entities,
    expected_from_chunks,
    expected_relations,
    from_chunks,
    ingest,
    relations,
    scripted_adjudicator,
    scripted_decider,
)

if TYPE_CHECKING:
    from pathlib import Path

    from tests.standins.extraction import ExtractionStandIn

pytestmark = pytest.mark.neo4j

READS = {"ledger/get_document", "ingest/orphan_chunk_documents", "ledger/list_documents"}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    shutil.copytree(DOCS, target)
    return target


def statuses(report: TextIngestReport) -> dict[str, str]:
    return {d.doc_id: d.status for d in report.documents}


async def test_corpus_graph_exactly(store: Any, graph_name: str, standin: ExtractionStandIn) -> None:
    decider, adjudicator = scripted_decider(), scripted_adjudicator()
    report = await ingest(store, graph_name, standin, [DOCS], decider=decider, adjudicator=adjudicator)

    assert statuses(report) == {
        S: "loaded",
        H: "loaded",
        "03-quill-family.md": "loaded",
        "04-renn-letters.json": "loaded",
        C: "loaded",
    }
    assert report.ok
    assert report.warnings == []
    assert await entities(store, graph_name) == expected_entities()
    assert await relations(store, graph_name) == expected_relations()
    assert await from_chunks(store, graph_name) == expected_from_chunks()
    # One extraction call per chunk (saltmere.md has two); one decision request per chunk that had candidates
    # (all but the very first, which met an empty graph); one escalation ("M. Quill" at p = 0.55).
    assert standin.extraction_calls == 6
    assert len(decider.requests) == 5
    assert len(adjudicator.requests) == 1
    assert report.routing["escalations"] == 1
    assert report.routing["fallbacks"] == 0
    assert [json_object(q.instructions)["mention"]["name"] for q in adjudicator.requests[0].questions] == ["M. Quill"]
    # New entities get ids from (source, document, type, name): the first document that mentioned them.
    ids = {
        r["name"]: r["id"]
        for r in await store.query(
            "MATCH (n:Entity {graph: $g}) RETURN n.name AS name, n.id AS id", {"g": graph_name}, read=True
        )
    }
    assert ids["Harrow Point Lighthouse"] == new_entity_id("files", S, "Harrow Point Lighthouse", "Lighthouse")
    assert ids["Tobias Renn"] == new_entity_id("files", H, "Tobias Renn", "Person")
    assert ids["Saltmere Rowing Club"] == new_entity_id("files", S, "Saltmere Rowing Club", None)


async def test_lexical_graph(store: Any, graph_name: str, standin: ExtractionStandIn) -> None:
    await ingest(store, graph_name, standin, [DOCS])
    rows = await store.query(
        "MATCH (d:Document {graph: $g})-[:HAS_CHUNK]->(c:Chunk) "
        "OPTIONAL MATCH (c)-[:NEXT_CHUNK]->(n:Chunk) "
        "RETURN d.doc_id AS doc, d.status AS status, d.chunks AS chunks, d.title AS title, c.index AS i, "
        "size(c.text) AS size, c.hash AS hash, c.status AS chunk_status, c.extraction_key IS NOT NULL AS cached, "
        "n.index AS next ORDER BY doc, i",
        {"g": graph_name},
        read=True,
    )
    by_doc: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_doc.setdefault(r["doc"], []).append(r)
    assert sorted(by_doc) == [S, H, "03-quill-family.md", "04-renn-letters.json", C]
    assert [(r["i"], r["next"]) for r in by_doc[S]] == [(0, 1), (1, None)]
    assert by_doc[S][0]["title"] == "Saltmere"
    assert by_doc["04-renn-letters.json"][0]["title"] == "Letters of Tobias Renn"
    for doc_rows in by_doc.values():
        assert all(r["status"] == "complete" and r["chunks"] == len(doc_rows) for r in doc_rows)
        assert all(r["size"] <= 2000 and r["chunk_status"] == "done" and r["cached"] for r in doc_rows)
    # Each chunk's text is the passage the LLM saw.
    texts = {
        r["t"]
        for r in await store.query("MATCH (c:Chunk {graph: $g}) RETURN c.text AS t", {"g": graph_name}, read=True)
    }
    assert texts == set(standin.passages)


async def test_reingest_unchanged_writes_nothing(store: Any, graph_name: str, standin: ExtractionStandIn) -> None:
    await ingest(store, graph_name, standin, [DOCS])
    calls = standin.extraction_calls
    before = dict(store.metrics.by_template)
    decider = scripted_decider()
    report = await ingest(store, graph_name, standin, [DOCS], decider=decider)
    used = {name for name, n in store.metrics.by_template.items() if n != before.get(name, 0)}
    assert set(statuses(report).values()) == {"unchanged"}
    assert used <= READS, f"templates run on an unchanged re-ingest: {sorted(used - READS)}"
    assert standin.extraction_calls == calls
    assert decider.requests == []
    assert await entities(store, graph_name) == expected_entities()


async def test_edit_touches_only_that_document(
    store: Any, graph_name: str, standin: ExtractionStandIn, corpus: Path
) -> None:
    await ingest(store, graph_name, standin, [corpus])
    query = (
        "MATCH (n:Entity {graph: $g}) RETURN n.name AS name, n.updated_at AS at, n.sources AS sources "
        "UNION ALL MATCH (a:Entity {graph: $g})-[r]->(b:Entity) "
        "RETURN a.name + ' -' + type(r) + '-> ' + b.name AS name, r.updated_at AS at, r.sources AS sources"
    )
    before = {r["name"]: r for r in await store.query(query, {"g": graph_name}, read=True)}
    calls = standin.extraction_calls
    light = corpus / H
    light.write_text(light.read_text(encoding="utf-8") + "\nIt was automated in 1962.\n", encoding="utf-8")

    report = await ingest(store, graph_name, standin, [corpus])

    assert statuses(report) == {
        S: "unchanged",
        H: "reloaded",
        "03-quill-family.md": "unchanged",
        "04-renn-letters.json": "unchanged",
        C: "unchanged",
    }
    assert standin.extraction_calls == calls + 1
    after = {r["name"]: r for r in await store.query(query, {"g": graph_name}, read=True)}
    h_key = document_key(graph_name, "files", H)
    for name, row in before.items():
        if h_key not in row["sources"]:
            assert after[name] == row, f"{name} was touched by re-ingesting {H}"
    expected = expected_entities()
    expected["Harrow Point Lighthouse"]["attributes"]["automated"] = 1962
    assert await entities(store, graph_name) == expected
    assert await relations(store, graph_name) == expected_relations()
    assert await from_chunks(store, graph_name) == expected_from_chunks()


async def test_edit_reextracts_only_changed_chunks(
    store: Any, graph_name: str, standin: ExtractionStandIn, corpus: Path
) -> None:
    await ingest(store, graph_name, standin, [corpus])
    doc = corpus / S
    doc.write_text(
        doc.read_text(encoding="utf-8").replace("every August", "every August, tide permitting"), encoding="utf-8"
    )
    standin.passages.clear()
    report = await ingest(store, graph_name, standin, [corpus])
    saltmere = next(d for d in report.documents if d.doc_id == S)
    assert (saltmere.status, saltmere.extracted, saltmere.cached) == ("reloaded", 1, 1)
    assert len(standin.passages) == 1
    assert "tide permitting" in standin.passages[0]
    expected = expected_entities()
    # Re-applied claims come after the others, so the conflicting key's property now shows harrow-light's value;
    # the conflict and both sources are unchanged.
    expected["Harrow Point Lighthouse"]["attributes"]["completed"] = 1875
    assert await entities(store, graph_name) == expected
    assert await relations(store, graph_name) == expected_relations()


async def test_prune_and_orphaned_chunks(store: Any, graph_name: str, standin: ExtractionStandIn, corpus: Path) -> None:
    await ingest(store, graph_name, standin, [corpus])
    (corpus / C).unlink()
    report = await ingest(store, graph_name, standin, [corpus], prune=True)
    assert statuses(report)[C] == "retracted"
    expected = expected_entities()
    del expected["Gannet"], expected["Curlew"]
    expected["Quill & Daughters"]["sources"].remove(C)
    assert await entities(store, graph_name) == expected
    assert {r for r in await relations(store, graph_name)} == {r for r in expected_relations() if C not in r[3]}
    chunks = await store.query("MATCH (c:Chunk {graph: $g}) RETURN count(c) AS n", {"g": graph_name}, read=True)
    assert chunks[0]["n"] == 5

    # `gw-neo4j retract` forgets the document but leaves its chunks: the next ingest deletes them.
    await retract_document(store, graph=graph_name, key=document_key(graph_name, "files", H), forget=True)
    (corpus / H).unlink()
    await ingest(store, graph_name, standin, [corpus])
    rows = await store.query("MATCH (c:Chunk {graph: $g}) RETURN c.document AS d", {"g": graph_name}, read=True)
    assert len(rows) == 4
    assert all(H not in r["d"] for r in rows)
    chunk_refs = await store.query(
        "MATCH (:Entity {graph: $g})-[r]->(:Entity) UNWIND r.chunks AS k RETURN DISTINCT k",
        {"g": graph_name},
        read=True,
    )
    assert all(H not in r["k"] for r in chunk_refs)


async def test_aliases_feed_search_and_embeddings_feed_routing(
    store: Any, graph_name: str, standin: ExtractionStandIn
) -> None:
    embedder = FakeEmbedder()
    extractor = Extractor(MODEL, api_base=standin.api_base, api_key="sk-test", num_retries=0)
    router = Router(
        store, graph_name, decider=scripted_decider(), adjudicator=scripted_adjudicator(), embedder=embedder
    )
    report = await TextIngest(store, graph=graph_name, extractor=extractor, router=router, embedder=embedder).run(
        [DOCS]
    )
    assert report.ok
    assert await entities(store, graph_name) == expected_entities()
    missing = await store.query(
        "MATCH (n:Entity {graph: $g}) WHERE n.embedding IS NULL RETURN n.name AS n", {"g": graph_name}, read=True
    )
    assert missing == []
    hits = await search_entities(store, graph_name, "M. Quill", k=3)
    assert hits[0].name == "Marta Quill"
    assert "exact alias 'M. Quill'" in hits[0].reasons
    hits = await search_entities(store, graph_name, "Harrow Point Light", k=3, embedder=embedder)
    assert hits[0].name == "Harrow Point Lighthouse"
    assert any(r.startswith("vector") for r in hits[0].reasons)
