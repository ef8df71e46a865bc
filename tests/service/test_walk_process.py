"""Walks in the service's walk process (graphwalk_neo4j.service.walk_process), over real HTTP against the real app,
the real child process and the real Neo4j:

* the contract, the stream, the probes and the metrics are the in-process service's (the same tests, run against a
  service whose walks run in the child);
* a child that dies mid-walk answers that walk with a 503 naming what happened and the way out (retry), and the
  next walk starts a new child and answers 200;
* the service's own process never imports the decision backends' walk code path: it holds no warm walker.

The cancellation and deadline tests run both ways in test_cancellation.py; SIGTERM with a walk in flight goes
through the child in test_shutdown.py (``gw-neo4j serve`` runs its walks in one by default)."""

from __future__ import annotations

import concurrent.futures
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from graphwalk_neo4j import faults
from tests.service import test_http_api as http_api
from tests.service import test_http_walk as http_walk
from tests.service.conftest import ServedApp, serve_app, service_settings

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graphwalk_neo4j.settings import Settings


@pytest.fixture
def served_wp(neo4j_settings: Settings, movie_graph: str) -> Iterator[ServedApp]:
    app = serve_app(service_settings(neo4j_settings, movie_graph), walk_process=True)
    yield app
    app.stop()


@pytest.fixture
def client_wp(served_wp: ServedApp) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served_wp.url, timeout=60) as c:
        yield c


def child_pid(served: ServedApp) -> int:
    process = served.ctx.walk_process
    assert process is not None
    assert process.alive()
    assert process.pid is not None
    assert process.pid != os.getpid()
    pid: int = process.pid
    return pid


def metric(client: httpx.Client, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", client.get("/metrics").text, re.MULTILINE)
    assert found is not None, name
    return float(found.group(1))


def test_the_walk_contract_holds_through_the_walk_process(
    client_wp: httpx.Client, served_wp: ServedApp, movie_graph: str
) -> None:
    http_walk.test_walk_answers_with_the_contract_and_the_trace_is_committed(client_wp, served_wp, movie_graph)
    http_walk.test_a_walk_over_a_limit_is_refused_with_422_naming_the_limit(client_wp, movie_graph)
    http_walk.test_errors_are_problem_json_with_the_cli_message(client_wp, movie_graph)
    http_walk.test_probes(client_wp, served_wp, movie_graph)
    child_pid(served_wp)
    assert served_wp.ctx._walkers == {}  # the serving process warmed nothing itself: the child did


def test_a_streamed_walk_and_the_metrics_come_from_the_walk_process(
    client_wp: httpx.Client, served_wp: ServedApp, movie_graph: str
) -> None:
    before = metric(client_wp, "gw_walk_depth_seconds_count")
    http_api.test_streamed_walk_sends_one_event_per_depth_then_the_result(client_wp, movie_graph)
    # each depth's wall time reached the parent's histogram; the child's caches are what the gauges show
    assert metric(client_wp, "gw_walk_depth_seconds_count") >= before + 2
    assert metric(client_wp, 'gw_walk_cache_entries{kind="node_refs"}') > 0
    assert metric(client_wp, 'gw_walks_total{status="ok"}') == 1.0


def test_a_walk_process_that_dies_mid_walk_is_a_503_and_the_next_walk_starts_a_new_one(
    neo4j_settings: Settings, movie_graph: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(faults.ENV, "walk.depth@2")  # the first child's first walk waits at its second depth
    served = serve_app(service_settings(neo4j_settings, movie_graph), walk_process=True)
    monkeypatch.delenv(faults.ENV)  # children started from now on walk straight through
    walk = {"question": "who starred in Titanic", "graph": movie_graph, "start": "Titanic"}
    try:
        first_pid = child_pid(served)
        with (
            httpx.Client(base_url=served.url, timeout=60) as client,
            concurrent.futures.ThreadPoolExecutor(1) as pool,
        ):
            held = pool.submit(client.post, "/v1/walk", json=walk)
            for _ in range(3000):  # until depth 1 has reported (bounded poll; nothing timed is asserted)
                if metric(client, "gw_walk_depth_seconds_count") >= 1:
                    break
                time.sleep(0.01)
            assert metric(client, "gw_walk_depth_seconds_count") >= 1
            os.kill(first_pid, 9)
            died = held.result(timeout=60)
            assert died.status_code == 503, died.text
            assert died.headers["retry-after"] == "1"
            detail = died.json()["detail"]
            assert detail == (
                "the walk process ended (exit code -9) before this walk finished; retry, the next walk starts a new one"
            )
            assert metric(client, "gw_walks_in_flight") == 0.0  # its slot is back
            again = client.post("/v1/walk", json=walk)
            assert again.status_code == 200, again.text
            assert [a["name"] for a in again.json()["answers"]] in (["Leonardo DiCaprio"], ["1997"])
            assert child_pid(served) != first_pid
    finally:
        served.stop()
    assert served.ctx.walk_process is not None
    assert not served.ctx.walk_process.alive()


def test_the_walk_process_runs_on_the_system_allocator_unless_the_user_chose(
    neo4j_settings: Settings, movie_graph: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTHONMALLOC", raising=False)
    served = serve_app(service_settings(neo4j_settings, movie_graph), walk_process=True)
    try:
        environ = Path(f"/proc/{child_pid(served)}/environ").read_bytes().split(b"\0")
        assert b"PYTHONMALLOC=malloc" in environ  # freed pages go back to the system at the idle collection
        assert "PYTHONMALLOC" not in os.environ  # the serving process's own environment is as it was
    finally:
        served.stop()
    monkeypatch.setenv("PYTHONMALLOC", "pymalloc")
    served = serve_app(service_settings(neo4j_settings, movie_graph), walk_process=True)
    try:
        environ = Path(f"/proc/{child_pid(served)}/environ").read_bytes().split(b"\0")
        assert b"PYTHONMALLOC=pymalloc" in environ
    finally:
        served.stop()
