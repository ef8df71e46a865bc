"""The warm, shared state of one service process: one connected :class:`GraphStore` (one driver, on a thread of
its own when the context owns the store), one embedder (loaded at start), one :class:`WalkService` per graph (its
embedding cache preloaded), one decision backend per model, and the count of walks in flight.

Routes and MCP tools call these methods and nothing else; each method calls the same library function the CLI
calls (:meth:`WalkService.walk`, :func:`search_entities`, :func:`list_walks` / :func:`get_walk`). Nothing here is
state that another replica would need: every walk, trace and document lives in Neo4j.
"""

from __future__ import annotations

import asyncio
import contextvars
import ctypes
import ctypes.util
import functools
import gc
import logging
import sys
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from graphwalk_neo4j.backends import (
    GraphModelChoice,
    general_model_dir,
    graph_model_choice,
    resolve_backend,
    resolve_model_kind,
)
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.errors import (
    ClientGoneError,
    DrainingError,
    GraphwalkError,
    InputError,
    NotFoundError,
    RequestTimeoutError,
    SaturatedError,
)
from graphwalk_neo4j.graph.profile import graph_schema, list_graphs
from graphwalk_neo4j.graph.search import Hit, search_entities
from graphwalk_neo4j.identifiers import validate_identifier
from graphwalk_neo4j.service.models import FinishedWalk
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.store.queries import LIST_GRAPHS
from graphwalk_neo4j.stored_walks import StoredWalk, get_walk, list_walks
from graphwalk_neo4j.walk import cpu
from graphwalk_neo4j.walk.service import WalkService

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

    from graphwalk_neo4j.admission import WalkCall
    from graphwalk_neo4j.decide.base import DecisionBackend
    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.service.walk_process import WalkProcess
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.walk.engine import DepthObserver
    from graphwalk_neo4j.walk.result import DepthEvent

T = TypeVar("T")
log = logging.getLogger("graphwalk_neo4j.service")


def _model_key(settings: Settings, model: str | None) -> tuple[str, str]:
    kind, model_id, _ = resolve_model_kind(
        model if model is not None else settings.model,
        settings.typesafe_api_key is not None and bool(settings.typesafe_api_key.get_secret_value().strip()),
        settings.openrouter_api_key is not None and bool(settings.openrouter_api_key.get_secret_value().strip()),
        settings.jev_provider,
    )
    return kind, model_id


def check_caller_model(settings: Settings, model: str | None) -> None:
    """Refuse a caller-named ``learned:DIR`` outside ``GW_NEO4J_SERVICE_LEARNED_DIRS``: the service would otherwise
    read any folder a caller names. The configured default model, and the model the package ships (``general``,
    or its folder by path), are always allowed."""
    if model is None or model == settings.model:
        return
    kind, directory = _model_key(settings, model)
    if kind != "learned":
        return
    allowed = [Path(p.strip()).resolve() for p in (settings.service_learned_dirs or "").split(",") if p.strip()]
    allowed.append(general_model_dir().resolve())
    target = Path(directory).resolve()
    if not any(target == root or root in target.parents for root in allowed):
        raise InputError(
            f"model {model!r} names a learned decider outside the folders this service allows; put it under one "
            "listed in GW_NEO4J_SERVICE_LEARNED_DIRS or make it the service's GW_NEO4J_MODEL"
        )


DISCONNECT_POLL_S = 0.25  # how often a running walk asks whether its HTTP caller is still there
ANSWER_MARGIN_MAX_S = 15.0  # a walk's own deadline is this much (or a quarter of the timeout) before the request's


def answer_margin(timeout_s: float) -> float:
    """How long before the request timeout a walk stops by itself, leaving time to read its best beam's last
    move, finish storing the walk and send its partial answer: a quarter of the timeout, at most
    :data:`ANSWER_MARGIN_MAX_S` (120 s: 15 s). Sixteen worst-case walks cut together on a loaded 2-core box took
    up to 10 s for that (docs/benchmarks.md)."""
    return min(ANSWER_MARGIN_MAX_S, timeout_s / 4)


