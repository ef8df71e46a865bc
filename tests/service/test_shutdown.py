"""Graceful shutdown of a real `gw-neo4j serve` process: SIGTERM arrives while a walk waits on its decision (held
by the Jev stand-in), new requests get 503 while it drains, the walk finishes with a complete trace in Neo4j, and
the process exits 0."""

from __future__ import annotations

import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.standins.jev_server import JevStandIn

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
RUNNING = re.compile(r"Uvicorn running on http://127\.0\.0\.1:(\d+)")


def fake_service_env(settings: Settings, graph: str, **extra: str) -> dict[str, str]:
    """The environment of a `gw-neo4j` subprocess on this checkout with the fake embedder and decider, warming only
    ``graph`` (``extra``: more ``GW_NEO4J_*`` variables)."""
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "GW_NEO4J_URI": settings.uri,
        "GW_NEO4J_EMBEDDER": "fake",
        "GW_NEO4J_MODEL": "fake",
        "GW_NEO4J_SERVICE_GRAPHS": graph,
        **extra,
    }


class ServeProcess:
    """``python -m graphwalk_neo4j.cli serve --port 0``; the port is read from uvicorn's start line on stderr,
    every stderr line is kept in ``lines``."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "graphwalk_neo4j.cli", "serve", "--port", "0"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self.port: int | None = None
        self._started = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)
            match = RUNNING.search(line)
            if match:
                self.port = int(match.group(1))
                self._started.set()
        self._started.set()

    def wait_started(self, timeout_s: float = 120) -> str:
        assert self._started.wait(timeout_s), "".join(self.lines[-20:])
        assert self.port is not None, "".join(self.lines[-20:])
        return f"http://127.0.0.1:{self.port}"

    def logs(self) -> list[dict]:  # type: ignore[type-arg]
        return [json.loads(line) for line in self.lines if line.startswith("{")]


@pytest.fixture
def standin():
    with JevStandIn() as server:
        yield server


def test_sigterm_mid_walk_finishes_the_walk_refuses_new_work_and_exits_0(
    neo4j_settings: Settings, movie_graph: str, standin: JevStandIn
) -> None:
    standin.hold = threading.Event()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "GW_NEO4J_URI": neo4j_settings.uri,
        "GW_NEO4J_EMBEDDER": "fake",
        "TYPESAFE_API_KEY": "test-key",
        "GW_NEO4J_JEV_BASE_URL": standin.typesafe_base_url,
        "GW_NEO4J_SERVICE_GRAPHS": movie_graph,
        "GW_NEO4J_MODEL": "jev",
    }
    server = ServeProcess(env)
    try:
        url = server.wait_started()
        with httpx.Client(base_url=url, timeout=120) as client, concurrent.futures.ThreadPoolExecutor(1) as pool:
            walk = pool.submit(
                client.post,
                "/v1/walk",
                json={
                    "question": "who directed Memento",
                    "graph": movie_graph,
                    "preset": "relation",
                    "config": {"max_depth": 3},
                },
            )
            assert standin.arrived.wait(60), "the walk never asked for a decision"
            server.proc.send_signal(signal.SIGTERM)
            for _ in range(600):  # until the process has taken the signal in (bounded; no timing asserted)
                ready = client.get("/readyz")
                if ready.status_code == 503:
                    break
            assert ready.status_code == 503
            assert ready.json()["checks"]["draining"] is True
            refused = client.post("/v1/walk", json={"question": "who directed Inception", "graph": movie_graph})
            assert refused.status_code == 503
            assert refused.headers["retry-after"] == "1"
            assert refused.json()["detail"].startswith("the service is shutting down")
            assert client.get("/healthz").status_code == 200  # alive while draining
            assert server.proc.poll() is None  # still running: a walk is in flight
            standin.hold.set()
            answered = walk.result(timeout=120)
        assert answered.status_code == 200, answered.text
        body = answered.json()
        assert body["status"] == "ok"
        assert server.proc.wait(timeout=60) == 0
    finally:
        standin.hold.set()
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()
    # the trace is complete in Neo4j: finished, with every decision call and the same answers
    shown = subprocess.run(
        [
            sys.executable,
            "-m",
            "graphwalk_neo4j.cli",
            "walks",
            "show",
            body["walk_id"],
            "--graph",
            movie_graph,
            "--json",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr
    stored = json.loads(shown.stdout)["walk"]
    assert stored["status"] == "ok"
    assert stored["finished_at"] is not None
    assert len(stored["calls"]) == body["bundle"]["usage"]["decision_requests"] == len(standin.systemone_requests)
    assert stored["answer_names"] == [a["name"] for a in body["answers"]]
    logs = server.logs()
    assert any(e["msg"] == "draining" and e["signal"] == "SIGTERM" and e["walks_in_flight"] == 1 for e in logs)
    walk_line = next(e for e in logs if e["msg"] == "request" and e.get("path") == "/v1/walk" and e["status"] == 200)
    assert walk_line["walk_id"] == body["walk_id"]
    assert walk_line["request_id"] == answered.headers["x-request-id"]
    assert not any("test-key" in line or "graphwalk-local" in line for line in server.lines)  # no secrets logged
