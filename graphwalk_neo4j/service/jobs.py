"""Ingest as background jobs: ``POST /v1/ingest`` starts one, ``GET /v1/jobs/{id}`` reports its progress,
``DELETE /v1/jobs/{id}`` cancels it.

A job runs the same library call as ``gw-neo4j ingest``: :func:`ingest_file` for structured files (triples, CSV,
JSON lines), :func:`wiring.run_text` for text documents, :func:`wiring.run_sql` for a database. Inline files
are written to a private temporary folder first (removed afterwards); the job's error and result name them as the
caller did (``kb.txt:2: ...``), never by that folder's path. Cancelling cancels the coroutine: the batch
being written is one transaction and rolls back, so the graph keeps whole batches only and the ledger says how far
the document got (a later ingest of the same content resumes from there).

Jobs are the one thing the service keeps in memory (id, progress, result); what they wrote lives in Neo4j. A
finished job is kept until :data:`KEEP_FINISHED` newer ones have finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import tempfile
import time
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graphwalk_neo4j import wiring
from graphwalk_neo4j.errors import ConfigError, GraphwalkError, NotFoundError
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.identifiers import validate_identifier
from graphwalk_neo4j.ingest.structured import FileResult, ingest_files
from graphwalk_neo4j.schema import apply_schema

if TYPE_CHECKING:
    from collections.abc import Callable

    from graphwalk_neo4j.service.context import ServiceContext

log = logging.getLogger("graphwalk_neo4j.service.jobs")
KEEP_FINISHED = 200
JobStatus = Literal["queued", "running", "done", "failed", "cancelled"]
_SAFE_NAME = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$"


class InlineFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=_SAFE_NAME, description="File name (the document id in the ledger).")
    content: str


class IngestRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    graph: str = Field(default="default", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", max_length=100)
    source: str = Field(default="api", pattern=_SAFE_NAME)
    format: Literal["triples", "csv", "jsonl", "text"] | None = Field(
        default=None, description="Default: from each file's extension (.txt triples, .csv, .jsonl, .md text)."
    )
    files: list[InlineFile] = Field(default_factory=list, description="Files sent inline.")
    sql: str | None = Field(
        default=None, description="A sqlite:// or postgresql:// URL (needs GW_NEO4J_SERVICE_INGEST_SQL=true)."
    )
    on_error: Literal["fail", "skip"] = "fail"
    batch_size: int = Field(default=5000, ge=1, le=100_000)
    type_map: dict[str, tuple[str | None, str | None]] | None = None
    embed: bool = False
    llm_model: str | None = None
    routing: Literal["decide", "exact"] = "decide"
    db_schema: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> IngestRequest:
        if bool(self.files) == bool(self.sql):
            raise ValueError("send either `files` (inline) or `sql` (a database URL), not both and not neither")
        if len({f.name for f in self.files}) != len(self.files):
            raise ValueError("file names must be distinct (each is a document in the ledger)")
        return self


class JobView(BaseModel):
    id: str
    kind: Literal["structured", "text", "sql"]
    graph: str
    status: JobStatus
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    progress: dict[str, Any] = Field(default_factory=dict)
    result: dict[str, Any] | None = None
    error: str | None = None


def caller_names(value: Any, folder: Path) -> Any:
    """``value`` (a message, or a result of dicts and lists) with the server's temporary ``folder`` taken out of
    every string, so that ``/tmp/gw-ingest-x1y2/kb.txt:2: ...`` reads ``kb.txt:2: ...``: the name the caller sent."""
    if isinstance(value, str):
        for prefix in dict.fromkeys((str(folder.resolve()), str(folder))):
            value = value.replace(prefix + os.sep, "").replace(prefix, ".")
        return value
    if isinstance(value, dict):
        return {key: caller_names(item, folder) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [caller_names(item, folder) for item in value]
    return value


class IngestJobs:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.on_done: list[Callable[[str], None]] = []  # metrics: called with the final status
        self._jobs: OrderedDict[str, JobView] = OrderedDict()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def submit(self, request: IngestRequest) -> JobView:
        validate_identifier(request.graph, "graph name")
        if request.sql is not None and not self.ctx.settings.service_ingest_sql:
            raise ConfigError(
                "SQL ingest through the service is off: it connects to a database the caller names. "
                "Set GW_NEO4J_SERVICE_INGEST_SQL=true to allow it, or run `gw-neo4j ingest URL`"
            )
        kind: Literal["structured", "text", "sql"]
        if request.sql is not None:
            kind = "sql"
        elif request.format == "text" or (
            request.format is None and all(f.name.lower().endswith((".md", ".markdown")) for f in request.files)
        ):
            kind = "text"
        else:
            kind = "structured"
        job = JobView(id=uuid.uuid4().hex, kind=kind, graph=request.graph, status="queued", created_at=time.time())
        self._jobs[job.id] = job
        task = asyncio.ensure_future(self._run(job, request))
        self._tasks[job.id] = task

        def forget(_task: asyncio.Task[None], job_id: str = job.id) -> None:
            self._tasks.pop(job_id, None)

        task.add_done_callback(forget)
        return job

    def get(self, job_id: str) -> JobView:
        found = self._jobs.get(job_id)
        if found is None:
            raise NotFoundError(
                f"no ingest job {job_id!r} in this service process (jobs live in the process "
                "that started them; what they wrote is in the ledger: `gw-neo4j documents`)"
            )
        return found

    async def cancel(self, job_id: str) -> JobView:
        job = self.get(job_id)
        task = self._tasks.get(job_id)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        return job

    async def close(self) -> None:
        for job_id in list(self._tasks):
            await self.cancel(job_id)

    async def _run(self, job: JobView, request: IngestRequest) -> None:
        folder = Path(tempfile.mkdtemp(prefix="gw-ingest-"))
        job.status, job.started_at = "running", time.time()
        try:
            paths = []
            for item in request.files:
                path = folder / item.name
                path.write_text(item.content, encoding="utf-8")
                paths.append(path)
            job.result = await self._ingest(job, request, paths)
            job.status = "done" if job.result.get("ok", True) else "failed"
            if job.status == "failed":
                job.error = "; ".join(job.result.get("errors", [])) or "the ingest reported failures"
        except asyncio.CancelledError:
            job.status = "cancelled"
            job.error = "cancelled; the graph keeps the whole batches written before (see the ledger)"
            raise
        except GraphwalkError as exc:
            job.status, job.error = "failed", str(exc)
        except Exception as exc:  # reported on the job; the service keeps running
            log.error("ingest job failed", exc_info=exc, extra={"job_id": job.id})
            job.status, job.error = "failed", f"unexpected error ({type(exc).__name__}); see the service log"
        finally:
            job.error = caller_names(job.error, folder)
            job.result = caller_names(job.result, folder)
            job.finished_at = time.time()
            shutil.rmtree(folder, ignore_errors=True)
            self.ctx.forget_graph(request.graph)  # its warm caches are stale now
            for hook in self.on_done:
                hook(job.status)
            self._trim()

    async def _ingest(self, job: JobView, request: IngestRequest, paths: list[Path]) -> dict[str, Any]:
        store, settings = self.ctx.store, self.ctx.settings
        await apply_schema(store)
        if job.kind == "sql":
            assert request.sql is not None
            return await wiring.run_sql(
                store,
                request.sql,
                graph=request.graph,
                schema=request.db_schema,
                batch_size=min(request.batch_size, 5000),
            )
        if job.kind == "text":
            return await wiring.run_text(
                store,
                settings,
                [str(p) for p in paths],
                graph=request.graph,
                source=request.source,
                llm_model=request.llm_model,
                routing=request.routing,
                embed=request.embed,
            )
        files: list[dict[str, Any]] = []

        def progress(name: str, done: int, total: int) -> None:
            job.progress = {"file": Path(name).name, "rows_done": done, "rows_total": total}

        def file_done(result: FileResult) -> None:
            files.append(result.as_dict())
            job.progress = {**job.progress, "files_done": len(files), "files_total": len(paths)}

        # All files are validated before the first write; a document's id is its name as uploaded.
        await ingest_files(
            store,
            paths,
            graph=request.graph,
            source=request.source,
            fmt=request.format,
            on_error=request.on_error,
            batch_size=request.batch_size,
            type_map=request.type_map,
            root=paths[0].parent if paths else None,
            progress=progress,
            on_file_done=file_done,
        )
        embedded = None
        if request.embed:
            embedded = (await embed_graph(store, self.ctx.embedder, request.graph)).as_dict()
        return {"files": files, "embed": embedded}

    def _trim(self) -> None:
        finished = [j for j in self._jobs.values() if j.finished_at is not None]
        for job in finished[:-KEEP_FINISHED] if len(finished) > KEEP_FINISHED else []:
            self._jobs.pop(job.id, None)
