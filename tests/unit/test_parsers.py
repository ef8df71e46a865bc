"""Unit tests for graphwalk_neo4j.ingest: records, ids, hashes and the streaming parsers (no database)."""

from __future__ import annotations

import hashlib
import tracemalloc
from pathlib import Path

import pytest

from graphwalk_neo4j.errors import InputError, InvalidIdentifierError
from graphwalk_neo4j.graph.identity import canonical_name, content_hash, entity_id, relation_id
from graphwalk_neo4j.graph.rows import TripleRecord
from graphwalk_neo4j.identifiers import relation_type
from graphwalk_neo4j.ingest.parsers import (
    ParseReport,
    detect_format,
    iter_csv,
    iter_jsonl,
    iter_triples,
    parse_file,
)
from tests.helpers import shared_dir

DATA = Path(__file__).resolve().parents[1] / "data" / "ingest"
KB = shared_dir() / "datasets" / "metaqa" / "kb.txt"


def _all(path: Path | str, fmt: str | None = None, **kw: object) -> tuple[list[TripleRecord], ParseReport]:
    batches, report = parse_file(path, fmt, **kw)  # type: ignore[arg-type]
    return [r for batch in batches for r in batch], report


def _write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    p = tmp_path / name
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return p


# --- records -------------------------------------------------------------------------------------------


def test_entity_id_is_sha256_of_canonical_name() -> None:
    expected = "e_" + hashlib.sha256(b"Kismet").hexdigest()[:32]
    assert entity_id("Kismet") == expected
    assert entity_id("  Kismet ") == expected
    assert entity_id("Paris,\t  Texas") == entity_id("Paris, Texas")


def test_entity_id_keeps_case_and_type_only_when_given() -> None:
    assert entity_id("kate beckinsale") != entity_id("Kate Beckinsale")
    assert entity_id("Kismet", "Movie") != entity_id("Kismet")
    assert entity_id("Kismet", "Movie") == "e_" + hashlib.sha256(b"Movie\x1fKismet").hexdigest()[:32]
    # NFC: a decomposed "é" is the same entity as the composed one
    assert entity_id("Ame\u0301lie") == entity_id("Am\u00e9lie")
    with pytest.raises(ValueError, match="empty"):
        entity_id("   ")


def test_canonical_name() -> None:
    assert canonical_name("  The\u00a0 Big   Sleep\n") == "The Big Sleep"


def test_relation_id_and_triple_ids() -> None:
    s, o = entity_id("Kismet"), entity_id("William Dieterle")
    rid = relation_id(s, "directed_by", o)
    assert rid == "r_" + hashlib.sha256(f"{s}\x1fdirected_by\x1f{o}".encode()).hexdigest()[:32]
    assert rid != relation_id(o, "directed_by", s)
    rec = TripleRecord(subject="Kismet", relation="directed_by", object="William Dieterle")
    assert (rec.subject_id(), rec.object_id(), rec.id()) == (s, o, rid)


def test_content_hash_is_canonical() -> None:
    assert content_hash({"b": 1, "a": "é"}) == content_hash({"a": "é", "b": 1})
    assert content_hash({"a": "é", "b": 1}) == hashlib.sha256('{"a":"é","b":1}'.encode()).hexdigest()
    assert content_hash(b"abc") == content_hash("abc") == hashlib.sha256(b"abc").hexdigest()
    rec = TripleRecord(subject="A", relation="r", object="B", line=3)
    assert content_hash(rec) == content_hash(rec.model_dump(mode="json"))


# --- formats -------------------------------------------------------------------------------------------


def test_detect_format() -> None:
    assert detect_format("kb.txt") == "triples"
    assert detect_format("x.TSV") == "triples"
    assert detect_format("x.csv") == "csv"
    assert detect_format("x.jsonl") == detect_format("x.ndjson") == "jsonl"
    assert detect_format("x.data", "csv") == "csv"
    with pytest.raises(InputError, match=r"cannot tell the format .*'\.parquet'.*pass the format explicitly"):
        detect_format("x.parquet")
    with pytest.raises(InputError, match="unknown format 'xml'"):
        detect_format("x.txt", "xml")


