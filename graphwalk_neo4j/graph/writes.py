"""Batched writes of parsed records into the graph, with provenance, claims and conflicts.

A batch is written in ONE transaction: entities (merged by ``uid = <graph>:<id>``, type label added), typed
relationships, attribute claims, and the ledger's batch counter. So a killed run leaves whole batches only, and the
counter tells the next run where to resume. Identifiers from data (types, relation names, attribute keys) are
validated before they get here (the parsers do it; :func:`prepare_batch` checks again as defence in depth).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.identity import canonical_name, entity_id, entity_uid
from graphwalk_neo4j.graph.rows import ClaimRow, EntityRow, RelationRow, TripleRecord, params

# The relationship types the project writes that are not data (a stored walk's links to entities, text provenance)
# live in identifiers.py, which refuses them as data relation names; degrees, moves and deletes skip them.
from graphwalk_neo4j.identifiers import BOOKKEEPING_TYPES as BOOKKEEPING_TYPES
from graphwalk_neo4j.identifiers import TRACE_LINK_TYPES as TRACE_LINK_TYPES
from graphwalk_neo4j.identifiers import property_key, relation_type, type_label
from graphwalk_neo4j.store import Counters, GraphStore, run_template

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

# Properties the project owns on :Entity; an attribute may not overwrite them.
RESERVED_KEYS = frozenset(
    {
        "uid",
        "id",
        "graph",
        "name",
        "name_lc",
        "aliases",
        "aliases_text",
        "sources",
        "confidence",
        "created_at",
        "created_run",
        "updated_at",
        "type",
        "conflict_keys",
        "claims",
        "summary",
        "embedding",
        "embed_hash",
    }
)


@dataclass
class WriteCounts(Counters):
    nodes_created: int = 0
    nodes_updated: int = 0
    nodes_unchanged: int = 0
    rels_created: int = 0
    rels_updated: int = 0
    rels_unchanged: int = 0
    conflicts: int = 0


@dataclass
class PreparedBatch:
    entities: list[EntityRow] = field(default_factory=list)
    relations: list[RelationRow] = field(default_factory=list)
    claims: list[ClaimRow] = field(default_factory=list)


def prepare_batch(
    records: Iterable[TripleRecord],
    graph: str,
    doc: str,
    type_map: Mapping[str, tuple[str | None, str | None]] | None = None,
    already_written: set[tuple[str, str | None]] | None = None,
) -> PreparedBatch:
    """Turn records into the parameter rows of the batch templates (deduplicated within the batch).

    ``type_map`` maps a relation to (subject type, object type) labels for data that carries no types (MetaQA);
    such inferred types label the node but do not change its id. ``already_written`` holds the uids this run
    has already committed with this document (and their labels); they are not sent again. The set is updated.
    """
    out = PreparedBatch()
    seen_entities: dict[str, int] = {}
    seen_rels: set[str] = set()

    def add_entity(name: str, explicit_type: str | None, inferred_type: str | None) -> str:
        eid = entity_id(name, explicit_type)
        key = entity_uid(graph, eid)
        label = explicit_type or inferred_type
        if label is not None:
            type_label(label)
        if already_written is not None and (key, label) in already_written:
            return key
        if key not in seen_entities:
            seen_entities[key] = len(out.entities)
            out.entities.append(EntityRow(uid=key, id=eid, name=canonical_name(name), type=label))
        elif label is not None and out.entities[seen_entities[key]].type is None:
            out.entities[seen_entities[key]].type = label
        return key

    for rec in records:
        rel = relation_type(rec.relation)
        s_inf, o_inf = (type_map or {}).get(rel, (None, None))
        src = add_entity(rec.subject, rec.subject_type, s_inf)
        dst = add_entity(rec.object, rec.object_type, o_inf)
        relation = RelationRow.of(src, rel, dst)
        if relation.id not in seen_rels:
            seen_rels.add(relation.id)
            out.relations.append(relation)
        for key, value in rec.attributes.items():
            property_key(key)
            if key in RESERVED_KEYS:
                raise InputError(
                    f"attribute {key!r} is reserved by graphwalk-neo4j; rename the column",
                    path=rec.source,
                    line=rec.line,
                )
            out.claims.append(ClaimRow.of(src, key, value, doc))
    if already_written is not None:
        already_written.update((e.uid, e.type) for e in out.entities)
    return out


async def write_prepared(
    tx: Any,
    batch: PreparedBatch,
    *,
    graph: str,
    doc: str,
    now: str,
    run: str,
    confidence: float = 1.0,
) -> WriteCounts:
    """Write one prepared batch inside the caller's transaction ``tx`` (entities, relationships, claims)."""
    counts = WriteCounts()
    if batch.entities:
        rows, _ = await run_template(
            tx, "graph/merge_entities", rows=params(batch.entities), graph=graph, doc=doc, now=now, run=run
        )
        counts.nodes_created, counts.nodes_updated, counts.nodes_unchanged = (
            rows[0]["created"],
            rows[0]["updated"],
            rows[0]["unchanged"],
        )
    if batch.relations:
        rows, _ = await run_template(
            tx,
            "graph/merge_relations",
            rows=params(batch.relations),
            doc=doc,
            now=now,
            run=run,
            confidence=confidence,
        )
        counts.rels_created, counts.rels_updated, counts.rels_unchanged = (
            rows[0]["created"],
            rows[0]["updated"],
            rows[0]["unchanged"],
        )
    if batch.claims:
        rows, _ = await run_template(tx, "graph/set_claims", rows=params(batch.claims))
        counts.conflicts = rows[0]["conflicts"]
    return counts


