"""Structured ingest: triples / CSV / JSON Lines files into the graph, idempotent through the ledger.

For each file (one ledger document, keyed ``<graph>|<source>|<file name>``):

1. hash the bytes; an unchanged, complete document is skipped without reading it;
2. validate the whole file first: with ``on_error="fail"`` a bad line stops the run before anything is written;
3. a changed document first has its old contribution retracted (elements left without provenance are deleted);
4. batches are written one transaction each, advancing the ledger's batch counter in the same transaction; a run
   that was killed resumes after the last whole batch (same hash, same batch size) without duplicates;
5. the document is closed (complete, row count).

Progress is reported through an optional callback so the CLI can draw a rich bar on stderr.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphwalk_neo4j.faults import pause_point
from graphwalk_neo4j.graph.ledger import (
    begin_document,
    complete_document,
    document_key,
    get_document,
    retract_document,
)
from graphwalk_neo4j.graph.writes import PreparedBatch, WriteCounts, prepare_batch, write_batch
from graphwalk_neo4j.identifiers import validate_identifier
from graphwalk_neo4j.ingest.parsers import OnError, ParseProblem, parse_file
from graphwalk_neo4j.store import GraphStore

PARSER_VERSION = "structured-1"
Progress = Callable[[str, int, int], None]  # (file, rows done, rows total)


@dataclass
class FileResult:
    path: str
    document: str
    status: str  # "loaded" | "unchanged" | "resumed" | "reloaded"
    rows: int = 0
    skipped: int = 0
    batches: int = 0
    resumed_from_batch: int = 0
    counts: WriteCounts = field(default_factory=WriteCounts)
    problems: list[ParseProblem] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path, "document": self.document, "status": self.status, "rows": self.rows,
            "skipped": self.skipped, "batches": self.batches, "resumed_from_batch": self.resumed_from_batch,
            "counts": self.counts.as_dict(), "problems": [str(p) for p in self.problems],
            "seconds": round(self.seconds, 3),
        }


def file_hash(path: Path, extra: str = "") -> str:
    digest = hashlib.sha256()
    digest.update(f"{PARSER_VERSION}\x1f{extra}\x1f".encode())
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


async def ingest_file(
    store: GraphStore,
    path: str | Path,
    *,
    graph: str,
    source: str = "files",
    fmt: str | None = None,
    on_error: OnError = "fail",
    batch_size: int = 5000,
    type_map: Mapping[str, tuple[str | None, str | None]] | None = None,
    progress: Progress | None = None,
) -> FileResult:
    started = time.perf_counter()
    validate_identifier(graph, "graph name")
    p = Path(path)
    key = document_key(graph, source, p.name)
    type_extra = repr(sorted((type_map or {}).items()))
    content_hash = file_hash(p, f"{fmt}|{on_error}|{type_extra}")
    existing = await get_document(store, key)
    if existing and existing["content_hash"] == content_hash and existing["complete"]:
        return FileResult(path=str(p), document=key, status="unchanged", rows=existing["rows"] or 0,
                          seconds=time.perf_counter() - started)

    # Validate everything before writing anything (fail mode) and count rows for the progress bar.
    check_batches, check_report = parse_file(p, fmt, on_error=on_error, batch_size=batch_size)
    total = sum(len(b) for b in check_batches)

    status = "loaded"
    if existing and existing["content_hash"] != content_hash:
        await retract_document(store, graph=graph, key=key)
        status = "reloaded"
    elif existing and existing["status"] == "retracting":
        await retract_document(store, graph=graph, key=key)
    done_before = await begin_document(
        store, graph=graph, source=source, key=key, doc_id=p.name, content_hash=content_hash,
        batch_size=batch_size, kind="structured", now=now_iso(),
    )
    result = FileResult(path=str(p), document=key, status=status, skipped=check_report.skipped,
                        problems=list(check_report.problems))
    if done_before:
        result.status = "resumed"
        result.resumed_from_batch = done_before
    run = uuid.uuid4().hex
    batches, _report = parse_file(p, fmt, on_error=on_error, batch_size=batch_size)
    written: set[tuple[str, str | None]] = set()
    counter = {"rows": 0, "number": 0}

    def next_prepared() -> tuple[int, int, PreparedBatch] | None:
        """Parse and prepare the next batch to write (runs in a worker thread, overlapping the Neo4j write)."""
        for records in batches:
            counter["number"] += 1
            counter["rows"] += len(records)
            if counter["number"] > done_before:
                prepared = prepare_batch(records, graph, key, type_map, written)
                return counter["number"], counter["rows"], prepared
        return None

    pending = asyncio.create_task(asyncio.to_thread(next_prepared))
    while (item := await pending) is not None:
        number, rows_done, prepared = item
        pending = asyncio.create_task(asyncio.to_thread(next_prepared))
        counts = await write_batch(store, prepared, graph=graph, doc=key, now=now_iso(), run=run,
                                   batch_number=number)
        result.counts.add(counts)
        result.batches += 1
        if progress:
            progress(str(p), rows_done, total)
        await pause_point("ingest.batch")  # test hook (graphwalk_neo4j.faults): after a committed batch
    rows_done = counter["rows"]
    result.rows = rows_done
    await complete_document(store, key=key, rows=rows_done, skipped=result.skipped, now=now_iso())
    await store.write("schema/await_fulltext_refresh")  # the name index is eventually consistent
    result.seconds = time.perf_counter() - started
    return result
