"""The service benchmark (docs/benchmarks.md, "Service"): what serving a walk over HTTP costs, how the service holds
up under 64 concurrent clients, and whether its memory stays flat.

``python -m bench.service [--graph service_metaqa] [--walks 300] [--clients 64] [--seconds 60] [--total 10000]``

``python -m bench.service --uri bolt://127.0.0.1:7691 --graph scale_1m --kb /tmp/gw-scale-neo4j/scale_1m.txt
--clients 1,8,64 --seconds 60 --total 0 --no-overhead`` measures walks/s on a generated graph that
bench.scale loaded into its own Neo4j (issue 16): walks start from films sampled from the generator's file.

* Graph: the MetaQA KB loaded into ``--graph`` (skipped by the ledger when already loaded), embedded with the
  fake embedder (hash vectors: the walk's hub prefilter runs the same code, without MiniLM's CPU cost dominating
  what is measured).
* Decider: the seeded fake, zero latency. Walks: MetaQA dev 1- and 2-hop questions from their topic entity,
  preset ``relation``, so both sides do the same linking-free work.
* Overhead: the same walks in-process (``WalkService.walk`` + the bundle, one warm service) and served
  (``POST /v1/walk`` against a real ``gw-neo4j serve`` subprocess, one client), alternating walk by walk; p50 of
  each side and of the paired differences.
* Load: ``--clients`` concurrent clients (a comma-separated list runs each in turn) for ``--seconds``; errors,
  walks/s, p50/p95 latency. ``--total 0`` stops every client at the end of the window.
* Memory: the server's RSS after start, after 1,000 walks, and after ``--total`` walks (the load continues past
  the timed window until then).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.run import proc_status_mb
from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.eval.metaqa import load_questions
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.graph.identity import entity_id, entity_uid
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.ingest.structured import ingest_file
from graphwalk_neo4j.resources import metaqa_type_map
from graphwalk_neo4j.schema import apply_schema
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.walk.config import get_preset
from graphwalk_neo4j.walk.service import WalkService

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "datasets" / "metaqa"
RUNNING = re.compile(r"Uvicorn running on http://127\.0\.0\.1:(\d+)")


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``; NaN when none finished (e.g. every walk ran past the window)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def load_graph(settings: Settings, graph: str) -> dict[str, Any]:
    async with GraphStore(settings) as store:
        await apply_schema(store)
        started = time.perf_counter()
        result = await ingest_file(store, DATA / "kb.txt", graph=graph, source="bench", type_map=metaqa_type_map())
        embedded = await embed_graph(store, FakeEmbedder(), graph)
        return {
            "ingest": result.status,
            "rows": result.rows,
            "embedded": embedded.embedded,
            "seconds": round(time.perf_counter() - started, 1),
        }


def scale_questions(kb: Path, n: int) -> list[tuple[str, str]]:
    """Films sampled from a generated graph's file (bench.scale's sampling: every 97th line, seeded shuffle)."""
    names = list(dict.fromkeys(line.split("|", 1)[0] for line in kb.read_text(encoding="utf-8").splitlines()[::97]))
    random.Random(3).shuffle(names)
    return [("which films are like this one", name) for name in names[:n]]


def questions(n: int) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for hops in (1, 2):
        out += [(q.text_without_brackets, q.topic) for q in load_questions(DATA / "dev", "dev", hops)[: n // 2]]
    return out


def body(graph: str, question: str, topic: str) -> dict[str, Any]:
    return {"question": question, "graph": graph, "start": entity_id(topic), "preset": "relation", "model": "fake"}


async def paired(settings: Settings, url: str, graph: str, qs: list[tuple[str, str]]) -> dict[str, Any]:
    """Each walk in-process, then the same walk served, alternating, so both sides see the same machine load
    (the box is shared; runs minutes apart drift by 2x). Reports p50 of each side and of the paired differences."""
    async with GraphStore(settings) as store, httpx.AsyncClient(base_url=url, timeout=120) as client:
        service = WalkService(store, graph, FakeBackend(), embedder=FakeEmbedder(), preload_embeddings=True)
        await service.ready()
        config = get_preset("relation")
        local, remote, diffs = [], [], []
        for i, (question, topic) in enumerate([*qs[:20], *qs]):  # the first 20 warm both sides up
            started = time.perf_counter()
            outcome = await service.walk(question, config, start=[entity_id(topic)])
            if outcome.result.status == "no_start":  # a topic MetaQA spells unlike its KB: not a walk
                continue
            outcome.bundle()  # the in-process caller's product, as the served one gets it
            mid = time.perf_counter()
            (await client.post("/v1/walk", json=body(graph, question, topic))).raise_for_status()
            end = time.perf_counter()
            if i >= 20:
                local.append(mid - started)
                remote.append(end - mid)
                diffs.append((end - mid) - (mid - started))
        return {
            "walks": len(local),
            "in_process_p50_ms": round(statistics.median(local) * 1000, 2),
            "served_p50_ms": round(statistics.median(remote) * 1000, 2),
            "overhead_p50_ms": round(statistics.median(diffs) * 1000, 2),
            "overhead_of_p50s_ms": round((statistics.median(remote) - statistics.median(local)) * 1000, 2),
        }


async def resolvable(settings: Settings, graph: str, qs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The questions whose topic entity is in the graph (a few MetaQA topics are spelt unlike the KB)."""
    async with GraphStore(settings) as store:
        uids = [entity_uid(graph, entity_id(t)) for _, t in qs]
        rows = await store.read("graph/entities_by_id", uids=uids, bookkeeping=BOOKKEEPING_TYPES)
    found = {r["id"] for r in rows}
    return [(q, t) for q, t in qs if entity_id(t) in found]


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (Linux ``/proc``), children first."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        kids = parents.get(todo.pop(0), [])
        found.extend(kids)
        todo.extend(kids)
    return found


