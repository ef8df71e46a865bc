"""Ingest as background jobs: ``POST /v1/ingest`` starts one, ``GET /v1/jobs/{id}`` reports its progress,
``DELETE /v1/jobs/{id}`` cancels it.

A job runs the ingest composed once for every door: :func:`graphwalk_neo4j.wiring.ingest_call` checks the request
when it is submitted (the pipeline from the file names, or the SQL URL; an option the pipeline does not use is a
400 naming it, before anything is written), :func:`graphwalk_neo4j.wiring.run_ingest` runs it. Inline files are
written to a private temporary folder first (removed afterwards); the job's error and result name them as the
caller did (``kb.txt:2: ...``), never by that folder's path. The MCP ``ingest`` tool submits the same jobs.
Cancelling cancels the coroutine: the batch being written is one transaction and rolls back, so the graph keeps whole
batches only and the ledger says how far the document got (a later ingest of the same content resumes from there).

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
from graphwalk_neo4j.errors import ConfigError, DrainingError, GraphwalkError, NotFoundError
from graphwalk_neo4j.progress import QUIET, ForwardProgress, Progress
from graphwalk_neo4j.service.models import GraphName

if TYPE_CHECKING:
    from collections.abc import Callable

    from graphwalk_neo4j.ingest.structured import FileResult
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

    graph: GraphName = "default"
    source: str = Field(default="api", pattern=_SAFE_NAME)
    format: Literal["triples", "csv", "jsonl", "text"] | None = Field(
        default=None,
        description="Default: from the file names (.txt triples, .csv, .jsonl; any .md or .markdown file: text).",
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


def write_inline(folder: Path, files: list[InlineFile]) -> None:
    """The caller's inline files in a new private ``folder`` (bounded by the body limit, so written at once)."""
    folder.mkdir(mode=0o700)
    for item in files:
        (folder / item.name).write_text(item.content, encoding="utf-8")


class IngestJobs:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.on_done: list[Callable[[str], None]] = []  # metrics: called with the final status
        self._jobs: OrderedDict[str, JobView] = OrderedDict()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def submit(self, request: IngestRequest, progress: Progress = QUIET) -> JobView:
        """Check ``request`` (one line naming what is wrong, nothing written) and start it as a job; ``progress``
        also hears the job's progress (the MCP tool's notifications)."""
        if self.ctx.draining:
            raise DrainingError("the service is shutting down and takes no new jobs")
        if request.sql is not None and not self.ctx.settings.service_ingest_sql:
            raise ConfigError(
                "SQL ingest through the service is off: it connects to a database the caller names. "
                "Set GW_NEO4J_SERVICE_INGEST_SQL=true to allow it, or run `gw-neo4j ingest URL`"
            )
        folder = Path(tempfile.gettempdir()) / f"gw-ingest-{uuid.uuid4().hex}"  # made when the job runs
        given = {name: getattr(request, name) for name in request.model_fields_set if name in wiring.OPTIONS}
        if request.sql is None:
            given.setdefault("source", request.source)  # this door's default source name, "api"
        call = wiring.ingest_call(
            [request.sql] if request.sql is not None else [folder / f.name for f in request.files],
            graph=request.graph,
            fmt=request.format,
            options=given,
            check_files=False,
        )
        job = JobView(
            id=uuid.uuid4().hex, kind=call.pipeline, graph=call.graph, status="queued", created_at=time.time()
        )
        self._jobs[job.id] = job
        task = asyncio.ensure_future(self._run(job, request, call, folder, progress))
        self._tasks[job.id] = task

        def forget(_task: asyncio.Task[None], job_id: str = job.id) -> None:
            self._tasks.pop(job_id, None)

        task.add_done_callback(forget)
        return job

    async def wait(self, job_id: str) -> JobView:
        """The job once it has finished; cancelling the wait cancels the job."""
        job = self.get(job_id)
        task = self._tasks.get(job_id)
        if task is not None:
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                await self.cancel(job_id)
                raise
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

    async def _run(
        self, job: JobView, request: IngestRequest, call: wiring.IngestCall, folder: Path, progress: Progress
    ) -> None:
        job.status, job.started_at = "running", time.time()
        try:
            write_inline(folder, request.files)
            job.result = await wiring.run_ingest(
                call,
                self.ctx.store,
                self.ctx.settings,
                embedder=self.ctx.embedder,
                progress=JobProgress(job, call, progress),
                on_file_done=JobProgress.file_done(job, call),
                root=folder,  # a document's id is its name as uploaded
            )
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

    def _trim(self) -> None:
        finished = [j for j in self._jobs.values() if j.finished_at is not None]
        for job in finished[:-KEEP_FINISHED] if len(finished) > KEEP_FINISHED else []:
            self._jobs.pop(job.id, None)


class JobProgress(ForwardProgress):
    """The :class:`~graphwalk_neo4j.progress.Progress` of one job, kept on it for ``GET /v1/jobs/{id}``: a structured
    file's rows as ``file`` / ``rows_done`` / ``rows_total`` (with ``files_done`` / ``files_total``), anything else
    (a text document's chunks, ``embed``) as ``{label: {done, total}}``; passed on to ``inner`` too."""

    def __init__(self, job: JobView, call: wiring.IngestCall, inner: Progress = QUIET) -> None:
        super().__init__(inner)
        self.job = job
        self.files = {Path(p).name for p in call.inputs} if call.pipeline == "structured" else set()

    def advance(self, label: str, done: int, total: int) -> None:
        if Path(label).name in self.files:
            self.job.progress = {
                **self.job.progress,
                "file": Path(label).name,
                "rows_done": done,
                "rows_total": total,
            }
        else:
            self.job.progress = {**self.job.progress, Path(label).name: {"done": done, "total": total}}
        super().advance(Path(label).name, done, total)

    @staticmethod
    def file_done(job: JobView, call: wiring.IngestCall) -> Callable[[FileResult], None]:
        finished: list[FileResult] = []

        def done(result: FileResult) -> None:
            finished.append(result)
            job.progress = {**job.progress, "files_done": len(finished), "files_total": len(call.inputs)}

        return done
