"""The learned decider end to end against the real Neo4j: path mining in batched Cypher, ``decider train`` /
``decider show`` / ``eval --model learned:DIR`` through the CLI on the tiny MetaQA-format dataset, and
distillation from walks recorded through the Jev stand-in (real SDK, real trace writer)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from typesafe_sdk import RetryPolicy

from graphwalk_neo4j.backends import resolve_backend
from graphwalk_neo4j.cli import main
from graphwalk_neo4j.decide.jev import JevBackend
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.eval.answers import CountingStore, count_round_trips
from graphwalk_neo4j.eval.runner import prepare_graph
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.learned.distill import traces_dataset
from graphwalk_neo4j.learned.mining import MiningOptions, mine_batch
from graphwalk_neo4j.learned.model import LearnedDecider
from graphwalk_neo4j.learned.qa import load_qa
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.stored_walks.read import get_walk, list_walks
from graphwalk_neo4j.walk.config import get_preset
from graphwalk_neo4j.walk.service import WalkService
from tests.standins.jev_server import JevStandIn

DATA = Path(__file__).resolve().parents[1] / "data" / "metaqa_eval"
QA = [str(DATA / f"qa_dev_{h}hop.txt") for h in (1, 2, 3)]

pytestmark = pytest.mark.neo4j


async def test_mining_finds_gold_paths_in_one_round_trip_per_hop(store: Any, graph_name: str) -> None:
    await prepare_graph(store, DATA, graph_name, FakeEmbedder(32))
    pairs = load_qa(QA)
    assert len(pairs) == 12
    assert pairs[0].text == "who directed Kismet"
    assert pairs[5].hops == 2
    with count_round_trips() as trips:
        decisions, mined = await mine_batch(
            CountingStore(store),  # type: ignore[arg-type]  # the counting stand-in forwards every GraphStore call
            graph_name,
            pairs,
            get_preset("relation"),
            MiningOptions(),
        )
    # one read links every topic of the batch, then one expansion per hop (3 hops + the STOP offers)
    assert trips[0] == 1 + 4
    gold = {m.qid: m.gold_paths for m in mined}
    assert gold["qa_dev_1hop:1"] == [["directed_by|out"]]
    assert gold["qa_dev_2hop:3"] == [["starred_actors|out", "starred_actors|in"]]  # movies sharing actors
    assert gold["qa_dev_1hop:5"] == []
    assert not next(m for m in mined if m.qid == "qa_dev_1hop:5").linked
    first = [d for d in decisions if d.qid == "qa_dev_1hop:1"]
    # from a film: one decision among its relations, then STOP at the director (all real offers)
    assert [d.depth for d in first] == [1, 2]
    assert first[0].inputs.tokens == ("directed_by|out", "has_genre|out", "release_year|out", "starred_actors|out")
    assert first[0].target == [1.0, 0.0, 0.0, 0.0]
    assert first[1].inputs.path == ("directed_by|out",)
    assert first[1].inputs.tokens[-1] == "STOP"
    assert first[1].target[-1] == 1.0
    assert sum(first[1].target) == 1.0


def cli(settings: Settings, *args: str, embedder: str = "fake") -> Any:
    return CliRunner().invoke(main, list(args), env={"GW_NEO4J_URI": settings.uri, "GW_NEO4J_EMBEDDER": embedder})


# The distilled model reads the question's and the moves' words through the embedder (word coverage, claims, the
# asked kind): the hashed fake embedder makes those columns noise, so distillation trains and is judged with the
# packaged MiniLM (ONNX), as a user's would be.
WORDS = "minilm-onnx"


async def with_store(settings: Settings, work: Any) -> Any:
    st = GraphStore(settings)
    await st.connect()
    try:
        return await work(st)
    finally:
        await st.close()


async def load(settings: Settings, graph: str) -> None:
    await with_store(settings, lambda st: prepare_graph(st, DATA, graph, FakeEmbedder()))


async def drop(settings: Settings, graph: str) -> None:
    await with_store(settings, lambda st: drop_graph(st, graph))


def test_train_show_and_eval_with_the_learned_decider(
    graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    asyncio.run(load(neo4j_settings, graph_name))
    try:
        train_show_and_eval(graph_name, neo4j_settings, tmp_path)
    finally:
        asyncio.run(drop(neo4j_settings, graph_name))


def train_show_and_eval(graph_name: str, neo4j_settings: Settings, tmp_path: Path) -> None:
    art = tmp_path / "art"
    qa = [a for f in QA for a in ("--qa", f)]
    train = ("decider", "train", "--graph", graph_name, *qa, "--out", str(art), "--epochs", "40", "--json")
    trained = cli(neo4j_settings, *train)
    assert trained.exit_code == 0, trained.output
    metrics = json.loads(trained.stdout)["metrics"]
    # too few questions for a validation split: it says so, validates on its 22 training decisions, and fits them
    assert metrics["validated_on"] == "train (no validation decisions)"
    assert metrics["decisions"] == {"train": 66, "val": 22, "augmented": 44}
    assert metrics["val"]["n"] == 22
    assert metrics["val"]["accuracy"] == 1.0
    assert {p.name for p in art.iterdir()} >= {"model.npz", "config.json", "metrics.json", "data"}
    config = json.loads((art / "config.json").read_text())
    assert config["graph"] == graph_name
    assert config["source"] == "qa"
    assert config["qa_format"] == "metaqa"
    assert config["walk_config"]["exclude_scope"] == "start"  # training's default: answers exclude only the topic
    again = cli(neo4j_settings, *train)  # resumes: nothing to mine, same data
    assert again.exit_code == 0, again.output
    assert json.loads((art / "config.json").read_text())["training_data_sha256"] == config["training_data_sha256"]
    shown = cli(neo4j_settings, "decider", "show", str(art))
    assert shown.exit_code == 0
    assert f"graph: {graph_name}" in shown.stdout
    assert "validation: accuracy" in shown.stdout
    assert 'walks under: exclude_visited=true, exclude_scope="start"' in shown.stdout
    assert config["stop_rule"] is True
    assert "stop rule: on (no STOP where the question names another type of answer" in shown.stdout
    shown_json = cli(neo4j_settings, "decider", "show", str(art), "--json")
    assert json.loads(shown_json.stdout)["walk_defaults"] == {"exclude_visited": True, "exclude_scope": "start"}

    def evaluate(model: str, run_id: str, *extra: str) -> Any:
        return cli(
            neo4j_settings, "eval", "metaqa", "--data", str(DATA), "--model", model, "--graph", graph_name,
            "--results-dir", str(tmp_path / "results"), "--cache-dir", str(tmp_path / "cache"), "--run-id", run_id,
            *extra,
        )  # fmt: skip

    evaluated = evaluate(f"learned:{art}", "learned", "--concurrency", "2", "--json")
    assert evaluated.exit_code == 0, evaluated.output
    results = json.loads((tmp_path / "results" / "learned" / "results.json").read_text())
    assert results["systems"]["graphwalk:relation"]["model"] == "learned:art"
    # no --exclude given: the run walked (and run.json records) the model's training rule
    run_json = json.loads((tmp_path / "results" / "learned" / "run.json").read_text())
    assert run_json["systems"]["graphwalk:relation"]["config"]["exclude_scope"] == "start"
    assert "warning" not in evaluated.stderr
    rows = {(c["system"], c["hops"]): c for c in results["calibration"]}
    assert rows[("graphwalk:relation", "all")]["n"] == 12
    assert 0.0 <= rows[("graphwalk:relation", "all")]["ece"] <= 1
    png = tmp_path / "results" / "learned" / "reliability.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "## Calibration" in (tmp_path / "results" / "learned" / "summary.md").read_text()
    # another artifact behind the same --model path: the run is not resumed from the old one's answers
    config_path = art / "config.json"
    original = config_path.read_bytes()
    config_path.write_text(json.dumps({**json.loads(original), "stop_rule": False}), encoding="utf-8")
    try:
        changed = evaluate(f"learned:{art}", "learned")
    finally:
        config_path.write_bytes(original)
    assert changed.exit_code != 0
    assert "exists with different settings" in changed.output
    assert "decider" in changed.output
    missing = evaluate(f"learned:{tmp_path}/none", "bad")
    assert missing.exit_code != 0
    assert "not a learned-decider directory" in missing.output
    walks_under_the_training_rule(graph_name, neo4j_settings, art)


def learned_walk(settings: Settings, graph_name: str, art: Path, question: str, start: str, *extra: str) -> Any:
    return cli(
        settings, "walk", question, "--graph", graph_name, "--model", f"learned:{art}", "--preset", "relation",
        "--start", start, *extra,
    )  # fmt: skip


def walk_json(settings: Settings, graph_name: str, art: Path, *extra: str) -> Any:
    question = "who starred in the films whose directors also directed Dr. Ehrlich"
    return learned_walk(settings, graph_name, art, question, "Dr. Ehrlich", "--json", *extra)


def stored_config(settings: Settings, graph_name: str, walk_id: str) -> dict[str, Any]:
    shown = cli(settings, "walks", "show", walk_id, "--graph", graph_name, "--json")
    assert shown.exit_code == 0, shown.output
    config: dict[str, Any] = json.loads(shown.stdout)["walk"]["config"]
    return config


def walks_under_the_training_rule(graph_name: str, neo4j_settings: Settings, art: Path) -> None:
    """`gw-neo4j walk --model learned:DIR` without --exclude walks under the model's rule (start, as trained);
    --exclude visited is obeyed, with one warning line on stderr."""
    own = walk_json(neo4j_settings, graph_name, art)
    assert own.exit_code == 0, own.output
    bundle = json.loads(own.stdout)
    assert bundle["walk_rule"] == {"exclude_visited": True, "exclude_scope": "start", "source": "model"}
    assert stored_config(neo4j_settings, graph_name, bundle["walk_id"])["exclude_scope"] == "start"
    assert own.stderr == ""
    chosen = walk_json(neo4j_settings, graph_name, art, "--exclude", "visited")
    assert chosen.exit_code == 0, chosen.output
    bundle = json.loads(chosen.stdout)
    assert bundle["walk_rule"] == {"exclude_visited": True, "exclude_scope": "visited", "source": "chosen"}
    assert stored_config(neo4j_settings, graph_name, bundle["walk_id"])["exclude_scope"] == "visited"
    assert chosen.stderr.strip() == (
        "warning: learned:art was trained under another walk rule; this walk uses exclude_scope=visited "
        "(trained with start) as chosen"
    )
    shown = learned_walk(neo4j_settings, graph_name, art, "who directed Kismet", "Kismet")
    assert shown.exit_code == 0, shown.output
    assert "exclude: start (the model's training rule)" in shown.stdout
    assert "search: greedy (as chosen)" in shown.stdout  # the relation preset
    searched = cli(
        neo4j_settings, "walk", "who directed Kismet", "--graph", graph_name, "--model", f"learned:{art}",
        "--start", "Kismet",
    )  # fmt: skip
    assert searched.exit_code == 0, searched.output
    assert "search: beam of 3 (the model's search)" in searched.stdout  # no preset: the model's beam


def test_distillation_from_walks_recorded_through_the_jev_standin(
    graph_name: str,
    neo4j_settings: Settings,
    tmp_path: Path,
) -> None:
    asyncio.run(load(neo4j_settings, graph_name))
    try:
        decisions = asyncio.run(with_store(neo4j_settings, lambda st: record_walks(st, graph_name)))
        art = tmp_path / "distilled"
        trained = cli(
            neo4j_settings,
            "decider",
            "train",
            "--from-traces",
            "--graph",
            graph_name,
            "--out",
            str(art),
            "--epochs",
            "60",
            "--json",
            embedder=WORDS,
        )
        assert trained.exit_code == 0, trained.output
        # deterministic: the same traces give the same model, bit for bit (walk ids are random; the traces are
        # ordered by what they asked)
        again = cli(
            neo4j_settings,
            "decider",
            "train",
            "--from-traces",
            "--graph",
            graph_name,
            "--out",
            str(tmp_path / "again"),
            "--epochs",
            "60",
            "--json",
            embedder=WORDS,
        )
        assert again.exit_code == 0, again.output
        with np.load(art / "model.npz") as one, np.load(tmp_path / "again" / "model.npz") as two:
            assert all(np.array_equal(one[k], two[k]) for k in one.files)
        config = json.loads((art / "config.json").read_text())
        assert config["source"] == "traces"
        assert config["teacher_models"] == ["jev-1.13.0"]
        assert config["walks"] == 11
        asyncio.run(imitates(art, decisions))
        shown = cli(neo4j_settings, "decider", "show", str(art))
        assert shown.exit_code == 0
        assert "source: traces" in shown.stdout
    finally:
        asyncio.run(drop(neo4j_settings, graph_name))


async def record_walks(store: Any, graph_name: str) -> list[Any]:
    """Walk the tiny dataset's questions with Jev (the stand-in) and tracing on; return the decisions the
    traces give, after checking them against the stored steps."""
    embedder = FakeEmbedder()
    with JevStandIn() as jev_server:
        jev = JevBackend(
            "test-key",
            base_url=jev_server.typesafe_base_url,
            retry=RetryPolicy(max_retries=1, backoff_initial=0.0, backoff_max=0.0),
        )
        service = WalkService(store, graph_name, jev, embedder=embedder, trace=True)
        for pair in load_qa(QA):
            if pair.topic != "Casablanca":
                await service.walk(pair.text, get_preset("relation"), start=[pair.topic])
        await jev.aclose()
        assert jev_server.systemone_requests
    walks = await list_walks(store, graph_name, limit=50)
    assert len(walks) == 11
    assert {w.model for w in walks} == {"jev-1.13.0"}
    stored = [await get_walk(store, graph_name, w.id) for w in walks]
    decision_steps = [s for w in stored for s in w.steps if s.kind == "decision" and s.distribution]
    _, decisions = await traces_dataset(store, graph_name)
    assert len(decisions) == len(decision_steps) > 0
    by_walk = {(s.walk_id, s.depth, s.beam): s for s in decision_steps}
    for d in decisions:  # soft targets are exactly Jev's stored distributions, in offer order
        step = next(s for (wid, depth, _), s in by_walk.items() if wid == d.qid and depth == d.depth)
        assert d.target == pytest.approx([step.distribution[o.label] for o in step.options])
        assert len(d.inputs.tokens) == len(step.options)
    return decisions


async def imitates(art: Path, decisions: list[Any]) -> None:
    decider = resolve_backend(Settings(embedder=WORDS), f"learned:{art}")
    assert isinstance(decider, LearnedDecider)
    # it imitates the teacher: its first choice agrees with Jev's on most recorded decisions
    agree = 0
    for d in decisions:
        probs = await decider.scores(d.inputs)
        agree += int(int(probs.argmax()) == max(range(len(d.target)), key=lambda i: (d.target[i], -i)))
    # 14 of 19, every run (training is deterministic; format 10, the 3-member ensemble; format 6 agreed on 16,
    # formats 8 and 9 on 15: the two asked-kind columns of format 8 lost one, the again column of format 10
    # another, on 19 decisions of 3 questions). With the fake embedder the same training agrees on 14 (its word
    # columns are noise). Always taking the first option agrees on 8.
    first = sum(int(max(range(len(d.target)), key=lambda i: (d.target[i], -i)) == 0) for d in decisions)
    assert agree >= 14, (agree, first, len(decisions))
    assert first == 8, (agree, first, len(decisions))
