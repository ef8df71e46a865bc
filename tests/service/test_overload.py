"""Overload over real HTTP against the real Neo4j: a pool with no free connection is answered 503 with
``Retry-After`` (never 500), and the service recovers once the connection comes back. The pool is one connection
(``GW_NEO4J_POOL_SIZE=1``), held by a decision that keeps a transaction open, as another request's long query would;
the walks sent meanwhile wait ``GW_NEO4J_POOL_ACQUIRE_TIMEOUT_S`` for it and give up."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import TYPE_CHECKING, Any

import httpx

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.errors import StoreBusyError
from graphwalk_neo4j.service.context import ServiceContext
from tests.service.conftest import ServedApp, service_settings

if TYPE_CHECKING:
    from graphwalk_neo4j.decide.base import DecisionRequest, DecisionResponse
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore
    from neo4j import AsyncManagedTransaction

QUESTION = {"question": "who directed Memento", "preset": "relation", "start": "Memento"}


class HoldingBackend(FakeBackend):
    """The first decision opens a transaction on the service's own store (taking its only pooled connection) and
    keeps it open until the test sets ``release``; every decision then answers as the seeded fake."""

    def __init__(self) -> None:
        super().__init__()
        self.store: GraphStore | None = None
        self.holding = threading.Event()
        self.release = threading.Event()

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        if self.store is not None and not self.holding.is_set():
            await self._hold(self.store)
        return await super().decide(request)

    async def _hold(self, store: GraphStore) -> None:
        """Take the pool's one connection in a write transaction (through the store: its driver runs on the
        service's driver thread), waiting out the walk's own background trace write if it holds it."""

        async def work(tx: AsyncManagedTransaction) -> None:
            await tx.run("RETURN 1")
            self.holding.set()
            await asyncio.to_thread(self.release.wait, 60)

        for _ in range(200):
            try:
                await store.in_write_tx(work)
                return
            except StoreBusyError:
                await asyncio.sleep(0.05)
        raise AssertionError("the pool's one connection never came free for the holding decision")


def test_an_exhausted_pool_is_a_503_with_retry_after_never_a_500(neo4j_settings: Settings, movie_graph: str) -> None:
    settings = service_settings(
        neo4j_settings, movie_graph, pool_size=1, pool_acquire_timeout_s=0.3, service_max_walks=8
    )
    backend = HoldingBackend()
    ctx = ServiceContext(settings, backend_factory=lambda _s, _m, _e: backend)
    app = ServedApp(settings, context=ctx).start()
    backend.store = ctx.store
    walk: dict[str, Any] = {**QUESTION, "graph": movie_graph}
    try:
        with httpx.Client(base_url=app.url, timeout=60) as c, concurrent.futures.ThreadPoolExecutor(6) as pool:
            first = pool.submit(c.post, "/v1/walk", json=walk)
            assert backend.holding.wait(30)  # the first walk's decision holds the only connection
            crowd = [pool.submit(c.post, "/v1/walk", json=walk) for _ in range(4)]
            listing = c.get("/v1/walks", params={"graph": movie_graph})
            answers = [f.result(timeout=60) for f in crowd] + [listing]
            assert [r.status_code for r in answers] == [503] * 5, [r.text for r in answers]
            for r in answers:
                assert r.headers["retry-after"] == "1"
                assert r.headers["content-type"] == "application/problem+json"
                assert "is busy: no pooled connection came free in time" in r.json()["detail"]
            backend.release.set()
            # the first walk's own trace writes run in the background: one that was queued while its decision held
            # the connection gave up (503), one that ran before or after did not (200); never a 500 either way
            held = first.result(timeout=60)
            assert held.status_code in {200, 503}, held.text
            if held.status_code == 503:
                assert held.headers["retry-after"] == "1"
            again = c.post("/v1/walk", json=walk)  # the connection is back: the service answers again
            assert again.status_code == 200, again.text
            assert again.json()["status"] in {"ok", "budget"}
    finally:
        backend.release.set()
        app.stop()
