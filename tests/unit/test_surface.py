"""One user surface: the walk's arguments, options and result sizes, and every ingest argument and option, have
the same names, defaults and limits in the CLI, HTTP and MCP (an option a door leaves out, or a default it keeps
of its own, has its reason in graphwalk_neo4j.wiring); docs/surface.md and docs/cli.md are what
graphwalk_neo4j.cli.reference writes from the code (run `python -m graphwalk_neo4j.cli.reference` after changing
a command or an option)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, get_args

import click
from click.testing import CliRunner

from graphwalk_neo4j.cli import main
from graphwalk_neo4j.cli.reference import (
    DOOR_ONLY,
    Spelling,
    cli_walk,
    cli_walk_flags,
    door_default,
    http_walk,
    ingest_arguments,
    ingest_doors,
    mcp_walk,
    render_cli,
    render_surface,
    result_sizes,
    walk_arguments,
    walk_options,
)
from graphwalk_neo4j.walk.config import field_range
from graphwalk_neo4j.wiring import CLI_ONLY, OPTIONS, SERVICE_DEFAULTS

if TYPE_CHECKING:
    from collections.abc import Callable

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_walk_arguments_are_the_same_in_every_door() -> None:
    source = walk_arguments()
    http, mcp, cli = http_walk(), mcp_walk(), cli_walk()
    assert set(source) == set(cli) == set(http) - {"config", "stream"} == set(mcp) - {"config"}
    for name, spelling in source.items():
        assert http[name].name == mcp[name].name == name
        assert cli[name].name in {f"--{name.replace('_', '-')}", name.upper()}, name
        assert http[name].default == mcp[name].default == cli[name].default == spelling.default, name
        assert http[name].limit == mcp[name].limit == spelling.limit, name
    assert source["question"].limit == 2000
    assert source["start"].limit == 16


def test_the_cli_refuses_what_http_and_mcp_refuse_with_the_same_limit() -> None:
    long = CliRunner().invoke(main, ["walk", "q" * 2001])
    assert long.exit_code == 2
    assert "the limit is 2,000" in long.output
    starts = CliRunner().invoke(main, ["walk", "q", *[a for _ in range(17) for a in ("--start", "x")]])
    assert starts.exit_code == 2
    assert "17 start entities given; the limit is 16" in starts.output


def test_every_cli_walk_flag_is_a_walk_option_with_its_range() -> None:
    options = {name.removeprefix("budget."): field for name, field in walk_options()}
    flags = cli_walk_flags()
    assert set(flags) == {"strategy", "beam_width", "hop_mode", "max_depth", "exclude_scope"}
    for name, flag in flags.items():
        assert flag.opts[0] == "--" + name.replace("_", "-")
        assert flag.default is None, name  # not given: the preset's value, as a missing config key
        if isinstance(flag.type, click.IntRange):
            assert (flag.type.min, flag.type.max) == field_range(name), name
        else:
            assert isinstance(flag.type, click.Choice)
            assert tuple(flag.type.choices) == get_args(options[name].annotation), name


def test_result_sizes_have_one_name_default_and_maximum() -> None:
    for what, doors in result_sizes().items():
        source = doors.pop("source")
        for door, spelling in doors.items():
            assert spelling.name.removeprefix("--") == source.name, (what, door)
            assert (spelling.default, spelling.limit) == (source.default, source.limit), (what, door)


def test_docs_surface_and_cli_are_written_from_the_code() -> None:
    assert (DOCS / "surface.md").read_text(encoding="utf-8") == render_surface(), (
        "docs/surface.md is stale: run `python -m graphwalk_neo4j.cli.reference`"
    )
    assert (DOCS / "cli.md").read_text(encoding="utf-8") == render_cli(), (
        "docs/cli.md is stale: run `python -m graphwalk_neo4j.cli.reference`"
    )


def test_every_ingest_option_has_one_name_default_and_limit_in_the_doors_that_offer_it() -> None:
    source, doors = ingest_arguments(), ingest_doors()
    spell: dict[str, Callable[[str], str]] = {"CLI": lambda n: "--" + n.replace("_", "-"), "HTTP": str, "MCP": str}
    for door, spelled in doors.items():
        known = set(spelled) - DOOR_ONLY[door]
        assert known <= set(source), (door, "offers options wiring.OPTIONS does not know", known - set(source))
        missing = set(source) - known
        if door == "CLI":
            assert not missing, ("the CLI lacks", missing)
        else:
            assert missing == set(CLI_ONLY), (door, "lacks, without a reason in wiring.CLI_ONLY", missing)
        for name in known - {"inputs"}:
            want, got = source[name], spelled[name]
            expected = ("--format" if door == "CLI" else "format") if name == "fmt" else spell[door](name)
            assert got.name == expected, (door, name)
            assert (got.limit, got.minimum, got.choices) == (want.limit, want.minimum, want.choices), (door, name)
            if door == "MCP" and name != "graph":
                assert got.default is None, name  # not given: the HTTP request's default (the tool builds one)
            else:
                assert got.default == door_default(door, name), (door, name)
    assert doors["CLI"]["inputs"].name == "PATHS"
    assert doors["HTTP"]["inputs"].name == doors["MCP"]["inputs"].name == "files` or `sql"


def test_the_ingest_source_is_wirings() -> None:
    assert set(ingest_arguments()) == {"inputs", "graph", "fmt", *OPTIONS}
    assert set(CLI_ONLY) <= set(OPTIONS)
    assert set(SERVICE_DEFAULTS) <= set(OPTIONS) - set(CLI_ONLY)
    assert ingest_arguments()["batch_size"] == Spelling("batch_size", 5000, 100_000, 1)
    assert ingest_arguments()["graph"].limit == 64
