"""What a graph holds, as a checksum comparable across graphs (the graph's own name taken out of document keys),
and the element ids / embeddings of its entities and relationships."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore


async def snapshot(store: GraphStore, graph: str) -> dict[str, Any]:
    nodes = await store.query(
        "MATCH (n:Entity {graph: $g}) RETURN n.id AS id, n.name AS name, n.type AS type, labels(n) AS labels, "
        "n.sources AS sources, n.claims AS claims, n.conflict_keys AS conflicts ORDER BY id",
        {"g": graph},
    )
    rels = await store.query(
        "MATCH (a:Entity {graph: $g})-[r]->(b:Entity) RETURN a.id AS a, type(r) AS t, b.id AS b, r.id AS id, "
        "r.sources AS sources ORDER BY id",
        {"g": graph},
    )
    docs = await store.query(
        "MATCH (d:Document {graph: $g}) RETURN d.doc_id AS doc, d.source AS source, d.complete AS complete, "
        "d.rows AS rows ORDER BY doc",
        {"g": graph},
    )
    prefix = f"{graph}|"

    def clean(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(prefix, "G|")
        if isinstance(value, list):
            return sorted(clean(v) for v in value)
        return value

    return {
        "nodes": [{k: clean(v) for k, v in n.items()} for n in nodes],
        "rels": [{k: clean(v) for k, v in r.items()} for r in rels],
        "documents": docs,
    }


def checksum(state: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


async def element_ids(store: GraphStore, graph: str) -> dict[str, str]:
    """``{entity id or relation id: elementId}`` for every entity and relationship of ``graph``."""
    nodes = await store.query("MATCH (n:Entity {graph: $g}) RETURN n.id AS id, elementId(n) AS e", {"g": graph})
    rels = await store.query(
        "MATCH (:Entity {graph: $g})-[r]->(:Entity) RETURN r.id AS id, elementId(r) AS e", {"g": graph}
    )
    return {row["id"]: row["e"] for row in nodes + rels}


async def embeddings(store: GraphStore, graph: str) -> dict[str, list[float]]:
    rows = await store.query(
        "MATCH (n:Entity {graph: $g}) WHERE n.embedding IS NOT NULL RETURN n.id AS id, n.embedding AS v", {"g": graph}
    )
    return {row["id"]: list(row["v"]) for row in rows}