# How long a thread holding the interpreter lock runs before a waiting one gets it (Python's default: 5 ms). The
# walks' CPU pool (walk/cpu.py) computes while the event loop waits on sockets; each time the loop wakes (a probe,
# a Neo4j answer) it waits up to this long for the lock, several times per request, so the service shortens it.
SWITCH_INTERVAL_S = 0.001
# Python's automatic full (oldest-generation) garbage collection walks every tracked object while holding the
# interpreter lock: with sixteen worst-case walks in flight it ran for up to 3 s at a time (17 s of a 50 s burst),
# and every request, /healthz too, waited. The service turns it off (the young generations still collect as
# usual), freezes what start-up loaded (the warm caches) out of the collector's sight, and collects in full when
# the service is idle after walks or every 256 walks (ServiceContext._collect_when_idle, return_memory).
NO_AUTOMATIC_FULL_COLLECTION = 1_000_000_000


def tune_interpreter() -> None:
    """The service's interpreter settings (``gw-neo4j serve`` and its walk process): the shorter switch interval
    and no automatic full collection."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NO_AUTOMATIC_FULL_COLLECTION)


FULL_COLLECTION_EVERY = 256  # walks: a busy service that is never idle still collects its cycles this often
# Once the last request has been answered: how long to wait before collecting, so that the answers' bodies and
# buffers are gone too (collected in the last walk's own `finally`, before its answer was built and sent, about
# 100 MB of a burst's 200 stayed mapped: docs/benchmarks.md, the burst).
IDLE_COLLECTION_DELAY_S = 0.5


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, found once: ``find_library`` runs ``ldconfig -p`` in a subprocess and parses its
    output (200-300 ms holding the interpreter lock on this box, at every idle collection before it was cached).
    None elsewhere: the allocator keeps its own policy."""
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return None
    return getattr(ctypes.CDLL(libc_name), "malloc_trim", None)


def _collect_and_trim() -> None:
    gc.collect()  # the cycles the walks left (gw-neo4j serve runs no automatic full collection, service/server.py)
    trim = _malloc_trim()
    if trim is not None:
        trim(0)  # a ctypes call: the interpreter lock is released while glibc walks its arenas


async def return_memory() -> None:
    """Collect cyclic garbage and hand the heap's free pages back to the system, once the service is idle after
    walks (:data:`IDLE_COLLECTION_DELAY_S` after the last answer went out) or every :data:`FULL_COLLECTION_EVERY`
    walks (glibc keeps freed arenas mapped; a burst of big walks would otherwise leave the process at its peak
    RSS). In a worker thread: the trim walks every arena."""
    await asyncio.to_thread(_collect_and_trim)


