"""Resolution: turn one chunk's routed mentions and facts into graph writes, and apply them in one transaction.

* A NEW mention becomes an entity whose id is deterministic: :func:`new_entity_id` hashes (source, document id,
  type, name), so ingesting the same corpus again recreates the same ids, in any graph.
* A routed mention lands on its target: the document joins the target's ``sources``; the mention's name is
  added to ``aliases`` (and ``aliases_text``, which the fulltext index reads) when it differs from the name;
  the description fills ``summary`` only when the entity has none; the type fills ``type`` only when it has none.
* Attributes become claims (``graph/set_claims``): every (key, value, document) is kept; the first value is the
  property; a different value from another source marks the key as a conflict. Nothing is overwritten.
* Every entity gets ``(:Entity)-[:FROM_CHUNK {confidence}]->(:Chunk)``; every relationship lists the document
  in ``sources`` and the chunk in ``chunks``. Relationship confidence is the lower of its endpoints' routing
  confidences; a fact whose endpoints resolved to the same entity is dropped (no self-loops).

The transaction function only talks to Neo4j and is idempotent (MERGE, guarded list appends), so the driver may
retry it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.graph.identity import SEP, canonical_name, entity_uid, hashed_entity_id, id_of_uid
from graphwalk_neo4j.graph.rows import ClaimRow, EntityRow, RelationRow, params
from graphwalk_neo4j.store import Counters, GraphStore, run_template

if TYPE_CHECKING:
    from graphwalk_neo4j.ingest.extraction import Fact
    from graphwalk_neo4j.ingest.routing import Route


def new_entity_id(source: str, doc_id: str, name: str, type_: str | None) -> str:
    """Id of an entity first seen in a document: ``e_`` + 32 hex digits of sha256(source, doc, type, name)."""
    return hashed_entity_id(SEP.join((source, doc_id, type_ or "", canonical_name(name))))


def chunk_key(doc_key: str, index: int) -> str:
    return f"{doc_key}#{index}"


@dataclass
class ChunkWrite:
    entities: list[EntityRow] = field(default_factory=list)
    claims: list[ClaimRow] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)
    relations: list[RelationRow] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)


@dataclass
class ApplyCounts(Counters):
    entities_created: int = 0
    entities_updated: int = 0
    relations_created: int = 0
    relations_updated: int = 0
    conflicts: int = 0


def resolve_chunk(
    routes: list[Route],
    facts: list[Fact],
    *,
    graph: str,
    source: str,
    doc_id: str,
    doc_key: str,
    chunk: str,
) -> ChunkWrite:
    """The parameter rows for one chunk (pure; see the module docstring)."""
    out = ChunkWrite()
    rows: dict[str, EntityRow] = {}
    confidence: dict[str, float] = {}
    uid_of: dict[str, str] = {}
    for route in routes:
        m = route.mention
        if route.target is None:
            eid = new_entity_id(source, doc_id, m.name, m.type)
            key, name = entity_uid(graph, eid), m.name
        else:
            key, eid = route.target, id_of_uid(route.target)
            name = route.target_name or m.name
        uid_of[m.name.casefold()] = key
        row = rows.get(key)
        if row is None:
            row = EntityRow(uid=key, id=eid, name=name, type=m.type, summary=m.description or None)
            rows[key] = row
            out.entities.append(row)
        else:
            row.type = row.type or m.type
            row.summary = row.summary or m.description or None
        if m.name.casefold() != name.casefold() and m.name not in row.aliases:
            row.aliases.append(m.name)
        confidence[key] = max(confidence.get(key, 0.0), route.confidence)
        for attr, value in m.attributes.items():
            out.claims.append(ClaimRow.of(key, attr, value, doc_key))
    out.links = [{"uid": key, "chunk": chunk, "confidence": round(conf, 4)} for key, conf in confidence.items()]
    seen: set[str] = set()
    for fact in facts:
        src, dst = uid_of.get(fact.source.casefold()), uid_of.get(fact.target.casefold())
        if src is None or dst is None:
            out.dropped.append(f"fact {fact.source!r} -{fact.type}-> {fact.target!r}: endpoint not routed")
            continue
        if src == dst:
            out.dropped.append(f"fact {fact.source!r} -{fact.type}-> {fact.target!r}: both ends are one entity")
            continue
        relation = RelationRow.of(
            src, fact.type, dst, chunk=chunk, confidence=round(min(confidence[src], confidence[dst]), 4)
        )
        if relation.id in seen:
            continue
        seen.add(relation.id)
        out.relations.append(relation)
    return out


async def apply_chunk(
    store: GraphStore,
    write: ChunkWrite,
    *,
    graph: str,
    doc: str,
    chunk: str,
    extraction: str,
    extraction_key: str,
    now: str,
    run: str,
) -> ApplyCounts:
    """Write one chunk's entities, claims, provenance links and relationships, and mark the chunk done."""

    async def work(tx: Any) -> ApplyCounts:
        counts = ApplyCounts()
        if write.entities:
            rows, _ = await run_template(
                tx, "ingest/merge_mentions", rows=params(write.entities), graph=graph, doc=doc, now=now, run=run
            )
            counts.entities_created, counts.entities_updated = rows[0]["created"], rows[0]["updated"]
        if write.claims:
            rows, _ = await run_template(tx, "graph/set_claims", rows=params(write.claims))
            counts.conflicts = rows[0]["conflicts"]
        if write.links:
            await run_template(tx, "ingest/link_from_chunk", rows=write.links)
        if write.relations:
            rows, _ = await run_template(
                tx, "ingest/merge_relations", rows=params(write.relations), doc=doc, now=now, run=run
            )
            counts.relations_created, counts.relations_updated = rows[0]["created"], rows[0]["updated"]
        await run_template(
            tx,
            "ingest/set_chunk_status",
            key=chunk,
            extraction=extraction,
            extraction_key=extraction_key,
            status="done",
            error=None,
        )
        return counts

    return await store.in_write_tx(work)
