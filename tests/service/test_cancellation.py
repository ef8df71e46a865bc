"""A client that goes away mid-walk cancels its walk (issue 21): over real HTTP against the real app and Neo4j, the
walk is held at its second depth (a pause point that only a cancellation ends), the client closes its socket, and
the service cancels the walk, counts it in ``gw_walks_cancelled{reason="disconnected"}`` and gives the slot back.
(The engine then stores the walk as ``interrupted`` within ``INTERRUPT_WRITE_S``; that write is the engine's, tested
with the CLI's interrupts in tests/hostile/test_interrupts.py.)"""

from __future__ import annotations

import json
import re
import socket
import time
from typing import TYPE_CHECKING

from graphwalk_neo4j import faults

if TYPE_CHECKING:
    import httpx
    import pytest

    from tests.service.conftest import ServedApp


def metric(client: httpx.Client, line: str) -> float | None:
    found = re.search(rf"^{re.escape(line)} (\S+)$", client.get("/metrics").text, re.MULTILINE)
    return float(found.group(1)) if found else None


def wait_metric(client: httpx.Client, line: str, value: float) -> None:
    for _ in range(3000):  # bounded poll; nothing timed is asserted
        if metric(client, line) == value:
            return
        time.sleep(0.01)
    raise AssertionError(f"{line} never reached {value}: {metric(client, line)}")


def test_a_client_that_disconnects_mid_walk_cancels_it(
    served: ServedApp, client: httpx.Client, movie_graph: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    faults._passes.clear()
    monkeypatch.setenv(faults.ENV, "walk.depth@2")
    body = json.dumps({"question": "who starred in Titanic", "graph": movie_graph, "start": "Titanic"}).encode()
    request = (
        f"POST /v1/walk HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    assert metric(client, 'gw_walks_cancelled_total{reason="disconnected"}') == 0.0
    with socket.create_connection(("127.0.0.1", served.port)) as raw:
        raw.sendall(request)
        wait_metric(client, "gw_walks_in_flight", 1.0)
    wait_metric(client, 'gw_walks_cancelled_total{reason="disconnected"}', 1.0)
    wait_metric(client, "gw_walks_in_flight", 0.0)
    # the slot is free again: the next walk runs
    monkeypatch.delenv(faults.ENV)
    again = client.post(
        "/v1/walk", json={"question": "who starred in Titanic", "graph": movie_graph, "start": "Titanic"}
    )
    assert again.status_code == 200, again.text
