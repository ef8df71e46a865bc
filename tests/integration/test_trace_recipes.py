"""Every Cypher recipe in cypher/recipes/ runs against stored walks and returns exactly the expected rows.

One graph holds six walks written by the real engine through Neo4jTraceSink (see ``walks``): a clean greedy walk,
one whose decider failed, one that could not leave a missing start node, one ending in a forced STOP, one whose
first decision was unsure, and one whose first options were pruned.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from graphwalk_neo4j.store import GraphStore, names, template
from graphwalk_neo4j.stored_walks import StoredWalk, get_walk, replay_snippet
from graphwalk_neo4j.walk.config import WalkConfig
from tests.integration.kismet_walk import CO_STAR, ID, QUESTION, load_kb, run_walk

UNSURE = {
    **CO_STAR,
    "Kismet (Movie)": {"Marlene Dietrich": 0.4, "William Dieterle": 0.3, "Edward Knoblock": 0.2, "1944": 0.1},
}
PRUNED = {"Kismet (Movie)": {"William Dieterle": 0.55, "1944": 0.45}}
FORCED = {"Kismet (Movie)": {"Edward Knoblock": 0.8, "STOP": 0.2}}
RECIPES = [
    "confidence_per_relation",
    "costliest_walks",
    "dead_end_walks",
    "draw_walk",
    "pruned_steps",
    "replay_walk",
    "run_walk",
    "unsure_steps",
    "walk_options",
]


async def walks(store: GraphStore, graph: str, tmp_path: Path) -> dict[str, StoredWalk]:
    """The six walks, in this order (so newest first is the reverse)."""
    await load_kb(store, graph, tmp_path)
    specs: dict[str, dict[str, Any]] = {
        "ok": {},
        "error": {"fail_on": [2]},
        "nowhere": {"start": ["no-such-node"]},
        "forced": {"start": ["William Dieterle"], "script": FORCED},
        "unsure": {"script": UNSURE},
        "pruned": {"script": PRUNED, "config": WalkConfig(hop_mode="entity", max_neighbors=2, prefilter_keep=2)},
    }
    out = {}
    for name, kw in specs.items():
        result = await run_walk(store, graph, walk_id=f"{graph}-{name}", **kw)
        out[name] = await get_walk(store, graph, result.walk_id)
    return out


async def recipe(store: GraphStore, name: str, **params: Any) -> list[dict[str, Any]]:
    tmpl = template(f"recipes/{name}")
    rows = await store.query(tmpl.body, params, read=True)
    for row in rows:
        assert tuple(row) == tmpl.returns, f"{name}: header 'returns:' does not match the columns"
    return rows


def test_the_recipes_are_the_documented_ones() -> None:
    assert names("recipes/") == [f"recipes/{n}" for n in RECIPES]
    docs = (Path(__file__).resolve().parents[2] / "docs" / "cypher-recipes.md").read_text()
    for name in RECIPES:
        tmpl = template(f"recipes/{name}")
        assert f"`{name}`" in docs, name
        assert ":param" in tmpl.text, f"{name}: header must say how to set its params in the Browser"


async def test_replay_walk(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    stored = await walks(store, graph_name, tmp_path)
    wid = stored["ok"].id
    rows = await recipe(store, "replay_walk", walkId=wid)
    assert [(r["depth"], r["beam"], r["kind"], r["kept"], r["chosen"], r["p"]) for r in rows] == [
        (1, "b0", "decision", True, "o1", 0.7),
        (2, "b0", "decision", True, "o1", 0.6),
        (3, "b0", "decision", True, "STOP", 0.9),
    ]
    # the path grows by one NEXT per depth, starting from the walk
    assert [len(r["path"].relationships) for r in rows] == [1, 2, 3]
    assert all(r["path"].start_node["id"] == wid for r in rows)
    assert [r["path"].end_node["id"] for r in rows] == [s.id for s in stored["ok"].steps]
    assert [[p.end_node["name"] for p in r["stood_on"]] for r in rows] == [
        ["Kismet"],
        ["Marlene Dietrich"],
        ["The Blue Angel"],
    ]
    assert [[p.end_node["name"] for p in r["chose"]] for r in rows] == [["Marlene Dietrich"], ["The Blue Angel"], []]
    assert [r["decided_by"].end_node["id"] for r in rows] == [f"{wid}/c{i}" for i in (1, 2, 3)]
    assert all([p.end_node["id"] for p in r["answers"]] == [ID["The Blue Angel"]] for r in rows)
    # a dead end is still drawn (its step has no parent: FIRST_STEP), with nothing to stand on
    [dead] = await recipe(store, "replay_walk", walkId=stored["nowhere"].id)
    assert (dead["kind"], dead["stood_on"], dead["chose"], dead["decided_by"], dead["answers"]) == (
        "dead_end",
        [],
        [],
        None,
        [],
    )
    assert await recipe(store, "replay_walk", walkId="no-such-walk") == []


async def test_replay_walk_draws_every_beam_step(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    await load_kb(store, graph_name, tmp_path)
    result = await run_walk(
        store,
        graph_name,
        walk_id=f"{graph_name}-beam",
        config=WalkConfig(hop_mode="entity", strategy="beam", beam_width=2),
    )
    rows = await recipe(store, "replay_walk", walkId=result.walk_id)
    assert [(r["depth"], r["beam"], r["kept"]) for r in rows] == [
        (1, "b0", True),
        (1, "b0", True),
        (2, "b0", True),
        (2, "b0", True),
        (2, "b1", False),
        (3, "b0", True),
    ]
    assert sorted(r["path"].end_node["id"] for r in rows) == sorted(s.step_id for s in result.steps)


async def test_replay_snippet_is_the_recipe_with_the_param(store: GraphStore, graph_name: str) -> None:
    snippet = replay_snippet("w-1")
    assert snippet.startswith(':param walkId => "w-1"\n\n')
    assert snippet.endswith(template("recipes/draw_walk").body + "\n")


def hops(paths: list[Any]) -> list[tuple[str, str, str, float | None, int]]:
    """(from, type, to, p, depth) of each one-relationship path of virtual hops."""
    out = []
    for path in paths:
        [rel] = path.relationships
        out.append((path.start_node["name"], rel.type, path.end_node["name"], rel.get("p"), rel["depth"]))
    return out


async def test_draw_walk(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    stored = await walks(store, graph_name, tmp_path)
    [row] = await recipe(store, "draw_walk", walkId=stored["ok"].id)
    assert (row["walk"]["id"], row["walk"]["caption"], row["question"], row["status"], row["answers"]) == (
        stored["ok"].id,
        QUESTION,
        QUESTION,
        "ok",
        ["The Blue Angel"],
    )
    # question -> start -> one captioned virtual relationship per hop -> reached -> answers
    assert [(p.start_node["id"], p.end_node["name"]) for p in row["start"]] == [(stored["ok"].id, "Kismet")]
    assert hops(row["hops"]) == [
        ("Kismet", "starred_actors → .70", "Marlene Dietrich", 0.7, 1),
        ("Marlene Dietrich", "starred_actors ← .60", "The Blue Angel", 0.6, 2),
    ]
    assert [(p.end_node["name"], p.relationships[0]["rank"]) for p in row["answered"]] == [("The Blue Angel", 1)]
    # the hops are virtual: nothing of that type exists in the database
    assert (
        await store.query("MATCH ()-[r]->() WHERE type(r) STARTS WITH 'starred_actors ' RETURN r", {}, read=True) == []
    )

    # a forced move says so; an answer reached by a forced STOP is still drawn
    [forced] = await recipe(store, "draw_walk", walkId=stored["forced"].id)
    assert hops(forced["hops"]) == [
        ("William Dieterle", "directed_by ← forced", "Kismet", None, 1),
        ("Kismet", "written_by → .80", "Edward Knoblock", 0.8, 2),
    ]
    assert [p.end_node["name"] for p in forced["answered"]] == ["Edward Knoblock"]
    # a dead end draws the question alone
    [dead] = await recipe(store, "draw_walk", walkId=stored["nowhere"].id)
    assert (dead["status"], dead["start"], dead["hops"], dead["answered"], dead["answers"]) == (
        "dead_end",
        [],
        [],
        [],
        [],
    )
    assert await recipe(store, "draw_walk", walkId="no-such-walk") == []


async def test_draw_walk_leaves_out_beam_cuts(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    await load_kb(store, graph_name, tmp_path)
    result = await run_walk(
        store,
        graph_name,
        walk_id=f"{graph_name}-beam",
        config=WalkConfig(hop_mode="entity", strategy="beam", beam_width=2),
    )
    [row] = await recipe(store, "draw_walk", walkId=result.walk_id)
    # both kept depth-1 moves and the kept depth-2 move; the cut beam b1 at depth 2 is not drawn
    assert hops(row["hops"]) == [
        ("Kismet", "starred_actors → .70", "Marlene Dietrich", 0.7, 1),
        ("Kismet", "directed_by → .20", "William Dieterle", 0.2, 1),
        ("Marlene Dietrich", "starred_actors ← .60", "The Blue Angel", 0.6, 2),
    ]
    cut = [s for s in result.steps if not s.kept]
    assert cut
    assert all(s.depth == 2 and s.beam == "b1" for s in cut)
    assert [p.end_node["name"] for p in row["answered"]] == ["The Blue Angel", "Marlene Dietrich"]


async def test_walk_options(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    stored = await walks(store, graph_name, tmp_path)
    rows = await recipe(store, "walk_options", walkId=stored["ok"].id)
    assert [(r["depth"], r["beam"], r["caption"], r["step"]["caption"]) for r in rows] == [
        (1, "b0", "d1 starred_actors → p .70", "d1 starred_actors → p .70"),
        (2, "b0", "d2 starred_actors ← p .60", "d2 starred_actors ← p .60"),
        (3, "b0", "d3 STOP p .90", "d3 STOP p .90"),
    ]
    offered = [
        [(p.relationships[0].type, p.end_node["name"], p.relationships[0]["p"]) for p in r["offered"]] for r in rows
    ]
    assert offered == [
        [
            ("directed_by → .20", "William Dieterle", 0.2),
            ("release_year → .05", "1944", 0.05),
            ("written_by → .05", "Edward Knoblock", 0.05),
        ],
        [],  # the only other option at Marlene Dietrich was STOP
        [("directed_by → .05", "Josef von Sternberg", 0.05), ("release_year → .05", "1930", 0.05)],
    ]
    assert all(p.start_node["id"] == r["step"]["id"] for r in rows for p in r["offered"])
    assert [[p.end_node["name"] for p in r["stood_on"]] for r in rows] == [
        ["Kismet"],
        ["Marlene Dietrich"],
        ["The Blue Angel"],
    ]
    assert [[p.end_node["name"] for p in r["chose"]] for r in rows] == [["Marlene Dietrich"], ["The Blue Angel"], []]
    assert all(r["pruned"] == [] for r in rows)
    # what the expander dropped comes as virtual :Pruned nodes
    rows = await recipe(store, "walk_options", walkId=stored["pruned"].id)
    assert [
        [(p.relationships[0].type, list(p.end_node.labels), p.end_node["caption"]) for p in r["pruned"]] for r in rows
    ] == [[("PRUNED", ["Pruned"], "starred_actors → 1 pruned"), ("PRUNED", ["Pruned"], "written_by → 1 pruned")], []]
    assert [[(p.relationships[0].type, p.end_node["name"]) for p in r["offered"]] for r in rows] == [
        [("release_year → .45", "1944")],
        [],
    ]


async def test_dead_end_walks(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    await walks(store, graph_name, tmp_path)
    rows = await recipe(store, "dead_end_walks", graph=graph_name)
    assert [
        (r["walk_id"], r["status"], r["dead_ends"], r["forced_stops"], r["stuck_at"], r["answers"]) for r in rows
    ] == [
        (f"{graph_name}-pruned", "ok", 0, 1, ["forced_stop at depth 2: William Dieterle"], ["William Dieterle"]),
        (f"{graph_name}-forced", "ok", 0, 1, ["forced_stop at depth 3: Edward Knoblock"], ["Edward Knoblock"]),
        (f"{graph_name}-nowhere", "dead_end", 1, 0, ["dead_end at depth 1: no-such-node"], []),
    ]
    assert rows[2]["stop_reason"] == "dead_end: no walk could leave its start node"


async def test_confidence_per_relation(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    stored = await walks(store, graph_name, tmp_path)
    rows = await recipe(store, "confidence_per_relation", graph=graph_name)
    assert [(r["relation"], r["direction"], r["decisions"]) for r in rows] == [
        ("starred_actors", "out", 3),  # ok, error and unsure walks leave Kismet for Marlene Dietrich
        ("STOP", "", 2),  # ok and unsure stop at The Blue Angel
        ("starred_actors", "in", 2),
        ("directed_by", "out", 1),  # pruned
        ("written_by", "out", 1),  # forced
    ]
    decided = [s for w in stored.values() for s in w.steps if s.kind == "decision" and s.kept]
    for row in rows:
        group = [
            s
            for s in decided
            if (("STOP", "") if s.is_stop else (s.chosen_relation, s.chosen_direction))
            == (row["relation"], row["direction"])
        ]
        assert row["mean_p"] == pytest.approx(sum(s.p or 0 for s in group) / len(group))
        assert row["mean_confidence"] == pytest.approx(sum(s.confidence or 0 for s in group) / len(group))
        assert row["min_p"] == min(s.p or 0 for s in group)
    assert rows[0]["mean_p"] == pytest.approx(0.6)
    assert rows[0]["min_p"] == 0.4
    assert rows[0]["mean_confidence"] == pytest.approx(((4 * 0.7 - 1) / 3 * 2 + (4 * 0.4 - 1) / 3) / 3)


async def test_costliest_walks(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    await walks(store, graph_name, tmp_path)
    rows = await recipe(store, "costliest_walks", graph=graph_name)
    g = graph_name
    assert [(r["walk_id"], r["tokens"], r["decision_requests"], r["depths"]) for r in rows] == [
        (f"{g}-unsure", 330, 3, 3),  # ties on cost and tokens: newest first
        (f"{g}-ok", 330, 3, 3),
        (f"{g}-pruned", 110, 1, 2),
        (f"{g}-forced", 110, 1, 3),
        (f"{g}-error", 110, 1, 1),
        (f"{g}-nowhere", 0, 0, 1),  # no cost reported: last
    ]
    assert [r["cost_usd"] for r in rows[:5]] == pytest.approx([0.003, 0.003, 0.001, 0.001, 0.001])
    assert rows[5]["cost_usd"] is None
    assert (rows[0]["input_tokens"], rows[0]["output_tokens"], rows[0]["status"]) == (300, 30, "ok")


async def test_unsure_steps(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    stored = await walks(store, graph_name, tmp_path)
    [row] = await recipe(store, "unsure_steps", graph=graph_name)
    assert (row["walk_id"], row["depth"], row["beam"], row["stood_on"], row["chosen"], row["kept"]) == (
        stored["unsure"].id,
        1,
        "b0",
        ["Kismet"],
        "o1",
        True,
    )
    assert row["max_p"] == 0.4
    assert row["chosen_relation"] == "starred_actors"
    # options in offer order (which depends on data degrees only), with the scripted p
    [step] = [s for s in stored["unsure"].steps if s.depth == 1]
    assert row["options"] == [f"{o.label} {o.relation}" for o in step.options]
    assert [o.label for o in step.options] == ["o1", "o2", "o3", "o4"]
    assert sorted(o.relation or "" for o in step.options) == [
        "directed_by",
        "release_year",
        "starred_actors",
        "written_by",
    ]
    wanted = UNSURE["Kismet (Movie)"]
    assert row["probs"] == [wanted[o.target_names[0]] for o in step.options]


async def test_pruned_steps(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    stored = await walks(store, graph_name, tmp_path)
    [row] = await recipe(store, "pruned_steps", graph=graph_name)
    assert row == {
        "walk_id": stored["pruned"].id,
        "question": stored["pruned"].question,
        "depth": 1,
        "beam": "b0",
        "stood_on": ["Kismet"],
        "total_count": 4,
        "offered": 2,
        "pruned_count": 2,
        "pruned_share": 0.5,
        "chosen_relation": "directed_by",
    }
    [step] = [s for s in stored["pruned"].steps if s.depth == 1]
    # over the limit, the expander keeps the first options by relation name (no embedder, no similarity)
    assert [o.target_names for o in step.options] == [["William Dieterle"], ["1944"]]
    assert math.isclose(sum(step.probs), 1.0)
