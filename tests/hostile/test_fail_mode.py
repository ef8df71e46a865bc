"""``--on-error fail`` writes nothing when any input is bad, validates the type map up front (naming its file),
and writes exactly the bytes it validated even when the file changes meanwhile."""

from __future__ import annotations

import json
import signal
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from graphwalk_neo4j.cli import main
from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.ledger import drop_graph, list_documents
from graphwalk_neo4j.ingest.structured import ingest_file, ingest_files
from tests.hostile.graphstate import checksum, snapshot
from tests.hostile.procs import run_cli, start_paused

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

GOOD = "".join(f"Film {i}|directed_by|Director {i % 5}\n" for i in range(40))


async def nothing_written(store: GraphStore, graph: str) -> None:
    assert (await store.read("graph/counts", graph=graph))[0] == {"entities": 0, "relationships": 0}
    assert await list_documents(store, graph) == []
    left = await store.query("MATCH (n) WHERE n.graph = $g RETURN count(n) AS n", {"g": graph})
    assert left == [{"n": 0}]


async def test_a_bad_later_file_means_nothing_is_written(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(GOOD)
    bad.write_text(GOOD + "Film X|STARTED_AT|Nobody\n")
    with pytest.raises(InputError, match=r"bad\.txt:41"):
        await ingest_files(store, [good, bad], graph=graph_name, root=tmp_path, batch_size=10)
    await nothing_written(store, graph_name)


def test_a_bad_type_map_label_is_found_before_writing_and_names_the_file(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(GOOD)
    types = tmp_path / "types.json"
    types.write_text(json.dumps({"directed_by": ["Movie", "Walk"]}))
    env = {"GW_NEO4J_URI": neo4j_settings.uri, "GW_NEO4J_EMBEDDER": "fake"}
    result = CliRunner().invoke(main, ["ingest", str(kb), "--graph", graph_name, "--type-map", str(types)], env=env)
    assert result.exit_code == 2
    assert f"{types}: type map entry 'directed_by'" in result.stderr
    assert "entity type label 'Walk' is reserved" in result.stderr
    listed = CliRunner().invoke(main, ["documents", "--graph", graph_name, "--json"], env=env)
    assert json.loads(listed.stdout) == []


async def test_a_bad_type_map_through_the_library_writes_nothing(
    store: GraphStore, graph_name: str, tmp_path: Path
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(GOOD)
    with pytest.raises(InputError, match="type map entry 'directed_by'"):
        await ingest_file(store, kb, graph=graph_name, root=tmp_path, type_map={"directed_by": ("Entity", None)})
    await nothing_written(store, graph_name)


async def test_a_file_changed_after_validation_loads_the_validated_bytes(
    store: GraphStore, graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(GOOD)
    paused = await start_paused(
        neo4j_settings,
        ["ingest", str(kb), "--graph", graph_name, "--root", str(tmp_path), "--batch-size", "10"],
        "ingest.planned",
    )
    kb.write_text("broken line without separators\n" + GOOD.replace("Director", "Someone else"))
    paused.proc.send_signal(signal.SIGUSR1)
    returncode, _, stderr = await paused.finish()
    assert returncode == 0, stderr
    clean = f"{graph_name}_clean"
    original = tmp_path / "original" / "kb.txt"
    original.parent.mkdir()
    original.write_text(GOOD)
    try:
        await ingest_file(store, original, graph=clean, root=tmp_path / "original")
        mine, theirs = await snapshot(store, graph_name), await snapshot(store, clean)
        assert mine["nodes"] == theirs["nodes"]
        assert mine["rels"] == theirs["rels"]
    finally:
        await drop_graph(store, clean)
    # The next run sees the new bytes: validated (and refused) before anything is written.
    with pytest.raises(InputError, match=r"kb\.txt:1"):
        await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert (await store.read("graph/counts", graph=graph_name))[0]["relationships"] == 40


async def test_kill_9_mid_ingest_then_resume_matches_a_clean_load(
    store: GraphStore, graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(GOOD * 3 + "".join(f"Extra {i}|rel|Thing {i}\n" for i in range(30)))
    paused = await start_paused(
        neo4j_settings,
        ["ingest", str(kb), "--graph", graph_name, "--root", str(tmp_path), "--batch-size", "10"],
        "ingest.batch@4",
    )
    paused.proc.send_signal(signal.SIGKILL)
    await paused.finish()
    doc = (await list_documents(store, graph_name))[0]
    assert doc["complete"] is False
    assert (await store.read("graph/counts", graph=graph_name))[0]["relationships"] == 40  # 4 whole batches
    result = await ingest_file(store, kb, graph=graph_name, root=tmp_path, batch_size=10)
    assert result.status == "resumed"
    assert result.resumed_from_batch == 4
    clean = f"{graph_name}_clean"
    try:
        await ingest_file(store, kb, graph=clean, root=tmp_path, batch_size=10)
        assert checksum(await snapshot(store, graph_name)) == checksum(await snapshot(store, clean))
    finally:
        await drop_graph(store, clean)


async def test_kill_9_mid_retraction_then_rerun_leaves_no_trace(
    store: GraphStore, graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    keep, drop = tmp_path / "keep.txt", tmp_path / "drop.txt"
    keep.write_text(GOOD)
    shared = "".join(GOOD.splitlines(keepends=True)[:8])  # also in keep.txt: they stay
    drop.write_text(shared + "".join(f"Only {i}|rel|Here {i}\n" for i in range(25)))
    await ingest_files(store, [keep, drop], graph=graph_name, root=tmp_path)
    paused = await start_paused(neo4j_settings, ["retract", "drop.txt", "--graph", graph_name], "retract.relations")
    paused.proc.send_signal(signal.SIGKILL)
    await paused.finish()
    docs = {d["doc_id"]: d for d in await list_documents(store, graph_name)}
    assert docs["drop.txt"]["status"] == "retracting"
    code, _, stderr = await run_cli(neo4j_settings, ["retract", "drop.txt", "--graph", graph_name])
    assert code == 0, stderr
    clean = f"{graph_name}_clean"
    try:
        await ingest_file(store, keep, graph=clean, root=tmp_path)
        assert checksum(await snapshot(store, graph_name)) == checksum(await snapshot(store, clean))
        assert await store.query(
            "MATCH (n:DocSegment {doc: $d}) RETURN count(n) AS n", {"d": docs["drop.txt"]["key"]}
        ) == [{"n": 0}]
    finally:
        await drop_graph(store, clean)
