"""Streaming parsers for structured knowledge-graph input: triple lines, CSV and JSON Lines.

This module owns reading files into batches of :class:`~graphwalk_neo4j.graph.rows.TripleRecord`
and every complaint about bad input. It does no database work.

Formats (:func:`detect_format` picks one from the extension unless told):

* ``triples`` (``.txt``, ``.tsv``): one ``subject|relation|object`` per line, as in MetaQA's ``kb.txt``.
  The delimiter is chosen once per file: if the first non-empty line contains a TAB and no ``|``, the
  file is tab-separated, otherwise ``|``-separated. Fields are stripped of surrounding whitespace.
* ``csv`` (``.csv``): a header row with ``subject``, ``relation``, ``object`` and optionally
  ``subject_type`` and ``object_type``; every other column becomes a subject attribute (empty cells are
  left out). Quoted fields may span lines; a record's line is its first line.
* ``jsonl`` (``.jsonl``, ``.ndjson``): one JSON object per line with ``subject``, ``relation``,
  ``object`` and optionally ``subject_type``, ``object_type`` and an ``attributes`` object of scalars.
  Other keys are errors (a typo such as ``"subj"`` should not pass silently).

Blank lines are skipped everywhere. Input must be UTF-8 (a UTF-8 BOM is tolerated). Relation names must
pass :func:`~graphwalk_neo4j.identifiers.relation_type` and are kept as given; types must pass
:func:`~graphwalk_neo4j.identifiers.type_label`, attribute keys
:func:`~graphwalk_neo4j.identifiers.property_key`.

Errors: problems with the whole file (missing, empty, binary, UTF-16, unknown format, CSV header) always
raise :class:`~graphwalk_neo4j.errors.InputError`. Problems with one line (too long, not UTF-8, NUL byte,
wrong field count, empty name, bad relation, bad JSON...) raise ``InputError(path=, line=)`` with
``on_error="fail"`` and are recorded in the :class:`ParseReport` with ``on_error="skip"``. Lines longer
than ``max_line_bytes`` (default 1 MiB) are never held in memory whole: the reader reads at most the
limit and then skips the rest of the line in 64 KiB chunks.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from graphwalk_neo4j.errors import InputError, InvalidIdentifierError
from graphwalk_neo4j.graph.rows import TripleRecord
from graphwalk_neo4j.identifiers import property_key, relation_type, type_label

Format = Literal["triples", "csv", "jsonl"]
OnError = Literal["fail", "skip"]
Batch = list[TripleRecord]

MAX_LINE_BYTES = 1 << 20
DEFAULT_BATCH_SIZE = 1000
MAX_STORED_PROBLEMS = 1000
_SNIFF_BYTES = 8192
_SKIP_CHUNK = 1 << 16
_EXTENSIONS: dict[str, Format] = {
    ".txt": "triples",
    ".tsv": "triples",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
_CORE = ("subject", "relation", "object")
_OPTIONAL = ("subject_type", "object_type")
_JSON_KEYS = frozenset(_CORE + _OPTIONAL + ("attributes",))


class ParseProblem(BaseModel):
    """One skipped line: where it is and why it was skipped."""

    file: str
    line: int | None
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}" if self.line is not None else f"{self.file}: {self.reason}"


class ParseReport(BaseModel):
    """What a parse saw. Complete once the batch iterator is exhausted.

    ``problems`` keeps the first :data:`MAX_STORED_PROBLEMS` skipped lines; ``skipped`` counts all of them.
    """

    file: str
    format: Format | None = None
    lines: int = 0
    records: int = 0
    skipped: int = 0
    problems: list[ParseProblem] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.skipped == 0


class _Problems:
    """Routes one-line problems: raise (``fail``) or record and go on (``skip``)."""

    def __init__(self, path: Path, on_error: OnError, report: ParseReport) -> None:
        if on_error not in ("fail", "skip"):
            raise ValueError(f"on_error must be 'fail' or 'skip', got {on_error!r}")
        self.path, self.on_error, self.report = path, on_error, report

    def __call__(self, line: int, reason: str) -> None:
        if self.on_error == "fail":
            hint = " (use --on-error skip to skip bad lines and report them)"
            raise InputError(reason + hint, path=self.path, line=line)
        self.report.skipped += 1
        if len(self.report.problems) < MAX_STORED_PROBLEMS:
            self.report.problems.append(ParseProblem(file=str(self.path), line=line, reason=reason))


def detect_format(path: str | Path, explicit: str | None = None) -> Format:
    """Return the format named by ``explicit`` or implied by the file extension."""
    if explicit is not None:
        if explicit not in ("triples", "csv", "jsonl"):
            raise InputError(f"unknown format {explicit!r}; choose one of triples, csv, jsonl", path=path)
        return explicit  # type: ignore[return-value]
    suffix = Path(path).suffix.lower()
    if suffix not in _EXTENSIONS:
        known = ", ".join(sorted(_EXTENSIONS))
        raise InputError(
            f"cannot tell the format from the extension {suffix or '(none)'!r} (known: {known}); "
            "pass the format explicitly (triples, csv or jsonl)",
            path=path,
        )
    return _EXTENSIONS[suffix]


def check_file(path: str | Path) -> Path:
    """Fail early on a missing, empty or binary file; return the path."""
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file (or it is not a regular file)", path=p)
    with p.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    check_head(p, head, p.stat().st_size)
    return p


def check_head(p: Path, head: bytes, size: int) -> None:
    """The file-level checks of :func:`check_file` on the first bytes of a file of ``size`` bytes."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("looks like UTF-16 text; convert it with `iconv -f utf-16 -t utf-8 IN > OUT`", path=p)
    if b"\x00" in head or _control_ratio(head) > 0.1:
        raise InputError("looks binary (NUL or control bytes near the start); expected UTF-8 text", path=p)
    if (not head.strip() or (head.startswith(b"\xef\xbb\xbf") and not head[3:].strip())) and size <= _SNIFF_BYTES:
        raise InputError("is empty; expected at least one record", path=p)


