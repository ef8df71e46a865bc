"""Pause points: named places where a test can stop a real ``gw-neo4j`` process, then signal or kill it.

Off unless ``GW_NEO4J_PAUSE_AT`` names the point: ``name`` pauses at its first pass, ``name@N`` at its N-th
(several, comma-separated). A paused process writes ``paused at <name>`` to stderr and waits on an event, so the
event loop keeps running: SIGUSR1 lets it go on, Ctrl-C / SIGTERM cancel it exactly there, and ``kill -9`` kills it
with the database in exactly the state that point describes. Tests wait for the line (no sleeps) and then act.
Nothing here runs when the variable is unset.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

ENV = "GW_NEO4J_PAUSE_AT"
_passes: dict[str, int] = {}


def reset() -> None:
    """Forget the passes counted so far: the warm runtime (cli/warm.py) counts each command's from one, as a
    process of its own would."""
    _passes.clear()


def wanted(name: str) -> bool:
    """Count one pass of ``name``; whether this pass is one to pause at."""
    spec = os.environ.get(ENV)
    if not spec:
        return False
    _passes[name] = count = _passes.get(name, 0) + 1
    for item in spec.split(","):
        point, _, nth = item.strip().partition("@")
        if point == name and count == (int(nth) if nth else 1):
            return True
    return False


async def pause_point(name: str) -> None:
    """Pause here (until SIGUSR1, a cancellation or a kill) when ``GW_NEO4J_PAUSE_AT`` asks for this pass."""
    if not wanted(name):
        return
    go_on = asyncio.Event()
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGUSR1, go_on.set)
        resumable = True
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread: wait for cancellation only
        resumable = False
    sys.stderr.write(f"paused at {name}\n")
    sys.stderr.flush()
    try:
        await go_on.wait()
    finally:
        if resumable:
            loop.remove_signal_handler(signal.SIGUSR1)
