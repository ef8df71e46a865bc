"""MCP through the SDK's own client: over streamable HTTP at /mcp of the real service, and over stdio against a
real `gw-neo4j mcp` subprocess; both against the real Neo4j."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import TextContent, TextResourceContents

from graphwalk_neo4j.store import GraphStore
from tests.service.conftest import ServedApp, drop, service_settings
from tests.service.test_shutdown import fake_service_env

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {
    "walk",
    "ingest",
    "walk_options",
    "draw_walk",
    "search",
    "get_walk",
    "list_walks",
    "list_graphs",
    "graph_schema",
}


def text_of(item: object) -> str:
    """The text of a tool result's content item or of a read resource."""
    assert isinstance(item, TextContent | TextResourceContents), item
    return item.text


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        data: dict[str, Any] = result.structured_content
        return data.get("result", data) if set(data) == {"result"} else data
    parsed: dict[str, Any] = json.loads(text_of(result.content[0]))
    return parsed


async def exercise(client: Client, graph: str) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) >= TOOLS
    assert "question" in tools["walk"].input_schema["properties"]
    walked = structured(
        await client.call_tool("walk", {"question": "who directed Memento", "graph": graph, "preset": "relation"})
    )
    assert walked["graph"] == graph
    assert walked["status"] in {"ok", "budget"}
    assert walked["bundle"]["linking"]["start"] == ["Memento"]
    walk_id = walked["walk_id"]
    shown = structured(await client.call_tool("get_walk", {"walk_id": walk_id, "graph": graph}))
    assert shown["walk"]["id"] == walk_id
    assert shown["walk"]["status"] == walked["status"]
    listed = structured(await client.call_tool("list_walks", {"graph": graph}))
    assert walk_id in [w["id"] for w in listed["walks"]]
    found = structured(await client.call_tool("search", {"text": "Christopher Nolan", "graph": graph, "limit": 2}))
    assert found["hits"][0]["name"] == "Christopher Nolan"
    listed_graphs = structured(await client.call_tool("list_graphs", {}))
    assert graph in [g["graph"] for g in listed_graphs["graphs"]]
    schema = structured(await client.call_tool("graph_schema", {"graph": graph}))
    assert {r["relation"]: r["count"] for r in schema["relation_types"]} == {
        "directed_by": 2,
        "starred_actors": 2,
        "release_year": 2,
    }
    # a project error comes back as a tool error with the CLI's message
    missing = await client.call_tool("get_walk", {"walk_id": "nope", "graph": graph})
    assert missing.is_error
    assert f"no stored walk 'nope' in graph {graph!r}" in text_of(missing.content[0])
    bad = await client.call_tool("walk", {"question": "q", "graph": graph, "preset": "nope"})
    assert bad.is_error
    assert "unknown walk preset 'nope'" in text_of(bad.content[0])
    # the walk's limits are the same as the other doors': in the tool's schema, and named when passed
    assert tools["walk"].input_schema["properties"]["question"]["maxLength"] == 2000
    wide = await client.call_tool("walk", {"question": "q", "graph": graph, "config": {"beam_width": 65}})
    assert wide.is_error
    assert "invalid walk options: beam_width=65 is over its limit 64" in text_of(wide.content[0])
    # stored walks are resources
    templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
    assert {"walk://{graph}/{walk_id}", "walks://{graph}"} <= templates
    read = await client.read_resource(f"walk://{graph}/{walk_id}")
    assert json.loads(text_of(read.contents[0]))["walk"]["id"] == walk_id
    recent = await client.read_resource(f"walks://{graph}")
    assert walk_id in [w["id"] for w in json.loads(text_of(recent.contents[0]))["walks"]]


async def test_mcp_over_streamable_http(served: ServedApp, movie_graph: str) -> None:
    async with Client(f"{served.url}/mcp") as client:
        await exercise(client, movie_graph)


async def test_mcp_over_stdio(neo4j_settings: Settings, movie_graph: str) -> None:
    env = fake_service_env(neo4j_settings, movie_graph)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "graphwalk_neo4j.cli", "mcp"], env=env, cwd=str(ROOT)
    )
    async with Client(params) as client:
        await exercise(client, movie_graph)