class Server:
    """A real ``gw-neo4j serve --port 0`` subprocess at the default log level (one JSON line per request, as
    deployed); the port is read from uvicorn's start line."""

    def __init__(
        self, settings: Settings, graph: str, log: Path | None = None, env: dict[str, str] | None = None
    ) -> None:
        """``env`` overrides the service's settings (default: the fake embedder and decider, 256 walk slots)."""
        self.log = log.open("w", encoding="utf-8") if log else None
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "GW_NEO4J_URI": settings.uri,
            "GW_NEO4J_EMBEDDER": "fake",
            "GW_NEO4J_MODEL": "fake",
            "GW_NEO4J_SERVICE_GRAPHS": graph,
            "GW_NEO4J_SERVICE_MAX_WALKS": "256",
            **(env or {}),
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "graphwalk_neo4j.cli", "serve", "--port", "0"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.port: int | None = None
        self.ready = threading.Event()
        self.tail: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.tail = [*self.tail[-50:], line]
            if self.log is not None:
                self.log.write(line)
            match = RUNNING.search(line)
            if match:
                self.port = int(match.group(1))
                self.ready.set()
        self.ready.set()

    def url(self) -> str:
        if not self.ready.wait(600) or self.port is None:
            raise RuntimeError("the service did not start:\n" + "".join(self.tail))
        return f"http://127.0.0.1:{self.port}"

    def rss_mb(self) -> float:
        """The service's resident memory: the server process and its descendants (the walk process) together."""
        return sum(proc_status_mb(pid, "VmRSS") or 0.0 for pid in [self.proc.pid, *descendants(self.proc.pid)])

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=120)


