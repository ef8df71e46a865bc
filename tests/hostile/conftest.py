"""The standing hostile probe: every test here is marked ``hostile`` (``pytest -m hostile`` runs it alone; the
normal suite and CI run it too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.ingest.structured import ingest_file

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

    from graphwalk_neo4j.store import GraphStore

BYSTANDER_COUNTS = {"entities": 2, "relationships": 1}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/hostile/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.hostile)


@pytest.fixture
async def bystander(store: GraphStore, graph_name: str, tmp_path: Path) -> AsyncIterator[str]:
    """A second graph (``Safe|rel|Sound``, :data:`BYSTANDER_COUNTS`) that hostile input must leave alone."""
    name = f"{graph_name}_bystander"
    other = tmp_path / "bystander.txt"
    other.write_text("Safe|rel|Sound\n")
    await ingest_file(store, other, graph=name, root=tmp_path)
    try:
        yield name
    finally:
        await drop_graph(store, name)
