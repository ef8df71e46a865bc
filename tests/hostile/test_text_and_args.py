"""Hostile text and arguments through the real CLI against the real Neo4j: markup-looking names, paths, graph
names, search text, questions; bad settings; exit codes that agree."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner, Result

from graphwalk_neo4j.cli import main
from graphwalk_neo4j.errors import InvalidIdentifierError
from graphwalk_neo4j.store.store import quiet_driver_retries, transient_retries
from graphwalk_neo4j.walk.neo4j_trace_sink import Neo4jTraceSink
from graphwalk_neo4j.walk.service import WalkService

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings

MARKUP = "Kismet [/] [red]x[/red] [bold]"


def invoke(settings: Settings, args: list[str], **env: str) -> Result:
    return CliRunner().invoke(main, args, env={"GW_NEO4J_URI": settings.uri, "GW_NEO4J_EMBEDDER": "fake", **env})


def no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert "MarkupError" not in result.output


@pytest.fixture
def markup_graph(neo4j_settings: Settings, graph_name: str, tmp_path: Path):
    # A directory named "[" and a file named "]kb.txt": the path reads ".../[/]kb.txt".
    folder = tmp_path / "["
    folder.mkdir()
    kb = folder / "]kb.txt"
    kb.write_text(f"{MARKUP}|directed_by|William [Bill] Dieterle\n{MARKUP}|release_year|1944\n")
    result = invoke(neo4j_settings, ["ingest", str(kb), "--graph", graph_name, "--root", str(tmp_path)])
    yield result, kb
    invoke(neo4j_settings, ["drop-graph", graph_name, "--yes"])


def test_markup_in_names_and_paths_is_printed_as_text(
    markup_graph,
    neo4j_settings: Settings,
    graph_name: str,
) -> None:
    result, _kb = markup_graph
    no_traceback(result)
    assert result.exit_code == 0, result.output
    assert "[/]kb.txt" in result.stdout  # the document column: the id "[/]kb.txt"
    found = invoke(neo4j_settings, ["search", MARKUP, "--graph", graph_name, "--no-vector"])
    no_traceback(found)
    assert found.exit_code == 0, found.output
    assert MARKUP in found.stdout  # the name cell, restyled or cut before
    assert f"search '{MARKUP}'" in found.stdout  # the title
    walked = invoke(
        neo4j_settings,
        [
            "walk",
            "when was it released",
            "--graph",
            graph_name,
            "--start",
            MARKUP,
            "--model",
            "fake",
            "--hop-mode",
            "relation",
            "--max-depth",
            "2",
        ],
    )
    no_traceback(walked)
    assert "when was it released" in walked.stdout
    assert MARKUP in walked.stdout  # start line and path descriptions
    documents = invoke(neo4j_settings, ["documents", "--graph", graph_name])
    assert "[/]kb.txt" in documents.stdout


def test_markup_in_error_messages_is_printed_as_text(neo4j_settings: Settings, graph_name: str, tmp_path: Path) -> None:
    missing = invoke(
        neo4j_settings,
        ["walk", "q [/] [red]x[/red]", "--graph", graph_name, "--start", "[/] nobody", "--model", "fake"],
    )
    no_traceback(missing)
    assert missing.exit_code == 1
    assert "[/] nobody" in missing.stderr
    (tmp_path / "[red]bad[").mkdir()
    bad = tmp_path / "[red]bad[" / "red].txt"  # the path reads ".../[red]bad[/red].txt"
    bad.write_text("a|has\x07x|b\n")
    failed = invoke(neo4j_settings, ["ingest", str(bad), "--graph", graph_name])
    no_traceback(failed)
    assert failed.exit_code == 2
    assert "[red]bad[/red].txt:1" in failed.stderr
    nothing = invoke(neo4j_settings, ["search", "[/]", "--graph", graph_name, "--no-vector"])
    no_traceback(nothing)
    assert nothing.exit_code == 1
    assert "search '[/]'" in nothing.stdout


@pytest.mark.parametrize(
    "command", [["walk", "q"], ["search", "x"], ["walks", "list"], ["documents"], ["ingest", "kb.txt"], ["embed"]]
)
def test_invalid_graph_names_are_refused_by_every_command(neo4j_settings: Settings, command: list[str]) -> None:
    result = invoke(neo4j_settings, [*command, "--graph", "[/]bad name"])
    no_traceback(result)
    assert result.exit_code == 2
    assert "graph name '[/]bad name' is not allowed" in result.stderr


def test_walks_are_never_stored_under_an_invalid_graph_name(neo4j_settings: Settings) -> None:
    with pytest.raises(InvalidIdentifierError, match="graph name"):
        WalkService(None, "bad graph", None)  # type: ignore[arg-type]
    with pytest.raises(InvalidIdentifierError, match="graph name"):
        Neo4jTraceSink(None, "x`y")  # type: ignore[arg-type]


def test_drop_graph_of_a_missing_graph_fails(neo4j_settings: Settings, graph_name: str) -> None:
    result = invoke(neo4j_settings, ["drop-graph", graph_name, "--yes"])
    assert result.exit_code == 1
    assert f"no graph named {graph_name!r}" in result.stderr
    assert "nothing was deleted" in result.stderr


def test_search_exit_code_is_the_same_with_and_without_json(neo4j_settings: Settings, graph_name: str) -> None:
    plain = invoke(neo4j_settings, ["search", "nothing here", "--graph", graph_name, "--no-vector"])
    as_json = invoke(neo4j_settings, ["search", "nothing here", "--graph", graph_name, "--no-vector", "--json"])
    assert plain.exit_code == as_json.exit_code == 1
    assert json.loads(as_json.stdout)["hits"] == []


def test_over_long_questions_are_refused_before_any_work(neo4j_settings: Settings, graph_name: str) -> None:
    question = "which movies " * 2000
    result = invoke(
        neo4j_settings, ["walk", question, "--graph", graph_name, "--model", "fake"], GW_NEO4J_URI="bolt://127.0.0.1:1"
    )  # refused before connecting: no server is needed
    no_traceback(result)
    assert result.exit_code == 2
    assert f"the question is {len(question):,} characters long; the limit is 2,000" in result.stderr


def test_an_unknown_model_is_refused_before_anything_loads(neo4j_settings: Settings, graph_name: str) -> None:
    result = invoke(
        neo4j_settings,
        ["walk", "q", "--graph", graph_name, "--model", "no-such-model"],
        GW_NEO4J_URI="bolt://127.0.0.1:1",
    )
    no_traceback(result)
    assert result.exit_code == 2
    assert "unknown decision model 'no-such-model'" in result.stderr
    assert "Provider List" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("GW_NEO4J_BATCH_SIZE", "0", "GW_NEO4J_BATCH_SIZE='0': Input should be greater than or equal to 1"),
        ("GW_NEO4J_CONNECT_TIMEOUT_S", "soon", "GW_NEO4J_CONNECT_TIMEOUT_S='soon': Input should be a valid number"),
        ("GW_NEO4J_JEV_PROVIDER", "acme", "GW_NEO4J_JEV_PROVIDER='acme': Input should be 'typesafe' or 'openrouter'"),
    ],
)
def test_bad_settings_are_one_line_naming_the_variable(
    neo4j_settings: Settings, variable: str, value: str, expected: str
) -> None:
    result = invoke(neo4j_settings, ["documents"], **{variable: value})
    no_traceback(result)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert expected in lines[0], result.stderr


def test_skip_mode_with_every_line_bad_fails_and_writes_nothing(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("a|has\x07bell|b\nno separators here\nc|x\x1by|d\n")  # control characters, no separators
    result = invoke(neo4j_settings, ["ingest", str(bad), "--graph", graph_name, "--on-error", "skip"])
    assert result.exit_code == 2
    assert "none of its 3 records could be read" in result.stderr
    assert "nothing was loaded" in result.stderr
    listed = invoke(neo4j_settings, ["documents", "--graph", graph_name, "--json"])
    assert json.loads(listed.stdout) == []


def test_fail_mode_hint_names_the_option(neo4j_settings: Settings, graph_name: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("a|rel|b\nbroken line\n")
    result = invoke(neo4j_settings, ["ingest", str(bad), "--graph", graph_name])
    assert result.exit_code == 2
    assert "(use --on-error skip to skip bad lines" in result.stderr
    assert "on_error=" not in result.stderr


def test_driver_retry_warnings_are_counted_not_printed(capsys: pytest.CaptureFixture[str]) -> None:
    quiet_driver_retries()
    before = transient_retries()
    logging.getLogger("neo4j.session").warning(
        "Transaction failed and will be retried in %ss (%s)",
        0.9,
        "ForsetiClient can't acquire ExclusiveLock (deadlock)",
    )
    assert transient_retries() == before + 1
    captured = capsys.readouterr()
    assert "will be retried" not in captured.err
    assert "deadlock" not in captured.err
