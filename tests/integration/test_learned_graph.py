"""Training a learned decider from the graph alone, end to end against the real Neo4j: ``decider train`` with
neither ``--qa`` nor ``--from-walks`` on the tiny MetaQA-format KB, ``decider show``, resuming, and the graph
walking with its own model when no model is named (CLI ``walk``, the service's backend choice, ``doctor``)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from graphwalk_neo4j.backends import general_model_dir, graph_model_choice, resolve_backend
from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.doctor import decider_checks, diagnose
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.errors import QueryError
from graphwalk_neo4j.eval.runner import prepare_graph
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.graph.profile import load_profile
from graphwalk_neo4j.learned import role_types as role_types_module
from graphwalk_neo4j.learned.graph_questions import STAND_IN_NOUNS, plural_of, read_graph
from graphwalk_neo4j.learned.model import LearnedDecider, Vocab, Weights
from graphwalk_neo4j.learned.role_types import ROLE_TYPES_VERSION, GraphRoleTypes, graph_role_types, role_types_note
from graphwalk_neo4j.stored_walks import get_walk
from graphwalk_neo4j.walk.service import WalkService
from tests.integration.test_learned import WORDS, cli, with_store

if TYPE_CHECKING:
    from graphwalk_neo4j.graph.profile import GraphProfile
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

DATA = Path(__file__).resolve().parents[1] / "data" / "metaqa_eval"

pytestmark = pytest.mark.neo4j


def test_a_graph_trains_its_own_decider_and_walks_with_it(
    graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    asyncio.run(with_store(neo4j_settings, lambda st: prepare_graph(st, DATA, graph_name, FakeEmbedder())))
    try:
        trains_and_walks(graph_name, neo4j_settings.model_copy(update={"embedder": "fake"}), tmp_path)
    finally:
        asyncio.run(with_store(neo4j_settings, lambda st: drop_graph(st, graph_name)))


def trains_and_walks(graph_name: str, settings: Settings, tmp_path: Path) -> None:
    question = "who directed Kismet"
    before = cli(settings, "walk", question, "--graph", graph_name, "--preset", "relation")
    assert before.exit_code == 0, before.output
    assert "decider: local (this graph has no trained model;" in before.stderr
    assert f"gw-neo4j decider train --graph {graph_name} --out DIR" in before.stderr

    art = tmp_path / "art"
    train = ("decider", "train", "--graph", graph_name, "--out", str(art), "--questions", "100", "--epochs", "5")
    trained = cli(settings, *train, "--json")
    assert trained.exit_code == 0, trained.output
    metrics = json.loads(trained.stdout)["metrics"]
    assert metrics["default_for_graph"] == str(art.resolve())
    config = json.loads((art / "config.json").read_text())
    assert config["source"] == "graph"
    assert config["graph"] == graph_name
    assert "companion" not in config  # the fake embedder's vectors are not the general model's: it walks alone
    written = config["graph_questions"]["written"]
    assert 0 < written <= 100
    assert config["questions"]["test"] == 0  # nothing is held out of the graph's own questions
    assert sum(c["with_gold_path"] for c in config["mining_coverage"].values()) == written  # paths the KB has
    questions = (art / "data" / "questions.jsonl").read_text().splitlines()
    assert len(questions) == written

    again = cli(settings, *train, "--json")  # resumes: the same questions, nothing mined again, the same data
    assert again.exit_code == 0, again.output
    assert (art / "data" / "questions.jsonl").read_text().splitlines() == questions
    assert json.loads((art / "config.json").read_text())["training_data_sha256"] == config["training_data_sha256"]

    other = cli(settings, "decider", "train", "--graph", graph_name, "--out", str(art), "--questions", "200")
    assert other.exit_code != 0  # other options would mix two question sets in one directory
    assert "pass the same --questions and --seed to resume, or a new --out" in other.output

    shown = cli(settings, "decider", "show", str(art))
    assert shown.exit_code == 0, shown.output
    assert "source: graph" in shown.stdout
    assert f"data: {written} questions written from the graph's own relation paths" in shown.stdout
    assert "  walks: alone" in shown.stdout

    after = cli(settings, "walk", question, "--graph", graph_name, "--preset", "relation", "--json")
    assert after.exit_code == 0, after.output
    assert f"decider: learned:{art.resolve()} (this graph's own model, trained from graph)" in after.stderr
    assert json.loads(after.stdout)["walk_rule"]["source"] == "model"  # the learned model's training rule
    named = cli(settings, "walk", question, "--graph", graph_name, "--model", "local", "--json")
    assert named.exit_code == 0, named.output
    assert "decider:" not in named.stderr  # a named model is not announced

    async def choices(st: GraphStore) -> tuple[Any, Any, Any]:
        return (
            await graph_model_choice(st, settings, graph_name, None),
            await graph_model_choice(st, settings.model_copy(update={"model": "fake"}), graph_name, None),
            await graph_model_choice(st, settings, f"{graph_name}_none", None),
        )

    own, setting, none = asyncio.run(with_store(settings, choices))
    assert (own.model, own.reason) == (f"learned:{art.resolve()}", "graph")
    assert (setting.model, setting.reason) == ("fake", "setting")
    assert (none.model, none.reason) == (None, "default")

    report = asyncio.run(diagnose(settings))
    check = next(c for c in report.checks if c.name == f"decider:{graph_name}")
    assert check.ok
    assert "this graph's own model" in check.detail


def _untyped_triples() -> str:
    """A small graph as it comes, no types: 30 people born in 6 cities and working at 6 firms, the cities in 2
    lands, each firm founded by one of the people."""
    lines = []
    for i in range(30):
        lines += [f"Person {i}|born_in|City {i % 6}", f"Person {i}|works_at|Firm {i % 6}"]
    lines += [f"City {i}|city_in|Land {i % 2}" for i in range(6)]
    lines += [f"Firm {i}|founded_by|Person {i + 10}" for i in range(6)]
    return "\n".join(lines) + "\n"


def _trained_untyped(settings: Settings, graph: str, tmp_path: Path, triples: str, *, epochs: int) -> Path:
    """``triples`` ingested as ``graph`` with no type map, and a one-member model trained from it alone (100
    questions): the artifact's directory."""
    kb = tmp_path / "kb.txt"
    kb.write_text(triples, encoding="utf-8")
    loaded = cli(settings, "ingest", str(kb), "--graph", graph, "--root", str(tmp_path))
    assert loaded.exit_code == 0, loaded.output
    art = tmp_path / "art"
    train = ("decider", "train", "--graph", graph, "--out", str(art), "--questions", "100", "--epochs", str(epochs))
    trained = cli(settings, *train, "--members", "1", "--no-default")
    assert trained.exit_code == 0, trained.output
    return art