def _control_ratio(data: bytes) -> float:
    if not data:
        return 0.0
    bad = sum(1 for b in data if b < 0x20 and b not in (0x09, 0x0A, 0x0C, 0x0D, 0x1B))
    return bad / len(data)


def iter_lines(
    path: Path,
    problems: Callable[[int, str], None],
    report: ParseReport,
    max_line_bytes: int = MAX_LINE_BYTES,
    *,
    data: bytes | None = None,
    first_line: int = 1,
) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, text)`` for each decodable line within the length limit, newline removed.

    Over-long, undecodable and NUL-containing lines go to ``problems`` instead. With ``data`` the lines are read
    from those bytes (a snapshot of ``path``, or a part of it whose first line is ``first_line``); ``path`` then
    only names the file in messages.
    """
    offset = 0
    lineno = first_line - 1
    try:
        with io.BytesIO(data) if data is not None else path.open("rb") as fh:
            while True:
                raw = fh.readline(max_line_bytes + 1)
                if not raw:
                    break
                lineno += 1
                start = offset
                offset += len(raw)
                if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                    start = 3
                if len(raw) > max_line_bytes and not raw.endswith(b"\n"):
                    while raw and not raw.endswith(b"\n"):  # skip the rest of the line without holding it
                        raw = fh.readline(_SKIP_CHUNK)
                        offset += len(raw)
                    report.lines = lineno
                    problems(
                        lineno,
                        f"line is longer than the limit of {max_line_bytes:,} bytes; "
                        "split the record or raise max_line_bytes",
                    )
                    continue
                if b"\x00" in raw:
                    report.lines = lineno
                    problems(lineno, "contains a NUL byte; the file looks binary, expected UTF-8 text")
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    report.lines = lineno
                    problems(
                        lineno,
                        f"not valid UTF-8 at byte offset {start + exc.start} (byte "
                        f"0x{raw[exc.start]:02x}); if the file is Latin-1, convert it with "
                        "`iconv -f latin1 -t utf-8 IN > OUT`",
                    )
                    continue
                yield lineno, text.rstrip("\r\n")
    finally:
        report.lines = lineno


class _Builder:
    """Validates fields and builds records; caches names that already passed validation."""

    def __init__(self, path: Path, problems: Callable[[int, str], None]) -> None:
        self.source = str(path)
        self.problems = problems
        self.ok_relations: set[str] = set()
        self.ok_types: set[str] = set()

    def build(
        self,
        line: int,
        subject: Any,
        relation: Any,
        obj: Any,
        subject_type: Any = None,
        object_type: Any = None,
        attributes: dict[str, Any] | None = None,
    ) -> TripleRecord | None:
        """Return a record, or ``None`` after reporting why the fields are not acceptable."""
        for what, value in (("subject", subject), ("relation", relation), ("object", obj)):
            if not isinstance(value, str):
                self.problems(line, f"{what} must be a string, got {type(value).__name__}")
                return None
        subject, relation, obj = subject.strip(), relation.strip(), obj.strip()
        if not subject or not obj or not relation:
            what = "subject" if not subject else "object" if not obj else "relation"
            self.problems(line, f"empty {what}; every record needs a subject, a relation and an object")
            return None
        if relation not in self.ok_relations:
            try:
                self.ok_relations.add(relation_type(relation))
            except InvalidIdentifierError as exc:
                self.problems(line, str(exc))
                return None
        if not (subject_type or object_type or attributes):  # the common (MetaQA) case, kept lean
            return TripleRecord(subject=subject, relation=relation, object=obj, source=self.source, line=line)
        if subject_type or object_type:
            if not self._check_type(line, "subject_type", subject_type):
                return None
            if not self._check_type(line, "object_type", object_type):
                return None
        if attributes and not self._check_attributes(line, attributes):
            return None
        return TripleRecord(
            subject=subject,
            relation=relation,
            object=obj,
            subject_type=subject_type or None,
            object_type=object_type or None,
            attributes=attributes or {},
            source=self.source,
            line=line,
        )

    def _check_type(self, line: int, what: str, value: Any) -> bool:
        if value is None or value == "" or value in self.ok_types:
            return True
        if not isinstance(value, str):
            self.problems(line, f"{what} must be a string, got {type(value).__name__}")
            return False
        try:
            self.ok_types.add(type_label(value))
        except InvalidIdentifierError as exc:
            self.problems(line, f"{what}: {exc}")
            return False
        return True

    def _check_attributes(self, line: int, attributes: dict[str, Any]) -> bool:
        for key, value in attributes.items():
            try:
                property_key(key)
            except InvalidIdentifierError as exc:
                self.problems(line, f"attribute name: {exc}")
                return False
            if not isinstance(value, str | int | float | bool):
                self.problems(
                    line, f"attribute {key!r} must be a string, number or boolean, got {type(value).__name__}"
                )
                return False
        return True


def _batched(records: Iterable[TripleRecord | None], size: int, report: ParseReport) -> Iterator[Batch]:
    batch: Batch = []
    for record in records:
        if record is not None:
            batch.append(record)
            if len(batch) >= size:
                report.records += len(batch)
                yield batch
                batch = []
    if batch:
        report.records += len(batch)
        yield batch


class _Ctx:
    """What a format's row reader needs: the path, its lines, the problem router and the record builder."""

    def __init__(
        self,
        path: Path,
        on_error: OnError,
        report: ParseReport,
        max_line_bytes: int,
        data: bytes | None = None,
        first_line: int = 1,
        sep: str | None = None,
    ) -> None:
        self.path, self.report = path, report
        self.problems = _Problems(path, on_error, report)
        self.builder = _Builder(path, self.problems)
        self.max_line_bytes = max_line_bytes
        self.saw_header = False
        self.data, self.first_line, self.sep = data, first_line, sep

    def lines(self) -> Iterator[tuple[int, str]]:
        return iter_lines(
            self.path, self.problems, self.report, self.max_line_bytes, data=self.data, first_line=self.first_line
        )


