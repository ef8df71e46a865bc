"""``gw-neo4j walks list`` / ``walks show`` against walks the real engine stored in the real Neo4j."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner, Result

import neo4j
from graphwalk_neo4j.cli import main
from graphwalk_neo4j.store import GraphStore, template
from tests.integration.kismet_walk import ID, QUESTION, load_kb, run_walk

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings


def invoke(args: list[str], settings: Settings) -> Result:
    return CliRunner().invoke(main, args, env={"GW_NEO4J_URI": settings.uri, "GW_NEO4J_EMBEDDER": "fake"})


@pytest.fixture
async def walks(store: GraphStore, graph_name: str, tmp_path: Path) -> dict[str, str]:
    """Two stored walks in the test graph: ``ok`` (3 depths) and, newer, ``error`` (the decider failed)."""
    await load_kb(store, graph_name, tmp_path)
    ok = await run_walk(store, graph_name, walk_id=f"{graph_name}-ok")
    failed = await run_walk(store, graph_name, walk_id=f"{graph_name}-error", fail_on=[2])
    return {"ok": ok.walk_id, "error": failed.walk_id}


def test_list_json_newest_first_and_by_status(walks: dict[str, str], graph_name: str, neo4j_settings: Settings) -> None:
    result = invoke(["walks", "list", "--graph", graph_name, "--json"], neo4j_settings)
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["id"], r["status"]) for r in rows] == [(walks["error"], "error"), (walks["ok"], "ok")]
    assert rows[1]["answer_names"] == ["The Blue Angel"]
    assert rows[1]["totals"]["depths"] == 3
    assert "steps" not in rows[0]

    result = invoke(
        ["walks", "list", "--graph", graph_name, "--status", "ok", "--limit", "5", "--json"], neo4j_settings
    )
    assert [r["id"] for r in json.loads(result.stdout)] == [walks["ok"]]


def test_list_table_and_empty_graph(walks: dict[str, str], graph_name: str, neo4j_settings: Settings) -> None:
    result = invoke(["walks", "list", "--graph", graph_name], neo4j_settings)
    assert result.exit_code == 0, result.output
    # ids never wrap; the question and answers fold into an 80-column terminal (CliRunner's width)
    for text in (walks["ok"], walks["error"], " ok ", " error ", "Kismet"):
        assert text in result.stdout, text
    assert result.stdout.index(walks["error"]) < result.stdout.index(walks["ok"])
    result = invoke(["walks", "list", "--graph", f"{graph_name}_empty"], neo4j_settings)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "no stored walks in graph" in result.stderr
    result = invoke(["walks", "list", "--status", "finished"], neo4j_settings)
    assert result.exit_code == 2  # not a status


def test_show_json(walks: dict[str, str], graph_name: str, neo4j_settings: Settings) -> None:
    result = invoke(["walks", "show", walks["ok"], "--graph", graph_name, "--json"], neo4j_settings)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    walk = data["walk"]
    assert (walk["id"], walk["status"], walk["question"]) == (walks["ok"], "ok", QUESTION)
    assert [(s["depth"], s["chosen"], s["p"]) for s in walk["steps"]] == [
        (1, "o1", 0.7),
        (2, "o1", 0.6),
        (3, "STOP", 0.9),
    ]
    assert [o["p"] for o in walk["steps"][1]["options"]] == [0.6, 0.4]
    assert [c["id"] for c in walk["calls"]] == [f"{walks['ok']}/c{i}" for i in (1, 2, 3)]
    assert [(a["rank"], a["id"]) for a in walk["answers"]] == [(1, ID["The Blue Angel"])]
    assert walk["totals"]["input_tokens"] == 300
    assert data["replay"]["browser_url"] == neo4j_settings.resolved_browser_url()
    assert data["replay"]["cypher"] == (f':param walkId => "{walks["ok"]}"\n\n{template("recipes/draw_walk").body}\n')
    assert data["replay"]["guide"] == f":guide http://localhost:8765/guide/walk/{walks['ok']}"


def test_show_renders_depths_options_answers_totals_and_replay(
    walks: dict[str, str], graph_name: str, neo4j_settings: Settings
) -> None:
    result = invoke(["walks", "show", walks["ok"], "--graph", graph_name], neo4j_settings)
    assert result.exit_code == 0, result.output
    text = result.stdout
    for expected in (
        f"walk {walks['ok']}",
        "ok",
        QUESTION,
        "start: Kismet",
        "best path: Kismet --starred_actors--> Marlene Dietrich <--starred_actors-- The Blue Angel -> STOP",
        "depth 1",
        "depth 2",
        "depth 3",
        f"call {walks['ok']}/c1",
        "--starred_actors--> Marlene Dietrich",
        "p=0.700",
        "0.700",
        "<--starred_actors-- The Blue Angel",
        "--written_by--> Edward Knoblock",
        "STOP",
        "answers",
        "The Blue Angel",
        "Movie",
        "totals: depths 3",
        "tokens 300 in / 30 out",
        "cost $0.0030",
        neo4j_settings.resolved_browser_url(),
        f":guide http://localhost:8765/guide/walk/{walks['ok']}",
        f"gw-neo4j walks show {walks['ok']} --cypher",
    ):
        assert expected in text, expected
    assert "MATCH" not in text  # one Browser line, not the query
    failed = invoke(["walks", "show", walks["error"], "--graph", graph_name], neo4j_settings)
    assert failed.exit_code == 0
    assert "error" in failed.stdout
    assert "decision_error: scripted failure on call 2" in failed.stdout


def test_show_finds_a_walk_by_id_alone_and_prints_the_cypher(
    walks: dict[str, str], graph_name: str, neo4j_settings: Settings
) -> None:
    result = invoke(["walks", "show", walks["ok"], "--json"], neo4j_settings)
    assert result.exit_code == 0, result.output
    walk = json.loads(result.stdout)["walk"]
    assert (walk["id"], walk["graph"], walk["answer_names"]) == (walks["ok"], graph_name, ["The Blue Angel"])
    assert [s["caption"] for s in walk["steps"]] == [
        "d1 starred_actors → p .70",
        "d2 starred_actors ← p .60",
        "d3 STOP p .90",
    ]
    result = invoke(["walks", "show", walks["ok"], "--cypher"], neo4j_settings)
    assert result.exit_code == 0, result.output
    assert result.stdout == f':param walkId => "{walks["ok"]}"\n\n{template("recipes/draw_walk").body}\n'
    result = invoke(["walks", "show", "no-such-walk"], neo4j_settings)
    assert result.exit_code == 1
    assert "no stored walk 'no-such-walk'; list them with `gw-neo4j walks list --graph GRAPH`" in result.stderr


def cypher(settings: Settings, text: str, **params: Any) -> list[dict[str, Any]]:
    """One statement through the official sync driver (the CLI runs its own event loop, so the test stays sync)."""
    auth = (settings.user, settings.password.get_secret_value())
    with neo4j.GraphDatabase.driver(settings.uri, auth=auth) as driver:
        records, _, _ = driver.execute_query(text, params, database_=settings.database)
    return [r.data() for r in records]


def test_captions_backfill_old_traces(walks: dict[str, str], graph_name: str, neo4j_settings: Settings) -> None:
    def captions() -> list[tuple[Any, ...]]:
        rows = cypher(
            neo4j_settings,
            "MATCH (w:Walk {id: $id})-[:HAS_STEP]->(s:Step) "
            "RETURN w.caption AS walk, s {.caption, .hop, .option_captions} AS step ORDER BY s.depth",
            id=walks["ok"],
        )
        return [(r["walk"], r["step"]["caption"], r["step"]["hop"], r["step"]["option_captions"]) for r in rows]

    written = captions()
    assert written == [
        (
            QUESTION,
            "d1 starred_actors → p .70",
            "starred_actors → .70",
            ["starred_actors → .70", "directed_by → .20", "release_year → .05", "written_by → .05"],
        ),
        (QUESTION, "d2 starred_actors ← p .60", "starred_actors ← .60", ["starred_actors ← .60", "STOP .40"]),
        (QUESTION, "d3 STOP p .90", None, ["directed_by → .05", "release_year → .05", "STOP .90"]),
    ]
    # a trace stored before captions existed: take them off, backfill, get the same back
    cypher(
        neo4j_settings,
        "MATCH (w:Walk {graph: $g}) REMOVE w.caption WITH w MATCH (w)-[:HAS_STEP]->(s) "
        "REMOVE s.caption, s.hop, s.option_captions, s.pruned_captions",
        g=graph_name,
    )
    assert captions()[0][:2] == (None, None)
    result = invoke(["walks", "captions", "--graph", graph_name], neo4j_settings)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "captioned 2 walks and 4 steps"  # ok (3 steps) and error (1 step)
    assert captions() == written
    again = invoke(["walks", "captions", "--graph", graph_name], neo4j_settings)
    assert again.stdout.strip() == "captioned 0 walks and 0 steps"


def test_show_unknown_walk_fails_clearly(walks: dict[str, str], graph_name: str, neo4j_settings: Settings) -> None:
    result = invoke(["walks", "show", "no-such-walk", "--graph", graph_name], neo4j_settings)
    assert result.exit_code == 1
    assert "no stored walk 'no-such-walk'" in result.stderr
    assert f"gw-neo4j walks list --graph {graph_name}" in result.stderr
    # a walk is only found in its own graph
    result = invoke(["walks", "show", walks["ok"], "--graph", f"{graph_name}_other", "--json"], neo4j_settings)
    assert result.exit_code == 1
    assert result.stdout == ""
