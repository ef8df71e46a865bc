"""Pause points: named places where a test can stop a real ``gw-neo4j`` process, then signal or kill it.

Off unless ``GW_NEO4J_PAUSE_AT`` names the point: ``name`` pauses at its first pass, ``name@N`` at its N-th
(several, comma-separated). A paused process writes ``paused at <name>`` to stderr and waits, awaiting an event
that never comes, so the event loop keeps running: Ctrl-C / SIGTERM cancel it exactly there, and ``kill -9``
kills it with the database in exactly the state that point describes. Tests wait for the line (no sleeps) and
then act. Nothing here runs when the variable is unset.
"""

from __future__ import annotations

import asyncio
import os
import sys

ENV = "GW_NEO4J_PAUSE_AT"
_passes: dict[str, int] = {}


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
    """Pause here (forever, until cancelled or killed) when ``GW_NEO4J_PAUSE_AT`` asks for this pass."""
    if not wanted(name):
        return
    sys.stderr.write(f"paused at {name}\n")
    sys.stderr.flush()
    await asyncio.Event().wait()
