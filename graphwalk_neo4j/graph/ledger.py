"""The ingest ledger kept in Neo4j, document identity, and retraction of what a document contributed.

``(:Source {key, graph, name})-[:HAS_DOCUMENT]->(:Document {key, graph, source, doc_id, content_hash, complete,
status, batches_done, batch_size, rows, ingested_at, segments, manifest})``, plus ``(:DocSegment {key, doc, hash,
data})`` holding the bytes of a structured document's current version in segments (so a re-ingest can tell what
changed). Every entity and relationship lists the document keys that assert it in ``sources``; retracting a
document removes its key everywhere, deletes elements left without provenance (keeping, relabelled, those a
stored walk links to), and recomputes attributes whose claims came from it.

Identity: a document is ``(graph, source, doc id)``; for files the doc id is :func:`document_id` (the path relative
to a stated root). The key joins the three with ``|`` after escaping ``%`` and ``|`` in each (:func:`document_key`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.faults import pause_point
from graphwalk_neo4j.graph.profile import MANAGED_LABELS, stored_profile
from graphwalk_neo4j.graph.writes import TRACE_LINK_TYPES, recompute_attributes
from graphwalk_neo4j.store.queries import (
    BEGIN_DOCUMENT,
    CLAIMS_OF_DOCUMENT,
    COUNTS,
    ENTITY_UIDS_OF_DOCUMENT,
    GRAPH_EXISTS,
    UNASSERT_ENTITIES,
)

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore


def _part(text: str) -> str:
    """One component of a ledger key: ``%`` and ``|`` escaped (``%25``, ``%7C``), so joins are unambiguous."""
    return text.replace("%", "%25").replace("|", "%7C")


def document_key(graph: str, source: str, doc_id: str) -> str:
    """``<graph>|<source>|<doc id>`` with each part escaped (:func:`_part`): (``a``, ``b|c.txt``) and
    (``a|b``, ``c.txt``) are different keys. Names without ``%`` or ``|`` give the same key as before."""
    return f"{_part(graph)}|{_part(source)}|{_part(doc_id)}"


def legacy_document_key(graph: str, source: str, file_name: str) -> str:
    """The key structured ingest used before document ids were paths: the base name, joined unescaped.
    Only looked up to migrate such ledger entries (see :mod:`graphwalk_neo4j.ingest.structured`)."""
    return f"{graph}|{source}|{file_name}"


def source_key(graph: str, source: str) -> str:
    return f"{_part(graph)}|{_part(source)}"


def document_id(path: str | Path, root: str | Path | None = None) -> str:
    """The identity of a file in the ledger: its path relative to ``root`` (default: the current directory),
    POSIX-style, after resolving symlinks and ``..``; a file outside ``root`` keeps its absolute path. So
    ``a/data.txt`` and ``b/data.txt`` are two documents, and the same file named two ways is one."""
    resolved = Path(path).resolve()
    base = Path(root if root is not None else Path.cwd()).resolve()
    try:
        return resolved.relative_to(base).as_posix()
    except ValueError:
        return resolved.as_posix()


async def get_document(store: GraphStore, key: str) -> dict[str, Any] | None:
    rows = await store.read("ledger/get_document", key=key)
    return rows[0] if rows else None


async def begin_document(
    store: GraphStore,
    *,
    graph: str,
    source: str,
    key: str,
    doc_id: str,
    content_hash: str,
    batch_size: int,
    kind: str,
    now: str,
) -> int:
    rows = await store.write(
        BEGIN_DOCUMENT,
        graph=graph,
        source_key=source_key(graph, source),
        source=source,
        key=key,
        doc_id=doc_id,
        hash=content_hash,
        batch_size=batch_size,
        now=now,
        kind=kind,
    )
    return int(rows[0]["batches_done"] or 0)


async def complete_document(store: GraphStore, *, key: str, rows: int, skipped: int, now: str) -> None:
    await store.write("ledger/complete_document", key=key, rows=rows, skipped=skipped, now=now)


RETRACT_CHUNK = 10_000  # entities per transaction when a whole document is retracted


async def retract_document(store: GraphStore, *, graph: str, key: str, forget: bool = False) -> dict[str, int]:
    """Remove ``key``'s contribution. Idempotent: a killed retraction is simply run again.

    Entities left without provenance are deleted, except those a stored walk links to: they become
    ``:RetractedEntity`` with their trace links kept, and the walk is marked (``graph/unassert_entities``).
    The document's stored segments go too (its manifest no longer describes the graph)."""
    await store.write("ledger/mark_retracting", key=key)
    claims = await store.read(CLAIMS_OF_DOCUMENT, graph=graph, doc=key)
    if claims:
        rows = [{"uid": c["uid"], **recompute_attributes(c["claims"], key)} for c in claims]
        await store.write("graph/reset_attributes", rows=rows)
    before = (await store.read(COUNTS, graph=graph))[0]
    await store.autocommit("graph/retract_relations", graph=graph, doc=key)
    await pause_point("retract.relations")  # test hook (graphwalk_neo4j.faults): relationships done
    uids = [r["uid"] for r in await store.read(ENTITY_UIDS_OF_DOCUMENT, graph=graph, doc=key)]
    kept = 0
    for i in range(0, len(uids), RETRACT_CHUNK):
        unasserted = await store.write(
            UNASSERT_ENTITIES,
            uids=uids[i : i + RETRACT_CHUNK],
            doc=key,
            now=now_iso(),
            trace_links=TRACE_LINK_TYPES,
        )
        kept += int(unasserted[0]["kept"] or 0) if unasserted else 0
    after = (await store.read(COUNTS, graph=graph))[0]
    await store.write("ledger/delete_segments", doc=key, hashes=None)
    if forget:
        await store.write("ledger/delete_document", key=key)
    return {
        "entities_deleted": before["entities"] - after["entities"],
        "relationships_deleted": before["relationships"] - after["relationships"],
        "attributes_recomputed": len(claims),
        "entities_kept_for_traces": kept,
    }