Rows = Iterator[TripleRecord | None]


def _run(
    reader: Callable[[_Ctx], Rows],
    fmt: Format,
    path: str | Path,
    on_error: OnError,
    batch_size: int,
    max_line_bytes: int,
    report: ParseReport | None,
) -> Iterator[Batch]:
    p = check_file(path)
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    report = report if report is not None else ParseReport(file=str(p))
    report.format = fmt
    ctx = _Ctx(p, on_error, report, max_line_bytes)
    yield from _batched(reader(ctx), batch_size, report)
    _check_some_records(p, ctx, report)


def _check_some_records(p: Path, ctx: _Ctx, report: ParseReport) -> None:
    if report.records == 0 and report.skipped:
        first = report.problems[0] if report.problems else None
        raise InputError(
            f"none of its {report.skipped:,} records could be read (every one was bad), so nothing "
            f"was loaded; first problem: line {first.line}: {first.reason}"
            if first
            else "none of its records could be read, so nothing was loaded",
            path=p,
        )
    if report.records == 0 and report.skipped == 0:
        if ctx.saw_header:
            raise InputError("has a header but no data rows; expected at least one record", path=p)
        raise InputError("is empty; expected at least one record", path=p)


def _separator(text: str) -> str:
    return "\t" if "\t" in text and "|" not in text else "|"


