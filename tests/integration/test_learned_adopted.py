"""Training a learned decider from an adopted graph alone, against the real Neo4j: the Movies-like graph in a
user's own schema (tests/integration/movies_fixture.py) adopted as proposed, then ``decider train --graph G``
with no questions given. The graph is read with the ids, names and kinds its walks use (element ids, adopted
names), every written question is mined along the adopted graph's own moves, and the graph then walks with its
own model by default."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.adopt.apply import adopt_graph, undo_graph
from graphwalk_neo4j.graph.profile import load_profile
from graphwalk_neo4j.learned.graph_questions import read_graph
from tests.integration.movies_fixture import ACTED, DIRECTED, PRODUCED, REVIEWED, WROTE, create_movies, drop_movies
from tests.integration.test_adopt import proposed
from tests.integration.test_learned import cli, with_store

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

pytestmark = pytest.mark.neo4j


def test_an_adopted_graph_trains_its_own_decider_from_its_relation_paths(
    graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    async def adopt(st: GraphStore) -> Any:
        g = await create_movies(st, graph_name)
        await adopt_graph(st, await proposed(st, graph_name, g))
        return g

    movies = asyncio.run(with_store(neo4j_settings, adopt))
    try:
        index, profile = asyncio.run(with_store(neo4j_settings, lambda st: read_adopted(st, graph_name)))
        moves = set(profile.cypher()["moves"])
        # every user relationship of an adopted move type between two adopted nodes, nothing of ours
        expected = sum(n for rel, n in data_relations(movies.distributed) if rel in moves)
        assert index.relationships == expected
        assert "The Matrix" in index.names.values()
        matrix = next(i for i, n in index.names.items() if n == "The Matrix")
        assert matrix.count(":") == 2  # an element id, the id an adopted walk starts from
        directors = index.follow([matrix], ("DIRECTED", "in"), "")
        assert sorted(index.names[d] for d in directors) == ["Lana Wachowski", "Lilly Wachowski"]
        assert index.types[matrix] == "Movie"

        settings = neo4j_settings.model_copy(update={"embedder": "fake"})
        art = tmp_path / "art"
        trained = cli(settings, "decider", "train", "--graph", graph_name, "--out", str(art), "--questions", "100",
                      "--epochs", "5", "--json")  # fmt: skip
        assert trained.exit_code == 0, trained.output
        config = json.loads((art / "config.json").read_text())
        assert config["source"] == "graph"
        written = config["graph_questions"]["written"]
        assert 0 < written <= 100
        # each question was written from a path of the adopted graph, so mining finds a gold path for each
        assert sum(c["with_gold_path"] for c in config["mining_coverage"].values()) == written
        questions = [json.loads(line) for line in (art / "data" / "questions.jsonl").read_text().splitlines()]
        assert all(q["topic_id"].count(":") == 2 for q in questions)

        walked = cli(settings, "walk", "who directed The Matrix", "--graph", graph_name, "--json")
        assert walked.exit_code == 0, walked.output
        assert f"decider: learned:{art.resolve()} (this graph's own model, trained from graph)" in walked.stderr
        out = json.loads(walked.stdout)
        assert out["linking"]["start"] == ["The Matrix"]
        assert out["walk_rule"]["source"] == "model"  # the trained model's own rule
        assert out["answers"]
        assert all(a["id"].count(":") == 2 for a in out["answers"])  # the user's own nodes, by element id
    finally:

        async def clean(st: GraphStore) -> None:
            await undo_graph(st, graph_name)
            await drop_movies(st, movies)

        asyncio.run(with_store(neo4j_settings, clean))


async def read_adopted(st: GraphStore, graph: str) -> Any:
    profile = await load_profile(st, graph)
    assert profile.adopted
    return await read_graph(st, graph, profile=profile), profile


def data_relations(distributed: str) -> list[tuple[str, int]]:
    """The fixture's relationships by type: its tables, the nameless extra's ACTED_IN, two FOLLOWS (one a
    self-loop) and the three Matrix films' distributor."""
    tables: list[tuple[str, list[Any]]] = [
        ("ACTED_IN", ACTED),
        ("DIRECTED", DIRECTED),
        ("PRODUCED", PRODUCED),
        ("WROTE", WROTE),
        ("REVIEWED", REVIEWED),
    ]
    return [(rel, len(rows)) for rel, rows in tables] + [("ACTED_IN", 1), ("FOLLOWS", 2), (distributed, 3)]
