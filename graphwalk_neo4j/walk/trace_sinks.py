"""Trace sinks that need no database, and the ordered background writer the engine uses for any sink.

* :class:`NullTraceSink` drops everything.
* :class:`RecordingTraceSink` keeps everything in memory (tests, notebooks, the CLI's ``--trace out.json``).
* :class:`OrderedTraceWriter` runs one walk's sink calls as a chain of background tasks: ``start_walk`` then
  each ``record_depth`` in order. The engine never waits for a write before its next decision; it drains the
  chain before ``finish_walk``. A failed write is re-raised by :meth:`OrderedTraceWriter.finish`.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from graphwalk_neo4j.walk.ports import TraceSink
    from graphwalk_neo4j.walk.result import WalkResult
    from graphwalk_neo4j.walk.trace_records import DepthRecord, StepRecord, WalkMeta


class NullTraceSink:
    async def start_walk(self, meta: WalkMeta) -> None:
        return None

    async def record_depth(self, record: DepthRecord) -> None:
        return None

    async def finish_walk(self, result: WalkResult) -> None:
        return None


class RecordingTraceSink:
    """Keeps every call. ``events`` is the call order as ``(kind, walk_id, depth or None)``."""

    def __init__(self) -> None:
        self.metas: list[WalkMeta] = []
        self.depths: list[DepthRecord] = []
        self.results: list[WalkResult] = []
        self.events: list[tuple[str, str, int | None]] = []

    async def start_walk(self, meta: WalkMeta) -> None:
        self.metas.append(meta)
        self.events.append(("start", meta.walk_id, None))

    async def record_depth(self, record: DepthRecord) -> None:
        self.depths.append(record)
        self.events.append(("depth", record.walk_id, record.depth))

    async def finish_walk(self, result: WalkResult) -> None:
        self.results.append(result)
        self.events.append(("finish", result.walk_id, None))

    def depths_for(self, walk_id: str) -> list[DepthRecord]:
        return [d for d in self.depths if d.walk_id == walk_id]

    def steps_for(self, walk_id: str) -> list[StepRecord]:
        return [s for d in self.depths_for(walk_id) for s in d.steps]


class OrderedTraceWriter:
    """Background, in-order writes of one walk's trace to ``sink``."""

    def __init__(self, sink: TraceSink) -> None:
        self._sink = sink
        self._tail: asyncio.Task[None] | None = None

    def _chain(self, write: Callable[[], Awaitable[None]]) -> None:
        previous = self._tail

        async def run() -> None:
            if previous is not None:
                await previous
            await write()

        self._tail = asyncio.ensure_future(run())

    def start(self, meta: WalkMeta) -> None:
        self._chain(lambda: self._sink.start_walk(meta))

    def depth(self, record: DepthRecord) -> None:
        self._chain(lambda: self._sink.record_depth(record))

    async def drain(self) -> None:
        if self._tail is not None:
            await self._tail

    async def finish(self, result: WalkResult) -> None:
        """Wait for every pending write, then ``finish_walk``."""
        await self.drain()
        await self._sink.finish_walk(result)

    async def close_interrupted(self, result: WalkResult, *, timeout_s: float) -> None:
        """After an interruption: let the pending writes land and write ``result`` (status ``interrupted``),
        shielded from the cancellation and bounded by ``timeout_s``; a failure here is dropped (best effort,
        the interruption itself is what propagates)."""

        async def close() -> None:
            with contextlib.suppress(Exception):
                await self.drain()
            await self._sink.finish_walk(result)

        task = asyncio.ensure_future(close())
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(asyncio.shield(task), timeout_s)
        if not task.done():
            task.cancel()

    def cancel(self) -> None:
        if self._tail is not None and not self._tail.done():
            self._tail.cancel()
