"""Structured ingest: triples / CSV / JSON Lines files into the graph, idempotent through the ledger.

Identity: a file is the ledger document ``(graph, source, doc id)`` where the doc id is its path relative to
``root`` (default: the current directory; see :func:`~graphwalk_neo4j.graph.ledger.document_id`). Two files with
the same base name are two documents.

Two phases, so that ``on_error="fail"`` writes nothing when any input is bad (:func:`ingest_files`):

1. **plan**, every file before any write: read its bytes once (the snapshot: everything after works on these
   bytes, so a file that changes meanwhile cannot slip unvalidated data in), hash them (an unchanged, complete
   document stops here), validate what will be written, and work out what to do:

   * ``load`` — a new document: the whole file, validated;
   * ``resume`` — the same bytes as a killed run: continue after its last whole batch;
   * ``diff`` — a changed version of a document whose manifest (its segments, :mod:`.segments`) is stored:
     only the changed segments are parsed (and validated); the records they held before are read back from the
     stored segments; a record counts as removed only when no unchanged line still says it (a cheap token filter
     picks the few lines worth parsing). The result is the exact difference: relationships, entities and
     attribute claims to add and to remove;
   * ``reload`` — a changed document without a usable manifest (a legacy ledger entry, another type map, a
     half-retracted one): retract it, then load.

2. **apply**, file by file. A load writes batches of one transaction each (the ledger's batch counter in the
   same transaction, so a killed run resumes without duplicates) and stores the manifest with the last step. A
   diff of up to :data:`DIFF_TX_LIMIT` changes is ONE transaction (additions, removals, claims, segments and the
   ledger together, after an optimistic check that the stored version is still the one diffed against), so
   readers see the old version or the new one, never a mix. Untouched elements keep their element id, embedding
   and trace links. A larger diff is applied in batches (additions first, the manifest last; a killed run
   recomputes the same diff and finishes it).

Legacy ledger entries (keyed by base name before paths were the identity) are migrated on first contact: the
key is rewritten in place (provenance and claims), nothing is recreated.

Progress is reported through :class:`graphwalk_neo4j.progress.Progress`: ``advance(file, rows done, rows total)``
once a batch is committed; the CLI draws it, the service keeps it on the job.

Modules: :mod:`.plan` (phase 1: models, hashes, plans and diffs) and :mod:`.apply` (phase 2); this package holds
the entry points (:func:`ingest_files`, :func:`ingest_file`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.faults import pause_point
from graphwalk_neo4j.ingest.structured.apply import StaleVersion, apply_plan
from graphwalk_neo4j.ingest.structured.plan import (
    DIFF_TX_LIMIT,
    MAX_FILTER_TOKENS,
    PARSER_VERSION,
    Diff,
    FileResult,
    Plan,
    TypeMap,
    check_type_map,
    content_hash_of,
    file_hash,
    manifest_type_map_key,
    plan_file,
    read_type_map,
    type_map_key,
)
from graphwalk_neo4j.progress import QUIET, Progress

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from graphwalk_neo4j.store import GraphStore

__all__ = [
    "DIFF_TX_LIMIT",
    "MAX_FILTER_TOKENS",
    "PARSER_VERSION",
    "Diff",
    "FileResult",
    "Plan",
    "TypeMap",
    "apply_plan",
    "check_type_map",
    "content_hash_of",
    "file_hash",
    "ingest_file",
    "ingest_files",
    "manifest_type_map_key",
    "plan_file",
    "read_type_map",
    "type_map_key",
]


async def ingest_files(
    store: GraphStore,
    paths: Sequence[str | Path],
    *,
    progress: Progress = QUIET,
    on_file_done: Callable[[FileResult], None] | None = None,
    **kwargs: Any,
) -> list[FileResult]:
    """Plan every file (read, hash, validate, diff: no writes), then apply the plans in order. So with
    ``on_error="fail"`` one bad file anywhere means nothing at all is written."""
    claimed: set[str] = set()
    plans = [await plan_file(store, p, claimed_legacy=claimed, **kwargs) for p in paths]
    await pause_point("ingest.planned")  # test hook (graphwalk_neo4j.faults): validated, nothing written yet
    results = []
    for plan in plans:
        result = await _apply_with_replan(store, plan, progress=progress, **kwargs)
        results.append(result)
        if on_file_done is not None:
            on_file_done(result)
    return results


async def _apply_with_replan(store: GraphStore, plan: Plan, *, progress: Progress, **kwargs: Any) -> FileResult:
    for _ in range(5):
        try:
            return await apply_plan(store, plan, progress=progress)
        except StaleVersion:  # a concurrent ingest stored another version first: diff against that one
            plan = await plan_file(store, plan.path, **kwargs)
    return await apply_plan(store, plan, progress=progress)


async def ingest_file(
    store: GraphStore,
    path: str | Path,
    *,
    progress: Progress = QUIET,
    **kwargs: Any,
) -> FileResult:
    """Plan and apply one file; see :func:`plan_file` for the options (graph, source, root, fmt, on_error,
    batch_size, type_map)."""
    return (await ingest_files(store, [path], progress=progress, **kwargs))[0]
