"""The text ingest pipeline: files -> documents -> chunks -> extraction -> routing -> resolution, with a ledger.

Per document (ledger key ``<graph>|<source>|<doc id>``; its hash covers the text, the extraction model, the
prompt version, the routing mode and the chunk size):

1. **plan** — unchanged and complete: skipped without a single write. Rejected (binary, too large, not UTF-8):
   reported, nothing written. Empty: reported; a previous version is retracted and forgotten. Otherwise the text
   is chunked and the previous version's cached extractions are read from its chunks (by chunk hash + model +
   prompt version), so an edited document only re-extracts the chunks that changed.
2. **extract** — every chunk not in the cache is sent to the :class:`Extractor`, running ahead of the consumer
   (a window of scheduled chunks; the extractor's semaphore bounds calls in flight).
3. **apply**, document by document and chunk by chunk, in order — a changed, incomplete or half-written
   document is first retracted (:func:`retract_text_document`); the document and its chunks are written
   (``HAS_CHUNK``, ``NEXT_CHUNK``); each chunk's mentions are routed against the graph as it stands, resolved
   and written in one transaction. A chunk whose extraction failed is marked ``failed``; the document is then
   closed ``incomplete`` and retried by the next run (its good chunks come from the cache).

The report splits the time into planning, extraction wait (time the consumer sat waiting for the LLM), routing
and apply. Progress goes to an injected :class:`~graphwalk_neo4j.progress.Progress` (label: the document id).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import ExtractionError
from graphwalk_neo4j.graph.embeddings import entity_text, text_hash, vector_params
from graphwalk_neo4j.graph.identity import content_hash
from graphwalk_neo4j.graph.ledger import (
    begin_document,
    document_key,
    get_document,
    list_documents,
    now_iso,
    retract_document,
)
from graphwalk_neo4j.identifiers import validate_identifier
from graphwalk_neo4j.ingest.chunking import MAX_CHARS, Chunk, chunk_text
from graphwalk_neo4j.ingest.extraction import (
    PROMPT_VERSION,
    CleanExtraction,
    Extractor,
    cache_key,
)
from graphwalk_neo4j.ingest.resolution import ApplyCounts, apply_chunk, chunk_key, resolve_chunk
from graphwalk_neo4j.ingest.sources import MAX_BYTES, Rejected, SourceDocument, discover, read_document
from graphwalk_neo4j.progress import QUIET, Progress
from graphwalk_neo4j.store import GraphStore, run_template

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.ingest.routing import Router

PIPELINE_VERSION = "text-1"


@dataclass
class DocumentResult:
    doc_id: str
    document: str
    path: str
    status: str  # loaded | reloaded | unchanged | empty | rejected | incomplete | retracted
    chunks: int = 0
    extracted: int = 0  # chunks sent to the LLM this run
    cached: int = 0  # chunks whose extraction came from the cache
    failed: int = 0
    counts: ApplyCounts = field(default_factory=ApplyCounts)
    routes: dict[str, int] = field(default_factory=dict)
    message: str | None = None
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "document": self.document,
            "path": self.path,
            "status": self.status,
            "chunks": self.chunks,
            "extracted": self.extracted,
            "cached": self.cached,
            "failed": self.failed,
            "counts": self.counts.as_dict(),
            "routes": dict(sorted(self.routes.items())),
            "message": self.message,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class TextIngestReport:
    documents: list[DocumentResult] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(
        default_factory=lambda: {"plan": 0.0, "extraction_wait": 0.0, "routing": 0.0, "apply": 0.0}
    )
    extraction: dict[str, Any] = field(default_factory=dict)
    routing: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(d.status not in ("rejected", "incomplete") for d in self.documents)

    def as_dict(self) -> dict[str, Any]:
        done = sum(1 for d in self.documents if d.status not in ("unchanged", "rejected"))
        return {
            "documents": [d.as_dict() for d in self.documents],
            "seconds": round(self.seconds, 3),
            "documents_per_s": round(done / self.seconds, 2) if self.seconds else 0.0,
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "extraction": self.extraction,
            "routing": self.routing,
            "warnings": self.warnings,
        }


@dataclass
class _Plan:
    doc: SourceDocument
    key: str
    hash: str
    existing: dict[str, Any] | None
    chunks: list[Chunk]
    cached: dict[str, str]  # chunk hash -> cached extraction JSON
    result: DocumentResult
    tasks: list[asyncio.Task[CleanExtraction | ExtractionError]] = field(default_factory=list)


async def retract_text_document(store: GraphStore, *, graph: str, key: str, forget: bool = False) -> dict[str, int]:
    """Retract a document's contribution (provenance, claims, orphaned elements) and delete its chunks."""
    report = await retract_document(store, graph=graph, key=key, forget=forget)
    rows = await store.write("ingest/delete_chunks", graph=graph, doc=key)
    report["chunks_deleted"] = rows[0]["deleted"] if rows else 0
    return report


