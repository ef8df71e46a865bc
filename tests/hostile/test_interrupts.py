"""Ctrl-C and SIGTERM against real processes, stopped at pause points (no sleeps): a walk is stored as
``interrupted``, an ingest says what it committed and a re-run resumes."""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.ingest.structured import ingest_file
from tests.hostile.procs import start_paused

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

KB = "".join(f"Film {i}|directed_by|Director {i % 7}\n" for i in range(50))


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
async def test_an_interrupted_walk_is_stored_as_interrupted(
    store: GraphStore, graph_name: str, neo4j_settings: Settings, tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB)
    await ingest_file(store, kb, graph=graph_name)
    paused = await start_paused(
        neo4j_settings,
        [
            "walk",
            "who directed Film 3",
            "--graph",
            graph_name,
            "--start",
            "Film 3",
            "--model",
            "fake",
            "--hop-mode",
            "relation",
        ],
        "walk.depth",
    )
    paused.proc.send_signal(sig)
    returncode, _, stderr = await paused.finish()
    assert returncode == code, stderr
    assert "interrupted" in stderr
    assert "Traceback" not in stderr
    walks = await store.query(
        "MATCH (w:Walk {graph: $g}) RETURN w.status AS status, w.stop_reason AS reason", {"g": graph_name}
    )
    assert len(walks) == 1
    assert walks[0]["status"] == "interrupted"
    assert walks[0]["reason"].startswith("interrupted")


async def test_ctrl_c_during_ingest_says_what_was_committed_and_resumes(
    store: GraphStore, graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    first = tmp_path / "first.txt"
    first.write_text("A|rel|B\n")
    kb = tmp_path / "kb.txt"
    kb.write_text(KB)
    paused = await start_paused(
        neo4j_settings, ["ingest", str(first), str(kb), "--graph", graph_name, "--batch-size", "10"], "ingest.batch@3"
    )  # first.txt's 1 + 2
    paused.proc.send_signal(signal.SIGINT)
    returncode, _, stderr = await paused.finish()
    assert returncode == 130, stderr
    assert "interrupted: committed before the interruption:" in stderr
    assert f"{first} (loaded, 1 rows)" in stderr
    assert f"{kb}: 20 of 50 rows, in whole batches" in stderr
    assert "Run the same command again to resume" in stderr
    counts = (await store.read("graph/counts", graph=graph_name))[0]
    assert counts["relationships"] == 1 + 20
    again = await ingest_file(store, kb, graph=graph_name, batch_size=10)
    assert again.status == "resumed"
    assert again.resumed_from_batch == 2
    assert again.batches == 3
    counts = (await store.read("graph/counts", graph=graph_name))[0]
    assert counts == {"entities": 2 + 50 + 7, "relationships": 51}
