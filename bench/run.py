"""``make bench``: ingest, embedding and walk-orchestration benchmarks against the real local Neo4j.

Sections (``python -m bench.run [--only ingest,embed,walk] [--kb PATH] [--walks N]``):

* ingest — the MetaQA KB into a fresh graph, schema included (triples/s wall), then re-ingested unchanged;
  peak RSS of this process and of the Neo4j JVM.
* embed — raw MiniLM throughput (encode only, the same texts, same batch size) against ``embed_graph`` end to end
  (encode + Neo4j writes); the ratio is what the issue asks for.
* text — text-ingest throughput with the loopback LLM and decision stand-ins (bench/text_ingest.py).
* walk — a zero-latency decider (the seeded fake) walks from MetaQA dev topic entities; per-depth orchestration
  overhead (expansion + prompt building + trace write, i.e. everything between two decisions) p50/p95, Cypher round
  trips and decision calls per walk, hub walks reported apart, and 32 walks at once.

Results are appended to docs/benchmarks.md with the command, machine and date.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from bench.text_ingest import bench_text
from graphwalk_neo4j.decide.base import DecisionBackend
from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.embed.minilm import MiniLMEmbedder
from graphwalk_neo4j.embed.onnx import OnnxMiniLMEmbedder
from graphwalk_neo4j.eval.metaqa import load_questions
from graphwalk_neo4j.graph.embeddings import embed_graph, pending_texts
from graphwalk_neo4j.graph.identity import entity_id, entity_uid
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.graph.profile import ingested_profile
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.ingest.structured import ingest_file
from graphwalk_neo4j.localserver import LocalServer
from graphwalk_neo4j.resources import metaqa_type_map
from graphwalk_neo4j.schema import apply_schema
from graphwalk_neo4j.service.context import tune_interpreter
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.store.registry import template
from graphwalk_neo4j.walk.config import get_preset
from graphwalk_neo4j.walk.graph_expander import COUNTED_NODES, DENSE_DEGREE, RELATION_SCAN
from graphwalk_neo4j.walk.service import WalkService

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graphwalk_neo4j.decide.base import DecisionRequest, DecisionResponse

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "datasets" / "metaqa"
TYPES = metaqa_type_map()
GRAPH = "bench_metaqa"


def proc_status_mb(pid: int | None, field: str) -> float | None:
    """A memory figure of process ``pid`` from Linux ``/proc/PID/status`` (``VmRSS``, ``VmHWM``, ...) in MB;
    None when there is no such process (or it ended meanwhile)."""
    if pid is None:
        return None
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return None


def jvm_peak_rss_mb() -> float | None:
    return proc_status_mb(LocalServer().pid(), "VmHWM")


def self_peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


async def bench_ingest(store: GraphStore, kb: Path, graph: str = GRAPH) -> dict[str, Any]:
    await drop_graph(store, graph)
    started = time.perf_counter()
    await apply_schema(store)
    first = await ingest_file(store, kb, graph=graph, type_map=TYPES)
    load_s = time.perf_counter() - started
    started = time.perf_counter()
    again = await ingest_file(store, kb, graph=graph, type_map=TYPES)
    reingest_s = time.perf_counter() - started
    return {
        "rows": first.rows,
        "load_s": round(load_s, 2),
        "triples_per_s": round(first.rows / load_s),
        "nodes_created": first.counts.nodes_created,
        "rels_created": first.counts.rels_created,
        "reingest_status": again.status,
        "reingest_s": round(reingest_s, 3),
        "python_peak_rss_mb": round(self_peak_rss_mb()),
        "neo4j_peak_rss_mb": jvm_peak_rss_mb(),
    }


async def bench_embed_one(
    store: GraphStore, make: Any, batch: int, limit: int | None, graph: str = GRAPH
) -> dict[str, Any]:
    """Raw encode of the pending texts, then ``embed_graph`` end to end (encode + Neo4j writes), one backend."""
    # Two embedders without a text cache: the raw pass must not warm a cache the end-to-end pass then reads.
    raw_embedder, embedder = make(), make()
    await store.query(
        "MATCH (n:Entity {graph: $g}) WITH n ORDER BY n.uid LIMIT $n REMOVE n.embedding, n.embed_hash",
        {"g": graph, "n": limit if limit is not None else 10**9},
    )
    todo, _ = await pending_texts(store, graph, embedder.model_id)
    texts = sorted((t for _, t, _ in todo), key=len)
    raw_embedder.encode(texts[:batch])  # load the models outside the timings
    embedder.encode(texts[:batch])
    load = os.getloadavg()[0]
    started = time.perf_counter()
    for i in range(0, len(texts), batch):
        raw_embedder.encode(texts[i : i + batch])
    raw_s = time.perf_counter() - started
    report = await embed_graph(store, embedder, graph, batch_size=batch)
    raw_rate = len(texts) / raw_s
    return {
        "nodes": len(texts),
        "batch_size": batch,
        "device": getattr(embedder, "device", "cpu"),
        "raw_encode_s": round(raw_s, 1),
        "raw_nodes_per_s": round(raw_rate, 1),
        "end_to_end_s": round(report.seconds, 1),
        "end_to_end_nodes_per_s": round(report.rate, 1),
        "encode_share_of_end_to_end": round(report.encode_seconds / report.seconds, 3),
        "ratio": round(report.rate / raw_rate, 3),
        "load_avg_1m_before": round(load, 2),
    }


async def bench_embed(
    store: GraphStore,
    settings: Settings,
    limit: int | None = None,
    graph: str = GRAPH,
    backends: frozenset[str] = frozenset({"torch", "onnx"}),
) -> dict[str, Any]:
    """torch and ONNX Runtime MiniLM side by side in one run (``backends`` picks; ``--embed-backends``)."""
    batch = settings.embed_batch_size
    makers = {
        "torch": lambda: MiniLMEmbedder(batch_size=batch, cache_size=0),
        "onnx": lambda: OnnxMiniLMEmbedder(batch_size=batch, cache_size=0),
    }
    return {
        name: await bench_embed_one(store, make, batch, limit, graph)
        for name, make in makers.items()
        if name in backends
    }


class TimedBackend(DecisionBackend):
    """Wraps the zero-latency fake and records when each decision starts and ends (monotonic seconds)."""

    def __init__(self, inner: FakeBackend) -> None:
        self.inner = inner
        self.events: list[tuple[float, float]] = []

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def max_options(self) -> int:
        return self.inner.max_options

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        start = time.perf_counter()
        response = await self.inner.decide(request)
        self.events.append((start, time.perf_counter()))
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


async def one_walk(
    service: WalkService, backend: TimedBackend, question: str, topic: str, preset: str
) -> dict[str, Any]:
    backend.events.clear()
    backend.inner.requests.clear()
    t0 = time.perf_counter()
    outcome = await service.walk(question, get_preset(preset), start=[entity_id(topic)])
    t1 = time.perf_counter()
    marks = [t0] + [e for pair in backend.events for e in pair] + [t1]
    # gaps between decisions: [t0 -> first call], [end of call i -> start of call i+1], [last end -> return]
    gaps = [marks[i + 1] - marks[i] for i in range(0, len(marks) - 1, 2)]
    return {
        "gaps": gaps,
        "round_trips": outcome.round_trips,
        "calls": outcome.result.totals.decision_calls,
        "status": outcome.result.status,
        "depths": outcome.result.totals.depths,
    }


def _db_hits(plan: dict[str, Any]) -> int:
    return int(plan.get("dbHits", 0)) + sum(_db_hits(c) for c in plan.get("children", []))


@contextlib.contextmanager
def service_interpreter() -> Iterator[None]:
    """The interpreter settings ``gw-neo4j serve`` runs its walks under (``tune_interpreter``: a 1 ms switch
    interval and no automatic full collection), with what was built so far frozen out of the collector's sight as
    the server and its walk process do once warm; the process's own settings come back afterwards. Without them a
    bench measures full collections (65-85 ms each, three in 40 walks on the 1M graph) that the service never runs
    inside a walk."""
    threshold, switch = gc.get_threshold(), sys.getswitchinterval()
    tune_interpreter()
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
        sys.setswitchinterval(switch)


async def profile_hub_moves(
    store: GraphStore, graph: str = GRAPH, hub: str = "Drama", relation: str = "has_genre", direction: str = "in"
) -> dict[str, Any]:
    """Neo4j-side cost of the three depths of a relation walk through a hub, independent of machine load: db hits
    (PROFILE) and the best of 5 wall times of ``walk/relation_moves`` for the moves out of the hub, following
    ``relation`` (``direction``) into the hub's neighbours (the frontier cap of 2,000 taken in the query), and the
    moves out of that 2,000-node frontier."""
    body = template("walk/relation_moves").body
    hub_id = entity_id(hub)
    arrow = "<-[:$($relation)]-" if direction == "in" else "-[:$($relation)]->"
    rows = await store.query(
        f"MATCH (:Entity {{uid: $uid}}){arrow}(m) RETURN m.id AS id ORDER BY m.name LIMIT 2000",
        {"uid": entity_uid(graph, hub_id), "relation": relation},
        read=True,
    )
    films = [r["id"] for r in rows]
    cases: dict[str, dict[str, Any]] = {
        "moves_from_hub": {"node_keys": [entity_uid(graph, hub_id)], "follow": None, "exclude": [hub_id]},
        "follow_into_hub": {
            "node_keys": [entity_uid(graph, hub_id)],
            "exclude": [hub_id],
            "follow": {"relation": relation, "direction": direction},
        },
        "moves_from_2000_targets": {
            "node_keys": [entity_uid(graph, f) for f in films],
            "follow": None,
            "exclude": [hub_id, *films],
        },
    }
    out: dict[str, Any] = {}
    for name, case in cases.items():
        params = {
            "graph": graph,
            "scan": RELATION_SCAN,
            "dense": DENSE_DEGREE,
            "count_nodes": COUNTED_NODES,
            "cap": 2001,
            "profile": ingested_profile(graph).cypher(),
            "bookkeeping": BOOKKEEPING_TYPES,
            "requests": [{"beam_key": "b0", "max_frontier": 2000, "moves": True, **case}],
        }
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            await store.driver.execute_query(body, params, database_=store.settings.database)
            best = min(best, time.perf_counter() - started)
        result = await store.driver.execute_query("PROFILE " + body, params, database_=store.settings.database)
        profile = result.summary.profile
        out[name] = {"db_hits": _db_hits(profile) if profile else None, "best_ms": round(best * 1000, 1)}
    return out


HUB_QUESTIONS = [
    ("which movies are dramas", "Drama"),
    ("which films are in English", "English"),
    ("what films came out in 2008", "2008"),
]


def dev_questions(data: Path, n: int) -> list[tuple[str, str]]:
    """``n`` MetaQA dev questions (a third per hop count) as (question, topic entity name)."""
    questions = []
    for hops in (1, 2, 3):
        qs = load_questions(data, "dev", hops, with_qtype=False)
        questions += [(q.text_without_brackets, q.topic) for q in qs[: n // 3]]
    return questions


async def bench_walks(
    store: GraphStore,
    settings: Settings,
    questions: list[tuple[str, str]],
    graph: str = GRAPH,
    hub_questions: list[tuple[str, str]] = HUB_QUESTIONS,
    hub_repeats: int = 3,
    concurrent: int = 32,
) -> dict[str, Any]:
    """Per-depth overhead of ``questions`` walks and ``hub_repeats`` rounds of ``hub_questions`` in two presets,
    then ``concurrent`` walks at once."""
    embedder = make_embedder(settings)
    backend = TimedBackend(FakeBackend(seed=11, tokens_per_question=(0, 0)))
    service = WalkService(
        store,
        graph,
        backend,
        embedder=embedder,
        trace=True,
        preload_embeddings=True,
    )
    started = time.perf_counter()
    await service.ready()
    preload_s = time.perf_counter() - started
    out: dict[str, Any] = {
        "embedding_preload_s": round(preload_s, 2),
        "load_before": os.getloadavg()[0],
        "hub_moves": await profile_hub_moves(store, graph),
    }
    await one_walk(service, backend, *questions[0], "relation")  # warm caches and query plans
    for preset in ("greedy", "relation"):
        gaps: list[float] = []
        rts: list[int] = []
        calls: list[int] = []
        for q, topic in questions:
            r = await one_walk(service, backend, q, topic, preset)
            gaps += r["gaps"]
            rts.append(r["round_trips"])
            calls.append(r["calls"])
        hub_gaps: list[float] = []
        for q, topic in hub_questions * hub_repeats:
            hub_gaps += (await one_walk(service, backend, q, topic, preset))["gaps"]
        out[preset] = {
            "walks": len(questions),
            "depth_gaps": len(gaps),
            "overhead_ms_p50": round(pct(gaps, 50) * 1000, 1),
            "overhead_ms_p95": round(pct(gaps, 95) * 1000, 1),
            "hub_overhead_ms_p50": round(pct(hub_gaps, 50) * 1000, 1),
            "hub_overhead_ms_p95": round(pct(hub_gaps, 95) * 1000, 1),
            "round_trips_per_walk": round(statistics.mean(rts), 2),
            "calls_per_walk": round(statistics.mean(calls), 2),
        }
    # walks at once through one store and one service
    at_once = [questions[i % len(questions)] for i in range(concurrent)]
    started = time.perf_counter()
    results = await asyncio.gather(
        *(service.walk(q, get_preset("relation"), start=[entity_id(t)]) for q, t in at_once), return_exceptions=True
    )
    errors = [r for r in results if isinstance(r, BaseException) or r.result.status == "error"]
    out[f"concurrent_{concurrent}"] = {"wall_s": round(time.perf_counter() - started, 2), "errors": len(errors)}
    return out


def machine() -> str:
    cpu = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in Path("/proc/cpuinfo").read_text().splitlines()
            if ln.startswith("model name")
        ),
        platform.processor(),
    )
    mem = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)
    return f"{os.cpu_count()} cores ({cpu}), {mem} GiB RAM, {platform.system()} {platform.release()}"


def write_report(results: dict[str, Any], command: str) -> Path:
    path = ROOT / "docs" / "benchmarks.md"
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout
    block = [
        f"\n## Run of {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        "",
        f"- command: `{command}`",
        f"- machine: {machine()}",
        f"- revision: {rev.strip()}",
        f"- Neo4j 5.26.5 community (local launcher: heap 2g, page cache 1g), Python {platform.python_version()}",
        "",
        "```json",
        json.dumps(results, indent=2),
        "```",
        "",
    ]
    if not path.exists():
        path.write_text("# Benchmarks\n\nAppended by `make bench` (bench/run.py); newest last.\n\n## Runs\n")
    with path.open("a") as fh:
        fh.write("\n".join(block))
    return path


def parse_args() -> tuple[argparse.Namespace, set[str], Path, Path]:
    """The command line, checked: (arguments, sections, MetaQA folder, KB file)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="ingest,embed,walk,text")
    parser.add_argument("--data", default=str(DATA), help="the MetaQA folder (kb.txt, dev questions)")
    parser.add_argument("--kb", default=None, help="the KB to ingest (default: DATA/kb.txt)")
    parser.add_argument("--walks", type=int, default=150)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--embed-n", type=int, default=None, help="embed only this many nodes (default: all)")
    parser.add_argument("--embed-backends", default="torch,onnx", help="embedders to time: torch, onnx or both")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    if not set(args.embed_backends.split(",")) <= {"torch", "onnx"} or not args.embed_backends:
        parser.error("--embed-backends takes torch, onnx or torch,onnx")
    unknown = sections - {"ingest", "embed", "walk", "text"}
    if unknown:
        parser.error(f"unknown section in --only: {', '.join(sorted(unknown))}; choose from ingest, embed, walk, text")
    data = Path(args.data)
    kb = Path(args.kb) if args.kb else data / "kb.txt"
    if ("ingest" in sections and not kb.is_file()) or ("walk" in sections and not data.is_dir()):
        parser.error(f"no MetaQA data at {data} (kb.txt and the dev questions); pass --data DIR or --kb FILE")
    return args, sections, data, kb


async def main() -> None:
    args, sections, data, kb = parse_args()
    settings = Settings()
    results: dict[str, Any] = {}
    async with GraphStore(settings) as store:
        if "ingest" in sections:
            results["ingest"] = await bench_ingest(store, kb)
            print("ingest", results["ingest"], flush=True)
        if "embed" in sections:
            backends = frozenset(args.embed_backends.split(","))
            results["embed"] = await bench_embed(store, settings, args.embed_n, backends=backends)
            print("embed", results["embed"], flush=True)
        if "text" in sections:
            with tempfile.TemporaryDirectory() as tmp:
                results["text_ingest"] = await bench_text(store, Path(tmp))
            print("text", results["text_ingest"], flush=True)
        if "walk" in sections:
            results["walk"] = await bench_walks(store, settings, dev_questions(data, args.walks))
            print("walk", results["walk"], flush=True)
    if not args.no_write:
        print(
            "written to",
            write_report(
                results,
                "make bench  # python -m bench.run "
                + " ".join(f"--{k} {v}" for k, v in (("only", args.only), ("walks", args.walks))),
            ),
        )


if __name__ == "__main__":
    asyncio.run(main())
