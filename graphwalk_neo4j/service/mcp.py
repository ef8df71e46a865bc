"""MCP on the official Python SDK (``mcp`` 2.x, whose high-level server is ``MCPServer``; 1.x called it
``FastMCP``): the same tools over stdio (``gw-neo4j mcp``) and over streamable HTTP at ``/mcp`` of the running
service.

Tools: ``walk`` (the context bundle and walk id; a progress notification per depth when the request carries a
progress token), ``ingest`` (inline files or a SQL URL, as ``POST /v1/ingest``: the same job, waited for, with
progress notifications), ``walk_options`` (why: the options and probabilities at each depth of a stored walk),
``draw_walk`` (a Cypher statement that draws a stored walk in Neo4j Browser), ``search``, ``get_walk``,
``list_walks``, ``list_graphs``, ``graph_schema``.
Resources: ``walk://{graph}/{walk_id}`` (one stored walk, as ``gw-neo4j walks show ID --json``) and
``walks://{graph}`` (the newest stored walks). Every tool calls the same :class:`ServiceContext` method as the HTTP
route; a project error comes back as a tool error carrying the CLI's message. The HTTP transport is stateless (no
MCP session is kept between requests), so any replica can answer any request.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import Field, ValidationError
from starlette.routing import Route

from graphwalk_neo4j import __version__
from graphwalk_neo4j.admission import walk_call
from graphwalk_neo4j.errors import GraphwalkError
from graphwalk_neo4j.graph.identity import entity_uid
from graphwalk_neo4j.graph.search import MAX_SEARCH_HITS
from graphwalk_neo4j.service.browser import bound_recipe
from graphwalk_neo4j.service.context import ServiceContext
from graphwalk_neo4j.service.jobs import IngestJobs, IngestRequest, InlineFile
from graphwalk_neo4j.service.models import (  # noqa: TC001 - the tools' signatures are read at runtime
    GraphName,
    Question,
    StartList,
)
from graphwalk_neo4j.stored_walks.read import MAX_LISTED_WALKS, replay_snippet
from graphwalk_neo4j.walk.config import build_config

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable

    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.walk.result import DepthEvent

T = TypeVar("T")
log = logging.getLogger("graphwalk_neo4j.service")
INSTRUCTIONS = (
    "graphwalk answers questions by walking a Neo4j knowledge graph hop by hop with a decision model. Call "
    "`graph_schema` to see a graph's entity and relation types, `search` to find entities, and `walk` to get a "
    "context bundle (answers, the nodes on the chosen paths with how they were reached) for a question. Every walk "
    "is stored: `get_walk` / `list_walks` or the walk:// resources replay it, `walk_options` shows the options and "
    "probabilities at each depth (why it went where it went), and `draw_walk` gives a Cypher statement that draws "
    "it in Neo4j Browser."
)
LOCAL_HOSTS = TransportSecuritySettings(
    enable_dns_rebinding_protection=True,
    allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
    allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
)


async def _tool(work: Awaitable[T]) -> T:
    try:
        return await work
    except GraphwalkError as exc:
        raise ToolError(str(exc)) from exc


def build_server(ctx: ServiceContext, jobs: IngestJobs | None = None) -> MCPServer:
    """The MCP tools and resources over ``ctx``; ``jobs`` are the service's ingest jobs (``gw-neo4j mcp`` keeps
    its own)."""
    server: MCPServer = MCPServer("graphwalk-neo4j", version=__version__, instructions=INSTRUCTIONS)
    ingest_jobs = jobs if jobs is not None else IngestJobs(ctx)

    @server.tool()
    async def walk(
        question: Question,
        graph: GraphName = "default",
        start: StartList | None = None,
        preset: str | None = None,
        model: str | None = None,
        config: dict[str, Any] | None = None,
        choose_start: bool = False,
        context: Context | None = None,
    ) -> dict[str, Any]:
        """Answer `question` by walking the graph: returns {walk_id, graph, status, answers, bundle}, where bundle
        is the context bundle (goal, answers, nodes with relevance, hop and via, hops, stopped, usage).
        `start` names start entities (default: linked from the question); `preset` is one of greedy, beam,
        relation, relation-beam, sample, relation-hint, relation-beam-hint (default: relation hops, with a beam
        of three when the decider is a learned model and `config` sets no strategy); `config` overrides walk options
        such as {"hop_mode": "relation", "max_depth": 3}, each within its limit (beam_width 64, max_depth 8,
        max_frontier 10000, ...); `choose_start` spends one decision call choosing among link candidates."""

        async def run() -> dict[str, Any]:
            call = walk_call(
                question,
                graph=graph,
                start=start,
                preset=preset,
                options=config,
                model=model,
                choose_start=choose_start,
            )
            await ctx.admit_walk(call)
            total = (call.config or build_config(None)).budget.max_depth
            progress = McpProgress(context)
            try:
                finished = await ctx.run_admitted(
                    call, on_depth=lambda event: progress.advance(depth_message(event), event.depth, total)
                )
            finally:
                await progress.flush()
            return await finished.data()

        return await _tool(run())

    @server.tool()
    async def ingest(
        graph: GraphName = "default",
        files: list[InlineFile] | None = None,
        sql: str | None = None,
        format: Literal["triples", "csv", "jsonl", "text"] | None = None,
        source: str | None = None,
        on_error: Literal["fail", "skip"] | None = None,
        batch_size: Annotated[int, Field(ge=1, le=100_000)] | None = None,
        type_map: dict[str, tuple[str | None, str | None]] | None = None,
        embed: bool | None = None,
        llm_model: str | None = None,
        routing: Literal["decide", "exact"] | None = None,
        db_schema: str | None = None,
        context: Context | None = None,
    ) -> dict[str, Any]:
        """Load data into a graph, as POST /v1/ingest does, and wait for it: `files` inline ({name, content};
        triples, CSV, JSON lines, or text documents through LLM extraction for .md or format "text") or `sql`, a
        database URL (when the service allows it). An option the chosen pipeline does not use (`db_schema` with
        files, `type_map` with text or a database, `llm_model` with structured files) is refused before anything
        is written. Returns the finished job {id, kind, status, progress, result}; a failed job is a tool error."""
        arguments = dict(locals())  # first: exactly the tool's arguments
        given = {k: v for k, v in arguments.items() if k in IngestRequest.model_fields and v is not None}

        async def run() -> dict[str, Any]:
            try:
                request = IngestRequest.model_validate(given)
            except ValidationError as exc:
                raise ToolError(f"invalid ingest request: {exc.errors()[0]['msg']}") from exc
            progress = McpProgress(context)
            try:
                job = await ingest_jobs.wait(ingest_jobs.submit(request, progress=progress).id)
            finally:
                await progress.flush()
            if job.status != "done":
                raise ToolError(f"ingest {job.status}: {job.error}")
            return job.model_dump(mode="json")

        return await _tool(run())

    @server.tool()
    async def walk_options(walk_id: str, graph: str = "default") -> dict[str, Any]:
        """Why a stored walk went where it went: for each depth, where each beam stood, every option it was
        offered with the probability the decider gave it (most likely first, the chosen one marked) and what was
        pruned before the decision. Returns {walk_id, graph, question, status, answers, depths}."""

        async def run() -> dict[str, Any]:
            found = await ctx.get_walk(graph, walk_id)
            return {
                "walk_id": found.id,
                "graph": found.graph,
                "question": found.question,
                "status": found.status,
                "answers": found.answer_names,
                "depths": found.options_by_depth(),
            }

        return await _tool(run())

    @server.tool()
    async def draw_walk(walk_id: str, graph: str = "default") -> dict[str, Any]:
        """A Cypher statement that draws a stored walk in Neo4j Browser (question, start, one captioned arrow per
        hop, answers; nothing is written): paste `cypher` into the Browser editor and run it. Returns
        {walk_id, graph, browser_url, cypher}."""

        async def run() -> dict[str, Any]:
            found = await ctx.get_walk(graph, walk_id)  # the id names a stored walk before it is quoted
            cypher = bound_recipe("draw_walk", found.id) or replay_snippet(found.id)
            return {
                "walk_id": found.id,
                "graph": found.graph,
                "browser_url": ctx.settings.resolved_browser_url(),
                "cypher": cypher,
            }

        return await _tool(run())

    @server.tool()
    async def search(
        text: str, graph: str = "default", limit: Annotated[int, Field(ge=1, le=MAX_SEARCH_HITS)] = 10
    ) -> dict[str, Any]:
        """Find entities by exact name or alias, fulltext and vector similarity; each hit has a score and the
        reasons it matched (at most `limit` hits)."""
        hits = await _tool(ctx.search(graph, text, k=limit))
        return {"query": text, "graph": graph, "hits": [{**h.as_dict(), "uid": entity_uid(graph, h.id)} for h in hits]}

    @server.tool()
    async def get_walk(walk_id: str, graph: str = "default") -> dict[str, Any]:
        """One stored walk with every step (options offered, the distribution, the choice), decision call and
        answer, plus the Cypher that replays it in Neo4j Browser."""
        return await _tool(_stored(ctx, graph, walk_id))

    @server.tool()
    async def list_walks(
        graph: str = "default", limit: Annotated[int, Field(ge=1, le=MAX_LISTED_WALKS)] = 20, status: str | None = None
    ) -> dict[str, Any]:
        """The stored walks of a graph, newest first (optionally only one status: ok, budget, error, dead_end,
        no_start, running)."""
        return await _tool(_listed(ctx, graph, limit, status))

    @server.tool()
    async def list_graphs() -> dict[str, Any]:
        """Every graph in the database with its entity and relationship counts (as GET /v1/graphs)."""
        return {"graphs": await _tool(ctx.graphs())}

    @server.tool()
    async def graph_schema(graph: str = "default") -> dict[str, Any]:
        """The entity types and relation types of a graph with their counts: what a walk can move along."""
        return await _tool(ctx.schema(graph))

    @server.resource(
        "walk://{graph}/{walk_id}",
        mime_type="application/json",
        description="A stored walk, as `gw-neo4j walks show ID --json`.",
    )
    async def walk_resource(graph: str, walk_id: str) -> str:
        try:
            return json.dumps(await _stored(ctx, graph, walk_id), default=str)
        except GraphwalkError as exc:
            raise ResourceError(str(exc)) from exc

    @server.resource(
        "walks://{graph}", mime_type="application/json", description="The newest stored walks of a graph (up to 50)."
    )
    async def walks_resource(graph: str) -> str:
        try:
            return json.dumps(await _listed(ctx, graph, 50, None), default=str)
        except GraphwalkError as exc:
            raise ResourceError(str(exc)) from exc

    return server


class McpProgress:
    """The :class:`~graphwalk_neo4j.progress.Progress` of one tool call as MCP ``notifications/progress``: each
    ``advance(label, done, total)`` becomes one (progress = ``done``, total, message = ``label``; for ``walk`` one
    per depth, the label saying the move taken and the answers so far), sent in order by one task; a request
    without a progress token gets none (the SDK drops them)."""

    def __init__(self, context: Context | None) -> None:
        self.context = context
        self.queue: asyncio.Queue[tuple[int, int, str] | None] = asyncio.Queue()
        self.sender: asyncio.Task[None] | None = None

    def stage(self, message: str) -> None:
        return None  # MCP progress is a number with a message; a stage alone has no number

    def advance(self, label: str, done: int, total: int) -> None:
        if self.context is None:
            return
        if self.sender is None:
            self.sender = asyncio.ensure_future(self._send(self.context))
        self.queue.put_nowait((done, total, label))

    async def _send(self, context: Context) -> None:
        while (item := await self.queue.get()) is not None:
            done, total, message = item
            try:
                await context.report_progress(done, total, message)
            except Exception:  # progress is best effort: a client that went away must not fail the call
                log.warning("sending MCP progress failed", exc_info=True)

    async def flush(self) -> None:
        """Every notification heard is sent before the tool's result."""
        if self.sender is not None:
            self.queue.put_nowait(None)
            await self.sender