def triple_separator(data: bytes) -> str:
    """The delimiter of a triples file: TAB when its first non-empty line has a TAB and no ``|``, else ``|``."""
    for raw in data.split(b"\n", 64):
        text = raw.decode("utf-8", "replace").lstrip("\ufeff")
        if text.strip():
            return _separator(text)
    return "|"


def _triple_rows(ctx: _Ctx) -> Rows:
    sep: str | None = ctx.sep
    for line, text in ctx.lines():
        if not text.strip():
            continue
        if sep is None:
            sep = _separator(text)
        fields = text.split(sep)
        if len(fields) != 3:
            shape = "subject|relation|object" if sep == "|" else "subject<TAB>relation<TAB>object"
            ctx.problems(line, f"expected 3 fields ({shape}), found {len(fields)}")
            continue
        yield ctx.builder.build(line, fields[0], fields[1], fields[2])


def _csv_rows(ctx: _Ctx) -> Rows:
    starts: list[int] = []  # line numbers fed to the csv reader for the row being read

    def texts() -> Iterator[str]:
        for line, text in ctx.lines():
            starts.append(line)
            yield text + "\n"  # csv needs the line ends to keep newlines inside quoted fields

    reader = csv.reader(texts())
    header: list[str] | None = None
    while True:
        starts.clear()
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            ctx.problems(starts[0] if starts else ctx.report.lines, f"malformed CSV: {exc}")
            continue
        line = starts[0] if starts else ctx.report.lines
        if not any(cell.strip() for cell in row):
            continue
        if header is None:
            header, ctx.saw_header = _check_header(ctx.path, line, row), True
            continue
        if len(row) != len(header):
            ctx.problems(line, f"expected {len(header)} columns as in the header, found {len(row)}")
            continue
        cells = dict(zip(header, row, strict=True))
        attrs = {k: v for k, v in cells.items() if k not in _CORE and k not in _OPTIONAL and v != ""}
        types = cells.get("subject_type", "").strip(), cells.get("object_type", "").strip()
        yield ctx.builder.build(line, cells["subject"], cells["relation"], cells["object"], *types, attrs)


def _check_header(path: Path, line: int, row: list[str]) -> list[str]:
    header = [cell.strip() for cell in row]
    missing = [c for c in _CORE if c not in header]
    if missing:
        raise InputError(
            f"CSV header is missing the required column(s) {', '.join(missing)}; found {header}. The first "
            "row must name the columns: subject,relation,object (optionally subject_type, object_type and "
            "attribute columns)",
            path=path,
            line=line,
        )
    dupes = sorted({c for c in header if header.count(c) > 1})
    if dupes:
        raise InputError(f"CSV header repeats column(s) {', '.join(dupes)}", path=path, line=line)
    for name in header:
        if name not in _CORE and name not in _OPTIONAL:
            try:
                property_key(name)
            except InvalidIdentifierError as exc:
                raise InputError(f"CSV attribute column: {exc}", path=path, line=line) from exc
    return header


