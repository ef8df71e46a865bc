"""Merging two entities of one graph (duplicates found after the fact, or by ingest routing).

APOC's ``apoc.refactor.mergeNodes`` does the structural work (relationships rewired, duplicates between the same
pair of nodes merged); this module then recomputes the attribute claims so that values on which the two nodes
disagree become conflicts instead of one silently winning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.identity import entity_uid, id_of_uid
from graphwalk_neo4j.graph.writes import claim_state
from graphwalk_neo4j.store.queries import ENTITIES_BY_UID

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore


async def merge_entities(store: GraphStore, graph: str, keep_id: str, absorb_id: str) -> dict[str, Any]:
    """Merge entity ``absorb_id`` into ``keep_id`` (both entity ids of ``graph``); returns the merged state."""
    if keep_id == absorb_id:
        raise InputError(f"cannot merge entity {keep_id!r} into itself")
    keep, absorb = entity_uid(graph, keep_id), entity_uid(graph, absorb_id)
    found = {r["uid"] for r in await store.read(ENTITIES_BY_UID, uids=[keep, absorb])}
    missing = [id_of_uid(u) for u in (keep, absorb) if u not in found]
    if missing:
        raise InputError(f"no entity with id {', '.join(missing)} in graph {graph!r}")
    await store.write("graph/merge_entity_pair", keep=keep, absorb=absorb)
    row = (await store.read(ENTITIES_BY_UID, uids=[keep]))[0]
    values, conflict_keys = claim_state(row["claims"] or [])
    await store.write(
        "graph/reset_attributes",
        rows=[
            {
                "uid": keep,
                "claims": row["claims"] or [],
                "values": values,
                "remove": [],
                "conflict_keys": conflict_keys,
            }
        ],
    )
    return {"id": keep_id, "aliases": row["aliases"], "sources": row["sources"], "conflict_keys": conflict_keys}
