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

Modules: :mod:`.common` (checks, line reader, problems, builder, batching) and one reader per format,
:mod:`.triples`, :mod:`.csvfile` and :mod:`.jsonl`; this package dispatches on the format.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from graphwalk_neo4j.ingest.parsers.common import (
    DEFAULT_BATCH_SIZE,
    MAX_LINE_BYTES,
    MAX_STORED_PROBLEMS,
    SNIFF_BYTES,
    Batch,
    Format,
    OnError,
    ParseProblem,
    ParseReport,
    ReadContext,
    Rows,
    batched,
    check_file,
    check_head,
    check_some_records,
    detect_format,
    iter_lines,
)
from graphwalk_neo4j.ingest.parsers.csvfile import csv_rows, iter_csv
from graphwalk_neo4j.ingest.parsers.jsonl import iter_jsonl, jsonl_rows
from graphwalk_neo4j.ingest.parsers.triples import iter_triples, triple_rows, triple_separator

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "MAX_LINE_BYTES",
    "MAX_STORED_PROBLEMS",
    "Batch",
    "Format",
    "OnError",
    "ParseProblem",
    "ParseReport",
    "check_file",
    "check_head",
    "detect_format",
    "iter_csv",
    "iter_jsonl",
    "iter_lines",
    "iter_triples",
    "parse_bytes",
    "parse_file",
    "triple_separator",
]


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


_ROWS: dict[Format, Callable[[ReadContext], Rows]] = {"triples": triple_rows, "csv": csv_rows, "jsonl": jsonl_rows}


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
        check_head(p, data[:SNIFF_BYTES], len(data))
    report = ParseReport(file=str(p), format=fmt)
    ctx = ReadContext(p, on_error, report, max_line_bytes, data=data, first_line=first_line, sep=sep)

    def batches() -> Iterator[Batch]:
        yield from batched(_ROWS[fmt](ctx), batch_size, report)
        if whole_file:
            check_some_records(p, ctx, report)

    return batches(), report