def depth_message(event: DepthEvent) -> str:
    """``depth 1: directed_by ← (p 0.91); answers so far: 0``: the kept moves of a depth in one line."""
    moves = []
    for step in event.record.steps:
        if not step.kept or step.chosen is None:
            continue
        if step.is_stop:
            moves.append("STOP" + (f" (p {step.p:.2f})" if step.p is not None else ""))
        else:
            arrow = "←" if step.chosen_direction == "in" else "→"
            moves.append(f"{step.chosen_relation} {arrow}" + (f" (p {step.p:.2f})" if step.p is not None else ""))
    return f"depth {event.depth}: {', '.join(moves) or 'no move'}; answers so far: {len(event.answers)}"


async def _stored(ctx: ServiceContext, graph: str, walk_id: str) -> dict[str, Any]:
    found = await ctx.get_walk(graph, walk_id)
    replay = {"browser_url": ctx.settings.resolved_browser_url(), "cypher": replay_snippet(found.id)}
    return {"walk": found.model_dump(mode="json"), "replay": replay}


async def _listed(ctx: ServiceContext, graph: str, limit: int, status: str | None) -> dict[str, Any]:
    found = await ctx.list_walks(graph, limit=limit, status=status)
    return {"graph": graph, "walks": [w.model_dump(mode="json", exclude={"steps", "calls", "answers"}) for w in found]}