def test_pipe_triples() -> None:
    records, report = _all(DATA / "tiny_kb.txt")
    assert [(r.subject, r.relation, r.object, r.line) for r in records] == [
        ("Kismet", "directed_by", "William Dieterle", 1),
        ("Kismet", "written_by", "Edward Knoblock", 2),
        ("Kismet", "starred_actors", "Marlene Dietrich", 4),
        ("Flags of Our Fathers", "release_year", "2006", 5),
    ]
    assert records[0].source == str(DATA / "tiny_kb.txt")
    assert (report.format, report.lines, report.records) == ("triples", 5, 4)
    assert (report.skipped, report.ok) == (0, True)


def test_tab_triples_autodetected_and_pipes_kept_in_names() -> None:
    records, _ = _all(DATA / "tiny.tsv")
    assert [(r.subject, r.relation, r.object) for r in records] == [
        ("Kismet", "directed_by", "William Dieterle"),
        ("Kismet", "has_tags", "camp | kitsch"),
    ]


def test_csv_types_attributes_and_multiline_quotes() -> None:
    records, report = _all(DATA / "tiny.csv")
    assert records[0] == TripleRecord(
        subject="Kismet",
        relation="directed_by",
        object="William Dieterle",
        subject_type="Movie",
        object_type="Person",
        attributes={"imdb_votes": "1200", "country": "USA"},
        source=str(DATA / "tiny.csv"),
        line=2,
    )
    assert (records[1].subject, records[1].attributes) == ("Paris, Texas", {"country": "West Germany"})
    assert (records[2].subject, records[2].subject_type, records[2].line) == ("Multi\nLine", None, 4)
    assert report.records == 3


def test_jsonl_types_and_typed_attributes() -> None:
    records, report = _all(DATA / "tiny.jsonl")
    assert records[1].attributes == {"votes": 1200, "rating": 6.1, "colour": True, "country": "USA"}
    assert records[1].subject_type == "Movie"
    assert (records[2].subject, records[2].object_type, records[2].line) == ("Amélie", "Language", 4)
    assert report.records == 3


def test_batches(tmp_path: Path) -> None:
    p = _write(tmp_path, "kb.txt", "".join(f"m{i}|has_genre|g{i}\n" for i in range(7)))
    sizes = [len(b) for b in iter_triples(p, batch_size=3)]
    assert sizes == [3, 3, 1]
    with pytest.raises(ValueError, match="batch_size"):
        parse_file(p, batch_size=0)
    with pytest.raises(ValueError, match="on_error"):
        parse_file(p, on_error="ignore")  # type: ignore[arg-type]


def test_bom_and_crlf(tmp_path: Path) -> None:
    p = _write(tmp_path, "kb.txt", b"\xef\xbb\xbfA|directed_by|B\r\nC|directed_by|D\r\n")
    records, _ = _all(p)
    assert [(r.subject, r.object) for r in records] == [("A", "B"), ("C", "D")]


def test_metaqa_kb_parses_whole() -> None:
    records, report = _all(KB)
    assert len(records) == report.records == report.lines == 130_173
    assert {r.relation for r in records} == {
        "directed_by",
        "written_by",
        "starred_actors",
        "release_year",
        "in_language",
        "has_tags",
        "has_genre",
        "has_imdb_votes",
        "has_imdb_rating",
    }


# --- bad input: whole file -----------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_empty_file(tmp_path: Path, content: bytes) -> None:
    p = _write(tmp_path, "kb.txt", content)
    with pytest.raises(InputError, match=r"kb\.txt: is empty") as info:
        parse_file(p)
    assert info.value.path == str(p)


def test_csv_header_only(tmp_path: Path) -> None:
    p = _write(tmp_path, "kb.csv", "subject,relation,object\n")
    with pytest.raises(InputError, match="has a header but no data rows"):
        _all(p)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        parse_file(tmp_path / "nope.txt")


@pytest.mark.parametrize("content", [b"A|r|B\n\x00\x01\x02\x03", bytes(range(256)) * 4])
def test_binary_file(tmp_path: Path, content: bytes) -> None:
    p = _write(tmp_path, "kb.txt", content)
    with pytest.raises(InputError, match="looks binary"):
        parse_file(p)


