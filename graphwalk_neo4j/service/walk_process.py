"""The service's walks in a process of their own (``GW_NEO4J_SERVICE_WALK_PROCESS``, on in ``gw-neo4j serve``).

A walk is Python work: choice questions over thousands of options, similarity ranking, trace rows, the driver's
packing and unpacking. In one process it all shares one interpreter lock with the event loop that answers
``/healthz`` and every other request, so a burst of big walks made a probe wait hundreds of milliseconds
(docs/benchmarks.md, the burst). Here the loop's process admits, times and answers requests, and a child process
(started with ``spawn``, its own driver, embedder, warm caches and decision backends) runs the walks: the same
:meth:`ServiceContext.walk <graphwalk_neo4j.service.context.ServiceContext.walk>` the in-process service calls,
so what a walk does and stores does not change.

The two talk over one pipe (:mod:`multiprocessing.connection`), with pickled messages:

* to the child: ``("walk", id, call, walk_id, seconds_left, stream, log_level)``, ``("cancel", id)``,
  ``("forget", graph)`` (an ingest changed it), ``("close",)``;
* to the parent: ``("ready", warm)`` or ``("failed", error)`` once at start; per walk ``("depth", id, event,
  seconds)`` (the whole :class:`DepthEvent` only when the request streams, else ``None``), then ``("done", id,
  finished, state)`` (a :class:`~graphwalk_neo4j.service.models.FinishedWalk`: the response body rendered in
  the child, so the parent never unpickles a big walk's objects), ``("error", id, error, state)`` or
  ``("cancelled", id, state)``; ``state`` is the warm graphs and the caches' sizes, for ``/readyz`` and
  ``/metrics``.

A cancelled request (timeout, client gone, shutdown) sends ``cancel``; the child cancels the walk, which stores it
as ``interrupted``, and answers ``cancelled``; the parent waits for that (at most :data:`CANCEL_WAIT_S`) as the
in-process service waits for its walk task. The child ignores SIGINT and SIGTERM (the parent drains and then
closes it) and exits when the pipe closes. If it dies, the walks it held fail with a one-line error and the next
walk starts a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import GraphwalkError, WalkProcessError
from graphwalk_neo4j.service import logs
from graphwalk_neo4j.service.context import ServiceContext, tune_interpreter

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from multiprocessing.connection import Connection

    from graphwalk_neo4j.admission import WalkCall
    from graphwalk_neo4j.service.models import FinishedWalk
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.walk.engine import DepthObserver

log = logging.getLogger("graphwalk_neo4j.service")

START_TIMEOUT_S = 600.0  # the child loads the embedder and warms every graph before it is ready
CANCEL_WAIT_S = 30.0  # how long a cancelled walk may take to store itself as interrupted
CLOSE_WAIT_S = 60.0  # how long the child may take to cut its walks and close its driver
# The walk process's allocator: glibc's malloc, whose freed pages the idle collection's malloc_trim returns (the
# serving process keeps pymalloc, faster for its many small request objects and holding little)
CHILD_ALLOCATOR = "malloc"
EXIT_WAIT_S = 5.0  # once its pipe closed, how long the reader waits for the child's exit code


@dataclass
class ChildState:
    """What the child last reported: which graphs it holds warm, and its caches' sizes."""

    warm: dict[str, bool] = field(default_factory=dict)
    vectors: int = 0
    node_refs: int = 0


@dataclass
class _Pending:
    future: asyncio.Future[Any]
    on_depth: DepthObserver | None
    on_seconds: Callable[[float], None] | None
    cancel_sent: bool = False


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a :class:`GraphwalkError` subclass with its message: an error class
    whose constructor takes other arguments than its message cannot be rebuilt on the other side."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        kind = type(exc) if isinstance(exc, GraphwalkError) else GraphwalkError
        for candidate in kind.__mro__:
            if isinstance(candidate, type) and issubclass(candidate, GraphwalkError):
                try:
                    rebuilt = candidate(str(exc))
                    pickle.loads(pickle.dumps(rebuilt))
                    return rebuilt
                except Exception:  # this class's constructor wants more; try its parent
                    continue
        return GraphwalkError(f"{type(exc).__name__}: {exc}")
    return exc


@contextlib.contextmanager
def _child_allocator() -> Iterator[None]:
    """``PYTHONMALLOC`` set to :data:`CHILD_ALLOCATOR` while the child is spawned (it takes this environment),
    unless the user set it: a burst's freed memory then goes back to the system (``malloc_trim`` at the idle
    collection), where pymalloc keeps every arena an object still lives in (docs/benchmarks.md)."""
    if "PYTHONMALLOC" in os.environ:
        yield
        return
    os.environ["PYTHONMALLOC"] = CHILD_ALLOCATOR
    try:
        yield
    finally:
        os.environ.pop("PYTHONMALLOC", None)