async def test_walk_reports_progress_and_the_stored_walk_explains_and_draws_itself(
    served: ServedApp, movie_graph: str, neo4j_settings: Settings
) -> None:
    heard: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, total, message))

    async with Client(f"{served.url}/mcp") as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert {"walk_options", "draw_walk"} <= tools
        args = {"question": "who directed Memento", "graph": movie_graph, "preset": "relation"}
        walked = structured(await client.call_tool("walk", args, progress_callback=on_progress))
        walk_id = walked["walk_id"]
        explained = structured(await client.call_tool("walk_options", {"walk_id": walk_id, "graph": movie_graph}))
        drawn = structured(await client.call_tool("draw_walk", {"walk_id": walk_id, "graph": movie_graph}))
        hostile = await client.call_tool("draw_walk", {"walk_id": "x' OR true //", "graph": movie_graph})
    assert (explained["walk_id"], explained["question"]) == (walk_id, "who directed Memento")
    assert explained["answers"] == [a["name"] for a in walked["answers"]]
    depths = explained["depths"]
    assert [d["depth"] for d in depths] == list(range(1, walked["bundle"]["hops"] + 1))
    # one notification per depth, in order, out of the relation preset's max_depth, naming the move taken
    assert [(value, total) for value, total, _ in heard] == [(d["depth"], 4) for d in depths]
    for (_, _, message), depth in zip(heard, depths, strict=True):
        [step] = depth["steps"]
        [taken] = [o for o in step["options"] if o["chosen"]]
        assert taken["label"] == step["chosen"]
        arrow = "←" if taken["direction"] == "in" else "→"
        move = "STOP" if taken["text"] == "STOP" else f"{taken['relation']} {arrow}"
        assert message is not None
        chance = f" (p {step['p']:.2f})" if step["p"] is not None else ""  # a forced move has no probability
        assert message.startswith(f"depth {depth['depth']}: {move}{chance}; answers so far: ")
        probabilities = [o["p"] for o in step["options"]]
        if step["kind"] == "decision":
            assert probabilities == sorted(probabilities, reverse=True)  # most likely first
            assert abs(sum(probabilities) - 1) < 1e-6
        else:  # a forced step asked no one
            assert set(probabilities) == {None}, step
    # the drawing is one statement with the id as a literal; run as pasted, it draws this walk
    assert drawn["cypher"].count(f"'{walk_id}'") >= 1
    assert "$walkId" not in drawn["cypher"]
    async with GraphStore(neo4j_settings) as store:
        [row] = await store.query(drawn["cypher"], {}, read=True)
    assert row["walk"]["id"] == walk_id
    assert row["answers"] == explained["answers"]
    assert hostile.is_error
    assert 'no stored walk "x\' OR true //"' in text_of(hostile.content[0])


async def test_ingest_tool_runs_the_service_job_and_refuses_options_of_other_pipelines(
    neo4j_settings: Settings, graph_name: str
) -> None:
    """The MCP `ingest` tool is POST /v1/ingest waited for: the same composition, the same refusals, a progress
    notification per committed batch."""
    app = ServedApp(service_settings(neo4j_settings, "")).start()
    heard: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, total, message))

    kb = "Heat|directed_by|Michael Mann\nHeat|starred_actors|Al Pacino\nCollateral|directed_by|Michael Mann\n"
    try:
        async with Client(f"{app.url}/mcp") as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert "ingest" in tools
            refused = await client.call_tool(
                "ingest", {"graph": graph_name, "files": [{"name": "kb.txt", "content": kb}], "db_schema": "public"}
            )
            assert refused.is_error
            assert text_of(refused.content[0]).endswith(
                ": db_schema does not apply to structured files (triples, CSV, JSON lines): it is for a database "
                "URL; leave it out"
            )
            done = structured(
                await client.call_tool(
                    "ingest",
                    {"graph": graph_name, "files": [{"name": "kb.txt", "content": kb}], "batch_size": 2},
                    progress_callback=on_progress,
                )
            )
            failed = await client.call_tool(
                "ingest", {"graph": graph_name, "files": [{"name": "bad.txt", "content": "a|b|c\nbroken\n"}]}
            )
        assert (done["kind"], done["status"]) == ("structured", "done")
        [file] = done["result"]["files"]
        assert (file["path"], file["status"], file["rows"]) == ("kb.txt", "loaded", 3)
        assert heard == [(2, 3, "kb.txt"), (3, 3, "kb.txt")]  # one per committed batch of 2 rows
        assert failed.is_error
        assert ": ingest failed: bad.txt:2: " in text_of(failed.content[0])
    finally:
        app.stop()
        await drop(neo4j_settings, graph_name)