class ServiceContext:
    """Owns process lifetime: :meth:`start` once, :meth:`close` once; safe for concurrent walks in between."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: GraphStore | None = None,
        embedder: Embedder | None = None,
        backend_factory: Callable[[Settings, str | None, Embedder], DecisionBackend] | None = None,
        walk_process: WalkProcess | None = None,
    ) -> None:
        if walk_process is not None and not (store is None and embedder is None and backend_factory is None):
            raise ValueError("a walk process builds its own store, embedder and backends; pass none of them")
        self.settings = settings
        self._own_store = store is None
        # walks in a child process (service/walk_process.py), so their Python never holds this loop's lock
        self.walk_process = walk_process
        # the driver's work off this loop, on a thread that yields a core to it (as the walks' CPU pool, start())
        self.store = store or GraphStore(settings, driver_thread=True, driver_nice=settings.service_worker_nice)
        if embedder is None:
            embedder = make_embedder(settings)
        self.embedder = embedder
        self._backend_factory = backend_factory or (
            lambda s, model, emb: resolve_backend(s, model, embedder_factory=lambda _s: emb)
        )
        self._backends: dict[tuple[str, str], DecisionBackend] = {}
        self._graph_models: dict[str, GraphModelChoice] = {}  # read once per graph, dropped by forget_graph
        self._backend_lock = asyncio.Lock()
        self._walkers: dict[str, WalkService] = {}
        self._warming: dict[str, asyncio.Task[None]] = {}
        self.walks_in_flight = 0
        self._walks_since_collection = 0
        self._collection: asyncio.Task[None] | None = None  # the idle collection, once scheduled
        self.walks_cancelled: dict[str, int] = {"timeout": 0, "disconnected": 0}
        self.requests_in_flight = 0  # HTTP requests other than probes and metrics (the guard counts them)
        self.draining = False
        self.started_at: float | None = None
        self.on_walk_done: list[Callable[[FinishedWalk], None]] = []  # metrics hooks
        self.on_depth_seconds: list[Callable[[float], None]] = []  # metrics hooks: each depth's wall time
        self._idle = asyncio.Event()
        self._idle.set()

    # ---- lifetime ------------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Connect, load the embedder, resolve the default backend, and load every graph's embeddings
        (``GW_NEO4J_SERVICE_GRAPHS`` narrows the list) before returning, so the first walk is already warm. A
        graph first walked later warms in the background (``/readyz`` reports it). The walks' CPU pool runs
        ``GW_NEO4J_SERVICE_WORKER_NICE`` steps nicer than this loop from here on."""
        cpu.set_worker_nice(self.settings.service_worker_nice)
        if self._own_store:
            await self.store.connect()
        await self.embedder.embed(["warm-up"])  # loads the model once, before the first walk (or search)
        if self.walk_process is not None:  # the walk process resolves the backends and warms the graphs itself
            await self.walk_process.start()
            self.started_at = time.time()
            log.info("service context ready", extra={"walk_process": self.walk_process.pid})
            return
        await self.backend(None)
        wanted = self._graphs_to_warm(await self.graph_names())
        for graph in wanted:
            self.walker(graph)
        await asyncio.gather(*self._warming.values())
        self.started_at = time.time()
        log.info("service context ready", extra={"graphs": wanted, "embedder": self.embedder.model_id})

    def _graphs_to_warm(self, found: list[str]) -> list[str]:
        if self.settings.service_graphs is None:
            return found
        return [g.strip() for g in self.settings.service_graphs.split(",") if g.strip()]

    async def close(self) -> None:
        if self.walk_process is not None:
            await self.walk_process.close()
        for task in self._warming.values():
            task.cancel()
        if self._collection is not None:
            self._collection.cancel()
        for backend in self._backends.values():
            try:
                await backend.aclose()
            except Exception:  # closing is best effort; the process is ending
                log.warning("closing a decision backend failed", exc_info=True)
        self._backends.clear()
        if self._own_store:
            await self.store.close()

    # ---- shared pieces --------------------------------------------------------------------------------------
    def _default_backend(self) -> DecisionBackend:
        found = self._backends.get(_model_key(self.settings, None))
        if found is None:
            raise RuntimeError("ServiceContext.start() resolves the default backend first")
        return found

    async def backend(self, model: str | None, *, caller_named: bool = True) -> DecisionBackend:
        """One backend per resolved model (``jev`` and ``jev-1.13.0`` share one); Jev's pinned id is verified
        the first time. A model the caller named is checked against the allowed learned folders; a graph's own
        model (``caller_named=False``, recorded by ``decider train``) is not."""
        if caller_named:
            check_caller_model(self.settings, model)
        key = _model_key(self.settings, model)
        found = self._backends.get(key)
        if found is not None:
            return found
        async with self._backend_lock:
            found = self._backends.get(key)
            if found is None:
                found = self._backend_factory(self.settings, model, self.embedder)
                await found.verify()
                self._backends[key] = found
        return found

    async def walker_for(self, graph: str) -> WalkService:
        """The warm :class:`WalkService` of an existing graph; :class:`NotFoundError` for a graph without
        entities (so arbitrary names never pile up here)."""
        found = self._walkers.get(graph)
        if found is not None:
            return found
        await self.check_graph(graph)
        return self.walker(graph)

    async def check_graph(self, graph: str) -> None:
        """:class:`NotFoundError` unless ``graph`` has entities in this database."""
        validate_identifier(graph, "graph name")
        if graph in self._walkers or graph in self.warm_state():
            return
        if graph not in await self.graph_names():
            raise NotFoundError(
                f"no graph named {graph!r} in this database; list them with GET /v1/graphs "
                "(or `gw-neo4j ingest ... --graph NAME` to load one)"
            )

    def walker(self, graph: str) -> WalkService:
        """The warm :class:`WalkService` of ``graph`` (created, and its embedding preload started, on first use)."""
        found = self._walkers.get(graph)
        if found is None:
            validate_identifier(graph, "graph name")
            found = WalkService(
                self.store, graph, self._default_backend(), embedder=self.embedder, preload_embeddings=True
            )
            self._walkers[graph] = found
            self._warming[graph] = asyncio.ensure_future(self._warm(graph, found))
        return found

    async def _warm(self, graph: str, walker: WalkService) -> None:
        started = time.perf_counter()
        try:
            await walker.ready()
        except GraphwalkError:
            log.warning(
                "warming graph failed; its walks load embeddings on demand", extra={"graph": graph}, exc_info=True
            )
            self._walkers[graph] = WalkService(self.store, graph, walker.backend, embedder=self.embedder)
            return
        try:  # the graph's model, and what it reads of the graph (a learned model: its types), before a walk
            await walker.graph_backend(await self.walk_backend(graph, None))
        except GraphwalkError:
            log.warning("reading the graph for its model failed; its first walk tries again", extra={"graph": graph})
        log.info(
            "graph warm",
            extra={
                "graph": graph,
                "vectors": walker.cache.vector_entries,
                "seconds": round(time.perf_counter() - started, 3),
            },
        )

    def forget_graph(self, graph: str) -> None:
        """Drop the warm state of ``graph`` (after an ingest changed it); the next walk warms it again."""
        self._walkers.pop(graph, None)
        self._graph_models.pop(graph, None)
        if self.walk_process is not None:
            self.walk_process.forget(graph)
        task = self._warming.pop(graph, None)
        if task is not None and not task.done():
            task.cancel()

    def warm_state(self) -> dict[str, bool]:
        """Each graph this service has started to warm, and whether it is warm (the walk process's, with one)."""
        if self.walk_process is not None:
            return dict(self.walk_process.state.warm)
        return {g: t.done() for g, t in self._warming.items()}

    def cache_entries(self) -> tuple[int, int]:
        """Vectors and node references held in the warm per-graph caches (the walk process's, with one)."""
        if self.walk_process is not None:
            return self.walk_process.state.vectors, self.walk_process.state.node_refs
        caches = [w.cache for w in self._walkers.values()]
        return sum(c.vector_entries for c in caches), sum(c.ref_entries for c in caches)

    # ---- admission -----------------------------------------------------------------------------------------
    def admit(self) -> None:
        """Take a walk slot or raise :class:`DrainingError` / :class:`SaturatedError`."""
        if self.draining:
            raise DrainingError("the service is shutting down and takes no new walks; retry on another replica")
        if self.walks_in_flight >= self.settings.service_max_walks:
            raise SaturatedError(
                f"{self.walks_in_flight} walks in flight, the limit (GW_NEO4J_SERVICE_MAX_WALKS) is "
                f"{self.settings.service_max_walks}; retry shortly"
            )
        self.walks_in_flight += 1
        self._idle.clear()

    async def admit_walk(self, call: WalkCall) -> None:
        """Admit ``call`` (already checked by :func:`~graphwalk_neo4j.admission.walk_call`) into this service:
        :class:`NotFoundError` for an unknown graph, :class:`InputError` for a learned model outside the allowed
        folders, then a walk slot (:meth:`admit`). The caller runs it with :meth:`run_admitted`, which gives
        the slot back."""
        if self.walk_process is None:
            await self.walker_for(call.graph)
        else:
            await self.check_graph(call.graph)
        check_caller_model(self.settings, call.model)
        self.admit()

    async def run_admitted(
        self,
        call: WalkCall,
        *,
        walk_id: str | None = None,
        on_depth: DepthObserver | None = None,
        gone: Callable[[], Awaitable[bool]] | None = None,
    ) -> FinishedWalk:
        """Run an admitted walk under the request timeout and give its slot back, however it ends. The walk
        itself stops :func:`answer_margin` before the timeout (status ``budget``, ``deadline: ...``) and answers
        with what it found; the timeout (504, ``interrupted``) is the backstop. ``gone``
        (the HTTP request's ``is_disconnected``) is asked every :data:`DISCONNECT_POLL_S`: when the caller has
        gone the walk is cancelled, so it stops within a depth and is stored as ``interrupted``
        (:class:`ClientGoneError`). Cut walks are counted in ``walks_cancelled`` by reason."""
        limit = self.settings.service_timeout_s
        deadline = time.monotonic() + limit - answer_margin(limit)
        work = asyncio.ensure_future(self.walk(call, walk_id=walk_id, on_depth=on_depth, deadline=deadline))
        try:
            return await self.timed(self._unless_gone(work, gone))
        except RequestTimeoutError:
            self.walks_cancelled["timeout"] += 1
            raise
        except ClientGoneError:
            self.walks_cancelled["disconnected"] += 1
            raise
        finally:
            if not work.done():
                work.cancel()
                await asyncio.wait([work])
            await self.walk_ended()

    async def walk_ended(self) -> None:
        """Give an admitted walk's slot back once it has ended, however it did: the last one out schedules the
        idle collection (:meth:`_check_idle`); every :data:`FULL_COLLECTION_EVERY` walks collect at once."""
        self._walks_since_collection += 1
        self.release()
        if self._walks_since_collection >= FULL_COLLECTION_EVERY:
            self._walks_since_collection = 0
            await return_memory()

    @staticmethod
    async def _unless_gone(work: asyncio.Future[T], gone: Callable[[], Awaitable[bool]] | None) -> T:
        while gone is not None and not work.done():
            await asyncio.wait([work], timeout=DISCONNECT_POLL_S)
            if not work.done() and await gone():
                work.cancel()
                await asyncio.wait([work])
                raise ClientGoneError("the client went away; the walk was cancelled")
        return await work

    def release(self) -> None:
        self.walks_in_flight = max(0, self.walks_in_flight - 1)
        self._check_idle()

    def enter_request(self) -> None:
        self.requests_in_flight += 1
        self._idle.clear()

    def leave_request(self) -> None:
        self.requests_in_flight = max(0, self.requests_in_flight - 1)
        self._check_idle()

    def _check_idle(self) -> None:
        if self.walks_in_flight == 0 and self.requests_in_flight == 0:
            self._idle.set()
            if self._walks_since_collection and (self._collection is None or self._collection.done()):
                # in a context of its own: not the request's that happened to end last (its log fields, its deadline)
                loop = asyncio.get_running_loop()
                self._collection = loop.create_task(self._collect_when_idle(), context=contextvars.Context())

    async def _collect_when_idle(self) -> None:
        """:func:`return_memory` once the service has stayed idle :data:`IDLE_COLLECTION_DELAY_S` after walks (a
        walk admitted meanwhile defers it to the next idle moment)."""
        await asyncio.sleep(IDLE_COLLECTION_DELAY_S)
        if self._idle.is_set() and self._walks_since_collection:
            walks, self._walks_since_collection = self._walks_since_collection, 0
            started = time.perf_counter()
            await return_memory()
            log.info("memory returned", extra={"walks": walks, "seconds": round(time.perf_counter() - started, 3)})

    async def wait_idle(self) -> None:
        """Until no walk runs and no request is open (streamed walks included)."""
        await self._idle.wait()

    async def timed(self, work: Awaitable[T]) -> T:
        """``work`` under the per-request timeout (``GW_NEO4J_SERVICE_TIMEOUT_S``). A walk cut this way is
        stored with status ``interrupted`` before this raises."""
        limit = self.settings.service_timeout_s
        try:
            return await asyncio.wait_for(work, timeout=limit)
        except TimeoutError:
            raise RequestTimeoutError(
                f"the request took longer than {limit:g} s (GW_NEO4J_SERVICE_TIMEOUT_S); ask for a smaller walk "
                "(max_depth, beam_width) or raise the limit"
            ) from None

    async def graph_model(self, graph: str) -> GraphModelChoice:
        """The model ``graph`` walks with when a request names none (its own trained model, else the service's
        default), read from Neo4j the first time the graph is walked."""
        found = self._graph_models.get(graph)
        if found is None:
            found = self._graph_models[graph] = await graph_model_choice(self.store, self.settings, graph, None)
        return found

    async def walk_backend(self, graph: str, model: str | None) -> DecisionBackend:
        """The backend for a walk on ``graph``: the one the request names, else the graph's own model."""
        if model is not None:
            return await self.backend(model)
        return await self.backend((await self.graph_model(graph)).model, caller_named=False)

    # ---- the library calls ---------------------------------------------------------------------------------
    async def walk(
        self,
        call: WalkCall,
        *,
        walk_id: str | None = None,
        on_depth: DepthObserver | None = None,
        deadline: float | None = None,
    ) -> FinishedWalk:
        """Run one walk on a slot the caller already took with :meth:`admit` (and gives back with
        :meth:`release`). The walk is stored in Neo4j when this returns. With a walk process the walk runs
        there (this same method, in-process, in the child)."""
        walk_id = walk_id or uuid.uuid4().hex
        if self.walk_process is not None:
            finished = await self.walk_process.walk(
                call, walk_id=walk_id, deadline=deadline, on_depth=on_depth, on_seconds=self._depth_seconds
            )
            for done in self.on_walk_done:
                done(finished)
            return finished
        backend = await self.walk_backend(call.graph, call.model)
        walker = await self.walker_for(call.graph)
        config = call.config

        def observe(event: DepthEvent) -> None:
            self._depth_seconds(event.seconds)
            if on_depth is not None:
                on_depth(event)

        outcome = await walker.walk(
            call.question,
            config,
            start=call.start or None,
            choose_start=call.choose_start,
            walk_id=walk_id,
            on_depth=observe,
            backend=backend,
            deadline=deadline,
        )
        finished = await FinishedWalk.of(call.graph, outcome)
        for hook in self.on_walk_done:
            hook(finished)
        t = finished.totals
        log.info(
            "walk",
            extra={
                "graph": call.graph,
                "status": finished.status,
                "depths": t.depths,
                "decision_calls": t.decision_calls,
                "wall_ms": round(t.wall_s * 1000, 2),
            },
        )
        return finished

    def _depth_seconds(self, seconds: float) -> None:
        for hook in self.on_depth_seconds:
            hook(seconds)

    async def search(self, graph: str, text: str, k: int = 10, vector: bool = True) -> list[Hit]:
        validate_identifier(graph, "graph name")
        return await search_entities(self.store, graph, text, k=k, embedder=self.embedder if vector else None)

    async def list_walks(
        self, graph: str, limit: int = 20, status: str | None = None, after: Sequence[str] = ()
    ) -> list[StoredWalk]:
        """Stored walks, read once Neo4j has applied the transactions the bookmarks ``after`` name (see
        :meth:`bookmarks`)."""
        return await list_walks(self.store.after(after), graph, limit=limit, status=status)

    async def get_walk(self, graph: str, walk_id: str, after: Sequence[str] = ()) -> StoredWalk:
        return await get_walk(self.store.after(after), graph, walk_id)

    async def bookmarks(self) -> list[str]:
        """Bookmarks of this replica's latest writes (a walk's trace once :meth:`walk` returned): a read on any
        replica given them sees those writes, on a cluster too (docs/service.md, "Beyond one machine")."""
        return await self.store.bookmarks()

    async def graph_names(self) -> list[str]:
        return [r["graph"] for r in await self.store.read(LIST_GRAPHS)]

    async def graphs(self) -> list[dict[str, Any]]:
        """:func:`list_graphs`, each with whether this process holds it warm."""
        warm = self.warm_state()
        return [{**g, "warm": warm.get(g["graph"], False)} for g in await list_graphs(self.store)]

    async def schema(self, graph: str) -> dict[str, Any]:
        validate_identifier(graph, "graph name")
        return {"graph": graph, **await graph_schema(self.store, graph)}

    async def readiness(self) -> dict[str, Any]:
        """``{ready, checks: {neo4j, indexes, embedder, graphs_warm, draining}}`` — never raises."""
        checks: dict[str, Any] = {}
        try:
            await self.store.read("server/components")
            checks["neo4j"] = True
            states = await self.store.read("schema/list_objects")
            offline = [s["name"] for s in states if s["state"] != "ONLINE"]
            checks["indexes"] = True if not offline else f"not online: {', '.join(offline)}"
        except GraphwalkError as exc:
            checks["neo4j"] = str(exc)
            checks["indexes"] = False
        loaded = getattr(self.embedder, "loaded", True)
        checks["embedder"] = bool(loaded)
        warm = self.warm_state()
        checks["graphs_warm"] = all(warm.values()) or f"warming: {', '.join(g for g, d in warm.items() if not d)}"
        checks["draining"] = self.draining
        ready = all(v is True for k, v in checks.items() if k != "draining") and not self.draining
        return {"ready": ready, "checks": checks}
