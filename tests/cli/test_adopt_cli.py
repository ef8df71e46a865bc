"""`gw-neo4j adopt` / `embed` / `walk` / `search` / `walks show` / `adopt --undo` on a user's own graph (the
Movies-like fixture) in the real Neo4j: the three commands of docs/adopt.md, bad input, and undo."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from click.testing import CliRunner, Result

from graphwalk_neo4j.cli import main
from tests.integration.movies_fixture import checksum, create_movies, drop_movies

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore


async def invoke(args: list[str], env: dict[str, str]) -> Result:
    """The command in a thread: it runs its own event loop, as it does from a shell."""
    return await asyncio.to_thread(CliRunner().invoke, main, args, env=env)


async def test_adopt_embed_walk_and_undo_from_the_command_line(
    store: GraphStore, graph_name: str, neo4j_settings: Settings
) -> None:
    env = {"GW_NEO4J_URI": neo4j_settings.uri}
    g = await create_movies(store, graph_name)
    try:
        before = await checksum(store, g)
        scope = ["--graph", graph_name, "--labels", ",".join(g.labels)] + [
            arg for label, word in g.types.items() for arg in ("--type", f"{label}={word}")
        ]
        dry = await invoke(["adopt", *scope, "--dry-run", "--json"], env)
        assert dry.exit_code == 0, dry.output
        plan: dict[str, Any] = json.loads(dry.stdout)
        assert plan["plan"]["scanned"] == 23
        assert plan["profile"]["labels"][0]["name_props"] == ["name"]
        assert await checksum(store, g) == before
        unconfirmed = await invoke(["adopt", *scope], env)
        assert unconfirmed.exit_code == 2
        assert "Add --yes to confirm" in unconfirmed.output
        assert await checksum(store, g) == before
        bad = await invoke(["adopt", "--graph", graph_name, "--labels", "NoSuchLabel", "--yes"], env)
        assert bad.exit_code == 2
        assert "label 'NoSuchLabel' has no nodes" in bad.output
        bad_name = await invoke(["adopt", *scope, "--name", "Person", "--yes"], env)
        assert bad_name.exit_code == 2
        assert "is not LABEL=prop" in bad_name.output

        adopted = await invoke(["adopt", *scope, "--yes", "--json"], env)
        assert adopted.exit_code == 0, adopted.output
        assert json.loads(adopted.stdout)["report"]["marked"] == 23
        table = await invoke(["adopt", *scope, "--dry-run"], env)
        assert "ACTED_IN" in table.stdout
        assert "acted in" in table.stdout
        assert "roles" in table.stdout
        assert "would mark 0 of 23 nodes (23 already up to date" in table.stdout
        embedded = await invoke(["embed", "--graph", graph_name, "--json"], env)
        assert embedded.exit_code == 0, embedded.output
        assert json.loads(embedded.stdout)["embedded"] == 23
        found = await invoke(["search", "The Matrix", "--graph", graph_name, "--no-vector", "--json"], env)
        assert json.loads(found.stdout)["hits"][0]["name"] == "The Matrix"
        walked = await invoke(
            ["walk", "when was Keanu Reeves born", "--graph", graph_name, "--model", "local", "--json"], env
        )
        assert walked.exit_code == 0, walked.output
        bundle = json.loads(walked.stdout)
        assert (bundle["answers"][0]["name"], bundle["answers"][0]["value"]) == ("1964", 1964)
        shown = await invoke(["walks", "show", bundle["walk_id"], "--graph", graph_name], env)
        assert shown.exit_code == 0, shown.output
        assert "1964" in shown.stdout
        assert "born" in shown.stdout
        directed = await invoke(
            [
                "walk",
                "who directed The Matrix",
                "--graph",
                graph_name,
                "--model",
                "local",
                "--hop-mode",
                "relation",
                "--json",
            ],
            env,
        )
        assert sorted(a["name"] for a in json.loads(directed.stdout)["answers"]) == [
            "Lana Wachowski",
            "Lilly Wachowski",
        ]

        undone = await invoke(["adopt", "--graph", graph_name, "--undo", "--yes", "--json"], env)
        assert undone.exit_code == 0, undone.output
        assert json.loads(undone.stdout)["released"] == 23
        assert await checksum(store, g) == before
    finally:
        await invoke(["adopt", "--graph", graph_name, "--undo", "--yes"], env)
        await drop_movies(store, g)
