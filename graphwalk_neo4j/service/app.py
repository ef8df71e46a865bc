"""The ASGI application: :func:`create_app` wires the warm :class:`ServiceContext`, the guard middleware, the
routes of HTTP API v1, the MCP endpoint and the Browser router into one FastAPI app.

Routes stay thin: parse (pydantic) → one context call (the same library call the CLI makes) → a response model.
Every error leaves as ``application/problem+json`` (see :mod:`.problems`).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import re
import uuid
from contextlib import AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Header, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from graphwalk_neo4j import __version__
from graphwalk_neo4j.admission import WalkCall, walk_call
from graphwalk_neo4j.errors import BookmarkError, GraphwalkError
from graphwalk_neo4j.graph.identity import entity_uid
from graphwalk_neo4j.service.context import ServiceContext
from graphwalk_neo4j.service.guard import Guard
from graphwalk_neo4j.service.jobs import IngestJobs, IngestRequest, JobView
from graphwalk_neo4j.service.logs import walk_id_var
from graphwalk_neo4j.service.mcp import http_app
from graphwalk_neo4j.service.metrics import CONTENT_TYPE, Metrics
from graphwalk_neo4j.service.models import (
    GRAPH_PATTERN,
    GraphInfo,
    GraphsResponse,
    Health,
    Problem,
    Readiness,
    SearchHit,
    SearchRequest,
    SearchResponse,
    WalkRequest,
    WalkResponse,
    depth_payload,
)
from graphwalk_neo4j.service.problems import (
    MEDIA_TYPE,
    from_exception,
    problem_body,
    retry_headers,
)
from graphwalk_neo4j.stored_walks.read import MAX_LISTED_WALKS, replay_snippet, settings_guide_line
from graphwalk_neo4j.walk.config import MAX_QUESTION_CHARS
from graphwalk_neo4j.walk.cpu import off_loop

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from graphwalk_neo4j.service.models import FinishedWalk
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.walk.result import DepthEvent

log = logging.getLogger("graphwalk_neo4j.service")
BROWSER_ROUTER = "graphwalk_neo4j.service.browser"
# A walk response carries the bookmarks of its trace write; a read on any replica that sends them back sees it.
BOOKMARK_HEADER = "X-Graphwalk-Bookmark"
MAX_BOOKMARK_HEADER = 4096
_BOOKMARK = re.compile(r"^FB:[A-Za-z0-9+/=_-]*$")
PROBLEM_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "content": {MEDIA_TYPE: {}}} for code in (400, 401, 404, 413, 422, 429, 502, 503, 504)
}


def problem_response(request: Request, exc: BaseException) -> JSONResponse:
    status, body = from_exception(exc, instance=request.url.path, request_id=request.state.request_id)
    walk_id = getattr(request.state, "walk_id", None)
    if walk_id is not None:  # a walk that was cut (timeout) is stored; say which one
        body["walk_id"] = walk_id
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=retry_headers(status))


def sse(event: str, data: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, default=str, ensure_ascii=False)}\n\n".encode()


def depth_event(graph: str, event: DepthEvent) -> bytes:
    """One streamed ``depth`` event (run in the walks' CPU pool: a wide depth has thousands of options)."""
    return sse("depth", depth_payload(graph, event))


def create_app(settings: Settings, *, context: ServiceContext | None = None) -> FastAPI:
    """The service app. ``context`` (tests, benchmarks) replaces the one built from ``settings``; either way the
    app's lifespan starts and closes it."""
    ctx = context or ServiceContext(settings)
    metrics = Metrics(ctx)
    jobs = IngestJobs(ctx)
    jobs.on_done.append(metrics.job_done)
    background: set[asyncio.Task[Any]] = set()
    mcp_routes, mcp_lifespan = _mcp(ctx, jobs)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            await ctx.start()
            stack.push_async_callback(ctx.close)
            stack.push_async_callback(jobs.close)  # runs first: cancels jobs at a batch boundary
            if mcp_lifespan is not None:
                await stack.enter_async_context(mcp_lifespan())
            yield
            ctx.draining = True
            await ctx.wait_idle()

    app = FastAPI(
        title="graphwalk-neo4j",
        version=__version__,
        summary="Answer questions by walking a Neo4j knowledge graph hop by hop with a decision model.",
        lifespan=lifespan,
        responses=PROBLEM_RESPONSES,
    )
    app.state.ctx = ctx
    app.state.metrics = metrics
    app.state.background = background
    app.state.jobs = jobs

    @app.exception_handler(GraphwalkError)
    async def graphwalk_error(request: Request, exc: GraphwalkError) -> JSONResponse:
        return problem_response(request, exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'] if p != 'body') or 'body'}: {e['msg']}" for e in exc.errors()
        )
        body = problem_body(
            422, f"invalid request: {problems}", instance=request.url.path, request_id=request.state.request_id
        )
        return JSONResponse(body, status_code=422, media_type=MEDIA_TYPE)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no route {request.url.path}; the API is described at /docs and /openapi.json"
        body = problem_body(exc.status_code, detail, instance=request.url.path, request_id=request.state.request_id)
        return JSONResponse(body, status_code=exc.status_code, media_type=MEDIA_TYPE, headers=exc.headers)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        return problem_response(request, exc)

    # ---- probes and metrics -------------------------------------------------------------------------------
    @app.get("/healthz", response_model=Health, tags=["ops"])
    async def healthz() -> Health:
        """The process is alive (answers even while draining)."""
        return Health(version=__version__)

    @app.get("/readyz", response_model=Readiness, tags=["ops"], responses={503: {"model": Readiness}})
    async def readyz() -> JSONResponse:
        """Neo4j reachable, every index online, the embedder loaded, every warm graph's embeddings loaded, not
        draining. 503 otherwise (so a load balancer stops routing here)."""
        report = await ctx.readiness()
        return JSONResponse(report, status_code=200 if report["ready"] else 503)

    @app.get("/metrics", tags=["ops"], response_class=Response)
    async def metrics_text() -> Response:
        """Prometheus text exposition."""
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    # ---- walks ---------------------------------------------------------------------------------------------
    @app.post(
        "/v1/walk", response_model=WalkResponse, tags=["walks"], responses={200: {"content": {"text/event-stream": {}}}}
    )
    async def walk(body: WalkRequest, request: Request) -> Any:
        """Walk the graph toward the answer. The walk is stored in Neo4j before the answer is sent. With
        ``"stream": true`` (or ``Accept: text/event-stream``) the answer is a stream of Server-Sent Events: one
        ``depth`` event per depth, then one ``result`` event with this same response body (or ``error``)."""
        call = walk_call(
            body.question,
            graph=body.graph,
            start=body.start,
            preset=body.preset,
            options=body.config,
            model=body.model,
            choose_start=body.choose_start,
        )
        await ctx.admit_walk(call)  # an unknown graph is a 404, a full service a 429, before any work
        walk_id = _new_walk_id()
        request.state.walk_id = walk_id
        walk_id_var.set(walk_id)
        stream = body.stream or "text/event-stream" in request.headers.get("accept", "")
        if not stream:
            finished = await ctx.run_admitted(call, walk_id=walk_id, gone=request.is_disconnected)
            # serialised once, where the walk ran (the response_model documents it; FastAPI need not validate it)
            return Response(
                finished.body,
                media_type="application/json",
                headers={BOOKMARK_HEADER: ",".join(await ctx.bookmarks())},
            )
        return StreamingResponse(
            _stream(call, walk_id, request),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @app.get("/v1/walk", response_model=WalkResponse, tags=["walks"], responses={403: PROBLEM_RESPONSES[400]})
    async def walk_by_get(
        request: Request,
        question: str = Query(min_length=1, max_length=MAX_QUESTION_CHARS, description="The question to answer."),
        graph: str = Query("default", pattern=GRAPH_PATTERN, max_length=100),
        preset: str | None = Query(None, description="A named walk configuration (see `gw-neo4j walk -h`)."),
    ) -> Any:
        """The same walk as ``POST /v1/walk`` with only ``question``, ``graph`` and ``preset``, for callers that can
        only GET: the Cypher recipe ``recipes/run_walk`` calls it with ``apoc.load.json`` (APOC core on 5.26 and
        2026.x; the POST-capable ``apoc.load.jsonParams`` is moving to APOC Extended). It writes the walk's trace
        like the POST, so a browser's cross-site request (``Sec-Fetch-Site: cross-site`` or ``same-site``) is
        refused with 403; APOC, curl and other non-browser callers send no such header."""
        site = request.headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            raise StarletteHTTPException(
                403,
                f"GET /v1/walk from a {site} browser request is refused (it stores a walk); "
                "POST /v1/walk with a JSON body instead",
            )
        body = WalkRequest(question=question, graph=graph, preset=preset)
        return await walk(body, request)

    async def _stream(call: WalkCall, walk_id: str, request: Request) -> AsyncIterator[bytes]:
        queue: asyncio.Queue[DepthEvent | None] = asyncio.Queue()

        async def run() -> FinishedWalk:
            try:
                return await ctx.run_admitted(call, walk_id=walk_id, on_depth=queue.put_nowait)
            finally:
                queue.put_nowait(None)

        task = asyncio.ensure_future(run())
        background.add(task)  # the server's shutdown waits for it (and its trace)
        task.add_done_callback(background.discard)
        try:
            yield sse("start", {"walk_id": walk_id, "graph": call.graph})
            while (event := await queue.get()) is not None:
                yield await off_loop(depth_event, call.graph, event)
        finally:
            if not task.done():  # the client went away mid-stream: the walk stops within a depth
                ctx.walks_cancelled["disconnected"] += 1
                task.cancel()
        try:
            finished = await task
        except BaseException as exc:  # reported to the client as an error event
            if isinstance(exc, asyncio.CancelledError):
                raise
            _, problem = from_exception(exc, instance="/v1/walk", request_id=request.state.request_id)
            yield sse("error", problem)
            return
        yield f"event: result\ndata: {finished.body}\n\n".encode()  # JSON text: one line

    @app.get("/v1/walks", tags=["walks"])
    async def walks(
        graph: str = Query("default", pattern=GRAPH_PATTERN),
        limit: int = Query(20, ge=1, le=MAX_LISTED_WALKS),
        status: str | None = Query(None),
        bookmark: str | None = Header(None, alias=BOOKMARK_HEADER, max_length=MAX_BOOKMARK_HEADER),
    ) -> dict[str, Any]:
        """Stored walks of a graph, newest first (as ``gw-neo4j walks list --json``); with the
        ``X-Graphwalk-Bookmark`` a walk response carried, read once that walk's trace is applied here."""
        found = await ctx.timed(ctx.list_walks(graph, limit=limit, status=status, after=bookmark_values(bookmark)))
        exclude = {"steps", "calls", "answers"}
        return {"graph": graph, "walks": [w.model_dump(mode="json", exclude=exclude) for w in found]}

    @app.get("/v1/walks/{walk_id}", tags=["walks"])
    async def stored_walk(
        walk_id: str,
        graph: str = Query("default", pattern=GRAPH_PATTERN),
        bookmark: str | None = Header(None, alias=BOOKMARK_HEADER, max_length=MAX_BOOKMARK_HEADER),
    ) -> dict[str, Any]:
        """One stored walk with its steps, calls and answers, exactly as ``gw-neo4j walks show ID --json``; with
        the ``X-Graphwalk-Bookmark`` of the walk's response, read once its trace is applied on this replica's
        database server (a cluster follower may lag the leader)."""
        found = await ctx.timed(ctx.get_walk(graph, walk_id, after=bookmark_values(bookmark)))
        replay = {
            "browser_url": settings.resolved_browser_url(),
            "guide": settings_guide_line(settings, found.id),
            "cypher": replay_snippet(found.id),
        }
        return {"walk": found.model_dump(mode="json"), "replay": replay}

    # ---- graphs and search --------------------------------------------------------------------------------
    @app.post("/v1/search", response_model=SearchResponse, tags=["graphs"])
    async def search(body: SearchRequest) -> SearchResponse:
        """Entities by exact name or alias, fulltext and vector similarity, with the reason for each hit (as
        ``gw-neo4j search --json``)."""
        hits = await ctx.timed(ctx.search(body.graph, body.text, k=body.limit, vector=body.vector))
        return SearchResponse(
            query=body.text,
            graph=body.graph,
            hits=[
                SearchHit(
                    id=h.id,
                    uid=entity_uid(body.graph, h.id),
                    name=h.name,
                    type=h.type,
                    score=round(h.score, 4),
                    reasons=h.reasons,
                )
                for h in hits
            ],
        )

    @app.get("/v1/graphs/{graph}/schema", tags=["graphs"])
    async def schema(graph: str = Path(pattern=GRAPH_PATTERN, max_length=100)) -> dict[str, Any]:
        """A graph's entity types and relation types with their counts (as ``gw-neo4j schema --json`` and the MCP
        ``graph_schema`` tool)."""
        return await ctx.timed(ctx.schema(graph))

    @app.get("/v1/graphs", response_model=GraphsResponse, tags=["graphs"])
    async def graphs() -> GraphsResponse:
        """Every graph in the database with its entity and relationship counts."""
        rows = await ctx.timed(ctx.graphs())
        return GraphsResponse(graphs=[GraphInfo(**r) for r in rows])

    # ---- ingest jobs --------------------------------------------------------------------------------------
    @app.post("/v1/ingest", response_model=JobView, status_code=202, tags=["ingest"])
    async def ingest(body: IngestRequest, request: Request) -> JSONResponse:
        """Start an ingest as a background job (files inline, or a SQL URL when allowed); poll
        ``GET /v1/jobs/{id}``. Same pipelines and ledger guarantees as ``gw-neo4j ingest``."""
        job = jobs.submit(body)
        return JSONResponse(job.model_dump(mode="json"), status_code=202, headers={"Location": f"/v1/jobs/{job.id}"})

    @app.get("/v1/jobs/{job_id}", response_model=JobView, tags=["ingest"])
    async def job_status(job_id: str) -> JobView:
        """A job's status (queued, running, done, failed, cancelled), progress and result."""
        return jobs.get(job_id)

    @app.delete("/v1/jobs/{job_id}", response_model=JobView, tags=["ingest"])
    async def cancel_job(job_id: str) -> JobView:
        """Cancel a job: the batch in flight rolls back, whole batches stay, the ledger says how far it got."""
        return await jobs.cancel(job_id)

    app.router.routes.extend(mcp_routes)  # POST/GET/DELETE /mcp: MCP over streamable HTTP
    _include_browser(app)
    app.add_middleware(Guard, ctx=ctx, metrics=metrics)
    return app


def bookmark_values(header: str | None) -> list[str]:
    """``X-Graphwalk-Bookmark: b1,b2`` -> ``["b1", "b2"]`` (Neo4j bookmarks hold no commas). A value not shaped
    like the bookmarks Neo4j 5.26 and 2026.x issue (``FB:`` and base64) is a :class:`BookmarkError` (400) here:
    Neo4j itself answers such a value with an internal error, not a refusal."""
    values = [b.strip() for b in (header or "").split(",") if b.strip()]
    for value in values:
        if not _BOOKMARK.match(value):
            raise BookmarkError(
                f"{BOOKMARK_HEADER} holds {value[:40]!r}, which is not a Neo4j bookmark; send the value a response "
                "of this service returned, unchanged, or none"
            )
    return values


def _new_walk_id() -> str:
    return uuid.uuid4().hex


def _mcp(ctx: ServiceContext, jobs: IngestJobs) -> tuple[list[Any], Any]:
    """The MCP streamable-HTTP route ``/mcp`` (its ``ingest`` tool runs the service's own jobs) and the lifespan
    of its session manager."""
    return http_app(ctx, jobs)


def _include_browser(app: FastAPI) -> None:
    """The Browser guide and style (``/guide``, ``/style.grass``) live in the browser module, when present."""
    try:
        module = importlib.import_module(BROWSER_ROUTER)
    except ModuleNotFoundError as exc:
        if exc.name != BROWSER_ROUTER:
            raise
        return
    app.include_router(module.router)
