"""Optional extras (graphwalk_neo4j/extras.py): each names its pip install when missing, pyproject declares each
one, `dev` installs all of them, and the commands that need one fail with that one line (exit 2) before they
touch anything."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from graphwalk_neo4j.errors import ConfigError, MissingExtraError
from graphwalk_neo4j.extras import EXTRAS, has_module, install_hint, require_extra

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def project() -> dict[str, Any]:
    table: dict[str, Any] = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    return table


def optional_dependencies() -> dict[str, list[str]]:
    extras: dict[str, list[str]] = project()["optional-dependencies"]
    return extras


def package(requirement: str) -> str:
    return re.split(r"[<>=\[ ;]", requirement, maxsplit=1)[0].lower()


def test_a_missing_module_is_one_line_naming_the_install() -> None:
    with pytest.raises(MissingExtraError) as caught:
        require_extra("graphwalk_no_such_module", "sql", "ingesting a SQL database")
    assert str(caught.value) == (
        "ingesting a SQL database needs the sql extra (graphwalk_no_such_module is not installed): "
        "pip install 'graphwalk-neo4j[sql]'"
    )
    assert isinstance(caught.value, ConfigError)
    assert caught.value.exit_code == 2
    assert require_extra("json", "llm", "anything").dumps([1]) == "[1]"
    with pytest.raises(ValueError, match="unknown extra 'gpu'"):
        require_extra("json", "gpu", "anything")
    assert install_hint("train") == "pip install 'graphwalk-neo4j[train]'"
    assert has_module("json")
    assert not has_module("graphwalk_no_such_module")


def test_every_extra_is_declared_and_dev_installs_them_all() -> None:
    declared = optional_dependencies()
    assert set(EXTRAS) <= set(declared)
    dev = declared["dev"]
    named = {n.strip() for req in dev if req.startswith("graphwalk-neo4j[") for n in req[16:-1].split(",")}
    base = set(project()["dependencies"])
    for extra, requirements in declared.items():
        if extra != "dev":  # named in dev, or every package of it in dev or already in the base install
            assert extra in named or set(requirements) <= set(dev) | base, extra


def test_the_base_install_needs_none_of_the_extras() -> None:
    base = {
        re.split(r"[<>=\[ ]", req)[0].lower() for req in tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    }
    for extra in ("train", "sql", "llm", "bench"):
        for requirement in optional_dependencies()[extra]:
            assert re.split(r"[<>=\[ ]", requirement)[0].lower() not in base, (extra, requirement)


@pytest.mark.parametrize(
    ("hidden", "args", "message"),
    [
        (
            "sqlalchemy",
            ["ingest", "sqlite:///no-such.db", "--graph", "extras_probe"],
            "error: ingesting a SQL database (a sqlite:// or postgresql:// URL) needs the sql extra (sqlalchemy is "
            "not installed): pip install 'graphwalk-neo4j[sql]'",
        ),
        (
            "litellm",
            ["walk", "who directed Inception", "--model", "openai/gpt-4o-mini", "--graph", "extras_probe"],
            "error: an LLM model (decision backend or text extraction) needs the llm extra (litellm is not "
            "installed): pip install 'graphwalk-neo4j[llm]'",
        ),
    ],
)
def test_a_command_without_its_extra_says_which_to_install(hidden: str, args: list[str], message: str) -> None:
    # the module is made unimportable in a fresh interpreter, as in an install without the extra; both errors
    # come before any connection, so no Neo4j is needed (the URI points at a closed port)
    probe = f"import sys; sys.modules[{hidden!r}] = None; from graphwalk_neo4j.cli import main; main(sys.argv[1:])"
    done = subprocess.run(
        [sys.executable, "-c", probe, *args],
        capture_output=True,
        text=True,
        env={"PATH": "", "GW_NEO4J_URI": "bolt://127.0.0.1:9", "PYTHONPATH": str(PYPROJECT.parent)},
        check=False,
    )
    assert done.returncode == 2
    assert " ".join(done.stderr.split()) == message
