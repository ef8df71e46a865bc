"""A real ``gw-neo4j`` process stopped at a pause point (:mod:`graphwalk_neo4j.faults`), then signalled or killed.

:func:`start_paused` starts ``python -m graphwalk_neo4j.cli ARGS`` with ``GW_NEO4J_PAUSE_AT`` set and reads its
stderr until the ``paused at`` line: an event, not a sleep; the process is then exactly at that point.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings


@dataclass
class Paused:
    proc: asyncio.subprocess.Process
    stderr_before: str

    async def finish(self) -> tuple[int, str, str]:
        out, err = await self.proc.communicate()
        assert self.proc.returncode is not None
        return self.proc.returncode, out.decode(), self.stderr_before + err.decode()


def _default_interrupt() -> None:
    """In the child before exec: Ctrl-C back to its default. A suite started in the background by a
    non-interactive shell (``make test &``, nohup) inherits SIGINT as ignored, and Python then installs no
    KeyboardInterrupt handler, so the signal the test sends would be lost and the paused child would wait forever."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


async def start_paused(settings: Settings, args: list[str], point: str, **env: str) -> Paused:
    full_env = {
        **os.environ,
        "GW_NEO4J_URI": settings.uri,
        "GW_NEO4J_EMBEDDER": "fake",
        "GW_NEO4J_PAUSE_AT": point,
        **env,
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "graphwalk_neo4j.cli",
        *args,
        env=full_env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=_default_interrupt,
    )
    assert proc.stderr is not None
    seen: list[str] = []
    while True:
        line = (await proc.stderr.readline()).decode()
        if not line:  # ended without reaching the point
            code = await proc.wait()
            raise AssertionError(f"never reached {point!r} (exit {code}): {''.join(seen)[-3000:]}")
        seen.append(line)
        if line.startswith(f"paused at {point.split('@')[0]}"):
            return Paused(proc, "".join(seen))


async def wait_paused(paused: Paused, point: str) -> None:
    """After a SIGUSR1, wait for the process to reach the next pause ``point``."""
    assert paused.proc.stderr is not None
    while True:
        line = (await paused.proc.stderr.readline()).decode()
        assert line, f"ended before reaching {point!r}: {paused.stderr_before[-2000:]}"
        paused.stderr_before += line
        if line.startswith(f"paused at {point}"):
            return


async def run_cli(settings: Settings, args: list[str], **env: str) -> tuple[int, str, str]:
    """Run ``gw-neo4j ARGS`` to the end in a real process (from async tests, where CliRunner cannot run)."""
    full_env = {**os.environ, "GW_NEO4J_URI": settings.uri, "GW_NEO4J_EMBEDDER": "fake", **env}
    full_env.pop("GW_NEO4J_PAUSE_AT", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "graphwalk_neo4j.cli",
        *args,
        env=full_env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()
