"""`gw-neo4j embed --int8` (issue 24): a graph's entities embedded with the int8 export, which the float model then
treats as its own (a plain `embed` afterwards finds every vector up to date), and a one-line refusal with an
embedder that has no int8 export."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from click.testing import CliRunner, Result

from graphwalk_neo4j.cli import main
from graphwalk_neo4j.cli.data import embed
from graphwalk_neo4j.graph.embeddings import WRITE_CHUNK

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

TRIPLES = """Kismet|directed_by|William Dieterle
Kismet|written_by|Edward Knoblock
Kismet|starred_actors|Edward Arnold
Flags of Our Fathers|directed_by|Clint Eastwood
"""


async def invoke(args: list[str], env: dict[str, str]) -> Result:
    return await asyncio.to_thread(CliRunner().invoke, main, args, env=env)


async def test_embed_int8_then_the_float_model_finds_every_vector_current(
    store: GraphStore, graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    env = {"GW_NEO4J_URI": neo4j_settings.uri}
    kb = tmp_path / "kb.txt"
    kb.write_text(TRIPLES, encoding="utf-8")
    loaded = await invoke(["ingest", str(kb), "--graph", graph_name, "--root", str(tmp_path), "--json"], env)
    assert loaded.exit_code == 0, loaded.output
    embedded = await invoke(["embed", "--graph", graph_name, "--int8", "--json"], env)
    assert embedded.exit_code == 0, embedded.output
    report = json.loads(embedded.stdout)
    assert (report["scanned"], report["embedded"], report["skipped"]) == (6, 6, 0)
    again = await invoke(["embed", "--graph", graph_name, "--json"], env)
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["embedded"] == 0  # same model id: the int8 vectors stand for the float model
    rows = await store.query("MATCH (n:Entity {graph: $g}) RETURN size(n.embedding) AS d", {"g": graph_name}, read=True)
    assert [r["d"] for r in rows] == [384] * 6

    refused = await invoke(["embed", "--graph", graph_name, "--int8"], {**env, "GW_NEO4J_EMBEDDER": "fake"})
    assert refused.exit_code == 2
    lines = refused.output.strip().splitlines()
    assert lines == [
        "error: --int8 needs the ONNX MiniLM, not 'fake': unset GW_NEO4J_EMBEDDER (or set it to minilm-onnx)"
    ]


def test_embed_writes_in_chunks_of_the_library_default() -> None:
    batch = next(p for p in embed.params if p.name == "batch_size")
    assert batch.default == WRITE_CHUNK == 2048
