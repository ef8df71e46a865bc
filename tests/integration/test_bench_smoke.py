"""Every ``make bench`` benchmark runs at tiny sizes against the real Neo4j, so none can rot unseen (issue 21).

``make bench`` is ``bench.run`` (sections ingest, embed, text, walk) and, with ``SCALE=``, ``bench.scale`` (load,
embed, walk on a generated graph); ``bench.burst`` (worst-case walks against a real ``gw-neo4j serve``) runs here
with two requests, and ``bench.startup`` times one walk in a process of its own and one through the warm runtime.
Here each section runs on the 160-film MetaQA slice in ``tests/data/metaqa_hubs`` (or a generated graph of about
300 triples) in the test's own graph; the test fails if any of them raises, and checks the figures each one reports
are the ones of the run it made.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bench.burst import run_burst
from bench.run import bench_embed, bench_ingest, bench_walks, dev_questions
from bench.scale import PHASES, generate, measure_phases
from bench.text_ingest import bench_text
from graphwalk_neo4j.graph.ledger import drop_graph

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

pytestmark = pytest.mark.neo4j

SLICE = Path(__file__).resolve().parents[1] / "data" / "metaqa_hubs"


async def test_bench_run_sections(store: GraphStore, neo4j_settings: Settings, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"  # the slice's first 200 triples: 7 dramas, about 190 entities to embed
    kb.write_text("".join((SLICE / "kb.txt").read_text(encoding="utf-8").splitlines(keepends=True)[:200]))
    ingest = await bench_ingest(store, kb, graph_name)
    assert (ingest["rows"], ingest["reingest_status"]) == (200, "unchanged")
    embed = await bench_embed(store, neo4j_settings, graph=graph_name)
    assert embed["torch"]["nodes"] == ingest["nodes_created"]
    films = ["Before the Rain", "The Business of Strangers", "The New Daughter"]
    questions = [(f"what genre is {film}", film) for film in films]
    walk = await bench_walks(
        store,
        neo4j_settings,
        questions,
        graph_name,
        hub_questions=[("which movies are dramas", "Drama")],
        hub_repeats=1,
        concurrent=4,
    )
    assert set(walk["hub_moves"]) == {"moves_from_hub", "follow_into_hub", "moves_from_2000_targets"}
    assert all(case["db_hits"] > 0 for case in walk["hub_moves"].values())
    assert walk["greedy"]["walks"] == walk["relation"]["walks"] == 3
    assert walk["concurrent_4"]["errors"] == 0
    assert dev_questions(SLICE, 6)[0] == ("what movies did Mélanie Laurent star in", "Mélanie Laurent")


async def test_bench_text_section(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    try:
        results = await bench_text(store, tmp_path, cases=[(3, 0.0, 2)], graph_prefix=graph_name)
    finally:
        await drop_graph(store, f"{graph_name}_0")
    assert [(r["documents"], r["chunks"]) for r in results] == [(3, 6)]


async def test_bench_scale_phases(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "scale_tiny.txt"
    gen = generate(300, kb)
    result: dict[str, Any] = {}
    saved = tmp_path / "scale_tiny.json"
    await measure_phases(store, graph_name, kb, gen, set(PHASES), 1, 20, result, saved, None, warmup=2)
    assert result["ingest_status"] == "loaded"
    assert (
        result["walk_warmup"] == 2
    )  # start films 2 and 3 of the 3 the generated graph has, walked before the 1 measured
    assert result["embed_sample"] == 20
    kinds = ("walks", "hub_walks", "all")  # "all": every depth of both, hubs included
    assert set(result["walk"]) == {f"{preset}_{kind}" for preset in ("greedy", "relation") for kind in kinds}
    pooled = result["walk"]["relation_all"]
    assert pooled["depths"] > 0
    assert 0 <= pooled["overhead_ms_p50"] <= pooled["overhead_ms_p95"]
    assert json.loads(saved.read_text())["embed_sample"] == 20
    # --embed-sample 0: every entity through embed_graph, as `gw-neo4j embed` does (int8: the 1M-entity target's run)
    await measure_phases(store, graph_name, kb, gen, {"embed"}, 1, 0, result, saved, None, int8=True)
    entities = (await store.read("graph/counts", graph=graph_name))[0]
    assert result["embed_all_entities"] == entities["entities"] > 20
    assert "int8=True" in result["embed_all_embedder"]
    assert result["embed_all_nodes_per_s"] > 0


async def test_bench_burst(store: GraphStore, neo4j_settings: Settings, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"  # 7 dramas: Drama is the hub
    kb.write_text("".join((SLICE / "kb.txt").read_text(encoding="utf-8").splitlines(keepends=True)[:200]))
    await bench_ingest(store, kb, graph_name)
    result = await run_burst(neo4j_settings, graph_name, "Drama", 2, 60.0, embedder="fake")
    assert [w["http"] for w in result["warm_up"]] == [200, 200]
    assert result["requests"] == len(result["per_request"]) == 2
    assert result["http_statuses"] == [200]
    assert {r["hop_mode"] for r in result["per_request"]} == {"entity", "relation"}
    assert result["within_timeout"] is True
    assert result["healthz_samples"] == len(result["healthz_ms"]) > 0
    assert 0 < result["rss_mb_before"] <= result["rss_mb_peak"]


def test_bench_startup_with_the_warm_runtime(neo4j_settings: Settings, graph_name: str) -> None:
    env = {**os.environ, "GW_NEO4J_URI": neo4j_settings.uri, "GW_NEO4J_EMBEDDER": "fake"}

    def bench(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bench.startup", *args], env=env, capture_output=True, text=True, timeout=600
        )

    try:
        prepared = bench("--prepare", graph_name)
        assert prepared.returncode == 0, prepared.stderr
        measured = bench("--runs", "1", "--walk-graph", graph_name, "--warm", "--no-every-command")
        assert measured.returncode == 0, measured.stderr
    finally:
        drop = [sys.executable, "-m", "graphwalk_neo4j.cli", "drop-graph", graph_name, "--yes"]
        subprocess.run(drop, env=env, capture_output=True, check=False)
    cases = json.loads(measured.stdout)["cases"]
    cold = cases["gw-neo4j walk QUESTION --graph G"]
    warm = cases["gw-neo4j walk QUESTION --graph G (warm runtime)"]
    assert cold["median_s"] > 0
    assert warm["median_s"] > 0
    assert {"x_help", "peak_rss_mib"} <= set(warm)
    assert cases["gw-neo4j search NAME --graph G (warm runtime)"]["median_s"] > 0
