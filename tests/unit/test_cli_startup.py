"""``gw-neo4j`` starts on click alone: ``--help`` lists every command from a static table without importing any
command's module, and a command's own ``--help`` and argument errors do not load the heavy libraries. The time
this saves is measured in bench/startup.py (docs/benchmarks.md); here only what gets imported, which is exact."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

import graphwalk_neo4j.cli
from graphwalk_neo4j.cli import ALIASES, COMMANDS, main

# What the fast paths must never import: each costs from a tenth of a second (SQLAlchemy) to seconds (torch).
HEAVY = frozenset(
    "torch sentence_transformers transformers fastapi uvicorn mcp litellm sqlalchemy matplotlib onnxruntime "
    "neo4j numpy typesafe_sdk pydantic_settings".split()
)

PROBE = """
import json, sys
from graphwalk_neo4j.cli import main
try:
    main(sys.argv[1:], prog_name="gw-neo4j")
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def imported_by(*args: str) -> tuple[int, set[str]]:
    """The exit code of ``gw-neo4j ARGS`` in a fresh interpreter, and the top-level packages it imported."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return report["code"], {name.split(".")[0] for name in report["modules"]}


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--help"], 0),
        (["--version"], 0),
        (["no-such-command"], 2),
        (["walk", "--help"], 0),
        (["walk"], 2),  # QUESTION missing
        (["walk", "--beam-width", "999", "who directed The Matrix"], 2),
    ],
)
def test_help_and_argument_errors_import_no_heavy_library(args: list[str], code: int) -> None:
    exit_code, packages = imported_by(*args)
    assert exit_code == code
    assert sorted(packages & HEAVY) == []


def test_top_level_help_imports_no_command_module() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, "--help"], capture_output=True, text=True, check=True)
    modules = json.loads(done.stdout.strip().splitlines()[-1])["modules"]
    loaded = {m for m in modules if m.startswith("graphwalk_neo4j.cli.")}
    assert loaded == {"graphwalk_neo4j.cli.lazy"}


def test_the_table_names_every_command_with_its_own_one_line_help() -> None:
    for name, ref in COMMANDS.items():
        command = ref.load()
        assert command.name == name
        assert ref.summary == command.get_short_help_str(limit=10**6), name


def test_every_command_the_cli_modules_define_is_in_the_table() -> None:
    defined: set[tuple[str, str]] = set()
    nested: set[int] = set()
    for info in pkgutil.iter_modules(graphwalk_neo4j.cli.__path__, "graphwalk_neo4j.cli."):
        if info.name.endswith("__main__"):
            continue  # running it is `python -m graphwalk_neo4j.cli`
        module = importlib.import_module(info.name)
        for attribute, value in vars(module).items():
            if isinstance(value, click.Command) and value.callback is not None and value is not main:
                defined.add((info.name, attribute))
                if isinstance(value, click.Group):
                    nested.update(id(sub) for sub in value.commands.values())
    top_level = {
        (module, attribute)
        for module, attribute in defined
        if id(getattr(importlib.import_module(module), attribute)) not in nested
    }
    assert top_level == {(ref.module, ref.attribute) for ref in COMMANDS.values()}


def test_help_reads_as_an_eager_group_would() -> None:
    eager = click.Group(
        "gw-neo4j",
        commands={name: ref.load() for name, ref in COMMANDS.items()},
        params=main.params,
        help=main.help,
        context_settings=main.context_settings,
    )
    runner = CliRunner()
    lazy_help = runner.invoke(main, ["--help"], prog_name="gw-neo4j")
    eager_help = runner.invoke(eager, ["--help"], prog_name="gw-neo4j")
    assert lazy_help.exit_code == eager_help.exit_code == 0
    assert lazy_help.output == eager_help.output
    assert "walk        Answer QUESTION by walking the graph hop by hop" in lazy_help.output


def test_a_deprecated_name_runs_its_new_command_with_a_note_and_is_not_listed() -> None:
    runner = CliRunner()
    old = runner.invoke(main, ["trace", "list", "--help"], prog_name="gw-neo4j")
    new = runner.invoke(main, ["walks", "list", "--help"], prog_name="gw-neo4j")
    assert old.exit_code == new.exit_code == 0
    assert old.stderr == "note: `gw-neo4j trace` is now `gw-neo4j walks`; the old name still works for now\n"
    assert new.stderr == ""
    assert old.stdout == new.stdout.replace("gw-neo4j walks list", "gw-neo4j trace list")
    listed = runner.invoke(main, ["--help"], prog_name="gw-neo4j").stdout
    assert "  walks  " in listed
    assert "  trace  " not in listed
    assert set(ALIASES.values()) <= set(COMMANDS)
    assert not set(ALIASES) & set(COMMANDS)
