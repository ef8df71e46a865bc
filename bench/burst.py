"""A burst of worst-case walks against a real ``gw-neo4j serve`` (issue 21): does the service stay responsive, cut
what runs too long within the timeout, and give its memory back?

``python -m bench.burst [--graph metaqa] [--hub Drama] [--requests 16] [--timeout-s 120] [--out FILE]
[--python-malloc malloc] [--worker-nice N]``

* Server: a ``gw-neo4j serve`` subprocess on the running Neo4j, warming ``--graph`` (the MetaQA KB, embedded with
  MiniLM), the seeded fake decider (zero latency, keeping nothing: the CPU is the walk's own), the request
  timeout ``--timeout-s`` (each walk's own deadline is the service's answer margin before it).
* Warm-up: one worst-case walk per hop mode, one after the other, so the process's first-use costs and the
  graph's caches (node refs, vectors) are in "where it started"; then RSS is read (``rss_mb_before``).
* Requests: ``--requests`` concurrent ``POST /v1/walk`` from the graph's biggest hub (``--hub``), every knob at
  its maximum (walk/config.py): beam search, beam width, depth, options per question, frontier, sample names,
  every budget field; half in entity hops, half in relation hops.
* Measured: each request's HTTP status, walk status, stop reason and wall time against the timeout (the cut),
  ``/healthz`` latency sampled every 50 ms (a fresh connection each time, as a load balancer's probe, from a
  process of its own) from before the burst to after its last answer, and the server's RSS before, at its peak
  and 10 s after the last answer.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from bench.run import machine, pct
from bench.service import Server
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.walk import config as limits

if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Event

SETTLE_S = 10.0  # how long after the last answer RSS is read again


def worst_case(hop_mode: str) -> dict[str, Any]:
    """A walk config with every knob at the maximum the service accepts."""
    return {
        "strategy": "beam",
        "hop_mode": hop_mode,
        "beam_width": limits.MAX_BEAM_WIDTH,
        "max_neighbors": limits.MAX_NEIGHBORS,
        "prefilter_keep": limits.MAX_NEIGHBORS,
        "max_frontier": limits.MAX_FRONTIER,
        "sample_names": limits.MAX_SAMPLE_NAMES,
        "budget": {
            "max_depth": limits.MAX_DEPTH,
            "max_decision_calls": limits.MAX_DECISION_CALLS,
            "max_input_tokens": limits.MAX_INPUT_TOKENS,
            "max_nodes_read": limits.MAX_NODES_READ,
            "max_memory_mb": limits.MAX_MEMORY_MB,
        },
    }


def probe(port: int, ready: Event, stop: Event, out: Queue[list[float]]) -> None:
    """``GET /healthz`` every 50 ms on a fresh connection (as a load balancer's probe), in a process of its own:
    the benchmark's event loop, busy reading sixteen big answers, must not delay or time the probes."""
    seconds: list[float] = []
    while not stop.is_set():
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.request("GET", "/healthz")
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"/healthz answered {response.status}")
        finally:
            conn.close()
        seconds.append(time.perf_counter() - started)
        ready.set()
        time.sleep(0.05)
    out.put(seconds)


async def one(http: httpx.AsyncClient, graph: str, hub: str, hop_mode: str) -> dict[str, Any]:
    body = {
        "question": f"which films are like {hub} ones",
        "graph": graph,
        "start": hub,
        "config": worst_case(hop_mode),
    }
    started = time.perf_counter()
    r = await http.post("/v1/walk", json=body)
    seconds = round(time.perf_counter() - started, 1)
    data = r.json()
    ok = r.status_code == 200
    reason = data.get("bundle", {}).get("stopped") if ok else data.get("detail")
    return {
        "http": r.status_code,
        "walk_status": data.get("status") if ok else None,
        "stop_reason": str(reason)[:120],
        "seconds": seconds,
        "hop_mode": hop_mode,
    }