def test_utf16_file(tmp_path: Path) -> None:
    p = _write(tmp_path, "kb.txt", "A|directed_by|B\n".encode("utf-16"))
    with pytest.raises(InputError, match=r"UTF-16.*iconv -f utf-16 -t utf-8"):
        parse_file(p)


def test_nul_byte_after_the_sniffed_head(tmp_path: Path) -> None:
    p = _write(tmp_path, "kb.txt", b"A|directed_by|B\n" * 1000 + b"C|directed_by|\x00D\n")
    with pytest.raises(InputError, match=r"kb.txt:1001: contains a NUL byte"):
        _all(p)


def test_latin1_file_names_offset_and_iconv(tmp_path: Path) -> None:
    p = _write(tmp_path, "kb.txt", "A|directed_by|B\nAmélie|in_language|French\n".encode("latin-1"))
    with pytest.raises(InputError) as info:
        _all(p)
    msg = str(info.value)
    assert info.value.line == 2
    assert "kb.txt:2: not valid UTF-8 at byte offset 18 (byte 0xe9)" in msg
    assert "iconv -f latin1 -t utf-8" in msg  # offset 18 = 16 bytes of line 1 + "Am"


def test_huge_line_rejected_without_reading_it_whole(tmp_path: Path) -> None:
    huge = b"A|has_tags|" + b"x" * (10 * 1024 * 1024) + b"\n"
    p = _write(tmp_path, "kb.txt", b"A|directed_by|B\n" + huge + b"C|directed_by|D\n")
    with pytest.raises(InputError, match=r"kb.txt:2: line is longer than the limit of 1,048,576 bytes"):
        _all(p)
    tracemalloc.start()
    try:
        records, report = _all(p, on_error="skip")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [r.subject for r in records] == ["A", "C"]
    assert [(x.line, x.reason.split(";")[0]) for x in report.problems] == [
        (2, "line is longer than the limit of 1,048,576 bytes")
    ]
    assert peak < 4 * 1024 * 1024  # the 10 MB line never sat in memory


def test_max_line_bytes_is_configurable(tmp_path: Path) -> None:
    p = _write(tmp_path, "kb.txt", "A|directed_by|B\nLonger name|directed_by|D\n")
    records, report = _all(p, on_error="skip", max_line_bytes=16)
    assert [r.subject for r in records] == ["A"]
    assert report.problems[0].line == 2


# --- bad input: one line -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("A|directed_by", "expected 3 fields (subject|relation|object), found 2"),
        ("A|directed_by|B|C", "expected 3 fields (subject|relation|object), found 4"),
        ("|directed_by|B", "empty subject"),
        ("A|directed_by|  ", "empty object"),
        ("A||B", "empty relation"),
    ],
)
def test_bad_triple_lines(tmp_path: Path, line: str, reason: str) -> None:
    p = _write(tmp_path, "kb.txt", f"X|directed_by|Y\n{line}\n")
    with pytest.raises(InputError) as info:
        _all(p)
    assert (info.value.path, info.value.line) == (str(p), 2)
    assert str(info.value).startswith(f"{p}:2: {reason}")
    assert "(use --on-error skip to skip bad lines" in str(info.value)


@pytest.mark.parametrize(
    "relation", ["/film/film/directed_by", "__film__film__directed_by", "P57", "directed by", "directed`by", "監督"]
)
def test_relation_names_of_any_data_are_kept_as_given(tmp_path: Path, relation: str) -> None:
    p = _write(tmp_path, "kb.txt", f"X|directed_by|Y\nA|{relation}|B\n")
    records, _ = _all(p)
    assert [r.relation for r in records] == ["directed_by", relation]


@pytest.mark.parametrize("relation", ["ANSWERED", "a\u202eb", "x" * 1001])
def test_refused_relation_names(tmp_path: Path, relation: str) -> None:
    with pytest.raises(InvalidIdentifierError) as expected:
        relation_type(relation)
    p = _write(tmp_path, "kb.txt", f"X|directed_by|Y\nA|{relation}|B\n")
    with pytest.raises(InputError) as info:
        _all(p)
    assert str(info.value).startswith(f"{p}:2: {expected.value}")