async def clean_orphan_chunks(store: GraphStore, graph: str) -> int:
    """Delete chunks whose document left the ledger (``gw-neo4j retract`` forgets documents, not chunks)."""
    orphans = await store.read("ingest/orphan_chunk_documents", graph=graph)
    deleted = 0
    for row in orphans:
        rows = await store.write("ingest/delete_chunks", graph=graph, doc=row["doc"])
        deleted += rows[0]["deleted"] if rows else 0
    return deleted


def document_hash(doc: SourceDocument, model: str, routing: str, max_chars: int) -> str:
    return content_hash([PIPELINE_VERSION, PROMPT_VERSION, model, routing, max_chars, doc.hash])


class TextIngest:
    """One run over a set of files into ``graph``; see the module docstring for the stages."""

    def __init__(
        self,
        store: GraphStore,
        *,
        graph: str,
        extractor: Extractor,
        router: Router,
        source: str = "files",
        max_chars: int = MAX_CHARS,
        max_bytes: int = MAX_BYTES,
        embedder: Embedder | None = None,
        lookahead: int | None = None,
        progress: Progress = QUIET,
        prune: bool = False,
    ) -> None:
        validate_identifier(graph, "graph name")
        self.store = store
        self.graph = graph
        self.source = source
        self.extractor = extractor
        self.router = router
        self.max_chars = max_chars
        self.max_bytes = max_bytes
        self.embedder = embedder
        self.lookahead = lookahead if lookahead is not None else max(16, 4 * extractor.concurrency)
        self.prune = prune
        self.progress = progress
        self.run_id = uuid.uuid4().hex
        self.report = TextIngestReport()

    # ---- plan -------------------------------------------------------------------------------------------
    async def _plan(self, path: Path, doc_id: str) -> _Plan | None:
        started = time.perf_counter()
        key = document_key(self.graph, self.source, doc_id)
        result = DocumentResult(doc_id=doc_id, document=key, path=str(path), status="loaded")
        self.report.documents.append(result)
        doc = read_document(path, doc_id, max_bytes=self.max_bytes)
        if isinstance(doc, Rejected):
            result.status, result.message = "rejected", doc.reason
            return None
        existing = await get_document(self.store, key)
        digest = document_hash(doc, self.extractor.model, self.router.mode, self.max_chars)
        if existing and existing["content_hash"] == digest and existing["complete"]:
            result.status, result.chunks = "unchanged", int(existing["rows"] or 0)
            return None
        if not doc.text.strip():
            result.status, result.message = "empty", "the document has no text; nothing to extract"
            if existing:
                await retract_text_document(self.store, graph=self.graph, key=key, forget=True)
                result.message += " (its previous version was retracted)"
            return None
        cached: dict[str, str] = {}
        if existing:
            for row in await self.store.read("ingest/document_chunks", graph=self.graph, doc=key):
                if row["extraction"] and row["extraction_key"] == cache_key(row["hash"], self.extractor.model):
                    cached[row["hash"]] = row["extraction"]
        chunks = chunk_text(doc.text, self.max_chars)
        result.chunks = len(chunks)
        result.seconds += time.perf_counter() - started
        return _Plan(doc=doc, key=key, hash=digest, existing=existing, chunks=chunks, cached=cached, result=result)

    async def _prune(self, present: set[str]) -> None:
        """Retract and forget this source's documents that are no longer among the inputs."""
        for row in await list_documents(self.store, self.graph):
            if row["source"] == self.source and row["doc_id"] not in present:
                await retract_text_document(self.store, graph=self.graph, key=row["key"], forget=True)
                self.report.documents.append(
                    DocumentResult(
                        doc_id=row["doc_id"],
                        document=row["key"],
                        path="",
                        status="retracted",
                        message="no longer among the inputs: retracted and forgotten (--prune)",
                    )
                )

    # ---- extract ----------------------------------------------------------------------------------------
    async def _extract(self, plan: _Plan, chunk: Chunk) -> CleanExtraction | ExtractionError:
        cached = plan.cached.get(chunk.hash)
        if cached is not None:
            plan.result.cached += 1
            return CleanExtraction.model_validate_json(cached)
        plan.result.extracted += 1
        try:
            return await self.extractor.extract(chunk.text, label=f"{plan.doc.doc_id} chunk {chunk.index}")
        except ExtractionError as exc:
            return exc

    # ---- apply ------------------------------------------------------------------------------------------
    async def _open(self, plan: _Plan) -> None:
        if plan.existing:
            await retract_text_document(self.store, graph=self.graph, key=plan.key)
            plan.result.status = "reloaded"
        await begin_document(
            self.store,
            graph=self.graph,
            source=self.source,
            key=plan.key,
            doc_id=plan.doc.doc_id,
            content_hash=plan.hash,
            batch_size=self.max_chars,
            kind="text",
            now=now_iso(),
        )
        rows = [
            {
                "key": chunk_key(plan.key, c.index),
                "index": c.index,
                "text": c.text,
                "hash": c.hash,
                "extraction": plan.cached.get(c.hash),
                "extraction_key": cache_key(c.hash, self.extractor.model) if c.hash in plan.cached else None,
            }
            for c in plan.chunks
        ]

        async def work(tx: Any) -> None:
            await run_template(tx, "ingest/write_chunks", rows=rows, graph=self.graph, doc=plan.key)
            await run_template(tx, "ingest/link_next_chunks", doc=plan.key)

        await self.store.in_write_tx(work)

    async def _apply_chunk(self, plan: _Plan, chunk: Chunk, extraction: CleanExtraction) -> None:
        key = chunk_key(plan.key, chunk.index)
        routes = await self.router.route(chunk.text, extraction.mentions)
        for route in routes:
            plan.result.routes[route.method] = plan.result.routes.get(route.method, 0) + 1
        started = time.perf_counter()
        write = resolve_chunk(
            routes,
            extraction.facts,
            graph=self.graph,
            source=self.source,
            doc_id=plan.doc.doc_id,
            doc_key=plan.key,
            chunk=key,
        )
        counts = await apply_chunk(
            self.store,
            write,
            graph=self.graph,
            doc=plan.key,
            chunk=key,
            extraction=extraction.model_dump_json(),
            extraction_key=cache_key(chunk.hash, self.extractor.model),
            now=now_iso(),
            run=self.run_id,
        )
        plan.result.counts.add(counts)
        if write.entities:  # routing of the next chunks searches the (eventually consistent) fulltext index
            await self.store.write("schema/await_fulltext_refresh")
        if self.embedder is not None and write.entities:
            await self._embed([e.uid for e in write.entities])
        self.report.timings["apply"] += time.perf_counter() - started

    async def _embed(self, uids: list[str]) -> None:
        """Embed the entities a chunk touched, so routing's vector search sees them for the next chunks."""
        assert self.embedder is not None
        rows = await self.store.read("graph/entities_by_uid", uids=uids)
        texts = [entity_text(r["name"], r["type"], r["aliases"], r["summary"]) for r in rows]
        vectors = await self.embedder.embed(texts)
        hashes = [text_hash(self.embedder.model_id, t) for t in texts]
        await self.store.write("graph/set_embeddings", **vector_params([r["uid"] for r in rows], vectors, hashes))

    async def _finish(self, plan: _Plan, errors: list[str]) -> None:
        failed = len(errors)
        plan.result.failed = failed
        if failed:
            plan.result.status = "incomplete"
            plan.result.message = (
                f"{failed} of {len(plan.chunks)} chunks failed extraction; the document is "
                f"marked incomplete and will be retried on the next run. First error: "
                f"{errors[0]}"
            )
        await self.store.write(
            "ingest/finish_document",
            key=plan.key,
            status="incomplete" if failed else "complete",
            complete=not failed,
            title=plan.doc.title,
            path=plan.doc.path,
            format=plan.doc.kind,
            chunks=len(plan.chunks),
            failed=failed,
            error=errors[0] if errors else None,
            now=now_iso(),
        )

    # ---- run --------------------------------------------------------------------------------------------
    async def run(self, paths: Sequence[str | Path]) -> TextIngestReport:
        started = time.perf_counter()
        files = discover(list(paths))
        t0 = time.perf_counter()
        await clean_orphan_chunks(self.store, self.graph)
        plans = [p for p in [await self._plan(path, doc_id) for path, doc_id in files] if p is not None]
        if self.prune:
            await self._prune({doc_id for _, doc_id in files})
        self.report.timings["plan"] += time.perf_counter() - t0
        jobs = [(plan, chunk) for plan in plans for chunk in plan.chunks]
        scheduled = 0

        def schedule(upto: int) -> None:
            nonlocal scheduled
            while scheduled < min(upto, len(jobs)):
                plan, chunk = jobs[scheduled]
                plan.tasks.append(asyncio.create_task(self._extract(plan, chunk)))
                scheduled += 1

        consumed = 0
        try:
            for plan in plans:
                doc_started = time.perf_counter()
                await self._open(plan)
                errors: list[str] = []
                for i, chunk in enumerate(plan.chunks):
                    schedule(consumed + 1 + self.lookahead)
                    t = time.perf_counter()
                    outcome = await plan.tasks[i]
                    self.report.timings["extraction_wait"] += time.perf_counter() - t
                    consumed += 1
                    if isinstance(outcome, ExtractionError):
                        errors.append(str(outcome))
                        await self.store.write(
                            "ingest/set_chunk_status",
                            key=chunk_key(plan.key, chunk.index),
                            extraction=None,
                            extraction_key=None,
                            status="failed",
                            error=str(outcome)[:1000],
                        )
                    else:
                        await self._apply_chunk(plan, chunk, outcome)
                    self.progress.advance(plan.doc.doc_id, i + 1, len(plan.chunks))
                await self._finish(plan, errors)
                plan.result.seconds += time.perf_counter() - doc_started
        finally:
            for plan in plans:
                for task in plan.tasks:
                    task.cancel()
        self.report.timings["routing"] = self.router.stats.seconds
        self.report.seconds = time.perf_counter() - started
        stats = self.extractor.stats
        self.report.extraction = {
            "model": self.extractor.model,
            "calls": stats.calls,
            "retries": stats.retries,
            "failures": stats.failures,
            "input_tokens": stats.input_tokens,
            "output_tokens": stats.output_tokens,
            "call_seconds": round(stats.seconds, 3),
        }
        rs = self.router.stats
        self.report.routing = {
            "mode": self.router.mode,
            "mentions": rs.mentions,
            "questions": rs.questions,
            "decision_calls": rs.decision_calls,
            "escalations": rs.escalations,
            "fallbacks": rs.fallbacks,
            "merged": rs.merged,
            "new": rs.new,
        }
        self.report.warnings = list(dict.fromkeys(rs.warnings))
        return self.report


async def ingest_text(store: GraphStore, paths: Sequence[str | Path], **kwargs: Any) -> TextIngestReport:
    """Convenience wrapper: ``TextIngest(store, **kwargs).run(paths)``."""
    return await TextIngest(store, **kwargs).run(paths)
