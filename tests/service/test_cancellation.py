"""Cancellation and the cut (issue 21), over real HTTP against the real app and Neo4j, with a walk held by a pause
point that only a cancellation ends (graphwalk_neo4j.faults):

* a client that goes away mid-walk cancels its walk: held at its second depth, or inside its second depth's
  expansion (a long step), the client closes its socket, and the service cancels the walk, counts it in
  ``gw_walks_cancelled{reason="disconnected"}``, gives the slot back and stores the walk as ``interrupted``;
* a walk still running at its deadline (the request timeout less the answer margin) is cut within the depth it is
  in: it answers 200 before the timeout, with its partial answer and status ``budget`` (``deadline: ...``), and is
  stored so.

Nothing timed is asserted beyond that the cut answers (a 504 would mean it did not)."""

from __future__ import annotations

import json
import re
import socket
import time
from typing import TYPE_CHECKING

import httpx
import pytest

from graphwalk_neo4j import faults
from graphwalk_neo4j.service.context import answer_margin
from tests.service.conftest import ServedApp, serve_app, service_settings

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings


def metric(client: httpx.Client, line: str) -> float | None:
    found = re.search(rf"^{re.escape(line)} (\S+)$", client.get("/metrics").text, re.MULTILINE)
    return float(found.group(1)) if found else None


def wait_metric(client: httpx.Client, line: str, value: float) -> None:
    for _ in range(3000):  # bounded poll; nothing timed is asserted
        if metric(client, line) == value:
            return
        time.sleep(0.01)
    raise AssertionError(f"{line} never reached {value}: {metric(client, line)}")


def walk_request(graph: str) -> bytes:
    body = json.dumps({"question": "who starred in Titanic", "graph": graph, "start": "Titanic"}).encode()
    return (
        f"POST /v1/walk HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


def stored_statuses(client: httpx.Client, graph: str) -> list[tuple[str, str]]:
    walks = client.get("/v1/walks", params={"graph": graph}).json()["walks"]
    return [(w["status"], w["stop_reason"] or "") for w in walks]


WHERE = pytest.mark.parametrize("walk_process", [False, True], ids=["in-process", "walk-process"])


@WHERE
@pytest.mark.parametrize("held_at", ["walk.depth@2", "walk.expand@2"], ids=["between-depths", "in-an-expansion"])
def test_a_client_that_disconnects_mid_walk_cancels_it(
    neo4j_settings: Settings, movie_graph: str, monkeypatch: pytest.MonkeyPatch, held_at: str, walk_process: bool
) -> None:
    faults._passes.clear()
    monkeypatch.setenv(faults.ENV, held_at)
    served = serve_app(service_settings(neo4j_settings, movie_graph), walk_process)
    try:
        with httpx.Client(base_url=served.url, timeout=60) as client:
            disconnect_and_check(served, client, movie_graph, monkeypatch)
    finally:
        served.stop()


def disconnect_and_check(
    served: ServedApp, client: httpx.Client, movie_graph: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert metric(client, 'gw_walks_cancelled_total{reason="disconnected"}') == 0.0
    with socket.create_connection(("127.0.0.1", served.port)) as raw:
        raw.sendall(walk_request(movie_graph))
        wait_metric(client, "gw_walks_in_flight", 1.0)
    wait_metric(client, 'gw_walks_cancelled_total{reason="disconnected"}', 1.0)
    wait_metric(client, "gw_walks_in_flight", 0.0)
    for _ in range(3000):  # the engine stores it within INTERRUPT_WRITE_S; a bounded poll, nothing timed
        if [s for s, _ in stored_statuses(client, movie_graph)] == ["interrupted"]:
            break
        time.sleep(0.01)
    assert stored_statuses(client, movie_graph) == [("interrupted", "interrupted: cancelled")]
    # the slot is free again: the next walk runs
    monkeypatch.delenv(faults.ENV)
    again = client.post(
        "/v1/walk", json={"question": "who starred in Titanic", "graph": movie_graph, "start": "Titanic"}
    )
    assert again.status_code == 200, again.text


@WHERE
def test_a_walk_past_its_deadline_is_cut_within_its_depth(
    neo4j_settings: Settings, movie_graph: str, monkeypatch: pytest.MonkeyPatch, walk_process: bool
) -> None:
    timeout_s = 10.0  # the walk's own deadline is answer_margin(10) = 2.5 s before it
    assert answer_margin(timeout_s) == 2.5
    faults._passes.clear()
    monkeypatch.setenv(faults.ENV, "walk.expand@2")  # depth 2's expansion never ends by itself
    served = serve_app(service_settings(neo4j_settings, movie_graph, service_timeout_s=timeout_s), walk_process)
    try:
        with httpx.Client(base_url=served.url, timeout=60) as client:
            cut = client.post(
                "/v1/walk", json={"question": "who starred in Titanic", "graph": movie_graph, "start": "Titanic"}
            )
            assert cut.status_code == 200, cut.text  # not 504: the walk ended itself before the timeout
            body = cut.json()
            assert body["status"] == "budget"
            stopped = body["bundle"]["stopped"]
            assert stopped.startswith("budget: deadline: the walk's time ran out after "), stopped
            assert stopped.endswith(", at depth 2 while reading its options"), stopped
            # its partial answer: where depth 1 took it (Leonardo DiCaprio or the year 1997)
            assert [a["name"] for a in body["answers"]] in (["Leonardo DiCaprio"], ["1997"])
            assert metric(client, 'gw_walks_cancelled_total{reason="timeout"}') == 0.0
            status, reason = stored_statuses(client, movie_graph)[0]
            assert (status, reason) == ("budget", stopped.removeprefix("budget: "))
    finally:
        served.stop()
