"""`gw-neo4j neo4j up|down|status` without a network: bad input and failed downloads are one line, exit code set,
nothing installed. The real download and start (from a fresh virtualenv, outside the clone) is `.ci/pip-route`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from click.testing import CliRunner

from graphwalk_neo4j.cli import main

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import Result


def invoke(args: list[str], home: Path, **env: str) -> Result:
    return CliRunner().invoke(main, ["neo4j", *args], env={"GW_NEO4J_HOME": str(home), "GW_NEO4J_VERSION": "", **env})


def test_an_unlocked_version_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke(["up", "--version", "4.4.0"], tmp_path)
    assert result.exit_code == 2
    assert "'4.4.0' is not one of '2026.09.0', '5.26.5'" in result.output
    assert list(tmp_path.iterdir()) == []


def test_status_of_a_server_that_is_not_there(tmp_path: Path) -> None:
    result = invoke(["status"], tmp_path, GW_NEO4J_BOLT_PORT="7690", GW_NEO4J_HTTP_PORT="7477")
    assert result.exit_code == 1
    state = json.loads(result.stdout)
    assert (state["running"], state["ready"], state["bolt_uri"]) == (False, False, "bolt://127.0.0.1:7690")
    assert state["home"] == str(tmp_path)
    assert invoke(["down"], tmp_path).stdout == "Neo4j is not running\n"


def test_a_failed_download_is_one_line_and_installs_nothing(tmp_path: Path) -> None:
    empty_repository = tmp_path / "central"
    empty_repository.mkdir()
    home = tmp_path / "home"
    result = invoke(["up"], home, GW_NEO4J_MAVEN_REPOSITORY=empty_repository.as_uri())
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert lines[0] == f"fetching Neo4j 5.26.5 + APOC: 246 jars into {home / 'dist'}"
    assert lines[-1].startswith("error: download of file://")
    assert "failed" in lines[-1]
    assert "GW_NEO4J_MAVEN_REPOSITORY" in lines[-1]
    assert not (home / "dist" / ".fetched").exists()
    assert [p for p in (home / "dist").rglob("*.jar")] == []
