"""The provenance queries of docs/ingest-documents.md, run exactly as written there, on the corpus graph and on a
SQLite table ingested into the same graph."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from graphwalk_neo4j.ingest.sql import ingest_sql
from tests.integration.text_ingest_support import DOCS, H, R, S, ingest
from tests.standins.extraction import ExtractionStandIn

pytestmark = pytest.mark.neo4j

DOC = Path(__file__).resolve().parents[2] / "docs" / "ingest-documents.md"


def doc_queries() -> list[str]:
    return re.findall(r"```cypher\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


async def test_documented_provenance_queries(store: Any, graph_name: str, tmp_path: Path) -> None:
    queries = doc_queries()
    assert len(queries) == 4
    with ExtractionStandIn() as standin:
        await ingest(store, graph_name, standin, [DOCS])
    db = tmp_path / "ships.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(
            "CREATE TABLE vessels (id INTEGER PRIMARY KEY, name TEXT, tons INTEGER);"
            "INSERT INTO vessels VALUES (1, 'Kittiwake', 12);"
        )
    await ingest_sql(store, f"sqlite:///{db}", graph=graph_name)
    entity, relationship, conflicts, audit = queries

    rows = await store.query(entity, {"graph": graph_name, "name": "Tobias Renn"}, read=True)
    assert [(r["source"], r["document"], r["chunk"], r["confidence"]) for r in rows] == [
        ("files", H, 0, 1.0),
        ("files", R, 0, 1.0),
    ]
    assert rows[0]["text"].startswith("The Harrow Point Light stands")
    assert "lamp room glazing" in rows[1]["text"]
    rows = await store.query(entity, {"graph": graph_name, "name": "Kittiwake"}, read=True)
    assert rows == [{"source": "sql:ships.db", "document": "vessels", "chunk": None, "confidence": None, "text": None}]

    rows = await store.query(
        relationship,
        {"graph": graph_name, "from": "Tobias Renn", "type": "designed", "to": "Harrow Point Lighthouse"},
        read=True,
    )
    assert [(r["document"], r["chunk"]) for r in rows] == [(H, 0), (R, 0)]
    assert "designed by the engineer Tobias Renn" in rows[0]["text"]

    rows = await store.query(conflicts, {"graph": graph_name}, read=True)
    assert rows == [
        {"entity": "Harrow Point Lighthouse", "attribute": "completed", "value": 1873, "document": S},
        {"entity": "Harrow Point Lighthouse", "attribute": "completed", "value": 1875, "document": H},
    ]

    assert await store.query(audit, {"graph": graph_name}, read=True) == []
    await store.query(
        "MATCH (n:Entity {graph: $g, name: 'Kestle Quarry'}) SET n.sources = ['nowhere']", {"g": graph_name}
    )
    assert await store.query(audit, {"graph": graph_name}, read=True) == [{"kind": "entity", "name": "Kestle Quarry"}]