class WalkProcess:
    """The parent's handle on the walk process: :meth:`start`, :meth:`walk` (any number at once), :meth:`forget`,
    :meth:`close`."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.state = ChildState()
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None
        self._send_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready: asyncio.Future[None] | None = None
        self._starting: asyncio.Lock | None = None
        self._closing = False

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive() and self._conn is not None

    async def start(self) -> None:
        """Start the child and wait until it has warmed its graphs (:data:`START_TIMEOUT_S`)."""
        self._loop = asyncio.get_running_loop()
        self._starting = self._starting or asyncio.Lock()
        async with self._starting:
            if self.alive():
                return
            spawn = multiprocessing.get_context("spawn")
            parent_end, child_end = spawn.Pipe(duplex=True)
            level = logging.getLogger("graphwalk_neo4j").getEffectiveLevel()
            process = spawn.Process(
                target=child_main,
                args=(self.settings, child_end, level),
                name="gw-neo4j-walks",
                daemon=True,
            )
            with _child_allocator():
                process.start()
            child_end.close()
            self._process, self._conn = process, parent_end
            self._ready = self._loop.create_future()
            threading.Thread(target=self._read, args=(parent_end, process), name="gw-walks-reader", daemon=True).start()
            try:
                await asyncio.wait_for(asyncio.shield(self._ready), START_TIMEOUT_S)
            except TimeoutError:
                self._stop_process()
                raise WalkProcessError(
                    f"the walk process was not ready within {START_TIMEOUT_S:g} s; see its log lines above"
                ) from None
            log.info("walk process ready", extra={"pid": process.pid, "graphs": sorted(self.state.warm)})

    async def walk(
        self,
        call: WalkCall,
        *,
        walk_id: str,
        deadline: float | None,
        on_depth: DepthObserver | None,
        on_seconds: Callable[[float], None] | None,
    ) -> FinishedWalk:
        """Run ``call`` in the child; ``on_depth`` hears each depth's event (streamed requests), ``on_seconds``
        each depth's wall time. A cancellation is passed on to the child's walk and waited for."""
        if not self.alive():
            if self._closing:
                raise WalkProcessError("the walk process is closed")
            await self.start()
        assert self._loop is not None
        rid = next(self._ids)
        future: asyncio.Future[Any] = self._loop.create_future()
        self._pending[rid] = _Pending(future, on_depth, on_seconds)
        seconds_left = None if deadline is None else deadline - time.monotonic()
        level = logging.getLogger("graphwalk_neo4j").getEffectiveLevel()
        try:
            self._send(("walk", rid, call, walk_id, seconds_left, on_depth is not None, level))
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                if not future.done():
                    self._pending[rid].cancel_sent = True
                    self._send(("cancel", rid))
                    with contextlib.suppress(BaseException):
                        await asyncio.wait_for(asyncio.shield(future), CANCEL_WAIT_S)
                raise
        finally:
            self._pending.pop(rid, None)

    def forget(self, graph: str) -> None:
        """The child drops its warm state of ``graph`` (an ingest changed it)."""
        self.state.warm.pop(graph, None)
        if self.alive():
            with contextlib.suppress(WalkProcessError):  # it ended meanwhile: the next one starts cold anyway
                self._send(("forget", graph))

    async def close(self) -> None:
        """Ask the child to cut its walks and close; kill it if it does not within :data:`CLOSE_WAIT_S`."""
        self._closing = True
        process = self._process
        if process is None:
            return
        if self.alive():
            with contextlib.suppress(WalkProcessError):  # it ended meanwhile: nothing to ask
                self._send(("close",))
        await asyncio.to_thread(process.join, CLOSE_WAIT_S)
        self._stop_process()

    # ---- the pipe ------------------------------------------------------------------------------------------
    def _send(self, message: tuple[Any, ...]) -> None:
        conn = self._conn
        if conn is None:
            raise WalkProcessError("the walk process is not running")
        try:
            with self._send_lock:
                conn.send(message)
        except (OSError, ValueError) as exc:
            raise WalkProcessError(
                f"the walk process is not reachable ({exc}); the next walk starts a new one"
            ) from exc

    def _read(self, conn: Connection, process: multiprocessing.process.BaseProcess) -> None:
        """The reader thread: every message the child sends, handed to the loop; once the pipe closes, the
        child's exit (waited for here, off the loop, so that the error can name its exit code)."""
        assert self._loop is not None
        loop = self._loop
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                break
            except Exception as exc:  # a message that would not unpickle: say so, keep reading
                log.error("unreadable message from the walk process", exc_info=exc)
                continue
            loop.call_soon_threadsafe(self._dispatch, message)
        process.join(EXIT_WAIT_S)
        with contextlib.suppress(RuntimeError):  # the loop is already closed at interpreter exit
            loop.call_soon_threadsafe(self._ended, conn)

    def _dispatch(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "ready":
            self.state.warm = dict(message[1])
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
            return
        if kind == "failed":
            if self._ready is not None and not self._ready.done():
                self._ready.set_exception(message[1])
            return
        pending = self._pending.get(message[1])
        if kind == "depth":
            if pending is not None:
                _, _, event, seconds = message
                if pending.on_seconds is not None:
                    pending.on_seconds(seconds)
                if event is not None and pending.on_depth is not None:
                    pending.on_depth(event)
            return
        self.state = message[-1]
        if pending is None or pending.future.done():
            return
        if kind == "done":
            pending.future.set_result(message[2])
        elif kind == "error":
            pending.future.set_exception(message[2])
        elif kind == "cancelled" and pending.cancel_sent:
            pending.future.set_exception(asyncio.CancelledError())
        elif kind == "cancelled":  # not asked for: the child is closing
            pending.future.set_exception(WalkProcessError("the walk process closed before this walk finished"))

    def _ended(self, conn: Connection) -> None:
        """The pipe closed: the child exited (closed, or died). Fail what it held."""
        if conn is not self._conn:
            return
        self._conn = None
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(WalkProcessError("the walk process exited while starting; see its log"))
        code = self._process.exitcode if self._process is not None else None
        for pending in list(self._pending.values()):
            if not pending.future.done():
                pending.future.set_exception(
                    WalkProcessError(
                        f"the walk process ended (exit code {code}) before this walk finished; retry, the next "
                        "walk starts a new one"
                    )
                )
        if not self._closing:
            log.error("walk process ended", extra={"exitcode": code})

    def _stop_process(self) -> None:
        process = self._process
        if process is not None and process.is_alive():
            process.kill()
            process.join(5)
        if self._conn is not None:
            self._conn.close()
            self._conn = None


# ---- the child --------------------------------------------------------------------------------------------


def child_main(settings: Settings, conn: Connection, log_level: int) -> None:
    """The walk process: the service's interpreter settings and logs, signals left to the parent, niced below
    the parent by ``GW_NEO4J_SERVICE_WORKER_NICE`` (its threads inherit it), then :class:`_Child` until closed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    logs.configure(logging.getLevelName(log_level).lower())
    tune_interpreter()
    nice = settings.service_worker_nice
    if nice and hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0) + nice)
    # the whole process is below the parent already; its own threads stay at its level
    inner = settings.model_copy(update={"service_worker_nice": 0})
    asyncio.run(_Child(inner, conn).run())


class _Child:
    def __init__(self, settings: Settings, conn: Connection) -> None:
        self.ctx = ServiceContext(settings)
        self.conn = conn
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.lock = threading.Lock()
        self.closed: asyncio.Event | None = None

    def send(self, message: tuple[Any, ...]) -> None:
        with self.lock:
            self.conn.send(message)

    def state(self) -> ChildState:
        vectors, node_refs = self.ctx.cache_entries()
        return ChildState(warm=self.ctx.warm_state(), vectors=vectors, node_refs=node_refs)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        self.closed = asyncio.Event()
        try:
            await self.ctx.start()
        except BaseException as exc:
            self.send(("failed", _portable(exc)))
            return
        gc.collect()
        gc.freeze()  # as the parent does after start-up: the warm caches out of the collector's sight
        threading.Thread(target=self._read, args=(loop,), name="gw-walks-pipe", daemon=True).start()
        self.send(("ready", self.ctx.warm_state()))
        await self.closed.wait()
        for task in self.tasks.values():
            task.cancel()
        if self.tasks:
            await asyncio.wait(list(self.tasks.values()), timeout=CLOSE_WAIT_S)
        await self.ctx.close()

    def _read(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):  # the parent is gone: stop
                message = ("close",)
            loop.call_soon_threadsafe(self._dispatch, message)
            if message[0] == "close":
                return

    def _dispatch(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "walk":
            _, rid, call, walk_id, seconds_left, stream, level = message
            logging.getLogger("graphwalk_neo4j").setLevel(level)
            self.tasks[rid] = asyncio.ensure_future(self._walk(rid, call, walk_id, seconds_left, stream))
        elif kind == "cancel":
            task = self.tasks.get(message[1])
            if task is not None:
                task.cancel()
        elif kind == "forget":
            self.ctx.forget_graph(message[1])
        elif kind == "close":
            assert self.closed is not None
            self.closed.set()

    async def _walk(self, rid: int, call: WalkCall, walk_id: str, seconds_left: float | None, stream: bool) -> None:
        logs.walk_id_var.set(walk_id)
        deadline = None if seconds_left is None else time.monotonic() + seconds_left

        def on_depth(event: Any) -> None:
            self.send(("depth", rid, event if stream else None, event.seconds))

        try:
            self.ctx.admit()  # the child's own count of walks in flight
        except GraphwalkError as exc:
            self.tasks.pop(rid, None)
            self.send(("error", rid, _portable(exc), self.state()))
            return
        try:
            finished = await self.ctx.walk(call, walk_id=walk_id, on_depth=on_depth, deadline=deadline)
        except asyncio.CancelledError:
            self.send(("cancelled", rid, self.state()))
        except BaseException as exc:
            self.send(("error", rid, _portable(exc), self.state()))
        else:
            self.send(("done", rid, finished, self.state()))
        finally:
            self.tasks.pop(rid, None)
            await self.ctx.walk_ended()  # the child's own idle collection follows its walks
