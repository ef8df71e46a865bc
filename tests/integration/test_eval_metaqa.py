"""``gw-neo4j eval metaqa`` end to end on a tiny MetaQA-format dataset (tests/data/metaqa_eval) against the real
Neo4j: exact metrics, the Cypher ceiling against the in-memory reference, resume after an interruption, and the
same numbers for the same seed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner

from graphwalk_neo4j.cli import main
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.eval.ceiling import ceiling_answers, follow_paths
from graphwalk_neo4j.eval.metaqa import build_adjacency, follow_path, qtype_path
from graphwalk_neo4j.eval.runner import prepare_graph, select_questions
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.store import GraphStore
from tests.standins.progress import RecordingProgress

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings

DATA = Path(__file__).resolve().parents[1] / "data" / "metaqa_eval"

pytestmark = pytest.mark.neo4j


def kb_triples() -> list[tuple[str, str, str]]:
    rows = (line.split("|") for line in (DATA / "kb.txt").read_text().splitlines() if line.strip())
    return [(s, r, o) for s, r, o in rows]


async def test_ceiling_in_neo4j_agrees_with_follow_path(store: Any, graph_name: str) -> None:
    progress = RecordingProgress()
    loaded = await prepare_graph(store, DATA, graph_name, FakeEmbedder(32), progress)
    assert loaded["ingest"]["status"] == "loaded"
    assert loaded["embed"]["embedded"] == 16
    assert progress.of("embed")[-1] == (16, 16)
    assert progress.stages[-1] == "embedded 16 entities"
    again = await prepare_graph(store, DATA, graph_name, FakeEmbedder(32))
    assert again["ingest"]["status"] == "unchanged"
    assert again["embed"]["embedded"] == 0
    types = {r["type"] for r in await store.read("graph/entity_types", graph=graph_name)}
    assert types == {"Movie", "Person", "Year", "Genre"}
    questions = select_questions(DATA, "dev", [1, 2, 3], None, 0)
    reached = await follow_paths(store, graph_name, questions)
    adjacency = build_adjacency(kb_triples())
    for q in questions:
        expected = follow_path(adjacency, q.topic, qtype_path(q.qtype or ""))
        assert set(reached[q.id]) == expected, q.text
    scores = {c.question_id: (c.f1, c.reachable) for c in await ceiling_answers(store, graph_name, questions)}
    assert scores["dev-1hop-00005"] == (0.0, False)  # Casablanca is not in the graph
    assert scores["dev-2hop-00004"] == (0.0, False)  # Random Harvest has no genre here
    assert sum(f for f, _ in scores.values()) == 10.0
    assert len(scores) == 12


def invoke(settings: Settings, tmp_path: Path, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        main,
        [
            "eval",
            "metaqa",
            "--data",
            str(DATA),
            "--model",
            "local",
            "--concurrency",
            "2",
            "--results-dir",
            str(tmp_path / "results"),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--json",
            *args,
        ],
        env={"GW_NEO4J_URI": settings.uri, "GW_NEO4J_EMBEDDER": "minilm"},
    )
    assert result.exit_code == 0, result.output
    bundle: dict[str, Any] = json.loads(result.stdout)
    return bundle


def rows(payload: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["system"], r["hops"]): r for r in payload["summary"]}


METRICS = ("hits_at_1", "exact_match", "f1", "ceiling_f1", "answered", "decision_calls", "round_trips")


def test_eval_metaqa_end_to_end_resume_and_determinism(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path
) -> None:
    try:
        first = invoke(neo4j_settings, tmp_path, "--graph", graph_name, "--system", "all", "--run-id", "r1")
        summary = rows(first)
        assert sorted({s for s, _ in summary}) == ["ceiling", "graphwalk:relation", "vector@1"]
        walk = {h: summary[("graphwalk:relation", h)] for h in ("1", "2", "3", "all")}
        assert [walk[h]["n"] for h in ("1", "2", "3", "all")] == [5, 4, 3, 12]
        assert [walk[h]["f1"] for h in ("1", "2", "3")] == pytest.approx([0.8, 0.75, 2 / 3])
        assert [walk[h]["ceiling_f1"] for h in ("1", "2", "3")] == pytest.approx([0.8, 0.75, 1.0])
        assert walk["1"]["f1_over_ceiling"] == pytest.approx(1.0)
        assert walk["all"]["linking_accuracy"] == pytest.approx(11 / 12)  # Casablanca: a linking miss
        assert walk["all"]["decision_calls"] == pytest.approx(21 / 12)
        # 48 expansion/linking round trips + 2 widened search reads for the one question linked by search + the
        # graph's profile, read once by the shared WalkService
        assert walk["all"]["round_trips"] == pytest.approx(51 / 12)
        vector = {h: summary[("vector@1", h)] for h in ("1", "2", "3")}
        assert [vector[h]["f1"] for h in ("1", "2", "3")] == pytest.approx([11 / 15, 0.0, 1 / 3])

        run_dir = tmp_path / "results" / "r1"
        results = json.loads((run_dir / "results.json").read_text())
        assert results["spec"]["graph"] == graph_name
        assert results["environment"]["git_revision"]
        assert results["systems"]["graphwalk:relation"]["config"]["hop_mode"] == "relation"
        assert [s["best_k"] for s in results["k_sweeps"]] == [1]
        record = next(
            q
            for q in results["questions"]
            if q["question_id"] == "dev-1hop-00001" and q["system"] == "graphwalk:relation"
        )
        assert record["answers"] == ["William Dieterle"]
        assert record["gold"] == ["William Dieterle"]
        assert record["path"] == "Kismet --directed_by--> William Dieterle -> STOP"
        assert record["walk_id"]
        assert "| graphwalk:relation | 3 | 3 |" in (run_dir / "summary.md").read_text()

        # Interrupt: keep 10 whole records and half of the 11th, then run the same command again.
        lines = (run_dir / "questions.jsonl").read_text().splitlines(keepends=True)
        assert len(lines) == 36  # 12 ceiling + 12 per system
        (run_dir / "questions.jsonl").write_text("".join(lines[:10]) + lines[10][:25])
        resumed = invoke(neo4j_settings, tmp_path, "--graph", graph_name, "--system", "all", "--run-id", "r1")
        after = (run_dir / "questions.jsonl").read_text().splitlines()
        assert len(after) == 36
        assert after[:10] == [line.rstrip("\n") for line in lines[:10]]
        for key, row in rows(resumed).items():
            assert {m: row[m] for m in METRICS} == {m: summary[key][m] for m in METRICS}, key

        # Same seed, same numbers (a fresh run id); other settings under the same id are refused.
        sampled = [
            invoke(neo4j_settings, tmp_path, "--graph", graph_name, "--n", "2", "--seed", "7", "--run-id", run)
            for run in ("s1", "s2")
        ]
        a, b = rows(sampled[0]), rows(sampled[1])
        assert a[("graphwalk:relation", "all")]["n"] == 6
        assert {k: {m: v[m] for m in METRICS} for k, v in a.items()} == {
            k: {m: v[m] for m in METRICS} for k, v in b.items()
        }
        refused = CliRunner().invoke(
            main,
            [
                "eval",
                "metaqa",
                "--data",
                str(DATA),
                "--graph",
                graph_name,
                "--n",
                "2",
                "--seed",
                "8",
                "--run-id",
                "s1",
                "--results-dir",
                str(tmp_path / "results"),
                "--cache-dir",
                str(tmp_path / "cache"),
            ],
            env={"GW_NEO4J_URI": neo4j_settings.uri},
        )
        assert refused.exit_code == 2
        assert "spec.seed: 7 -> 8" in refused.output
    finally:
        asyncio.run(_drop(neo4j_settings, graph_name))


async def _drop(settings: Settings, graph: str) -> None:
    store = GraphStore(settings)
    await store.connect()
    try:
        await drop_graph(store, graph)
    finally:
        await store.close()


def test_a_graph_loaded_under_one_type_map_is_walked_so_and_never_retyped(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path
) -> None:
    """``eval metaqa`` on a graph that holds ``kb.txt`` under a type map walks it under that map when asked for
    none, and stops with one line naming it, before anything is written, when asked for another (ingest would
    otherwise retract and reload the graph typed)."""
    kb = DATA / "kb.txt"
    own_map = tmp_path / "own.json"
    own_map.write_text(json.dumps({"directed_by": ["Film", "Director"]}), encoding="utf-8")
    base = ["--graph", graph_name, "--n", "1", "--hops", "1", "--run-id"]

    def preparation(run_id: str) -> dict[str, Any]:
        results: dict[str, Any] = json.loads((tmp_path / "results" / run_id / "results.json").read_text())
        prepared: dict[str, Any] = results["preparation"]
        return prepared

    def refused_line(*args: str) -> str:
        result = CliRunner().invoke(
            main,
            ["eval", "metaqa", "--data", str(DATA), *base, "x", "--results-dir", str(tmp_path / "results"), *args],
            env={"GW_NEO4J_URI": neo4j_settings.uri, "GW_NEO4J_EMBEDDER": "minilm"},
        )
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()  # progress stages, then the one error line
        assert [line for line in lines if line.startswith("error:")] == lines[-1:], result.output
        return lines[-1]

    try:
        assert invoke(neo4j_settings, tmp_path, *base, "u1", "--type-map", "none")["summary"]
        assert preparation("u1")["type_map"] == "none"
        assert preparation("u1")["ingest"]["status"] == "loaded"
        types_before = asyncio.run(_entity_types(neo4j_settings, graph_name))
        assert "Movie" not in types_before

        assert refused_line("--type-map", "metaqa") == (
            f"error: graph {graph_name!r} already holds {kb} loaded with another type map than metaqa, and this "
            "run would retype it: to walk it as loaded pass --type-map none; to load it with metaqa, use a fresh "
            f"--graph (or `gw-neo4j drop-graph {graph_name}` first)"
        )
        assert f"than {own_map}," in refused_line("--type-map", str(own_map))
        assert asyncio.run(_entity_types(neo4j_settings, graph_name)) == types_before  # nothing retyped
        assert not (tmp_path / "results" / "x").exists()

        # asked for no map (and no types.json beside kb.txt): walked as loaded, not typed with MetaQA's
        assert invoke(neo4j_settings, tmp_path, *base, "u2")["summary"]
        assert preparation("u2")["type_map"] == "none"
        assert preparation("u2")["ingest"]["status"] == "unchanged"
        assert asyncio.run(_entity_types(neo4j_settings, graph_name)) == types_before

        asyncio.run(_drop(neo4j_settings, graph_name))
        invoke(neo4j_settings, tmp_path, *base, "o1", "--type-map", str(own_map))
        assert "pass the --type-map it was loaded with;" in refused_line("--type-map", "none")
        assert "than metaqa, and" in refused_line()  # a map no word names: MetaQA's by default, refused
    finally:
        asyncio.run(_drop(neo4j_settings, graph_name))


async def _entity_types(settings: Settings, graph: str) -> set[str]:
    store = GraphStore(settings)
    await store.connect()
    try:
        return {r["type"] for r in await store.read("graph/entity_types", graph=graph)}
    finally:
        await store.close()
