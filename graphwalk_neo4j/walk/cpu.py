"""Where a walk's CPU-heavy steps run: a few worker threads shared by every walk of the process, never the event
loop, earliest deadline first.

A walk's pure steps (turning the expander's Cypher rows into options, planning a depth's questions, building
the decision request, ranking answers and keeping beams, building a depth's stored rows, serialising the answer)
cost up to seconds each for the biggest allowed walks. On the event loop they would hold every other request
of a service (its ``/healthz`` probe included) for that long; in one thread per walk, sixteen walks would split
the interpreter lock sixteen ways and the loop would wait behind all of them. So they run in one small pool of
:data:`CPU_WORKERS` threads: at most that many steps compute at once and the loop competes for the interpreter
lock with that few threads only.

Queued steps run earliest deadline first: a walk runs under :func:`walk_deadline` (the service sets it from the
request's deadline; a walk without one queues after every walk with one, in arrival order), so the walks that
started first finish first, and a walk past its deadline gets its last steps (its partial answer, its stored walk, its
response) done before newer walks compute, instead of waiting behind all of them.

The workers can run at a lower scheduling priority than the loop (:func:`set_worker_nice`; the service sets
``GW_NEO4J_SERVICE_WORKER_NICE``): on a busy machine a woken loop then gets a core before them, and with it the
interpreter lock. Linux only (threads have a niceness of their own there, :mod:`graphwalk_neo4j.threads`);
elsewhere the workers run as the loop does.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import math
import os
import queue
import threading
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, TypeVar

from graphwalk_neo4j.threads import MAX_NICE, lower_thread_priority, thread_nice

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

T = TypeVar("T")


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


# Half the cores, 1 to 4: the steps are mostly pure Python, so more threads than that buy no throughput (one
# interpreter lock) and only lengthen the loop's wait for it; Neo4j and the decider want the other cores.
CPU_WORKERS = max(1, min(4, _cores() // 2))
_deadline: contextvars.ContextVar[float] = contextvars.ContextVar("gw_walk_deadline", default=math.inf)


@contextlib.contextmanager
def walk_deadline(deadline: float | None) -> Iterator[None]:
    """Steps submitted in this context (and in tasks started from it) queue by ``deadline`` (a
    :func:`time.monotonic` time; ``None``: none)."""
    token = _deadline.set(math.inf if deadline is None else deadline)
    try:
        yield
    finally:
        _deadline.reset(token)


class _Pool:
    """:data:`CPU_WORKERS` daemon threads taking ``(deadline, arrival, future, call)`` from one priority queue,
    each ``nice`` steps nicer than the thread that started the pool."""

    def __init__(self, workers: int, nice: int = 0) -> None:
        self._queue: queue.PriorityQueue[tuple[float, int, Future[Any], Callable[[], Any]]] = queue.PriorityQueue()
        self._arrival = itertools.count()
        self.nice = nice
        self.base_nice = thread_nice()  # the starter's, which a new thread inherits (None: not Linux)
        self.native_ids: list[int] = []
        started = [threading.Event() for _ in range(workers)]
        for n in range(workers):
            threading.Thread(target=self._work, args=(started[n],), name=f"gw-walk-cpu-{n}", daemon=True).start()
        for event in started:
            event.wait()

    def renice(self, nice: int) -> None:
        """Run the workers ``nice`` steps nicer than the pool's starter (lower priority only: a worker already
        nicer than that stays so, since raising a thread's priority needs privileges)."""
        self.nice = nice
        if self.base_nice is None:
            return
        for tid in self.native_ids:
            now = thread_nice(tid)
            if now is not None:
                lower_thread_priority(max(0, min(MAX_NICE, self.base_nice + nice) - now), tid)

    def submit(self, deadline: float, call: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._queue.put((deadline, next(self._arrival), future, call))
        return future

    def _work(self, started: threading.Event) -> None:
        lower_thread_priority(self.nice)
        self.native_ids.append(threading.get_native_id())
        started.set()
        while True:
            _, _, future, call = self._queue.get()
            if not future.set_running_or_notify_cancel():  # cancelled while it queued
                continue
            try:
                result = call()
            except BaseException as exc:  # handed to the awaiting walk, as an executor would
                future.set_exception(exc)
            else:
                future.set_result(result)


_pool: _Pool | None = None
_pool_lock = threading.Lock()
_worker_nice = 0


def _shared() -> _Pool:
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = _Pool(CPU_WORKERS, _worker_nice)
    return _pool


def set_worker_nice(nice: int) -> None:
    """Run the shared pool's workers ``nice`` steps (0 to 19) nicer than the thread that starts the pool (the
    first :func:`off_loop` caller, the service's loop): set before the first walk, or for the running workers.
    A no-op where threads have no niceness of their own (not Linux)."""
    global _worker_nice
    if not 0 <= nice <= 19:
        raise ValueError(f"a niceness step of {nice} is outside 0..19; give 0 (none) to 19")
    with _pool_lock:
        _worker_nice = nice
        if _pool is not None:
            _pool.renice(nice)


async def off_loop(work: Callable[..., T], *args: Any) -> T:
    """Run ``work(*args)`` (a pure step of one walk) in the shared CPU pool and return its result.

    A cancellation drops a step that has not started yet; one already running is waited for (one step, well
    under a depth) before the cancellation goes on, so nothing else touches the walk's state meanwhile.
    """
    context = contextvars.copy_context()
    submitted = _shared().submit(_deadline.get(), lambda: context.run(work, *args))
    future = asyncio.wrap_future(submitted)
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        if not submitted.cancel():
            await asyncio.wait([future])
        raise
