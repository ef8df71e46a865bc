"""Fixtures of the service tests: a small movie graph of the test's own in the real Neo4j, and the real app under
uvicorn on a free loopback port in a thread (:class:`ServedApp`), reached with a real httpx client."""

from __future__ import annotations

import socket
import threading
import time
from typing import TYPE_CHECKING, Any

import httpx
import pytest
import uvicorn
from pydantic import SecretStr

from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.ingest.structured import ingest_file
from graphwalk_neo4j.schema import apply_schema
from graphwalk_neo4j.service.app import create_app
from graphwalk_neo4j.service.context import ServiceContext
from graphwalk_neo4j.service.walk_process import WalkProcess
from graphwalk_neo4j.store import GraphStore

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings

KB = """Memento|directed_by|Christopher Nolan
Inception|directed_by|Christopher Nolan
Inception|starred_actors|Leonardo DiCaprio
Titanic|starred_actors|Leonardo DiCaprio
Titanic|release_year|1997
Memento|release_year|2000
"""


class ServedApp:
    """``create_app(settings)`` served by uvicorn from a daemon thread on a socket bound before start, so the
    port is known at once; :meth:`start` returns when uvicorn reports it has started (lifespan done)."""

    def __init__(self, settings: Settings, **app_kw: Any) -> None:
        self.settings = settings
        self.app = create_app(settings, **app_kw)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, log_config=None, access_log=False, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self, timeout_s: float = 60.0) -> ServedApp:
        self.thread.start()
        deadline = time.monotonic() + timeout_s
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the service did not start (see the log above)")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()

    @property
    def ctx(self) -> Any:
        return self.app.state.ctx


def serve_app(settings: Settings, walk_process: bool) -> ServedApp:
    """The real app started, its walks in-process or in a walk process (``gw-neo4j serve``'s default); a pause
    point (graphwalk_neo4j.faults) set before this is seen by the walk process too: it takes the environment
    when it starts."""
    if not walk_process:
        return ServedApp(settings).start()
    return ServedApp(settings, context=ServiceContext(settings, walk_process=WalkProcess(settings))).start()


def service_settings(neo4j_settings: Settings, graph: str, **extra: Any) -> Settings:
    """The session's Neo4j settings with the fake embedder and decider, warming only ``graph``."""
    if isinstance(extra.get("service_token"), str):
        extra["service_token"] = SecretStr(extra["service_token"])
    return neo4j_settings.model_copy(update={"embedder": "fake", "model": "fake", "service_graphs": graph, **extra})


async def load_movies(settings: Settings, graph: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB)
    async with GraphStore(settings) as store:
        await apply_schema(store)
        await ingest_file(store, kb, graph=graph, source="test")
        await embed_graph(store, FakeEmbedder(), graph)


async def drop(settings: Settings, graph: str) -> None:
    async with GraphStore(settings) as store:
        await drop_graph(store, graph)


@pytest.fixture
async def movie_graph(neo4j_settings: Settings, graph_name: str, tmp_path: Path) -> AsyncIterator[str]:
    await load_movies(neo4j_settings, graph_name, tmp_path)
    yield graph_name
    await drop(neo4j_settings, graph_name)


@pytest.fixture
def served(neo4j_settings: Settings, movie_graph: str) -> Iterator[ServedApp]:
    app = ServedApp(service_settings(neo4j_settings, movie_graph)).start()
    yield app
    app.stop()


@pytest.fixture
def client(served: ServedApp) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served.url, timeout=60) as c:
        yield c