def test_skip_records_every_bad_line_and_goes_on(tmp_path: Path) -> None:
    content = "A|directed_by|B\nbad line\nC|CHOSE|D\nE|written_by|F\n|x|y\n"
    p = _write(tmp_path, "kb.txt", content)
    records, report = _all(p, on_error="skip")
    assert [r.subject for r in records] == ["A", "E"]
    assert [(x.file, x.line) for x in report.problems] == [(str(p), 2), (str(p), 3), (str(p), 5)]
    assert (report.skipped, report.records, report.lines, report.ok) == (3, 2, 5, False)
    assert str(report.problems[0]) == f"{p}:2: expected 3 fields (subject|relation|object), found 1"


def test_csv_missing_required_columns(tmp_path: Path) -> None:
    p = _write(tmp_path, "kb.csv", "subject,predicate,target\nA,directed_by,B\n")
    expected = r"kb.csv:1: CSV header is missing the required column\(s\) relation, object"
    with pytest.raises(InputError, match=expected):
        _all(p, on_error="skip")  # a header problem is fatal even when skipping


def test_csv_bad_rows(tmp_path: Path) -> None:
    content = (
        "subject,relation,object,subject_type,votes\nA,directed_by,B,Movie,3\nA,directed_by\nC,AT,D,,\n"
        "E,directed_by,F,Entity,\n"
    )
    p = _write(tmp_path, "kb.csv", content)
    records, report = _all(p, on_error="skip")
    assert [r.subject for r in records] == ["A"]
    reasons = [(x.line, x.reason) for x in report.problems]
    assert reasons[0] == (3, "expected 5 columns as in the header, found 2")
    assert reasons[1][0] == 4
    assert "relationship type 'AT' is reserved for graphwalk's own links" in reasons[1][1]
    assert reasons[2][0] == 5
    assert "reserved" in reasons[2][1]


def test_csv_bad_attribute_column(tmp_path: Path) -> None:
    p = _write(tmp_path, "kb.csv", "subject,relation,object,imdb votes,\u200bhidden\nA,directed_by,B,3,x\n")
    expected = r"CSV attribute column: property key .*hidden' contains the control character U\+200B"
    with pytest.raises(InputError, match=expected):
        _all(p)


def test_jsonl_bad_lines(tmp_path: Path) -> None:
    lines = [
        '{"subject": "A", "relation": "directed_by", "object": "B"}',
        '{"subject": "A", "relation": "directed_by", "object": "B"',
        '["A", "directed_by", "B"]',
        '{"subj": "A", "relation": "directed_by", "object": "B"}',
        '{"relation": "directed_by", "object": "B"}',
        '{"subject": "A", "relation": "directed_by", "object": 7}',
        '{"subject": "A", "relation": "directed_by", "object": "B", "attributes": {"x": [1]}}',
        '{"subject": "A", "relation": "directed_by", "object": "B", "attributes": 3}',
        '{"subject": "A", "relation": "directed_by", "object": "B", "subject_type": "Walk"}',
    ]
    p = _write(tmp_path, "kb.jsonl", "\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"kb.jsonl:2: malformed JSON at column \d+"):
        _all(p)
    records, report = _all(p, on_error="skip")
    assert len(records) == 1
    got = {x.line: x.reason for x in report.problems}
    assert got[2].startswith("malformed JSON")
    assert got[3] == "expected a JSON object, got list"
    assert got[4].startswith("unknown key(s) 'subj'; put extra fields under 'attributes'")
    assert got[5] == "missing required key(s) subject"
    assert got[6] == "object must be a string, got int"
    assert got[7] == "attribute 'x' must be a string, number or boolean, got list"
    assert got[8] == "'attributes' must be an object, got int"
    assert got[9] == (
        "subject_type: entity type label 'Walk' is reserved for graphwalk's own nodes; rename the type in the data"
    )


def test_iter_functions_take_a_report(tmp_path: Path) -> None:
    csv_p = _write(tmp_path, "a.csv", "subject,relation,object\nA,directed_by,B\n")
    jsonl_p = _write(tmp_path, "a.jsonl", '{"subject": "A", "relation": "directed_by", "object": "B"}\n')
    for fn, path in ((iter_csv, csv_p), (iter_jsonl, jsonl_p)):
        report = ParseReport(file=str(path))
        assert [len(b) for b in fn(path, report=report)] == [1]
        assert report.records == 1
