"""One thread's scheduling priority (its niceness), for the service's background threads.

The service's event loop answers every request (``/healthz`` too); the walks' CPU pool (:mod:`graphwalk_neo4j.
walk.cpu`) and the Neo4j driver's thread (:class:`graphwalk_neo4j.store.DriverThread`) do the walks' work. On a
loaded machine the loop, once woken, may wait for a core behind those threads; run at a higher niceness, they
yield the core to it first (and the interpreter lock, which the loop asks for as soon as it runs).

Linux gives every thread a niceness of its own: ``setpriority(PRIO_PROCESS, tid, n)`` addresses one thread by its
native id. Elsewhere (macOS, the BSDs, Windows) the same call addresses the whole process, which would slow the
loop as much as the workers, so there :func:`set_thread_nice` does nothing and says so (:data:`PER_THREAD`).
"""

from __future__ import annotations

import os
import sys
import threading

PER_THREAD = sys.platform.startswith("linux")  # per-thread niceness exists here; elsewhere a no-op
MAX_NICE = 19


def thread_nice(native_id: int | None = None) -> int | None:
    """The niceness of the thread ``native_id`` of this process (the calling thread by default); ``None`` where
    threads have none of their own."""
    if not PER_THREAD:
        return None
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id() if native_id is None else native_id)


def lower_thread_priority(by: int, native_id: int | None = None) -> int | None:
    """Run the thread ``native_id`` of this process (the calling thread by default) ``by`` steps nicer than it
    runs now (0 to 19 steps; the result capped at 19): lower priority only, which needs no privileges. The
    thread's niceness afterwards; ``None`` where threads have none of their own (not Linux: nothing is done).
    A new thread starts at the niceness of the thread that started it."""
    if not 0 <= by <= MAX_NICE:
        raise ValueError(f"a niceness step of {by} is outside 0..{MAX_NICE}; give 0 (none) to {MAX_NICE}")
    if not PER_THREAD:
        return None
    tid = threading.get_native_id() if native_id is None else native_id
    now = os.getpriority(os.PRIO_PROCESS, tid)
    wanted = min(MAX_NICE, now + by)
    if wanted != now:
        try:
            os.setpriority(os.PRIO_PROCESS, tid, wanted)
        except OSError:  # a sandbox refusing even a lower priority: the thread runs on as it was
            return now
    return wanted
