"""`gw-neo4j walk`'s options become the walk configuration (pure: no Neo4j is reached)."""

from __future__ import annotations

from click.testing import CliRunner

from graphwalk_neo4j.admission import walk_call
from graphwalk_neo4j.cli import main
from graphwalk_neo4j.cli.walk import walk_options


def test_exclude_overrides_the_preset_rule() -> None:
    assert walk_call("q", preset="relation", options=walk_options({})).config.exclude_scope == "visited"
    options = walk_options({}, max_depth=3, exclude_scope="start", beam_width=None)
    assert options == {"max_depth": 3, "exclude_scope": "start"}
    start = walk_call("q", preset="relation", options=options).config
    assert start.exclude_scope == "start"
    assert start.hop_mode == "relation"
    assert start.budget.max_depth == 3


def test_set_options_reach_the_config_and_flags_win() -> None:
    result = CliRunner().invoke(main, ["walk", "q", "--set", "max_frontier=99999"])
    assert result.exit_code == 2
    assert "invalid walk options: max_frontier=99999 is over its limit 10000" in result.output
    bad = CliRunner().invoke(main, ["walk", "q", "--set", "max_frontier"])
    assert bad.exit_code == 2
    assert "'max_frontier' is not KEY=VALUE" in bad.output
    options = walk_options({"beam_width": 5, "budget": {"max_nodes_read": 5000}}, beam_width=7)
    assert options == {"beam_width": 7, "budget": {"max_nodes_read": 5000}}
    config = walk_call("q", preset="beam", options=options).config
    assert (config.beam_width, config.budget.max_nodes_read, config.budget.max_depth) == (7, 5000, 4)


def test_an_unknown_exclude_rule_is_refused_before_any_work() -> None:
    result = CliRunner().invoke(main, ["walk", "who directed Memento", "--exclude", "everything"])
    assert result.exit_code == 2
    assert "'everything' is not one of 'visited', 'start'" in result.output
