"""Security and limits over real HTTP: the bind rule, bearer tokens, body size, the walk concurrency limit (429 +
Retry-After), the per-request timeout (504), and no secrets in responses."""

from __future__ import annotations

import concurrent.futures
import json
import subprocess
import sys

import httpx
import pytest
from pydantic import SecretStr

from graphwalk_neo4j import faults
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.service.context import ServiceContext
from graphwalk_neo4j.service.server import check_bind, is_loopback
from graphwalk_neo4j.settings import Settings
from tests.service.conftest import ServedApp, service_settings
from tests.service.gated import GatedBackend

TOKEN = "s3cret-token-for-tests-0123456789"
QUESTION = {"question": "who directed Memento", "preset": "relation"}


def test_loopback_rule() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "::1", "[::1]", "localhost", "127.0.0.2"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "10.0.0.5", "example.org"))
    with pytest.raises(ConfigError, match=r"refusing to listen on 0\.0\.0\.0: a non-loopback address needs a bearer"):
        check_bind(Settings(), "0.0.0.0")
    check_bind(Settings(service_token=SecretStr(TOKEN)), "0.0.0.0")
    check_bind(Settings(), "127.0.0.1")
    with pytest.raises(ConfigError, match="shorter than 16"):
        check_bind(Settings(service_token=SecretStr("short")), "0.0.0.0")


def test_serve_refuses_a_public_bind_without_a_token() -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ".", "GW_NEO4J_SERVICE_TOKEN": ""}
    done = subprocess.run(
        [sys.executable, "-m", "graphwalk_neo4j.cli", "serve", "--host", "0.0.0.0", "--port", "0"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2
    assert "refusing to listen on 0.0.0.0" in done.stderr
    assert "GW_NEO4J_SERVICE_TOKEN" in done.stderr


@pytest.fixture
def guarded(neo4j_settings: Settings, movie_graph: str):
    settings = service_settings(neo4j_settings, movie_graph, service_token=TOKEN, service_max_body_bytes=4096)
    app = ServedApp(settings).start()
    yield app
    app.stop()


def test_token_is_required_everywhere_but_the_probes(guarded: ServedApp, movie_graph: str) -> None:
    with httpx.Client(base_url=guarded.url, timeout=60) as c:
        assert c.get("/healthz").status_code == 200
        assert c.get("/readyz").status_code == 200
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
            r = c.post("/v1/walk", json={**QUESTION, "graph": movie_graph}, headers=headers)
            assert r.status_code == 401
            assert r.headers["www-authenticate"] == "Bearer"
            assert r.headers["content-type"] == "application/problem+json"
            assert TOKEN not in r.text
        assert c.get("/metrics").status_code == 401
        assert c.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"}).status_code == 401
        ok = c.post("/v1/walk", json={**QUESTION, "graph": movie_graph}, headers={"Authorization": f"Bearer {TOKEN}"})
        assert ok.status_code == 200, ok.text
        assert TOKEN not in ok.text
        assert "graphwalk-local" not in ok.text


def test_body_size_limit(guarded: ServedApp, movie_graph: str) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.Client(base_url=guarded.url, timeout=60, headers=auth) as c:
        big = c.post("/v1/walk", json={"question": "x" * 5000, "graph": movie_graph})
        assert big.status_code == 413
        assert "request body larger than 4096 bytes (GW_NEO4J_SERVICE_MAX_BODY_BYTES)" in big.json()["detail"]

        def chunks():  # no Content-Length: the limit is enforced while reading
            payload = json.dumps({"question": "x" * 5000, "graph": movie_graph}).encode()
            for i in range(0, len(payload), 1000):
                yield payload[i : i + 1000]

        streamed = c.post("/v1/walk", content=chunks(), headers={"content-type": "application/json"})
        assert streamed.status_code == 413


def _gated_app(neo4j_settings: Settings, graph: str, **extra: object) -> tuple[ServedApp, GatedBackend]:
    settings = service_settings(neo4j_settings, graph, **extra)
    backend = GatedBackend()
    ctx = ServiceContext(settings, backend_factory=lambda _s, _m, _e: backend)
    return ServedApp(settings, context=ctx).start(), backend


def test_a_full_service_answers_429_with_retry_after(neo4j_settings: Settings, movie_graph: str) -> None:
    app, backend = _gated_app(neo4j_settings, movie_graph, service_max_walks=1)
    try:
        with httpx.Client(base_url=app.url, timeout=60) as c, concurrent.futures.ThreadPoolExecutor(1) as pool:
            first = pool.submit(c.post, "/v1/walk", json={**QUESTION, "graph": movie_graph})
            assert backend.entered.wait(30)  # the first walk holds the only slot, waiting on its decision
            second = c.post("/v1/walk", json={**QUESTION, "graph": movie_graph})
            assert second.status_code == 429
            assert second.headers["retry-after"] == "1"
            assert "1 walks in flight, the limit (GW_NEO4J_SERVICE_MAX_WALKS) is 1" in second.json()["detail"]
            backend.release.set()
            assert first.result(timeout=60).status_code == 200
            assert c.post("/v1/walk", json={**QUESTION, "graph": movie_graph}).status_code == 200
    finally:
        backend.release.set()
        app.stop()


def test_a_walk_whose_decision_hangs_answers_at_its_deadline(neo4j_settings: Settings, movie_graph: str) -> None:
    """The decision never comes back; the walk's own deadline (the timeout less the answer margin) bounds it, so
    the request answers 200 with the walk's partial answer and why it stopped, before the 504 would come."""
    app, backend = _gated_app(neo4j_settings, movie_graph, service_timeout_s=2.0)  # margin 0.5 s, room on a loaded box
    try:
        with httpx.Client(base_url=app.url, timeout=60) as c:
            r = c.post("/v1/walk", json={**QUESTION, "graph": movie_graph})  # never released: the decision hangs
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["status"] == "budget"
            assert body["bundle"]["stopped"].startswith("budget: deadline: the walk's time ran out after ")
            assert app.ctx.walks_in_flight == 0  # the slot came back
            stored = c.get(f"/v1/walks/{body['walk_id']}", params={"graph": movie_graph}).json()["walk"]
            assert stored["status"] == "budget"
    finally:
        backend.release.set()
        app.stop()


def test_a_walk_past_the_timeout_is_a_504(
    neo4j_settings: Settings, movie_graph: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held between its depths (a pause point only a cancellation ends, where no deadline check reaches), the walk
    is still running when the request's time is up: 504, the walk cancelled and stored as interrupted."""
    faults._passes.clear()
    monkeypatch.setenv(faults.ENV, "walk.depth@2")
    app = ServedApp(service_settings(neo4j_settings, movie_graph, service_timeout_s=0.5)).start()
    try:
        with httpx.Client(base_url=app.url, timeout=60) as c:
            question = {"question": "who starred in Titanic", "graph": movie_graph, "start": "Titanic"}
            r = c.post("/v1/walk", json=question)
            assert r.status_code == 504, r.text
            problem = r.json()
            assert problem["detail"].startswith("the request took longer than 0.5 s (GW_NEO4J_SERVICE_TIMEOUT_S)")
            assert app.ctx.walks_in_flight == 0  # the slot came back
            stored = c.get(f"/v1/walks/{problem['walk_id']}", params={"graph": movie_graph}).json()["walk"]
            assert stored["status"] == "interrupted"  # the cut walk's stored record says so
    finally:
        app.stop()