def http_app(
    ctx: ServiceContext, jobs: IngestJobs | None = None
) -> tuple[list[Route], Callable[[], AbstractAsyncContextManager[None]]]:
    """The ``/mcp`` route (streamable HTTP, stateless) and the lifespan its session manager needs. Without a
    service token the service is loopback-only, and the SDK's DNS-rebinding protection admits only local Host and
    Origin headers; with a token, the bearer check in front of every route guards it instead."""
    server = build_server(ctx, jobs)
    security = (
        LOCAL_HOSTS
        if ctx.settings.service_token is None
        else TransportSecuritySettings(enable_dns_rebinding_protection=False)
    )
    star = server.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=True,
        transport_security=security,
        max_request_body_size=ctx.settings.service_max_body_bytes,
    )
    routes = [r for r in star.routes if isinstance(r, Route)]

    @asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        async with server.session_manager.run():
            yield

    return routes, lifespan


async def run_stdio(settings: Settings) -> None:
    """``gw-neo4j mcp``: a warm context, the MCP tools on stdin/stdout until the client closes them."""
    ctx = ServiceContext(settings)
    await ctx.start()
    jobs = IngestJobs(ctx)
    try:
        await build_server(ctx, jobs).run_stdio_async()
    finally:
        await jobs.close()
        await ctx.close()
