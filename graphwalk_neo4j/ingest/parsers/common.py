"""What every format's reader shares: the file checks, the line reader with its byte limit, the problem router
(fail or skip), the record builder and batching. See :mod:`graphwalk_neo4j.ingest.parsers` for the rules."""

from __future__ import annotations

import io
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
SNIFF_BYTES = 8192
_SKIP_CHUNK = 1 << 16
_EXTENSIONS: dict[str, Format] = {
    ".txt": "triples",
    ".tsv": "triples",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
CORE_FIELDS = ("subject", "relation", "object")
OPTIONAL_FIELDS = ("subject_type", "object_type")
JSON_KEYS = frozenset(CORE_FIELDS + OPTIONAL_FIELDS + ("attributes",))


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
        head = fh.read(SNIFF_BYTES)
    check_head(p, head, p.stat().st_size)
    return p


def check_head(p: Path, head: bytes, size: int) -> None:
    """The file-level checks of :func:`check_file` on the first bytes of a file of ``size`` bytes."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("looks like UTF-16 text; convert it with `iconv -f utf-16 -t utf-8 IN > OUT`", path=p)
    if b"\x00" in head or _control_ratio(head) > 0.1:
        raise InputError("looks binary (NUL or control bytes near the start); expected UTF-8 text", path=p)
    if (not head.strip() or (head.startswith(b"\xef\xbb\xbf") and not head[3:].strip())) and size <= SNIFF_BYTES:
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


def batched(records: Iterable[TripleRecord | None], size: int, report: ParseReport) -> Iterator[Batch]:
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


class ReadContext:
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


def run_reader(
    reader: Callable[[ReadContext], Rows],
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
    ctx = ReadContext(p, on_error, report, max_line_bytes)
    yield from batched(reader(ctx), batch_size, report)
    check_some_records(p, ctx, report)


def check_some_records(p: Path, ctx: ReadContext, report: ParseReport) -> None:
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