async def write_batch(
    store: GraphStore,
    batch: PreparedBatch,
    *,
    graph: str,
    doc: str,
    now: str,
    run: str,
    batch_number: int,
    confidence: float = 1.0,
) -> WriteCounts:
    """Write one prepared batch and advance the document's batch counter, all in one transaction."""

    async def work(tx: Any) -> WriteCounts:
        counts = await write_prepared(tx, batch, graph=graph, doc=doc, now=now, run=run, confidence=confidence)
        await run_template(tx, "ledger/mark_batch", key=doc, done=batch_number)
        return counts

    return await store.in_write_tx(work)


def claim_state(claims: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Values (the first claim of each key, claims keep ingest order) and the keys whose claims disagree."""
    by_key: dict[str, list[Any]] = {}
    for text in claims:
        claim = json.loads(text)
        by_key.setdefault(claim["key"], []).append(claim["value"])
    values = {k: v[0] for k, v in by_key.items()}
    conflicts = sorted(k for k, v in by_key.items() if len({json.dumps(x, sort_keys=True) for x in v}) > 1)
    return values, conflicts


def recompute_attributes(claims: list[str], drop_source: str) -> dict[str, Any]:
    """After removing ``drop_source``'s claims: the surviving claims, values, keys to remove and conflict keys."""
    parsed = [(text, json.loads(text)) for text in claims]
    kept = [text for text, claim in parsed if claim["source"] != drop_source]
    dropped_keys = {claim["key"] for _, claim in parsed}
    values, conflicts = claim_state(kept)
    remove = sorted(dropped_keys - set(values))
    return {"claims": kept, "values": values, "remove": remove, "conflict_keys": conflicts}


def drop_claims(claims: list[str], dropped: set[str]) -> dict[str, Any]:
    """Like :func:`recompute_attributes`, for the given claim texts only (a re-ingest that no longer says them)."""
    kept = [text for text in claims if text not in dropped]
    dropped_keys = {json.loads(text)["key"] for text in claims if text in dropped}
    values, conflicts = claim_state(kept)
    return {"claims": kept, "values": values, "remove": sorted(dropped_keys - set(values)), "conflict_keys": conflicts}