def test_a_graph_without_types_is_given_them_from_its_structure(
    graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    settings = neo4j_settings.model_copy(update={"embedder": "fake"})
    try:
        art = _trained_untyped(settings, graph_name, tmp_path, _untyped_triples(), epochs=2)
        config = json.loads((art / "config.json").read_text())
        assert config["role_types"] == {
            "born_in|object": "city",
            "born_in|subject": "person",  # founders (founded_by) and workers (works_at): two kinds of agent
            "city_in|object": "item 2",
            "city_in|subject": "city",
            "founded_by|object": "person",
            "founded_by|subject": "item",
            "works_at|object": "item",
            "works_at|subject": "person",
        }
        assert json.loads((art / "data" / "role_types.json").read_text()) == config["role_types"]
        # the types one move apart, which the STOP rule reads to look two moves ahead
        assert config["type_links"] == {
            "city": ["item 2", "person"],
            "item": ["person"],
            "item 2": ["city"],
            "person": ["city", "item"],
        }
        assert json.loads((art / "data" / "type_links.json").read_text()) == config["type_links"]
        # the graph's own questions ask for the inferred kinds: who for the founders, which city for the cities
        questions = [json.loads(line)["text"] for line in (art / "data" / "questions.jsonl").read_text().splitlines()]
        assert any(q.startswith("who ") for q in questions)
        assert any("city" in q for q in questions)
        # its two unnamed types (the firms, the lands) are called by stand-in nouns, never "items"; with two,
        # which one a question asks for is not known, so neither is read as the asked noun
        assert not [q for q in questions if re.search(r"\bitems?\b", q)]
        assert config["unnamed_as_asked"] is False
        shown = cli(settings, "decider", "show", str(art))
        assert "node types: the graph has none; 4 read from its structure: city, item, item 2, person" in shown.stdout
        assert "another type of answer, one or two moves away)" in shown.stdout
        walked = cli(
            settings,
            "walk",
            "which city was [Person 7] born in",
            "--graph",
            graph_name,
            "--model",
            f"learned:{art}",
            "--preset",
            "relation",
            "--json",
        )
        assert walked.exit_code == 0, walked.output
        assert [a["name"] for a in json.loads(walked.stdout)["answers"]] == ["City 1"]
    finally:
        asyncio.run(with_store(settings, lambda st: drop_graph(st, graph_name)))


def test_the_one_type_no_relation_names_is_asked_for_by_stand_in_nouns(
    graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    settings = neo4j_settings.model_copy(update={"embedder": "fake"})
    films = [f"Film {i}|directed_by|Person {i % 5}\nFilm {i}|has_genre|Genre {i % 3}" for i in range(30)]
    try:
        art = _trained_untyped(settings, graph_name, tmp_path, "\n".join(films) + "\n", epochs=1)
        config = json.loads((art / "config.json").read_text())
        assert sorted(set(config["role_types"].values())) == ["director", "genre", "item"]  # the films: unnamed
        assert config["unnamed_as_asked"] is True
        questions = [json.loads(line)["raw"] for line in (art / "data" / "questions.jsonl").read_text().splitlines()]
        assert not [q for q in questions if re.search(r"\bitems?\b", q)]  # no question asks for "items"
        nouns = {w for q in questions for w in re.findall(r"\b(?:which|what) (\w+)", q)}
        assert nouns & {plural_of(n) for n in STAND_IN_NOUNS} | nouns & set(STAND_IN_NOUNS)
        assert LearnedDecider.load(art, FakeEmbedder()).name_unnamed  # and walks reading it so
        shown = cli(settings, "decider", "show", str(art))
        assert (
            "3 read from its structure: director, genre, item; the one no relation names (item) read as the noun "
            "a question asks for" in " ".join(shown.stdout.split())
        )
    finally:
        asyncio.run(with_store(settings, lambda st: drop_graph(st, graph_name)))


def test_one_model_trains_from_several_graphs_and_walks_one_it_never_saw(
    graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    """``decider train`` with two ``--graph``: each graph's questions and mined decisions in its own data
    directory, one fit over both, each untyped graph's role types kept, no type links (a model of several graphs
    walks others), and no graph takes it as its default. The model then walks a third graph it never saw."""
    settings = neo4j_settings.model_copy(update={"embedder": "fake"})
    typed, untyped, unseen = f"{graph_name}_a", f"{graph_name}_b", f"{graph_name}_c"
    kb = tmp_path / "kb.txt"
    kb.write_text(_untyped_triples(), encoding="utf-8")
    graphs = (typed, untyped, unseen)
    try:
        asyncio.run(with_store(neo4j_settings, lambda st: prepare_graph(st, DATA, typed, FakeEmbedder())))
        asyncio.run(with_store(neo4j_settings, lambda st: prepare_graph(st, DATA, unseen, FakeEmbedder())))
        loaded = cli(settings, "ingest", str(kb), "--graph", untyped, "--root", str(tmp_path))
        assert loaded.exit_code == 0, loaded.output
        art = tmp_path / "art"
        train = ("decider", "train", "--graph", typed, "--graph", untyped, "--out", str(art), "--questions", "100")
        trained = cli(settings, *train, "--epochs", "2", "--members", "1", "--json")
        assert trained.exit_code == 0, trained.output
        assert "default_for_graph" not in json.loads(trained.stdout)["metrics"]
        config = json.loads((art / "config.json").read_text())
        assert config["source"] == "graphs"
        assert (config["graphs"], config["graph"]) == ([typed, untyped], f"{typed}, {untyped}")
        assert config["type_links"] == {}
        assert config["role_types"]["born_in|object"] == "city"  # the untyped graph's; the typed one has none
        for graph in (typed, untyped):
            written = config["per_graph"][graph]["graph_questions"]["written"]
            assert 0 < written <= 100
            lines = (art / "data" / "graphs" / graph / "questions.jsonl").read_text().splitlines()
            assert len(lines) == written
        assert config["questions"]["train"] + config["questions"]["val"] == sum(
            m["graph_questions"]["written"] for m in config["per_graph"].values()
        )
        shown = cli(settings, "decider", "show", str(art))
        assert "source: graphs" in shown.stdout
        assert f"questions written from each graph's own relation paths ({typed} " in shown.stdout

        walked = cli(settings, "walk", "who directed Kismet", "--graph", unseen, "--preset", "relation")
        assert "decider: local (this graph has no trained model;" in walked.stderr  # not made anyone's default
        assert "`--model general` (with the MiniLM embedder) walks with the model trained" in walked.stderr
        walked = cli(settings, "walk", "who directed Kismet", "--graph", unseen, "--model", f"learned:{art}", "--json")
        assert walked.exit_code == 0, walked.output
        assert json.loads(walked.stdout)["answers"]

        refused = cli(settings, "decider", "train", "--graph", typed, "--graph", untyped, "--qa", str(kb), "--out", "x")
        assert refused.exit_code != 0
        assert "several --graph train only from the graphs alone" in refused.output
    finally:
        for graph in graphs:
            asyncio.run(with_store(settings, lambda st, g=graph: drop_graph(st, g)))


def test_a_model_trained_from_its_graph_alone_walks_beside_the_general_one(
    graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    """With the MiniLM embedder, graph-only training records the shipped model as the companion the trained one
    walks beside (``--alone``: none); loading it loads both, and walks answer with the two."""
    asyncio.run(with_store(neo4j_settings, lambda st: prepare_graph(st, DATA, graph_name, FakeEmbedder())))
    try:
        art, alone = tmp_path / "art", tmp_path / "alone"
        train = ("decider", "train", "--graph", graph_name, "--questions", "100", "--epochs", "2")
        trained = cli(neo4j_settings, *train, "--out", str(art), "--json", embedder=WORDS)
        assert trained.exit_code == 0, trained.output
        config = json.loads((art / "config.json").read_text())
        assert (config["companion"], config["companion_weight"], config["companion_plausible"]) == ("general", 0.5, 0.1)
        shown = cli(neo4j_settings, "decider", "show", str(art))
        assert (
            "  walks: beside `general` (probabilities averaged, weight 0.5 on it, on the moves this model gives at "
            "least 0.1 of its top move's;" in shown.stdout
        )

        decider = resolve_backend(neo4j_settings.model_copy(update={"embedder": WORDS}), f"learned:{art}")
        assert isinstance(decider, LearnedDecider)
        assert decider.companion is not None
        assert decider.companion.directory == general_model_dir()
        walked = cli(neo4j_settings, "walk", "who directed [Kismet]", "--graph", graph_name, "--json", embedder=WORDS)
        assert walked.exit_code == 0, walked.output
        assert "(this graph's own model, trained from graph, beside `general`)" in walked.stderr
        assert [a["name"] for a in json.loads(walked.stdout)["answers"]] == ["William Dieterle"]

        by_itself = cli(
            neo4j_settings, *train, "--no-default", "--out", str(alone), "--alone", "--json", embedder=WORDS
        )
        assert by_itself.exit_code == 0, by_itself.output
        assert "companion" not in json.loads((alone / "config.json").read_text())
    finally:
        asyncio.run(with_store(neo4j_settings, lambda st: drop_graph(st, graph_name)))


def test_the_shipped_general_model_walks_a_graph_it_never_saw(graph_name: str, neo4j_settings: Settings) -> None:
    """``--model general``: the artifact in the package, with the MiniLM embedder it was trained with, on the tiny
    MetaQA-format KB (none of its training graphs)."""
    asyncio.run(with_store(neo4j_settings, lambda st: prepare_graph(st, DATA, graph_name, FakeEmbedder())))
    try:
        walks: list[tuple[str, str]] = []
        refused = cli(neo4j_settings, "walk", "who directed [Kismet]", "--graph", graph_name, "--model", "general")
        assert refused.exit_code != 0  # another embedder: refused, naming the one it was trained over
        assert "was trained over embedder 'sentence-transformers/all-MiniLM-L6-v2'" in refused.output
        for question, answers in (
            ("who directed [Kismet]", ["William Dieterle"]),
            ("which actors starred in [Kismet]", ["Marlene Dietrich", "Ronald Colman"]),
        ):
            walked = cli(
                neo4j_settings, "walk", question, "--graph", graph_name, "--model", "general", "--json", embedder=WORDS
            )
            assert walked.exit_code == 0, walked.output
            body = json.loads(walked.stdout)
            # a beam of three (the model's search, no preset named), answering with its best path's set only
            assert sorted(a["name"] for a in body["answers"]) == answers
            assert body["walk_rule"]["source"] == "model"  # a learned model's training rule: not local
            assert body["search"] == {"strategy": "beam", "width": 3, "source": "model"}
            walks.append((body["walk_id"], "beam"))
        greedy = cli(
            neo4j_settings,
            "walk",
            "who directed [Kismet]",
            *("--graph", graph_name, "--model", "general", "--preset", "relation", "--json"),
            embedder=WORDS,
        )
        assert greedy.exit_code == 0, greedy.output
        assert [a["name"] for a in json.loads(greedy.stdout)["answers"]] == ["William Dieterle"]
        walks.append((json.loads(greedy.stdout)["walk_id"], "greedy"))  # a named preset decides

        async def stored(store: GraphStore) -> list[tuple[str, str | None]]:
            return [(wid, (await get_walk(store, graph_name, wid)).strategy) for wid, _ in walks]

        assert asyncio.run(with_store(neo4j_settings, stored)) == walks
    finally:
        asyncio.run(with_store(neo4j_settings, lambda st: drop_graph(st, graph_name)))


def test_a_model_walking_a_graph_without_types_reads_that_graphs_own(
    graph_name: str, neo4j_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A learned model on a graph it was not trained on reads the walked graph's types: inferred from its
    structure once when it was loaded without them, kept in one ``:GwRoleTypes`` node, read again when the graph
    changes, and none for a graph with its own. The walk service works that out once per backend and retries a
    failed reading."""
    settings = neo4j_settings.model_copy(update={"embedder": "fake"})
    untyped, typed = f"{graph_name}_u", f"{graph_name}_t"
    kb = tmp_path / "kb.txt"
    kb.write_text(_untyped_triples(), encoding="utf-8")
    try:
        loaded = cli(settings, "ingest", str(kb), "--graph", untyped, "--root", str(tmp_path))
        assert loaded.exit_code == 0, loaded.output
        asyncio.run(with_store(settings, lambda st: prepare_graph(st, DATA, typed, FakeEmbedder())))
        asyncio.run(with_store(settings, lambda st: reads_the_walked_graphs_types(st, untyped, typed, monkeypatch)))
        more = tmp_path / "more.txt"
        more.write_text("".join(f"Person {i}|lives_in|City {i % 6}\n" for i in range(6)), encoding="utf-8")
        loaded = cli(settings, "ingest", str(more), "--graph", untyped, "--root", str(tmp_path))
        assert loaded.exit_code == 0, loaded.output
        asyncio.run(with_store(settings, lambda st: infers_them_again_after_a_change(st, untyped)))
    finally:
        for graph in (untyped, typed):
            asyncio.run(with_store(settings, lambda st, g=graph: drop_graph(st, g)))
    assert asyncio.run(with_store(settings, lambda st: stored_role_types(st, untyped))) == []  # dropped with it


async def stored_role_types(store: GraphStore, graph: str) -> list[dict[str, Any]]:
    return await store.query(
        "MATCH (t:GwRoleTypes {graph: $graph}) RETURN t.entities AS entities, t.relationships AS relationships",
        {"graph": graph},
        read=True,
    )


async def reads_the_walked_graphs_types(
    store: GraphStore, untyped: str, typed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert await role_types_note(store, untyped) == (
        "no node types: a learned model not trained on it infers them from its structure on its first walk"
    )
    found = await graph_role_types(store, untyped, await load_profile(store, untyped))
    assert found.role_types["born_in|object"] == "city"
    names = sorted(set(found.role_types.values()))
    assert await role_types_note(store, untyped) == (
        f"no node types: {len(names)} read from its structure ({', '.join(names)})"
    )
    assert await role_types_note(store, typed) is None
    checks = {c.name: c for c in await decider_checks(store, store.settings, most=100_000)}
    assert checks[f"decider:{untyped}"].detail.endswith(
        f"; no node types: {len(names)} read from its structure ({', '.join(names)})"
    )
    assert "node types" not in checks[f"decider:{typed}"].detail
    assert found.role_types["born_in|subject"] == found.role_types["works_at|subject"]  # the people
    assert found.links["city"] == sorted([found.role_types["born_in|subject"], found.role_types["city_in|object"]])
    assert await stored_role_types(store, untyped) == [{"entities": 44, "relationships": 72}]
    assert await graph_role_types(store, typed, await load_profile(store, typed)) == GraphRoleTypes()
    assert await stored_role_types(store, typed) == []  # a graph with its own types is neither read nor marked

    def unread(*_: Any, **__: Any) -> None:
        raise AssertionError("the graph was read again")

    async def refused(*_: Any, **__: Any) -> None:
        raise QueryError("Neo.ClientError.Security.Forbidden: write operations are not allowed")

    with monkeypatch.context() as patch:
        patch.setattr(role_types_module, "read_graph", unread)
        assert await graph_role_types(store, untyped, await load_profile(store, untyped)) == found  # stored
    version = "MATCH (t:GwRoleTypes {graph: $graph}) RETURN t.version AS v"
    older = "MATCH (t:GwRoleTypes {graph: $graph}) SET t.version = $version - 1 RETURN t.version AS v"
    await store.query(older, {"graph": untyped, "version": ROLE_TYPES_VERSION})
    with monkeypatch.context() as patch:  # a user who may only read: inferred all the same, nothing stored
        patch.setattr(store, "write", refused)
        assert await graph_role_types(store, untyped, await load_profile(store, untyped)) == found
    assert await store.query(version, {"graph": untyped}) == [{"v": ROLE_TYPES_VERSION - 1}]
    assert await graph_role_types(store, untyped, await load_profile(store, untyped)) == found  # inferred again
    assert await store.query(version, {"graph": untyped}) == [{"v": ROLE_TYPES_VERSION}]  # the older replaced

    whole = await read_graph(store, untyped)
    part = await read_graph(store, untyped, page=10, max_nodes=10)  # one page of 10 nodes, then no more
    assert len({s for s, moves in whole.adjacent.items() if moves}) == 44
    assert 10 <= len(part.adjacent) < 44

    trained = learned_decider({"graph": untyped, "role_types": {"x|object": "y"}})
    other = learned_decider({"graph": typed, "role_types": {"x|object": "y"}, "type_links": {"y": ["z"]}})
    service = WalkService(store, untyped, other)
    walked = await service.graph_backend(other)
    assert isinstance(walked, LearnedDecider)
    assert walked is not other
    assert (walked.role_types, walked.type_links) == (found.role_types, found.links)
    assert walked.name_unnamed  # the walked graph's `item`, which this model never saw, read as the asked noun
    assert not other.name_unnamed
    assert walked.members is other.members  # the same model, with this graph's types
    assert walked.cache is other.cache
    assert (other.role_types, other.type_links) == ({"x|object": "y"}, {"y": ["z"]})  # the model is unchanged
    knows_items = learned_decider({"graph": typed, "role_types": {"x|subject": "item"}})
    walked_too = await service.graph_backend(knows_items)
    assert isinstance(walked_too, LearnedDecider)
    assert not walked_too.name_unnamed  # its own graph's `item`: learned as such
    stand_ins = {"graph": typed, "role_types": {"x|subject": "item"}, "unnamed_as_asked": True}
    learned_as_asked = learned_decider(stand_ins)
    assert learned_as_asked.name_unnamed  # its questions called its `item` by stand-in nouns
    walked_stand_ins = await service.graph_backend(learned_as_asked)
    assert isinstance(walked_stand_ins, LearnedDecider)
    assert walked_stand_ins.name_unnamed  # and it reads another graph's so too
    assert await service.graph_backend(other) is walked  # once per backend
    assert await service.graph_backend(trained) is trained  # a graph the model was trained on: its own reading
    on_typed = await WalkService(store, typed, trained).graph_backend(trained)
    assert on_typed is trained  # a graph with types of its own: the model as it is, its type links kept

    failing = FailsOnce()
    with pytest.raises(RuntimeError, match="reading failed"):
        await service.graph_backend(failing)
    assert await service.graph_backend(failing) is failing  # tried again, not the first failure kept
    assert failing.calls == 2


async def infers_them_again_after_a_change(store: GraphStore, untyped: str) -> None:
    found = await graph_role_types(store, untyped, await load_profile(store, untyped))
    assert found.role_types["lives_in|object"] == "city"  # the relation the second file brought
    assert await stored_role_types(store, untyped) == [{"entities": 44, "relationships": 78}]


def learned_decider(config: dict[str, Any]) -> LearnedDecider:
    z = np.zeros((1, 1), dtype=np.float32)
    weights = Weights(tok=z, typ=z, pos=np.zeros((3, 1, 1), dtype=np.float32), w1=z, b1=z[0], w2=z[0], b2=z[0, 0])
    return LearnedDecider(
        weights, Vocab(tokens=["<pad>", "<unk>", "STOP"], types=["<unk>"]), FakeEmbedder(8), config=config
    )


class FailsOnce(FakeBackend):
    """A backend that reads the graph it walks (``GraphReadingBackend``), failing the first time."""

    def __init__(self) -> None:
        super().__init__(record=False)
        self.calls = 0

    async def for_graph(self, store: GraphStore, graph: str, profile: GraphProfile) -> FakeBackend:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("reading failed")
        return self
