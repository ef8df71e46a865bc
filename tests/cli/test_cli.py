"""The command line, end to end against the real Neo4j (a few representative commands)."""

from __future__ import annotations

import json
import socket
from typing import TYPE_CHECKING

from click.testing import CliRunner

from graphwalk_neo4j.cli import main

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings


def invoke(args: list[str], settings: Settings, **env: str):
    runner = CliRunner()
    return runner.invoke(main, args, env={"GW_NEO4J_URI": settings.uri, "GW_NEO4J_EMBEDDER": "fake", **env})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_doctor_reports_a_healthy_local_server(neo4j_settings: Settings) -> None:
    result = invoke(["doctor", "--json"], neo4j_settings)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert report["server_version"].startswith(("5.26.", "2026."))
    assert report["apoc_version"].startswith("5.26.")
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["vector_index"]["ok"] is True
    assert checks["browser"]["ok"] is True
    assert "HTTP 200" in checks["browser"]["detail"]
    assert report["decision"]["kind"] in {"local", "jev", "llm"}


def test_doctor_fails_clearly_when_neo4j_is_down(neo4j_settings: Settings) -> None:
    port = free_port()
    result = invoke(
        ["--uri", f"bolt://127.0.0.1:{port}", "doctor", "--json"],
        neo4j_settings,
        GW_NEO4J_CONNECT_TIMEOUT_S="3",
        GW_NEO4J_HTTP_PORT=str(free_port()),
    )
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    neo = next(c for c in report["checks"] if c["name"] == "neo4j")
    assert neo["ok"] is False
    assert neo["fix"] == "make neo4j-up"
    assert "make neo4j-up" in result.stderr


def test_doctor_fails_clearly_on_a_wrong_password(neo4j_settings: Settings) -> None:
    result = invoke(["doctor"], neo4j_settings, GW_NEO4J_PASSWORD="not-the-password")
    assert result.exit_code == 1
    assert "rejected the credentials" in result.stdout
    assert "GW_NEO4J_PASSWORD" in result.stderr


def test_init_twice_creates_nothing_the_second_time(neo4j_settings: Settings) -> None:
    invoke(["init"], neo4j_settings)
    result = invoke(["init", "--json"], neo4j_settings)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["created"] == 0


def test_ingest_search_and_bad_input(neo4j_settings: Settings, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text("Kismet|directed_by|William Dieterle\n")
    try:
        result = invoke(["ingest", str(kb), "--graph", graph_name, "--json"], neo4j_settings)
        assert result.exit_code == 0, result.output
        files = json.loads(result.stdout)["files"]
        assert files[0]["status"] == "loaded"
        assert files[0]["counts"]["rels_created"] == 1
        result = invoke(["search", "kismet", "--graph", graph_name, "--no-vector", "--json"], neo4j_settings)
        assert json.loads(result.stdout)["hits"][0]["name"] == "Kismet"
        bad = tmp_path / "bad.txt"
        bad.write_text("a|has\x07x|b\n")  # any printable relation name is data; a control character is not
        result = invoke(["ingest", str(bad), "--graph", graph_name], neo4j_settings)
        assert result.exit_code == 2
        assert "bad.txt:1" in result.stderr
        assert "U+0007" in result.stderr
        empty = tmp_path / "empty.txt"
        empty.write_text("")
        result = invoke(["ingest", str(empty), "--graph", graph_name], neo4j_settings)
        assert result.exit_code == 2
        assert "empty" in result.stderr
        result = invoke(["ingest", str(kb), "--graph", "bad graph"], neo4j_settings)
        assert result.exit_code == 2
        assert "graph name" in result.stderr
    finally:
        invoke(["drop-graph", graph_name, "--yes"], neo4j_settings)


def test_graphs_and_schema_list_what_the_service_lists(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text("Kismet|directed_by|William Dieterle\nKismet|starred_actors|Marlene Dietrich\n")
    try:
        assert invoke(["ingest", str(kb), "--graph", graph_name], neo4j_settings).exit_code == 0
        listed = invoke(["graphs", "--json"], neo4j_settings)
        assert listed.exit_code == 0, listed.output
        mine = [g for g in json.loads(listed.stdout)["graphs"] if g["graph"] == graph_name]
        assert mine == [{"graph": graph_name, "entities": 3, "relationships": 2}]
        shown = invoke(["schema", "--graph", graph_name, "--json"], neo4j_settings)
        assert shown.exit_code == 0, shown.output
        schema = json.loads(shown.stdout)
        assert schema["graph"] == graph_name
        assert {r["relation"]: r["count"] for r in schema["relation_types"]} == {"directed_by": 1, "starred_actors": 1}
        table = invoke(["schema", "--graph", graph_name], neo4j_settings)
        assert "starred_actors" in table.stdout
        assert graph_name in invoke(["graphs"], neo4j_settings).stdout
    finally:
        invoke(["drop-graph", graph_name, "--yes"], neo4j_settings)
