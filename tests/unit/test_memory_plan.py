"""The local server's Neo4j sizing rule (issue 16): heap RAM/12 in [1 GiB, 8 GiB], page cache 1.5 x store in
[512 MiB, RAM/4]; explicit settings win."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.localserver import LocalServer, memory_plan

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

GIB = 1024**3


def test_memory_plan_follows_the_rule() -> None:
    assert memory_plan(24 * GIB, 0) == ("2048m", "512m")
    assert memory_plan(24 * GIB, 2 * GIB) == ("2048m", "3072m")
    assert memory_plan(24 * GIB, 10 * GIB) == ("2048m", "6144m")  # capped at RAM / 4
    assert memory_plan(4 * GIB, 10 * GIB) == ("1024m", "1024m")  # small machine: the floors
    assert memory_plan(256 * GIB, 100 * GIB) == ("8192m", "65536m")


def test_server_sizes_from_its_store_unless_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GW_NEO4J_HEAP", raising=False)
    monkeypatch.delenv("GW_NEO4J_PAGECACHE", raising=False)
    store = tmp_path / "run" / "data" / "databases" / "neo4j"
    store.mkdir(parents=True)
    (store / "neostore.nodestore.db").write_bytes(b"\0" * 1024)
    server = LocalServer(home=tmp_path)
    assert server.pagecache == "512m"
    assert server.heap.endswith("m")
    assert int(server.heap[:-1]) >= 1024
    assert f"server.memory.pagecache.size={server.pagecache}" in server.conf_text()
    monkeypatch.setenv("GW_NEO4J_HEAP", "3g")
    monkeypatch.setenv("GW_NEO4J_PAGECACHE", "700m")
    told = LocalServer(home=tmp_path)
    assert (told.heap, told.pagecache) == ("3g", "700m")
