"""`gw-neo4j walk` end to end: the real Neo4j, the Jev backend through the real typesafe-sdk against the loopback
stand-in, the trace stored and readable, and failures reported as such."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from graphwalk_neo4j.cli import main
from tests.standins.jev_server import JevStandIn

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings

KB = """Memento|directed_by|Christopher Nolan
Inception|directed_by|Christopher Nolan
Inception|starred_actors|Leonardo DiCaprio
Titanic|starred_actors|Leonardo DiCaprio
Titanic|release_year|1997
Memento|release_year|2000
"""


@pytest.fixture
def movie_graph(neo4j_settings: Settings, graph_name: str, tmp_path: Path):
    kb = tmp_path / "kb.txt"
    kb.write_text(KB)
    env = {"GW_NEO4J_URI": neo4j_settings.uri, "GW_NEO4J_EMBEDDER": "fake"}
    runner = CliRunner()
    result = runner.invoke(main, ["ingest", str(kb), "--graph", graph_name, "--embed"], env=env)
    assert result.exit_code == 0, result.output
    yield runner, env
    runner.invoke(main, ["drop-graph", graph_name, "--yes"], env=env)


def test_walk_with_jev_through_the_sdk_is_stored_and_replayable(movie_graph, graph_name: str) -> None:
    runner, env = movie_graph
    with JevStandIn() as standin:
        jev_env = {**env, "TYPESAFE_API_KEY": "test-key", "GW_NEO4J_JEV_BASE_URL": standin.typesafe_base_url}
        result = runner.invoke(
            main,
            [
                "walk",
                "which movies did Christopher Nolan direct",
                "--graph",
                graph_name,
                "--model",
                "jev",
                "--hop-mode",
                "relation",
                "--max-depth",
                "3",
                "--json",
            ],
            env=jev_env,
        )
        assert result.exit_code == 0, result.output
        bundle = json.loads(result.stdout)
        calls = standin.systemone_requests
    assert set(bundle) >= {"goal", "answers", "nodes", "hops", "stopped", "usage", "walk_id", "linking"}
    assert bundle["goal"] == "which movies did Christopher Nolan direct"
    assert bundle["linking"]["start"] == ["Christopher Nolan"]
    assert bundle["linking"]["method"] == "exact"
    assert len(calls) == bundle["usage"]["decision_calls"] >= 1
    assert all(c.body["model"] == "jev-1.13.0" for c in calls)
    assert all(c.authorized for c in calls)
    shown = runner.invoke(main, ["walks", "show", bundle["walk_id"], "--graph", graph_name, "--json"], env=env)
    assert shown.exit_code == 0, shown.output
    stored = json.loads(shown.stdout)["walk"]
    assert stored["id"] == bundle["walk_id"]
    assert stored["question"] == bundle["goal"]
    assert len(stored["calls"]) == len(calls)


def test_walk_output_names_the_replay(movie_graph, graph_name: str) -> None:
    runner, env = movie_graph
    result = runner.invoke(
        main,
        [
            "walk",
            "which movies did Christopher Nolan direct",
            "--graph",
            graph_name,
            "--model",
            "fake",
            "--start",
            "Christopher Nolan",
        ],
        env=env,
    )
    assert result.exit_code == 0, result.output
    walk_id = result.stdout.split("walk id: ", 1)[1].split()[0]
    # one Browser line, not the replay query
    assert f":guide http://localhost:8765/guide/walk/{walk_id}" in result.stdout
    assert ":param walkId" not in result.stdout
    assert "MATCH" not in result.stdout
    assert "start: Christopher Nolan (given)" in result.stdout


def test_linking_failure_is_reported_as_such(movie_graph, graph_name: str) -> None:
    runner, env = movie_graph
    result = runner.invoke(
        main,
        ["walk", "what is the meaning of life", "--graph", graph_name, "--model", "fake", "--start", "Stanley Kubrick"],
        env=env,
    )
    assert result.exit_code == 1
    assert "no_start" in result.stderr
    assert "no entity named or with id 'Stanley Kubrick'" in result.stderr


def test_a_question_that_names_nothing_in_the_graph_does_not_start_anywhere(movie_graph, graph_name: str) -> None:
    """No entity is named, and the nearest hits (1997, Memento: vector index scores 0.68 and 0.66 with the test
    embedder) share no word with the question: no walk starts; the message says how to give a start."""
    runner, env = movie_graph
    question = "what is the airspeed of an unladen swallow"
    result = runner.invoke(main, ["walk", question, "--graph", graph_name, "--model", "fake"], env=env)
    assert result.exit_code == 1, result.output
    assert "no_start" in result.stderr
    assert "search found none that shares a word with it" in result.stderr
    assert "--start NAME" in result.stderr
    found = runner.invoke(main, ["search", question, "--graph", graph_name, "--json"], env=env)
    assert found.exit_code == 0, found.output
    assert '"1997"' in found.stdout  # search still lists it; only a walk's start needs grounding
    typo = runner.invoke(
        main, ["walk", "who directed Mementoo", "--graph", graph_name, "--model", "fake", "--json"], env=env
    )
    assert typo.exit_code == 0, typo.output
    assert json.loads(typo.stdout)["linking"]["start"] == ["Memento"]  # one letter off still links


def test_bad_walk_options_are_usage_errors(movie_graph, graph_name: str) -> None:
    runner, env = movie_graph
    result = runner.invoke(main, ["walk", "q", "--graph", graph_name, "--model", "jev-latest"], env=env)
    assert result.exit_code == 2
    assert "latest" in result.stderr
