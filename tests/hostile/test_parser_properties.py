"""Hypothesis on the parsers (ingest/parsers) and the identifier rules (identifiers.py), as part of the standing
hostile probe (issue 21). Derandomized: the same inputs every run. Each property has an oracle of its own (a regex,
the Unicode categories, the written triples), not the code under test."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graphwalk_neo4j.errors import InputError, InvalidIdentifierError
from graphwalk_neo4j.identifiers import MAX_NAME_CHARS, data_name, validate_identifier
from graphwalk_neo4j.ingest.parsers import parse_bytes

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.hostile

SETTINGS = settings(max_examples=400, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
REFUSED = {"Cc", "Cf", "Zl", "Zp"}
LINE_BREAKS = re.compile(r"[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def refusal(rule: Callable[[str, str], str], name: str, kind: str) -> str | None:
    """None when ``rule`` accepts ``name`` (and returns it unchanged), else the refusal's message."""
    try:
        assert rule(name, kind) == name
    except InvalidIdentifierError as exc:
        return str(exc)
    return None


def one_line(message: str) -> bool:
    return LINE_BREAKS.search(message) is None and message.strip() != ""


@SETTINGS
@given(st.text(max_size=80) | st.from_regex(IDENTIFIER, fullmatch=True))
@example("directed_by")
@example("\u0410ctor")  # a Cyrillic look-alike A
@example("a" * 65)
def test_validate_identifier_accepts_exactly_the_safe_names(name: str) -> None:
    message = refusal(validate_identifier, name, "graph name")
    assert (message is None) == (IDENTIFIER.fullmatch(name) is not None)
    assert message is None or one_line(message), message


@SETTINGS
@given(st.text(max_size=1100) | st.text(alphabet=st.characters(codec="utf-8"), min_size=990, max_size=1010))
@example("/film/film/directed_by")
@example("directed\u202eby")
@example("   ")
def test_data_name_refuses_only_what_cannot_be_stored_or_shown(name: str) -> None:
    storable = (
        name.strip() != ""
        and len(name) <= MAX_NAME_CHARS
        and not any(unicodedata.category(ch) in REFUSED for ch in name)
    )
    message = refusal(data_name, name, "relationship type")
    assert (message is None) == storable
    assert message is None or one_line(message), message


HOSTILE_BYTES = st.binary(max_size=600) | st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass"))


@SETTINGS
@given(data=HOSTILE_BYTES, fmt=st.sampled_from(["triples", "csv", "jsonl"]), on_error=st.sampled_from(["fail", "skip"]))
@example(data=b"\xff\xfeH\x00", fmt="triples", on_error="fail")  # UTF-16
@example(data=b'{"subject": 1}\n', fmt="jsonl", on_error="skip")
def test_any_bytes_parse_to_clean_records_or_one_input_error(data: bytes, fmt: str, on_error: str) -> None:
    message = None
    try:
        batches, report = parse_bytes(data, "upload.txt", fmt, on_error=on_error, batch_size=7)  # type: ignore[arg-type]
        records = [r for batch in batches for r in batch]
    except InputError as exc:
        message = str(exc)
    if message is not None:
        assert one_line(message), message
        assert message.startswith("upload.txt")
        return
    for record in records:
        for value in (record.subject, record.relation, record.object):
            assert isinstance(value, str)
            assert value.strip() == value != ""
        assert record.line is not None
        assert record.line >= 1
    assert report.records == len(records)
    assert report.skipped >= len(report.problems)
    if on_error == "fail":
        assert report.skipped == 0


NAME = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cf", "Cs", "Zl", "Zp", "Zs")),
    min_size=1,
    max_size=30,
).filter(lambda t: "|" not in t and "\t" not in t)


@SETTINGS
@given(st.lists(st.tuples(NAME, st.from_regex(r"[a-z][a-z_]{0,20}", fullmatch=True), NAME), min_size=1, max_size=40))
def test_written_triples_read_back_as_written(triples: list[tuple[str, str, str]]) -> None:
    data = "".join(f"{s}|{r}|{o}\n" for s, r, o in triples).encode("utf-8")
    batches, report = parse_bytes(data, "kb.txt", "triples", batch_size=5)
    records = [r for batch in batches for r in batch]
    assert [(r.subject, r.relation, r.object) for r in records] == triples
    assert [r.line for r in records] == list(range(1, len(triples) + 1))
    assert (report.records, report.skipped) == (len(triples), 0)
