"""Phase 2 of structured ingest: apply a :class:`~.plan.Plan` (batched loads that resume, one-transaction diffs,
the manifest last). See :mod:`graphwalk_neo4j.ingest.structured`.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.faults import pause_point
from graphwalk_neo4j.graph.ledger import (
    begin_document,
    now_iso,
    rekey_document,
    retract_document,
)
from graphwalk_neo4j.graph.writes import (
    TRACE_LINK_TYPES,
    PreparedBatch,
    WriteCounts,
    drop_claims,
    prepare_batch,
    write_batch,
    write_prepared,
)
from graphwalk_neo4j.ingest.parsers import (
    parse_bytes,
)
from graphwalk_neo4j.ingest.structured.plan import (
    DIFF_TX_LIMIT,
    FileResult,
    Plan,
)
from graphwalk_neo4j.progress import QUIET, Progress
from graphwalk_neo4j.store import GraphStore, run_template

if TYPE_CHECKING:
    from collections.abc import Callable

    from graphwalk_neo4j.graph.rows import TripleRecord
    from graphwalk_neo4j.ingest import segments as seg


class StaleVersion(Exception):
    """The stored version changed between planning and applying a diff (a concurrent ingest); plan again."""


async def apply_plan(store: GraphStore, plan: Plan, *, progress: Progress = QUIET) -> FileResult:
    """Carry out a :func:`plan_file` plan. Re-plans (a few times) when a concurrent ingest got there first."""
    started = time.perf_counter()
    result = FileResult(
        path=str(plan.path),
        document=plan.key,
        doc_id=plan.doc_id,
        status="loaded",
        rows=plan.rows,
        skipped=plan.skipped,
        problems=list(plan.problems),
    )
    if plan.rekey_from is not None:
        await rekey_document(store, graph=plan.graph, old=plan.rekey_from, new=plan.key, doc_id=plan.doc_id)
        result.status = "migrated"
    if plan.mode in ("unchanged", "manifest"):
        if plan.mode == "manifest":  # complete, but stored before manifests existed: add one, touch nothing else
            await _store_manifest(store, plan, drop=None, segments=plan.segments)
        result.status = "unchanged" if plan.rekey_from is None else "migrated"
    elif plan.mode == "diff":
        await _apply_diff(store, plan, result, progress)
    else:
        await _apply_load(store, plan, result, progress)
    result.seconds = time.perf_counter() - started
    return result


async def _store_manifest(
    store: GraphStore, plan: Plan, *, drop: list[str] | None, segments: list[seg.Segment], tx: Any = None
) -> None:
    rows = [{"hash": s.hash, "data": plan.data[s.start : s.end]} for s in segments]
    params = {
        "key": plan.key,
        "hash": plan.content_hash,
        "segments": [s.hash for s in plan.segments],
        "manifest": plan.manifest,
        "rows": plan.rows,
        "skipped": plan.skipped,
        "now": now_iso(),
    }

    async def work(t: Any) -> None:
        await run_template(t, "ledger/delete_segments", doc=plan.key, hashes=drop)
        for i in range(0, len(rows), 500):
            await run_template(t, "ledger/write_segments", graph=plan.graph, doc=plan.key, rows=rows[i : i + 500])
        await run_template(t, "ledger/set_manifest", **params)

    if tx is not None:
        await work(tx)
    else:
        await store.in_write_tx(work)


async def _apply_load(store: GraphStore, plan: Plan, result: FileResult, progress: Progress) -> None:
    assert plan.fmt is not None
    graph, key = plan.graph, plan.key
    if plan.mode == "reload" or (plan.existing and plan.existing["status"] == "retracting"):
        await retract_document(store, graph=graph, key=key)
        result.status = "reloaded"
    done_before = await begin_document(
        store,
        graph=graph,
        source=plan.source,
        key=key,
        doc_id=plan.doc_id,
        content_hash=plan.content_hash,
        batch_size=plan.batch_size,
        kind="structured",
        now=now_iso(),
    )
    if done_before and plan.mode == "resume":
        result.status = "resumed"
        result.resumed_from_batch = done_before
    run = uuid.uuid4().hex
    batches, _report = parse_bytes(plan.data, plan.path, plan.fmt, on_error=plan.on_error, batch_size=plan.batch_size)
    written: set[tuple[str, str | None]] = set()
    counter = {"rows": 0, "number": 0}

    def next_prepared() -> tuple[int, int, PreparedBatch] | None:
        """Parse and prepare the next batch to write (runs in a worker thread, overlapping the Neo4j write)."""
        for records in batches:
            counter["number"] += 1
            counter["rows"] += len(records)
            if counter["number"] > done_before:
                prepared = prepare_batch(records, graph, key, plan.type_map, written)
                return counter["number"], counter["rows"], prepared
        return None

    pending = asyncio.create_task(asyncio.to_thread(next_prepared))
    try:
        while (item := await pending) is not None:
            number, rows_done, prepared = item
            pending = asyncio.create_task(asyncio.to_thread(next_prepared))
            counts = await write_batch(
                store, prepared, graph=graph, doc=key, now=now_iso(), run=run, batch_number=number
            )
            result.counts.add(counts)
            result.batches += 1
            progress.advance(str(plan.path), rows_done, plan.rows)
            await pause_point("ingest.batch")  # test hook (graphwalk_neo4j.faults): after a committed batch
    finally:
        if not pending.done():
            pending.cancel()
    plan.rows = result.rows = counter["rows"]
    await _store_manifest(store, plan, drop=None, segments=plan.segments)
    await store.write("schema/await_fulltext_refresh")  # the name index is eventually consistent


async def _apply_diff(store: GraphStore, plan: Plan, result: FileResult, progress: Progress) -> None:
    diff = plan.diff
    assert diff is not None
    assert plan.existing is not None
    graph, key = plan.graph, plan.key
    run, now = uuid.uuid4().hex, now_iso()
    expected = plan.existing["content_hash"]
    removed = {"relationships": 0, "entities": 0, "entities_kept_for_traces": 0, "claims": 0}

    async def check(tx: Any) -> None:
        rows, _ = await run_template(tx, "ledger/lock_document", key=key, run=run)
        if not rows or rows[0]["content_hash"] != expected:
            raise StaleVersion(key)

    def adds(records: list[TripleRecord]) -> Callable[[Any], Any]:
        async def work(tx: Any) -> None:
            prepared = prepare_batch(records, graph, key, plan.type_map)
            result.counts.add(await write_prepared(tx, prepared, graph=graph, doc=key, now=now, run=run))

        return work

    def unassert_relations(rows: list[dict[str, str]]) -> Callable[[Any], Any]:
        async def work(tx: Any) -> None:
            out, _ = await run_template(tx, "graph/unassert_relations", rows=rows, doc=key)
            removed["relationships"] += int(out[0]["deleted"] or 0)

        return work

    async def claims(tx: Any) -> None:
        if not diff.remove_claims:
            return
        entities, _ = await run_template(tx, "graph/entities_by_uid", uids=sorted(diff.remove_claims))
        rows = [{"uid": e["uid"], **drop_claims(e["claims"] or [], diff.remove_claims[e["uid"]])} for e in entities]
        await run_template(tx, "graph/reset_attributes", rows=rows)
        removed["claims"] += sum(len(v) for v in diff.remove_claims.values())

    def unassert_entities(uids: list[str]) -> Callable[[Any], Any]:
        async def work(tx: Any) -> None:
            out, _ = await run_template(
                tx, "graph/unassert_entities", uids=uids, doc=key, now=now, trace_links=TRACE_LINK_TYPES
            )
            removed["entities"] += int(out[0]["deleted"] or 0)
            removed["entities_kept_for_traces"] += int(out[0]["kept"] or 0)

        return work

    async def finish(tx: Any) -> None:
        await _store_manifest(store, plan, drop=diff.drop_segments, segments=diff.new_segments, tx=tx)

    step = max(1, plan.batch_size)
    steps: list[Callable[[Any], Any]] = [check]
    steps += [adds(diff.add[i : i + step]) for i in range(0, len(diff.add), step)]
    steps += [
        unassert_relations(diff.remove_relations[i : i + step]) for i in range(0, len(diff.remove_relations), step)
    ]
    steps.append(claims)
    steps += [unassert_entities(diff.remove_entities[i : i + step]) for i in range(0, len(diff.remove_entities), step)]
    steps.append(finish)
    if diff.size <= DIFF_TX_LIMIT:  # one transaction: readers see the old version or the new one

        async def all_steps(tx: Any) -> None:
            for s in steps:
                await s(tx)
            await pause_point("ingest.diff_tx")  # test hook: everything written, not yet committed

        await _in_tx_fresh(store, all_steps, result, removed)
    else:  # too big for one transaction: batches, idempotent, the manifest last
        for s in steps:
            await _in_tx_fresh(store, s, result, removed)
            await pause_point("ingest.diff_step")
    result.status = "updated"
    result.removed = removed
    result.changed_segments = len(diff.new_segments)
    progress.advance(str(plan.path), plan.rows, plan.rows)
    if diff.add:
        await store.write("schema/await_fulltext_refresh")


async def _in_tx_fresh(
    store: GraphStore, work: Callable[[Any], Any], result: FileResult, removed: dict[str, int]
) -> None:
    """Run ``work`` in one write transaction; counts it added are kept only when the transaction commits (the
    driver may retry a transaction after a transient error)."""
    saved_counts, saved_removed = WriteCounts(), dict(removed)
    saved_counts.add(result.counts)

    async def attempt(tx: Any) -> None:
        result.counts = WriteCounts()
        result.counts.add(saved_counts)
        removed.clear()
        removed.update(saved_removed)
        await work(tx)

    await store.in_write_tx(attempt)