async def burst(url: str, server: Server, graph: str, hub: str, n: int, timeout_s: float) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=timeout_s + 60) as http:
        warm_up = [await one(http, graph, hub, mode) for mode in ("entity", "relation")]
        await asyncio.sleep(2)
        rss_before = server.rss_mb()
        peak = [rss_before]
        stop = asyncio.Event()
        spawn = multiprocessing.get_context("spawn")
        probe_ready, probe_stop, probed = spawn.Event(), spawn.Event(), spawn.Queue()
        port = int(url.rsplit(":", 1)[1])
        prober = spawn.Process(target=probe, args=(port, probe_ready, probe_stop, probed), daemon=True)
        prober.start()
        if not await asyncio.to_thread(probe_ready.wait, 120):
            raise RuntimeError("the /healthz probe process did not start")

        async def watch_rss() -> None:
            while not stop.is_set():
                peak.append(server.rss_mb())
                await asyncio.sleep(0.5)

        watcher = asyncio.ensure_future(watch_rss())
        await asyncio.sleep(1)
        started = time.perf_counter()
        results = await asyncio.gather(*(one(http, graph, hub, ("entity", "relation")[i % 2]) for i in range(n)))
        wall = time.perf_counter() - started
        await asyncio.sleep(1)
        stop.set()
        probe_stop.set()
        health: list[float] = await asyncio.to_thread(probed.get, True, 120)
        prober.join(timeout=30)
        await watcher
        await asyncio.sleep(SETTLE_S)
        rss_after = server.rss_mb()
    slowest = max(r["seconds"] for r in results)
    return {
        "requests": n,
        "timeout_s": timeout_s,
        "warm_up": warm_up,
        "wall_s": round(wall, 1),
        "http_statuses": sorted({r["http"] for r in results}),
        "walk_statuses": sorted({str(r["walk_status"]) for r in results}),
        "slowest_request_s": slowest,
        "slowest_vs_timeout_s": round(slowest - timeout_s, 1),
        "within_timeout": slowest <= timeout_s,
        "per_request": results,
        "healthz_samples": len(health),
        "healthz_ms_p50": round(pct(health, 50) * 1000, 1),
        "healthz_ms_p95": round(pct(health, 95) * 1000, 1),
        "healthz_ms_max": round(max(health) * 1000, 1),
        "healthz_over_100ms": sum(1 for h in health if h > 0.1),
        "healthz_ms": [round(h * 1000, 1) for h in health],
        "rss_mb_before": round(rss_before),
        "rss_mb_peak": round(max(peak)),
        "rss_mb_after": round(rss_after),
        "rss_after_vs_before": round(rss_after / rss_before, 3),
    }


async def run_burst(
    settings: Settings,
    graph: str,
    hub: str,
    n: int,
    timeout_s: float,
    *,
    embedder: str = "minilm",
    env: dict[str, str] | None = None,
    server_log: Path | None = None,
) -> dict[str, Any]:
    """Start the server, run the warm-up and the burst, stop the server; the measured figures."""
    server_env = {
        "GW_NEO4J_EMBEDDER": embedder,
        "GW_NEO4J_MODEL": "fake",
        "GW_NEO4J_SERVICE_TIMEOUT_S": str(timeout_s),
        "GW_NEO4J_PASSWORD": settings.password.get_secret_value(),
        **(env or {}),
    }
    server = Server(settings, graph, log=server_log, env=server_env)
    try:
        result = await burst(server.url(), server, graph, hub, n, timeout_s)
    finally:
        server.stop()
    result["date"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    result["machine"] = machine()
    return result


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", default="metaqa")
    parser.add_argument("--hub", default="Drama")
    parser.add_argument("--requests", type=int, default=16)
    parser.add_argument("--timeout-s", type=float, default=120.0)
    parser.add_argument("--out", type=Path, default=None, help="also write the result as JSON here")
    parser.add_argument("--server-log", type=Path, default=None, help="the server's JSON log lines go here")
    parser.add_argument(
        "--malloc-arena-max", type=int, default=None, help="run the server with MALLOC_ARENA_MAX set to this (glibc)"
    )
    parser.add_argument(
        "--python-malloc",
        choices=["malloc"],
        default=None,
        help="run the server with PYTHONMALLOC set to this (malloc: no pymalloc arenas, all freed memory trimmable)",
    )
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=None,
        help="run the server with GW_NEO4J_SERVICE_WORKER_NICE set to this (0: the CPU pool and driver thread "
        "at the loop's priority; unset: the service's default)",
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run the walks in the server's own process (GW_NEO4J_SERVICE_WALK_PROCESS=false), as before the walk "
        "process",
    )
    args = parser.parse_args()
    load_before = round(os.getloadavg()[0], 1)
    env = {"MALLOC_ARENA_MAX": str(args.malloc_arena_max)} if args.malloc_arena_max else {}
    if args.python_malloc:
        env["PYTHONMALLOC"] = args.python_malloc
    if args.worker_nice is not None:
        env["GW_NEO4J_SERVICE_WORKER_NICE"] = str(args.worker_nice)
    if args.in_process:
        env["GW_NEO4J_SERVICE_WALK_PROCESS"] = "false"
    result = await run_burst(
        Settings(), args.graph, args.hub, args.requests, args.timeout_s, env=env, server_log=args.server_log
    )
    result["malloc_arena_max"] = args.malloc_arena_max
    result["python_malloc"] = args.python_malloc
    result["worker_nice"] = args.worker_nice
    result["walk_process"] = not args.in_process
    result["load_1min_before_after"] = [load_before, round(os.getloadavg()[0], 1)]
    text = json.dumps(result, indent=1)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    asyncio.run(main())