async def rekey_document(store: GraphStore, *, graph: str, old: str, new: str, doc_id: str) -> None:
    """Move a ledger entry and its provenance (``sources``, claims) from key ``old`` to ``new`` without touching
    anything else: elements, embeddings and trace links stay as they are. Idempotent (batched writes)."""
    await store.autocommit("ledger/rekey_relations", graph=graph, old=old, new=new)
    await store.autocommit(
        "ledger/rekey_entities",
        graph=graph,
        old=old,
        new=new,
        old_claim='"source": ' + json.dumps(old, ensure_ascii=False),
        new_claim='"source": ' + json.dumps(new, ensure_ascii=False),
    )
    await store.write("ledger/rekey_document", old=old, new=new, doc_id=doc_id)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


async def list_documents(store: GraphStore, graph: str) -> list[dict[str, Any]]:
    return await store.read("ledger/list_documents", graph=graph)


async def graph_exists(store: GraphStore, graph: str) -> bool:
    """Whether any entity, ledger entry or walk carries the graph name ``graph``."""
    return bool((await store.read(GRAPH_EXISTS, graph=graph))[0]["exists"])


async def drop_graph(store: GraphStore, graph: str) -> dict[str, int]:
    """Delete every graphwalk-managed node of one graph (entities, ledger, walks) in batches.

    Only nodes with one of our labels go; other graphs, and any user node with a ``graph`` property, are untouched.
    An adopted graph is the user's own data: it is refused here (``adopt --undo`` removes exactly our additions).
    """
    if await stored_profile(store, graph) is not None:
        raise InputError(
            f"graph {graph!r} is an adopted graph: its nodes are the user's own and drop-graph leaves "
            f"them alone; remove graphwalk's additions with `gw-neo4j adopt --undo --graph {graph}`"
        )
    before = (await store.read(COUNTS, graph=graph))[0]
    await store.autocommit("graph/drop_graph", graph=graph, labels=list(MANAGED_LABELS))
    return {"entities_deleted": before["entities"], "relationships_deleted": before["relationships"]}
