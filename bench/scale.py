"""Cost curves on generated KG-shaped graphs (``python -m bench.scale --scale 100k[,1m,5m]``, issue 16).

:func:`generate` writes a seeded graph shaped like a real KG in MetaQA's ``subject|relation|object`` format:
typed entities (``Film`` subjects; ``Person``, ``Year``, ``Genre``, ``Language``, ``Tag`` objects), eight typed
relations, object choice by a Zipf law per relation (power-law in-degrees), so a few objects become hubs with 10k+
edges at 1M triples (genres, languages, the most popular years and tags), and readable names.

Per size it reports: ingest triples/s (``ingest_file``), embed nodes/s on a sample (ONNX when installed, else
torch), or with ``--embed-sample 0`` every entity of the graph embedded by ``embed_graph`` as ``gw-neo4j embed``
does (``--int8``: the int8 export, as ``gw-neo4j embed --int8``), peak RSS of this process and of the
Neo4j JVM (``VmHWM``), per-depth walk overhead p50/p95 in entity and relation mode with the zero-latency seeded
decider (walks from random films and from the biggest hubs), the Cypher time per depth (expander wall time),
the db hits (PROFILE) of the three depths of a relation walk through ``Genre 0``, and store/index sizes on disk.
It needs a Neo4j of its own: ``--home`` is a Neo4j home whose ``run/`` this script owns (default
/tmp/gw-scale-neo4j, ports 7691/7478); it starts it with the sizing rule of localserver.py and stops it at the
end. Plots go to docs/img/scale_*.png when matplotlib is there.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from bench.run import TimedBackend, pct, proc_status_mb, profile_hub_moves, service_interpreter
from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.embed.minilm import MiniLMEmbedder
from graphwalk_neo4j.embed.onnx import OnnxMiniLMEmbedder
from graphwalk_neo4j.graph.embeddings import embed_graph, entity_text, vector_params
from graphwalk_neo4j.graph.identity import entity_id
from graphwalk_neo4j.ingest.structured import ingest_file
from graphwalk_neo4j.localserver import LocalServer, _ram_bytes, _tree_bytes, memory_plan
from graphwalk_neo4j.schema import apply_schema
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.walk.config import get_preset
from graphwalk_neo4j.walk.graph_expander import Neo4jExpander
from graphwalk_neo4j.walk.service import WalkService
from graphwalk_neo4j.walk.trace_sinks import OrderedTraceWriter

if TYPE_CHECKING:
    from collections.abc import Sequence

ROOT = Path(__file__).resolve().parents[1]
SIZES = {"100k": 100_000, "1m": 1_000_000, "5m": 5_000_000}
RELATIONS = [  # relation, object type, objects per 1k films, mean edges per film, zipf exponent
    ("directed_by", "Person", 400, 1.1, 1.05),
    ("written_by", "Person", 500, 1.4, 1.05),
    ("starred_actors", "Person", 1500, 3.0, 1.1),
    ("release_year", "Year", 0, 1.0, 0.9),  # years: a fixed pool of 120
    ("has_genre", "Genre", 0, 1.5, 1.2),  # 24 genres
    ("in_language", "Language", 0, 0.5, 1.6),  # 60 languages
    ("has_tags", "Tag", 300, 2.0, 1.1),
    ("has_imdb_rating", "Rating", 0, 0.3, 0.5),  # 90 ratings
]
FIXED = {
    "release_year": [str(y) for y in range(1906, 2026)],
    "has_genre": [f"Genre {i}" for i in range(24)],
    "in_language": [f"Language {i}" for i in range(60)],
    "has_imdb_rating": [f"{r / 10:.1f}" for r in range(10, 100)],
}
SYLLABLES = ["ka", "lo", "mi", "ren", "sa", "to", "vel", "dor", "an", "is", "qua", "ber", "nu", "pel", "gri", "os"]


def _name(rng: random.Random, words: int) -> str:
    return " ".join("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize() for _ in range(words))


def generate(triples: int, path: Path, seed: int = 16) -> dict[str, Any]:
    """Write about ``triples`` edges to ``path``; returns the type map and the hubs."""
    rng = random.Random(seed)
    per_film = sum(r[3] for r in RELATIONS)
    films = int(triples / per_film)
    pools: dict[str, list[str]] = {}
    weights: dict[str, np.ndarray] = {}
    for relation, _type, per_k, _, exponent in RELATIONS:
        names = FIXED.get(relation) or [f"{_name(rng, 2)} {i}" for i in range(max(8, per_k * films // 1000))]
        pools[relation] = names
        w = 1.0 / np.arange(1, len(names) + 1) ** exponent
        weights[relation] = np.cumsum(w / w.sum())
    degree: dict[str, int] = {}
    written = 0
    np_rng = np.random.default_rng(seed)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(films):
            film = f"{_name(rng, rng.randint(1, 3))} {i}"
            for relation, _, _, mean, _ in RELATIONS:
                k = np_rng.poisson(mean) if mean < 1 else 1 + np_rng.poisson(mean - 1)
                picks = np.searchsorted(weights[relation], np_rng.random(k))
                for j in dict.fromkeys(int(p) for p in picks):
                    target = pools[relation][min(j, len(pools[relation]) - 1)]
                    fh.write(f"{film}|{relation}|{target}\n")
                    degree[target] = degree.get(target, 0) + 1
                    written += 1
    hubs = sorted(degree.items(), key=lambda kv: -kv[1])[:5]
    return {"triples": written, "films": films, "hubs": hubs, "type_map": {r: ("Film", t) for r, t, *_ in RELATIONS}}


def _hwm_mb(pid: int | None) -> float | None:
    peak = proc_status_mb(pid, "VmHWM")
    return None if peak is None else round(peak, 1)


def _dir_mb(path: Path) -> float:
    return round(sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20, 1) if path.is_dir() else 0.0


WALK_QUESTION = "which films are like this one"  # every bench walk asks it (the seeded decider does not read it)


async def walk_overheads(
    store: Any, graph: str, starts: list[str], hubs: list[str], warmup: Sequence[str] = ()
) -> dict[str, Any]:
    """Per-depth overhead of greedy (entity) and relation walks from ``starts`` and from ``hubs``. ``warmup``
    walks (other start entities) run first in both modes, unmeasured, after one pass over every relationship: a
    freshly started Neo4j reads its store from disk and plans and compiles each expansion statement during its
    first walks, and a service is measured warm.

    A walk's last gap ends with closing its trace (``OrderedTraceWriter.finish``: the pending step writes, then
    the :Walk's status and ANSWERED links, each a committed transaction): a cost of the walk, not of a depth. It is
    taken out of that gap and reported beside (``trace_close_ms_*``), and ``with_trace_close_ms_p95`` is the p95
    with it left in, as this bench measured before 2026-12-04 evening."""
    cypher: list[float] = []
    closes: list[float] = []
    original = Neo4jExpander.expand
    original_finish = OrderedTraceWriter.finish

    async def timed(self: Any, requests: Any) -> Any:
        started = time.perf_counter()
        try:
            return await original(self, requests)
        finally:
            cypher.append(time.perf_counter() - started)

    async def timed_finish(self: Any, result: Any) -> None:
        started = time.perf_counter()
        try:
            await original_finish(self, result)
        finally:
            closes.append(time.perf_counter() - started)

    backend = TimedBackend(FakeBackend(seed=11, tokens_per_question=(0, 0)))
    service = WalkService(store, graph, backend, trace=True)
    out: dict[str, Any] = {}
    if warmup:
        # every data relationship and the id of its far end, once: the store's pages are in the page cache, as in a
        # service that has been answering for a while (a cold 5M store reads its first walks' chains from disk)
        await store.query(
            "MATCH (n:Entity {graph: $g})-[r]->(m) RETURN count(m.id) AS touched", {"g": graph}, read=True
        )
    for preset in ("greedy", "relation"):
        for name in warmup:
            await service.walk(WALK_QUESTION, get_preset(preset), start=[entity_id(name)])
    Neo4jExpander.expand = timed  # type: ignore[method-assign]
    OrderedTraceWriter.finish = timed_finish  # type: ignore[method-assign]
    try:
        with service_interpreter():  # what `gw-neo4j serve` runs walks under
            for preset in ("greedy", "relation"):
                pooled: list[float] = []
                for label, names in (("walks", starts), ("hub_walks", hubs)):
                    gaps: list[float] = []
                    with_close: list[float] = []
                    cypher.clear()
                    closes.clear()
                    for name in names:
                        backend.events.clear()
                        before = len(closes)
                        t0 = time.perf_counter()
                        await service.walk(WALK_QUESTION, get_preset(preset), start=[entity_id(name)])
                        t1 = time.perf_counter()
                        marks = [t0] + [e for pair in backend.events for e in pair] + [t1]
                        walk_gaps = [marks[i + 1] - marks[i] for i in range(0, len(marks) - 1, 2)]
                        with_close += walk_gaps
                        walk_gaps[-1] -= sum(closes[before:])
                        gaps += walk_gaps
                    out[f"{preset}_{label}"] = {
                        "n": len(names),
                        "overhead_ms_p50": round(pct(gaps, 50) * 1000, 1),
                        "overhead_ms_p95": round(pct(gaps, 95) * 1000, 1),
                        "with_trace_close_ms_p95": round(pct(with_close, 95) * 1000, 1),
                        "trace_close_ms_p50": round(pct(closes, 50) * 1000, 1),
                        "trace_close_ms_p95": round(pct(closes, 95) * 1000, 1),
                        "cypher_ms_per_depth_p50": round(pct(cypher, 50) * 1000, 1),
                        "cypher_ms_per_depth_p95": round(pct(cypher, 95) * 1000, 1),
                    }
                    pooled += gaps
                # every depth of both kinds of walk, hubs included (the trace close counted apart)
                out[f"{preset}_all"] = {
                    "depths": len(pooled),
                    "overhead_ms_p50": round(pct(pooled, 50) * 1000, 1),
                    "overhead_ms_p95": round(pct(pooled, 95) * 1000, 1),
                }
    finally:
        Neo4jExpander.expand = original  # type: ignore[method-assign]
        OrderedTraceWriter.finish = original_finish  # type: ignore[method-assign]
    return out


# Bytes of store per triple (the 100k point: 65.3 MB for 96,937 triples), for sizing the page cache of a store
# that is about to be loaded (the sizing rule reads the store on disk, which is empty before the load).
STORE_BYTES_PER_TRIPLE = 700
PHASES = ("load", "embed", "walk")


def server_for(home: Path, triples: int, bolt_port: int = 7691, http_port: int = 7478) -> Any:
    """The size's own Neo4j, sized by localserver's rule for the store it will hold (not the empty one)."""
    on_disk = _tree_bytes(home / "run" / "data" / "databases")
    heap, cache = memory_plan(_ram_bytes(), max(on_disk, triples * STORE_BYTES_PER_TRIPLE))
    return LocalServer(home=home, bolt_port=bolt_port, http_port=http_port, heap=heap, pagecache=cache)


def _cpu_s(pid: int | None) -> float | None:
    """User + system CPU seconds of a process so far (Neo4j's share of a phase on a shared box)."""
    if pid is None:
        return None
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _save(path: Path, result: dict[str, Any]) -> None:
    path.write_text(json.dumps(result, indent=1))


def _walk_starts(kb: Path) -> list[str]:
    """Every 97th subject of the generated KB, shuffled with a fixed seed: the walks' start entities."""
    names = [line.split("|", 1)[0] for line in kb.read_text(encoding="utf-8").splitlines()[::97]]
    random.Random(3).shuffle(names)
    return names


async def measure_phases(
    store: GraphStore,
    graph: str,
    kb: Path,
    gen: dict[str, Any],
    phases: set[str],
    walks: int,
    embed_sample: int,
    result: dict[str, Any],
    saved: Path,
    neo4j_pid: int | None,
    warmup: int = 0,
    int8: bool = False,
) -> None:
    """The chosen phases on one generated graph (``gen`` from :func:`generate`, written to ``kb``) in ``store``;
    figures go into ``result``, saved to ``saved`` after each phase. ``embed_sample`` 0: embed every entity."""
    if "load" in phases:
        load_before, cpu_before = os.getloadavg()[0], _cpu_s(neo4j_pid)
        started = time.perf_counter()
        await apply_schema(store)
        loaded = await ingest_file(store, kb, graph=graph, type_map=gen["type_map"])
        seconds = time.perf_counter() - started
        cpu_after = _cpu_s(neo4j_pid)
        result.update(
            {
                "ingest_status": loaded.status,
                "ingest_s": round(seconds, 1),
                "ingest_triples_per_s": round(gen["triples"] / seconds),
                "ingest_neo4j_cpu_s": round(cpu_after - cpu_before, 1) if cpu_after and cpu_before else None,
                "ingest_load_avg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
                "ingest_date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            }
        )
        _save(saved, result)
    if "embed" in phases:
        if embed_sample == 0:
            result.update(await embed_every_entity(store, graph, int8, neo4j_pid))
        else:
            result.update(await embed_sample_rate(store, graph, embed_sample))
        result["embed_python_peak_rss_mb"] = _own_peak_mb()
        _save(saved, result)
    counted = await store.read("graph/counts", graph=graph)
    result["counts"] = counted[0] if counted else None
    if "walk" in phases:
        names = _walk_starts(kb)
        hubs = [h for h, _ in gen["hubs"][:3]] * 2
        result["walk_load_avg_1m"] = round(os.getloadavg()[0], 2)
        warm = names[walks : walks + warmup]  # fewer on a graph with fewer start films than both together
        result["walk_warmup"] = len(warm)
        result["walk"] = await walk_overheads(store, graph, names[:walks], hubs, warm)
        # db hits per depth of a relation walk through the biggest genre (load-independent, PROFILE)
        result["walk_profile"] = await profile_hub_moves(store, graph, "Genre 0", "has_genre", "in")
        result["walk_date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


async def run_size(
    label: str,
    home: Path,
    work: Path,
    walks: int,
    embed_sample: int,
    phases: set[str],
    keep_up: bool = False,
    ports: tuple[int, int] = (7691, 7478),
    warmup: int = 0,
    int8: bool = False,
) -> dict[str, Any]:
    """Run the chosen phases for one size. Results are merged into ``home/scale_<size>.json``, so a later run of
    only some phases (e.g. ``--phases walk`` after a code change) keeps the other phases' figures."""
    kb = work / f"scale_{label}.txt"
    gen = generate(SIZES[label], kb)
    saved = home / f"scale_{label}.json"
    result: dict[str, Any] = json.loads(saved.read_text()) if saved.is_file() else {}
    server = server_for(home, gen["triples"], *ports)
    server.up()
    settings = Settings(uri=server.bolt_uri)
    graph = f"scale_{label}"
    result.update(
        {
            "size": label,
            "triples": gen["triples"],
            "films": gen["films"],
            "hubs": gen["hubs"],
            "heap": server.heap,
            "pagecache": server.pagecache,
        }
    )
    try:
        async with GraphStore(settings) as store:
            await measure_phases(
                store, graph, kb, gen, phases, walks, embed_sample, result, saved, server.pid(), warmup, int8
            )
        result["python_peak_rss_mb"] = max(result.get("python_peak_rss_mb") or 0, _own_peak_mb())
        result["neo4j_peak_rss_mb"] = max(result.get("neo4j_peak_rss_mb") or 0, _hwm_mb(server.pid()) or 0)
        data = home / "run" / "data" / "databases" / "neo4j"
        result["store_mb"] = _dir_mb(data)
        result["index_mb"] = _dir_mb(data / "schema")
        saved.write_text(json.dumps(result, indent=1))
    finally:
        if not keep_up:
            server.down()
    return result


def _own_peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


async def embed_sample_rate(store: Any, graph: str, sample: int) -> dict[str, Any]:
    """Encode + write ``sample`` entities as ``embed_graph`` does (ONNX MiniLM when installed, else torch). A
    sample only: embedding millions of nodes takes hours on two cores, and the rate is per node, independent of
    the graph's size (each batch is 256 names encoded and one ``SET`` by uid)."""
    try:
        embedder: Any = OnnxMiniLMEmbedder(cache_size=0)
    except ImportError:
        embedder = MiniLMEmbedder(cache_size=0)
    embedder.encode(["warm up"])
    rows = await store.query(
        "MATCH (n:Entity {graph: $g}) RETURN n.uid AS uid, n.name AS name, n.type AS type LIMIT $k",
        {"g": graph, "k": sample},
        read=True,
    )
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    for i in range(0, len(rows), 256):
        batch = rows[i : i + 256]
        vectors = await embedder.embed([entity_text(r["name"], r["type"]) for r in batch])
        uids = [r["uid"] for r in batch]
        await store.write("graph/set_embeddings", **vector_params(uids, vectors, ["scale-sample"] * len(uids)))
    return {
        "embed_sample": len(rows),
        "embed_nodes_per_s": round(len(rows) / (time.perf_counter() - started), 1),
        "embed_backend": type(embedder).__name__,
        "embed_load_avg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


async def embed_every_entity(store: Any, graph: str, int8: bool, neo4j_pid: int | None) -> dict[str, Any]:
    """Every entity of ``graph`` embedded by ``embed_graph`` (what ``gw-neo4j embed`` runs: length-sorted batches,
    each batch written while the next encodes), with the CPU seconds of this process and of Neo4j."""
    embedder = make_embedder(Settings(embedder="minilm-onnx"), int8=int8)
    embedder.encode(["warm up"])  # the model opened (and exported on first use) before the clock starts
    # A graph embedded before starts bare, as a new one after `ingest` does: the vector index dropped first, so
    # that removing the old vectors leaves no deletions in it, and created again empty once they are gone (a
    # removal under the index made the embedding after it cost Neo4j 0.74 CPU-ms per vector, 2026-12-04).
    await store.query("DROP INDEX entity_embedding IF EXISTS", {})
    while True:
        cleared = await store.query(
            "MATCH (n:Entity {graph: $g}) WHERE n.embedding IS NOT NULL WITH n LIMIT 20000 "
            "REMOVE n.embedding, n.embed_hash RETURN count(n) AS n",
            {"g": graph},
        )
        if not cleared[0]["n"]:
            break
    await apply_schema(store)  # the vector index again, empty, and online before the clock starts
    load_before, neo4j_before, own_before = os.getloadavg()[0], _cpu_s(neo4j_pid), _cpu_s(os.getpid())
    report = await embed_graph(store, embedder, graph)
    neo4j_after, own_after = _cpu_s(neo4j_pid), _cpu_s(os.getpid())
    return {
        "embed_all_embedder": repr(embedder),
        "embed_all_entities": report.embedded,
        "embed_all_s": round(report.seconds, 1),
        "embed_all_encode_s": round(report.encode_seconds, 1),
        "embed_all_nodes_per_s": round(report.embedded / report.seconds, 1) if report.seconds else None,
        "embed_all_python_cpu_s": round(own_after - own_before, 1) if own_after and own_before else None,
        "embed_all_neo4j_cpu_s": round(neo4j_after - neo4j_before, 1) if neo4j_after and neo4j_before else None,
        "embed_all_load_avg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "embed_all_date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def plot(results: list[dict[str, Any]], out: Path) -> list[str]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    results = [r for r in results if all(k in r for k in ("ingest_triples_per_s", "embed_nodes_per_s", "walk"))]
    if not results:  # a run of some phases only: the curves need every phase's figures
        return []
    sizes = [r["triples"] for r in results]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    axes[0].plot(sizes, [r["ingest_triples_per_s"] for r in results], "o-", label="ingest triples/s")
    axes[0].plot(sizes, [r["embed_nodes_per_s"] for r in results], "s-", label="embed nodes/s")
    axes[0].set_title("throughput")
    for mode in ("greedy", "relation"):
        for kind, style in (("walks", "o-"), ("hub_walks", "s--")):
            axes[1].plot(
                sizes,
                [r["walk"][f"{mode}_{kind}"]["overhead_ms_p95"] for r in results],
                style,
                label=f"{'entity' if mode == 'greedy' else 'relation'} {kind.replace('_', ' ')} p95",
            )
    axes[1].set_title("per-depth overhead p95 (ms)")
    axes[2].plot(sizes, [r["store_mb"] for r in results], "o-", label="store MB")
    axes[2].plot(sizes, [r["index_mb"] for r in results], "s-", label="indexes MB")
    axes[2].plot(sizes, [r["neo4j_peak_rss_mb"] or 0 for r in results], "^-", label="Neo4j peak RSS MB")
    axes[2].set_title("size and memory")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("triples")
        ax.legend(fontsize=7)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    return [str(out)]


def measured(home: Path) -> list[dict[str, Any]]:
    """Every size measured under ``home`` (its kept ``scale_<size>.json``), smallest first: the curves."""
    found = [home / size / f"scale_{size}.json" for size in SIZES]
    return [json.loads(p.read_text()) for p in found if p.is_file()]


def prepare_home(home: Path, dist: Path) -> Path:
    """One Neo4j home per size (``--home``/<size>), so each size's store and index sizes are its own."""
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "dist").exists():
        (home / "dist").symlink_to(dist.resolve())
    return home


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", default="100k", help="comma-separated sizes: 100k, 1m, 5m")
    parser.add_argument("--home", default="/tmp/gw-scale-neo4j")
    parser.add_argument("--dist", default=str(ROOT / "neo4j" / "dist"))
    parser.add_argument("--walks", type=int, default=60)
    parser.add_argument(
        "--warmup", type=int, default=20, help="unmeasured walks from other start entities before the walk phase"
    )
    parser.add_argument(
        "--embed-sample", type=int, default=5000, help="entities to embed for the rate; 0: every entity (embed_graph)"
    )
    parser.add_argument("--int8", action="store_true", help="with --embed-sample 0: the int8 export (embed --int8)")
    parser.add_argument("--plot", default=str(ROOT / "docs" / "img" / "scale_curves.png"))
    parser.add_argument("--phases", default=",".join(PHASES), help="comma-separated: load, embed, walk")
    parser.add_argument("--ports", default="7691,7478", help="bolt,http ports of the size's own Neo4j")
    parser.add_argument("--keep-up", action="store_true", help="leave the size's Neo4j running afterwards")
    args = parser.parse_args()
    phases = {p.strip() for p in args.phases.split(",") if p.strip()}
    if not phases <= set(PHASES):
        parser.error(f"unknown phase in --phases {args.phases!r}; choose from {', '.join(PHASES)}")
    home = Path(args.home)
    bolt, http = args.ports.split(",")
    results = []
    for label in args.scale.split(","):
        results.append(
            await run_size(
                label.strip().lower(),
                prepare_home(home / label.strip().lower(), Path(args.dist)),
                home,
                args.walks,
                args.embed_sample,
                phases,
                args.keep_up,
                (int(bolt), int(http)),
                args.warmup,
                args.int8,
            )
        )
        print(json.dumps(results[-1]), flush=True)
    print(
        json.dumps(
            {
                "plots": plot(measured(home), Path(args.plot)),
                "summary": {r["size"]: r.get("ingest_triples_per_s") for r in results},
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
