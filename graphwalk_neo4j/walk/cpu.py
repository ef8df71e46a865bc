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
    """:data:`CPU_WORKERS` daemon threads taking ``(deadline, arrival, future, call)`` from one priority queue."""

    def __init__(self, workers: int) -> None:
        self._queue: queue.PriorityQueue[tuple[float, int, Future[Any], Callable[[], Any]]] = queue.PriorityQueue()
        self._arrival = itertools.count()
        for n in range(workers):
            threading.Thread(target=self._work, name=f"gw-walk-cpu-{n}", daemon=True).start()

    def submit(self, deadline: float, call: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._queue.put((deadline, next(self._arrival), future, call))
        return future

    def _work(self) -> None:
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


def _shared() -> _Pool:
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = _Pool(CPU_WORKERS)
    return _pool


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
