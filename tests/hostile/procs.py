"""A real ``gw-neo4j`` process stopped at a pause point (:mod:`graphwalk_neo4j.faults`), then signalled or killed.

:func:`start_paused` starts ``python -m graphwalk_neo4j.cli ARGS`` with ``GW_NEO4J_PAUSE_AT`` set and reads its
stderr until the ``paused at`` line: an event, not a sleep; the process is then exactly at that point.
"""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass

from graphwalk_neo4j.settings import Settings


@dataclass
class Paused:
    proc: asyncio.subprocess.Process
    stderr_before: str

    async def finish(self) -> tuple[int, str, str]:
        out, err = await self.proc.communicate()
        assert self.proc.returncode is not None
        return self.proc.returncode, out.decode(), self.stderr_before + err.decode()


async def start_paused(settings: Settings, args: list[str], point: str, **env: str) -> Paused:
    full_env = {**os.environ, "GW_NEO4J_URI": settings.uri, "GW_NEO4J_EMBEDDER": "fake",
                "GW_NEO4J_PAUSE_AT": point, **env}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "graphwalk_neo4j.cli", *args, env=full_env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
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
