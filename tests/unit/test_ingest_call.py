"""Ingest composed once (graphwalk_neo4j.wiring.ingest_call): the pipeline chosen from the inputs, every option the
pipeline uses with the caller's value or the default, and a refusal naming the option and the pipeline for an
option it does not use. Pure: nothing is read but whether the files are there."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.errors import ConfigError, InputError, InvalidIdentifierError
from graphwalk_neo4j.wiring import DEFAULTS, OPTIONS, ingest_call

if TYPE_CHECKING:
    from pathlib import Path


def test_every_option_has_a_default_and_a_pipeline() -> None:
    assert set(OPTIONS) == set(DEFAULTS)
    assert all(OPTIONS.values())


def test_structured_files_get_their_options_and_the_defaults(tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text("a|b|c\n", encoding="utf-8")
    call = ingest_call([kb], graph="films", options={"batch_size": 10, "embed": True})
    assert (call.pipeline, call.inputs, call.graph, call.source) == ("structured", (str(kb),), "films", "files")
    assert call.options == {
        "source": None,
        "embed": True,
        "root": None,
        "on_error": "fail",
        "type_map": None,
        "batch_size": 10,
        "fmt": None,
    }


def test_text_and_database_calls_hold_only_their_options(tmp_path: Path) -> None:
    notes = tmp_path / "notes.markdown"
    text = ingest_call([notes], options={"llm_model": "openai/x", "source": "wiki"}, check_files=False)
    assert (text.pipeline, text.source) == ("text", "wiki")
    used = {"source", "embed", "llm_model", "routing", "decision_model", "concurrency", "max_bytes", "prune"}
    assert set(text.options) == used
    sql = ingest_call(["sqlite:///library.db"], options={"db_schema": "main"})
    assert (sql.pipeline, sql.source) == ("sql", "sql:library.db")  # a database's default source names it
    assert sql.options == {"source": None, "embed": False, "batch_size": 5000, "db_schema": "main", "prune": False}


def test_a_configured_value_is_used_where_the_pipeline_takes_it_and_never_refused(tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text("a|b|c\n", encoding="utf-8")
    configured = {"llm_model": "openai/from-env"}  # the CLI's GW_NEO4J_LLM_MODEL
    text = ingest_call([tmp_path / "notes.md"], configured=configured, check_files=False)
    assert text.options["llm_model"] == "openai/from-env"
    given = ingest_call([tmp_path / "notes.md"], options={"llm_model": "openai/x"}, configured=configured)
    assert given.options["llm_model"] == "openai/x"  # what the caller set wins
    structured = ingest_call([kb], configured=configured)
    assert "llm_model" not in structured.options


@pytest.mark.parametrize(
    ("inputs", "options", "message"),
    [
        (
            ["kb.txt"],
            {"llm_model": "openai/x"},
            "llm_model does not apply to structured files (triples, CSV, JSON lines): it is for text documents; "
            "leave it out",
        ),
        (
            ["notes.md"],
            {"root": "."},
            "root does not apply to text documents: it is for structured files; leave it out",
        ),
        (
            ["sqlite:///library.db"],
            {"type_map": {}},
            "type_map does not apply to a database: it is for structured files; leave it out",
        ),
        (
            ["postgresql://u@h/db"],
            {"max_bytes": 10},
            "max_bytes does not apply to a database: it is for text documents; leave it out",
        ),
        (["kb.txt"], {"colour": "red"}, "unknown ingest option colour"),
    ],
)
def test_an_option_the_pipeline_does_not_use_is_refused(
    inputs: list[str], options: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        ingest_call(inputs, options=options, check_files=False)
    assert str(refused.value) == message


def test_text_without_an_extraction_model_is_refused_in_the_doors_words(tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    with pytest.raises(
        ConfigError,
        match=r"^text ingest needs an extraction model: pass llm_model \(a litellm name such as openai/gpt-4o-mini\)$",
    ):
        ingest_call([notes], check_files=False)  # HTTP and MCP: the request's field
    flag = {"llm_model": "GW_NEO4J_LLM_MODEL"}
    with pytest.raises(
        ConfigError, match=r"pass --llm-model \(a litellm name such as openai/gpt-4o-mini\) or set GW_NEO4J_LLM_MODEL$"
    ):
        ingest_call([notes], check_files=False, spell=lambda n: "--" + n.replace("_", "-"), environment=flag)


def test_the_door_spells_the_option_it_refuses() -> None:
    with pytest.raises(ConfigError, match=r"^--db-schema does not apply to structured files"):
        ingest_call(["kb.txt"], options={"db_schema": "x"}, spell=lambda n: "--" + n.replace("_", "-"))


def test_bad_inputs_are_refused_before_anything_runs(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        ingest_call([tmp_path / "missing.txt"])
    with pytest.raises(InputError, match="nothing to ingest"):
        ingest_call([])
    with pytest.raises(ConfigError, match="give a database URL on its own"):
        ingest_call(["sqlite:///a.db", "kb.txt"], check_files=False)
    with pytest.raises(InvalidIdentifierError):
        ingest_call(["kb.txt"], graph="no spaces", check_files=False)
