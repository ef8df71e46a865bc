"""``gw-neo4j ingest`` dispatching to text and SQL ingest (the structured path keeps working alongside)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner, Result

from graphwalk_neo4j.cli import main
from tests.integration.text_ingest_support import DOCS, MODEL, SAME_AS, entities

if TYPE_CHECKING:
    from pathlib import Path

    from tests.standins.extraction import ExtractionStandIn

pytestmark = pytest.mark.neo4j


async def gw(standin: ExtractionStandIn, *args: str, **env: str) -> Result:
    environment = {
        "GW_NEO4J_LLM_API_BASE": standin.api_base,
        "GW_NEO4J_LLM_API_KEY": "sk-test",
        "GW_NEO4J_MODEL": "",
        "TYPESAFE_API_KEY": "",
        "OPENROUTER_API_KEY": "",
        **env,
    }
    return await asyncio.to_thread(CliRunner().invoke, main, list(args), env=environment, catch_exceptions=False)


def reader(payload: dict[str, Any]) -> dict[str, float]:
    """The adjudicating LLM picks the option named like the mention (or one of its other names)."""
    mention = payload["task"]["mention"]["name"].casefold()
    wanted = SAME_AS.get(mention, mention)
    labels = [o["label"] for o in payload["options"]]
    chosen = next(
        (
            o["label"]
            for o in payload["options"]
            if o["label"] != "NEW" and o["description"]["name"].casefold() == wanted
        ),
        "NEW",
    )
    return {label: 1.0 if label == chosen else 0.0 for label in labels}


async def test_cli_text_ingest(store: Any, graph_name: str, standin: ExtractionStandIn) -> None:
    result = await gw(
        standin, "ingest", str(DOCS), "--graph", graph_name, "--llm-model", MODEL, "--routing", "exact", "--json"
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [d["status"] for d in report["documents"]] == ["loaded"] * 5
    assert report["ok"]
    assert report["routing"]["decision_calls"] == 0
    assert set(report["timings"]) == {
        "plan",
        "extraction_wait",
        "routing",
        "apply",
    }
    assert len(await entities(store, graph_name)) == 14

    again = await gw(standin, "ingest", str(DOCS), "--graph", graph_name, "--llm-model", MODEL, "--routing", "exact")
    assert again.exit_code == 0
    assert "unchanged" in again.stdout
    assert "documents/s" in again.stdout


async def test_cli_adjudication_through_litellm(store: Any, graph_name: str, standin: ExtractionStandIn) -> None:
    """The fake decision model answers with seeded random distributions; those below p = 0.6 go to the LLM."""
    standin.decide = reader
    result = await gw(
        standin, "ingest", str(DOCS), "--graph", graph_name, "--llm-model", MODEL, "--decision-model", "fake", "--json"
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    decisions = [r for r in standin.requests if "decision model" in r["messages"][0]["content"]]
    assert report["routing"]["escalations"] > 0
    assert decisions
    graph = await entities(store, graph_name)
    assert set(graph) >= {"Harrow Point Lighthouse", "Marta Quill", "Tobias Renn"}


async def test_cli_text_errors(store: Any, graph_name: str, standin: ExtractionStandIn, tmp_path: Path) -> None:
    result = await gw(standin, "ingest", str(DOCS), "--graph", graph_name)
    assert result.exit_code == 2
    assert "needs an extraction model" in result.stderr
    (tmp_path / "blob.md").write_bytes(b"\x00\x01\x02")
    result = await gw(standin, "ingest", str(tmp_path / "blob.md"), "--graph", graph_name, "--llm-model", MODEL)
    assert result.exit_code == 1
    assert "blob.md: rejected: looks like a binary file" in result.stderr


async def test_cli_sqlite_and_structured(
    store: Any, graph_name: str, standin: ExtractionStandIn, tmp_path: Path
) -> None:
    db = tmp_path / "tiny.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(
            "CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT);INSERT INTO cities VALUES (1, 'Saltmere');"
        )
    result = await gw(standin, "ingest", f"sqlite:///{db}", "--graph", graph_name, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["tables"][0] | {"seconds": 0} == {
        "table": "cities",
        "document": f"{graph_name}|sql:tiny.db|cities",
        "status": "loaded",
        "rows": 1,
        "batches": 1,
        "seconds": 0,
        "counts": {
            "nodes_created": 1,
            "nodes_updated": 0,
            "nodes_unchanged": 0,
            "rels_created": 0,
            "rels_updated": 0,
            "rels_unchanged": 0,
            "conflicts": 0,
        },
    }
    triples = tmp_path / "kb.txt"
    triples.write_text("Gannet|built_by|Quill & Daughters\n", encoding="utf-8")
    result = await gw(standin, "ingest", str(triples), "--graph", graph_name, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["files"][0]["rows"] == 1
    assert set(await entities(store, graph_name)) == {"Saltmere", "Gannet", "Quill & Daughters"}
