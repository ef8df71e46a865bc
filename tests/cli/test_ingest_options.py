"""``gw-neo4j ingest`` refuses an option the chosen pipeline does not use, with one line naming the option and the
pipeline, before it connects or writes; an option set by its environment variable or left at its default is
never refused. Against the real Neo4j, so "nothing written" is the ledger's word."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner, Result

from graphwalk_neo4j.cli import main
from graphwalk_neo4j.graph.ledger import list_documents
from graphwalk_neo4j.store import GraphStore

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings

KB = "Heat|directed_by|Michael Mann\nCollateral|directed_by|Michael Mann\n"


def invoke(args: list[str], settings: Settings, **env: str) -> Result:
    return CliRunner().invoke(main, args, env={"GW_NEO4J_URI": settings.uri, "GW_NEO4J_EMBEDDER": "fake", **env})


async def documents(settings: Settings, graph: str) -> list[dict[str, object]]:
    store = GraphStore(settings)
    await store.connect()
    try:
        return await list_documents(store, graph)
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("extra", "line"),
    [
        (
            ["--db-schema", "public"],
            "--db-schema does not apply to structured files (triples, CSV, JSON lines): it is for a database URL",
        ),
        (
            ["--llm-model", "openai/gpt-4o-mini"],
            "--llm-model does not apply to structured files (triples, CSV, JSON lines): it is for text documents",
        ),
        (
            ["--routing", "exact"],
            "--routing does not apply to structured files (triples, CSV, JSON lines): it is for text documents",
        ),
        (
            ["--prune"],
            "--prune does not apply to structured files (triples, CSV, JSON lines): it is for text documents and "
            "databases",
        ),
    ],
)
def test_a_structured_file_refuses_the_options_of_other_pipelines(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path, extra: list[str], line: str
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB, encoding="utf-8")
    result = invoke(["ingest", str(kb), "--graph", graph_name, *extra], neo4j_settings)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [f"error: {line}; leave it out"]
    assert asyncio.run(documents(neo4j_settings, graph_name)) == []


def test_text_documents_refuse_the_options_of_structured_files(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# Heat\nHeat is a film directed by Michael Mann.\n", encoding="utf-8")
    types = tmp_path / "types.json"
    types.write_text(json.dumps({"directed_by": ["Film", "Person"]}), encoding="utf-8")
    for extra, name, used_by in (
        (["--type-map", str(types)], "--type-map", "structured files"),
        (["--on-error", "skip"], "--on-error", "structured files"),
        (["--batch-size", "10"], "--batch-size", "structured files and databases"),
        (["--db-schema", "main"], "--db-schema", "a database URL"),
    ):
        result = invoke(
            ["ingest", str(notes), "--graph", graph_name, "--llm-model", "openai/x", *extra], neo4j_settings
        )
        assert result.exit_code == 2, result.output
        assert result.stderr.strip() == (
            f"error: {name} does not apply to text documents: it is for {used_by}; leave it out"
        )
    assert asyncio.run(documents(neo4j_settings, graph_name)) == []


def test_a_database_url_refuses_the_options_of_files(neo4j_settings: Settings, graph_name: str) -> None:
    for extra, name in ((["--on-error", "skip"], "--on-error"), (["--concurrency", "2"], "--concurrency")):
        result = invoke(["ingest", "sqlite:///nowhere.db", "--graph", graph_name, *extra], neo4j_settings)
        assert result.exit_code == 2, result.output
        assert result.stderr.strip().startswith(f"error: {name} does not apply to a database: it is for ")


def test_defaults_and_environment_values_are_not_refused(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB, encoding="utf-8")
    # GW_NEO4J_LLM_MODEL sets --llm-model from the environment: a setting for text ingest, not a request here
    result = invoke(
        ["ingest", str(kb), "--graph", graph_name, "--json"], neo4j_settings, GW_NEO4J_LLM_MODEL="openai/gpt-4o-mini"
    )
    assert result.exit_code == 0, result.output
    [file] = json.loads(result.stdout)["files"]
    assert (file["status"], file["rows"]) == ("loaded", 2)
    assert len(asyncio.run(documents(neo4j_settings, graph_name))) == 1


@pytest.mark.usefixtures("store")  # the graph is dropped afterwards
def test_the_environment_names_the_extraction_model_of_text_ingest(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path
) -> None:
    # GW_NEO4J_LLM_MODEL is --llm-model's environment variable: text ingest extracts with it (a model litellm has
    # no provider for, so the one call fails at once, offline, and the report names the model it tried)
    notes = tmp_path / "notes.md"
    notes.write_text("# Heat\nHeat is a film directed by Michael Mann.\n", encoding="utf-8")
    result = invoke(
        ["ingest", str(notes), "--graph", graph_name, "--routing", "exact", "--json"],
        neo4j_settings,
        GW_NEO4J_LLM_MODEL="no-such-provider/model",
    )
    assert result.exit_code == 1, result.output  # the document failed; not "needs an extraction model"
    report = json.loads(result.stdout)
    assert report["extraction"]["model"] == "no-such-provider/model"
    assert [d["status"] for d in report["documents"]] == ["incomplete"]
