"""When the service gives memory back (issue 21): once the last request has been answered and the service has
stayed idle a moment, not in the last walk's own ``finally`` (its answer, still to be built and sent, would stay
mapped); a request that arrives within the moment defers it. A real walk on the real Neo4j, through the same
``ServiceContext`` calls the HTTP routes make; ``return_memory`` is the real one, counted."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from graphwalk_neo4j.admission import walk_call
from graphwalk_neo4j.service import context
from graphwalk_neo4j.service.context import ServiceContext
from tests.service.conftest import service_settings

if TYPE_CHECKING:
    import pytest

    from graphwalk_neo4j.settings import Settings


async def test_memory_is_returned_once_the_last_answer_went_out(
    neo4j_settings: Settings, movie_graph: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx = ServiceContext(service_settings(neo4j_settings, movie_graph))
    collections: list[tuple[int, int]] = []  # (walks, requests) in flight at each collection
    real = context.return_memory

    async def counted() -> None:
        collections.append((ctx.walks_in_flight, ctx.requests_in_flight))
        await real()

    monkeypatch.setattr(context, "return_memory", counted)
    call = walk_call("who directed Memento", graph=movie_graph, start="Memento", preset="relation")

    async def one_request() -> None:
        ctx.enter_request()  # as the HTTP guard does around every route
        await ctx.admit_walk(call)
        done_before = len(collections)
        finished = await ctx.run_admitted(call)
        assert finished.status == "ok"
        await asyncio.sleep(context.IDLE_COLLECTION_DELAY_S * 2)
        assert len(collections) == done_before  # its answer is not out yet: nothing collected, however long
        ctx.leave_request()

    await ctx.start()
    try:
        await one_request()
        first = ctx._collection
        assert first is not None
        await first
        assert collections == [(0, 0)]

        await one_request()
        deferred = ctx._collection
        assert deferred is not None
        assert deferred is not first
        ctx.enter_request()  # another request arrives within IDLE_COLLECTION_DELAY_S
        await deferred
        assert collections == [(0, 0)]  # deferred, not run under it
        ctx.leave_request()  # idle again: now
        assert ctx._collection is not deferred
        assert ctx._collection is not None
        await ctx._collection
        assert collections == [(0, 0), (0, 0)]

        ctx.enter_request()
        ctx.leave_request()  # a request without a walk since the last collection: nothing to collect
        assert ctx._collection.done()
        assert collections == [(0, 0), (0, 0)]
    finally:
        await ctx.close()
