"""The ingest ledger kept in Neo4j, and retraction of what a document contributed.

``(:Source {key, graph, name})-[:HAS_DOCUMENT]->(:Document {key, graph, source, doc_id, content_hash, complete,
status, batches_done, batch_size, rows, ingested_at})``. Every entity and relationship lists the document keys
that assert it in ``sources``; retracting a document removes its key everywhere, deletes elements left without
provenance, and recomputes attributes whose claims came from it.
"""

from __future__ import annotations

from typing import Any

from graphwalk_neo4j.graph.writes import recompute_attributes
from graphwalk_neo4j.store import GraphStore


def document_key(graph: str, source: str, doc_id: str) -> str:
    return f"{graph}|{source}|{doc_id}"


def source_key(graph: str, source: str) -> str:
    return f"{graph}|{source}"


async def get_document(store: GraphStore, key: str) -> dict[str, Any] | None:
    rows = await store.read("ledger/get_document", key=key)
    return rows[0] if rows else None


async def begin_document(
    store: GraphStore, *, graph: str, source: str, key: str, doc_id: str, content_hash: str, batch_size: int,
    kind: str, now: str,
) -> int:
    rows = await store.write(
        "ledger/begin_document", graph=graph, source_key=source_key(graph, source), source=source, key=key,
        doc_id=doc_id, hash=content_hash, batch_size=batch_size, now=now, kind=kind,
    )
    return int(rows[0]["batches_done"] or 0)


async def complete_document(store: GraphStore, *, key: str, rows: int, skipped: int, now: str) -> None:
    await store.write("ledger/complete_document", key=key, rows=rows, skipped=skipped, now=now)


async def retract_document(store: GraphStore, *, graph: str, key: str, forget: bool = False) -> dict[str, int]:
    """Remove ``key``'s contribution. Idempotent: a killed retraction is simply run again."""
    await store.write("ledger/mark_retracting", key=key)
    claims = await store.read("graph/claims_of_document", graph=graph, doc=key)
    if claims:
        rows = [{"uid": c["uid"], **recompute_attributes(c["claims"], key)} for c in claims]
        await store.write("graph/reset_attributes", rows=rows)
    before = (await store.read("graph/counts", graph=graph))[0]
    await store.autocommit("graph/retract_relations", graph=graph, doc=key)
    await store.autocommit("graph/retract_entities", graph=graph, doc=key)
    after = (await store.read("graph/counts", graph=graph))[0]
    if forget:
        await store.write("ledger/delete_document", key=key)
    return {
        "entities_deleted": before["entities"] - after["entities"],
        "relationships_deleted": before["relationships"] - after["relationships"],
        "attributes_recomputed": len(claims),
    }


async def list_documents(store: GraphStore, graph: str) -> list[dict[str, Any]]:
    return await store.read("ledger/list_documents", graph=graph)


async def graph_exists(store: GraphStore, graph: str) -> bool:
    """Whether any entity, ledger entry or walk carries the graph name ``graph``."""
    return bool((await store.read("graph/graph_exists", graph=graph))[0]["exists"])


async def drop_graph(store: GraphStore, graph: str) -> dict[str, int]:
    """Delete every node of one graph (entities, ledger, walks) in batches; other graphs are untouched."""
    before = (await store.read("graph/counts", graph=graph))[0]
    await store.autocommit("graph/drop_graph", graph=graph)
    return {"entities_deleted": before["entities"], "relationships_deleted": before["relationships"]}