def _jsonl_rows(ctx: _Ctx) -> Rows:
    for line, text in ctx.lines():
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            ctx.problems(line, f"malformed JSON at column {exc.colno}: {exc.msg}")
            continue
        if not isinstance(obj, dict):
            ctx.problems(line, f"expected a JSON object, got {type(obj).__name__}")
            continue
        unknown = sorted(set(obj) - _JSON_KEYS)
        missing = [k for k in _CORE if k not in obj]
        attrs = obj.get("attributes") or {}
        if unknown:
            keys = ", ".join(map(repr, unknown))
            ctx.problems(line, f"unknown key(s) {keys}; put extra fields under 'attributes'")
        elif missing:
            ctx.problems(line, f"missing required key(s) {', '.join(missing)}")
        elif not isinstance(attrs, dict):
            ctx.problems(line, f"'attributes' must be an object, got {type(attrs).__name__}")
        else:
            types = obj.get("subject_type"), obj.get("object_type")
            yield ctx.builder.build(line, obj["subject"], obj["relation"], obj["object"], *types, attrs)


def iter_triples(
    path: str | Path,
    *,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_line_bytes: int = MAX_LINE_BYTES,
    report: ParseReport | None = None,
) -> Iterator[Batch]:
    """Yield batches of records from a ``subject|relation|object`` (or tab-separated) file."""
    return _run(_triple_rows, "triples", path, on_error, batch_size, max_line_bytes, report)


def iter_csv(
    path: str | Path,
    *,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_line_bytes: int = MAX_LINE_BYTES,
    report: ParseReport | None = None,
) -> Iterator[Batch]:
    """Yield batches of records from a CSV file with a ``subject,relation,object[,...]`` header."""
    return _run(_csv_rows, "csv", path, on_error, batch_size, max_line_bytes, report)


def iter_jsonl(
    path: str | Path,
    *,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_line_bytes: int = MAX_LINE_BYTES,
    report: ParseReport | None = None,
) -> Iterator[Batch]:
    """Yield batches of records from a JSON Lines file (one object per line)."""
    return _run(_jsonl_rows, "jsonl", path, on_error, batch_size, max_line_bytes, report)


_PARSERS = {"triples": iter_triples, "csv": iter_csv, "jsonl": iter_jsonl}


def parse_file(
    path: str | Path,
    fmt: str | None = None,
    *,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> tuple[Iterator[Batch], ParseReport]:
    """Check ``path`` now and return ``(batches, report)``.

    ``fmt`` is ``"triples"``, ``"csv"``, ``"jsonl"`` or ``None`` (from the extension). File-level
    problems and bad arguments raise here, before any batch is read; ``report`` is complete once
    ``batches`` is exhausted.
    """
    chosen = detect_format(path, fmt)
    p = check_file(path)
    if on_error not in ("fail", "skip"):
        raise ValueError(f"on_error must be 'fail' or 'skip', got {on_error!r}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    report = ParseReport(file=str(p), format=chosen)
    batches = _PARSERS[chosen](
        p, on_error=on_error, batch_size=batch_size, max_line_bytes=max_line_bytes, report=report
    )
    return batches, report


_ROWS: dict[Format, Callable[[_Ctx], Rows]] = {"triples": _triple_rows, "csv": _csv_rows, "jsonl": _jsonl_rows}


def parse_bytes(
    data: bytes,
    path: str | Path,
    fmt: Format,
    *,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_line_bytes: int = MAX_LINE_BYTES,
    first_line: int = 1,
    sep: str | None = None,
    whole_file: bool = True,
) -> tuple[Iterator[Batch], ParseReport]:
    """Parse bytes already read (a snapshot of ``path``, which only names the file in messages).

    ``whole_file`` applies the file-level checks (binary, UTF-16, empty, nothing readable) as
    :func:`parse_file` does. Without it ``data`` is a part of a file: lines numbered from ``first_line``, the
    triples delimiter ``sep`` decided for the whole file, and no complaint about a part without records.
    """
    p = Path(path)
    if on_error not in ("fail", "skip"):
        raise ValueError(f"on_error must be 'fail' or 'skip', got {on_error!r}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    if whole_file:
        check_head(p, data[:_SNIFF_BYTES], len(data))
    report = ParseReport(file=str(p), format=fmt)
    ctx = _Ctx(p, on_error, report, max_line_bytes, data=data, first_line=first_line, sep=sep)

    def batches() -> Iterator[Batch]:
        yield from _batched(_ROWS[fmt](ctx), batch_size, report)
        if whole_file:
            _check_some_records(p, ctx, report)

    return batches(), report
