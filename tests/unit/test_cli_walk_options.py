"""`gw-neo4j walk`'s options become the walk configuration (pure: no Neo4j is reached)."""

from __future__ import annotations

from click.testing import CliRunner

from graphwalk_neo4j.cli import main
from graphwalk_neo4j.cli.walk import build_config


def test_exclude_overrides_the_preset_rule() -> None:
    assert build_config("relation", None, None, None, None).exclude_scope == "visited"
    start = build_config("relation", None, None, None, 3, "start")
    assert start.exclude_scope == "start"
    assert start.hop_mode == "relation"
    assert start.budget.max_depth == 3


def test_an_unknown_exclude_rule_is_refused_before_any_work() -> None:
    result = CliRunner().invoke(main, ["walk", "who directed Memento", "--exclude", "everything"])
    assert result.exit_code == 2
    assert "'everything' is not one of 'visited', 'start'" in result.output