async def load(
    url: str, graph: str, qs: list[tuple[str, str]], server: Server, clients: int, seconds: float, total: int
) -> dict[str, Any]:
    latencies: list[float] = []
    errors: dict[str, int] = {}
    done = 0
    rss: dict[str, float] = {"start": server.rss_mb()}
    window_end = time.perf_counter() + seconds
    timed = {"walks": 0, "seconds": 0.0}
    t0 = time.perf_counter()

    async def client_loop(i: int, http: httpx.AsyncClient) -> None:
        nonlocal done
        k = i
        while done < total if total > 0 else time.perf_counter() < window_end:
            question, topic = qs[k % len(qs)]
            k += clients
            started = time.perf_counter()
            try:
                r = await http.post("/v1/walk", json=body(graph, question, topic))
                ok = r.status_code == 200 and r.json()["status"] in ("ok", "budget", "dead_end")
                if not ok:
                    key = f"HTTP {r.status_code} {r.json().get('status', '')}"
                    errors[key] = errors.get(key, 0) + 1
            except httpx.HTTPError as exc:
                errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
            finished = time.perf_counter()
            done += 1
            if finished <= window_end:
                latencies.append(finished - started)
                timed["walks"] += 1
                timed["seconds"] = finished - t0
            if done % 1000 == 0:
                rss[f"after_{done // 1000}k"] = server.rss_mb()

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        await asyncio.gather(*(client_loop(i, http) for i in range(clients)))
    rss["end"] = server.rss_mb()
    async with httpx.AsyncClient(base_url=url) as http:
        metrics = (await http.get("/metrics")).text
    caches = {
        m.group(1): float(m.group(2)) for m in re.finditer(r'gw_walk_cache_entries\{kind="(\w+)"\} (\S+)', metrics)
    }
    return {
        "clients": clients,
        "window_s": round(timed["seconds"], 1),
        "walks_in_window": timed["walks"],
        "walks_per_s": round(timed["walks"] / max(timed["seconds"], 1e-9), 1),
        "p50_ms": round(pct(latencies, 0.5) * 1000, 1),
        "p95_ms": round(pct(latencies, 0.95) * 1000, 1),
        "errors": errors,
        "total_walks": done,
        "rss_mb": {k: round(v, 1) for k, v in rss.items()},
        "cache_entries": caches,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", default="service_metaqa")
    parser.add_argument("--walks", type=int, default=300)
    parser.add_argument("--clients", default="64", help="concurrent clients; a comma-separated list runs each")
    parser.add_argument("--uri", default=None, help="Bolt URI of the Neo4j holding the graph (default: settings)")
    parser.add_argument("--kb", default=None, help="a bench.scale file already loaded as --graph: walks from it")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--total", type=int, default=10_000)
    parser.add_argument("--load-only", action="store_true", help="Only load the graph.")
    parser.add_argument("--overhead-only", action="store_true", help="Skip the concurrent-clients run.")
    parser.add_argument("--server-log", default=None, help="write the server's log lines to this file")
    parser.add_argument("--no-overhead", action="store_true", help="Skip the served-vs-in-process pairs.")
    args = parser.parse_args()
    settings = Settings(uri=args.uri) if args.uri else Settings()
    if args.kb:
        qs = await resolvable(settings, args.graph, scale_questions(Path(args.kb), args.walks))
    else:
        print("graph:", await load_graph(settings, args.graph), flush=True)
        if args.load_only:
            return
        qs = await resolvable(settings, args.graph, questions(args.walks))
    server = Server(settings, args.graph, Path(args.server_log) if args.server_log else None)
    overhead, reports = None, []
    try:
        url = server.url()
        if not args.no_overhead:
            overhead = await paired(settings, url, args.graph, qs)
            print("overhead:", overhead, flush=True)
        if not args.overhead_only:
            for clients in (int(c) for c in args.clients.split(",")):
                load_avg = os.getloadavg()[0]
                report = await load(url, args.graph, qs, server, clients, args.seconds, args.total)
                report["load_avg_1m"] = [round(load_avg, 2), round(os.getloadavg()[0], 2)]
                reports.append(report)
                print("load:", report, flush=True)
    finally:
        code = server.stop()
    print(
        {
            "machine": f"{platform.machine()} {os.cpu_count()} cores",
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "graph": args.graph,
            "overhead": overhead,
            "load": reports[0] if len(reports) == 1 else reports,
            "server_exit": code,
        },
        flush=True,
    )


if __name__ == "__main__":
    asyncio.run(main())
