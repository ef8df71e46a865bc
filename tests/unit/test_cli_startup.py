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
    "neo4j numpy typesafe_sdk pydantic_settings httpx".split()
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


# One fresh interpreter for many cases: it imports the group (what every ``gw-neo4j`` run imports first), then runs
# each case in a forked child, so a case sees exactly the modules a fresh ``gw-neo4j ARGS`` would import.
PROBE_EACH = """
import json, os, sys
from graphwalk_neo4j.cli import main
for args in json.loads(sys.argv[1]):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        code = None
        try:
            main(args, prog_name="gw-neo4j")
        except SystemExit as exc:
            code = exc.code
        except BaseException as exc:
            code = repr(exc)
        with os.fdopen(write_end, "w") as pipe:
            pipe.write(json.dumps({"code": code, "modules": sorted(sys.modules)}))
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        report = pipe.read()
    os.waitpid(pid, 0)
    print(report.decode())
"""


def command_paths() -> list[list[str]]:
    """Every command as typed, from the lazy table: each top-level command, and each subcommand of a group."""
    paths: list[list[str]] = []
    for name, ref in sorted(COMMANDS.items()):
        command = ref.load()
        paths.append([name])
        if isinstance(command, click.Group):
            paths.extend([name, sub] for sub in sorted(command.commands))
    return paths


def imported_by_each(cases: list[list[str]]) -> list[tuple[int, set[str]]]:
    """For each case, the exit code of ``gw-neo4j ARGS`` and the top-level packages it imported."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE_EACH, json.dumps(cases)], capture_output=True, text=True, check=True
    )
    reports = [json.loads(line) for line in done.stdout.strip().splitlines()]
    assert len(reports) == len(cases)
    return [(r["code"], {name.split(".")[0] for name in r["modules"]}) for r in reports]


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
        (["search"], 2),  # TEXT missing
        (["search", "--limit", "201", "Nolan"], 2),  # above MAX_SEARCH_HITS (limits.py)
        (["walks", "list", "--limit", "0"], 2),
        (["decider", "train", "--graph", "g", "--out", "d", "--members", "99"], 2),
        (["ingest"], 2),  # PATHS missing
        (["ingest", "kb.txt", "--on-error", "ignore"], 2),
        (["drop-graph", "movies"], 2),  # no --yes: refused before the library loads
        (["serve", "--port", "70000"], 2),
    ],
)
def test_help_and_argument_errors_import_no_heavy_library(args: list[str], code: int) -> None:
    exit_code, packages = imported_by(*args)
    assert exit_code == code
    assert sorted(packages & HEAVY) == []


def test_every_commands_help_and_argument_error_import_no_heavy_library() -> None:
    paths = command_paths()
    assert ["walks", "list"] in paths  # groups are walked into (decider, eval, neo4j, walks)
    cases = [[*path, flag] for path in paths for flag in ("--help", "--no-such-option")]
    found: dict[str, tuple[int, list[str]]] = {}
    for args, (code, packages) in zip(cases, imported_by_each(cases), strict=True):
        found[" ".join(args)] = (code, sorted(packages & HEAVY))
    expected: dict[str, tuple[int, list[str]]] = {
        " ".join(args): (0 if args[-1] == "--help" else 2, []) for args in cases
    }
    assert found == expected


def test_the_fork_probe_sees_what_a_fresh_interpreter_imports() -> None:
    # The forked children inherit only the group's own imports; a heavy import in a case must still show.
    [(code, packages)] = imported_by_each([["init", "--help"]])
    assert (code, sorted(packages & HEAVY)) == (0, [])
    assert imported_by("init", "--help") == (code, packages)
    [(_, walked)] = imported_by_each([["walks", "list", "--help"]])
    assert "rich" in walked
    assert "numpy" not in walked


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
