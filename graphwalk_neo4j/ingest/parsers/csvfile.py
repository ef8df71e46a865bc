"""CSV with a ``subject,relation,object[,subject_type,object_type,attributes...]`` header."""

from __future__ import annotations

import csv
from typing import TYPE_CHECKING

from graphwalk_neo4j.errors import InputError, InvalidIdentifierError
from graphwalk_neo4j.identifiers import property_key
from graphwalk_neo4j.ingest.parsers.common import (
    CORE_FIELDS,
    DEFAULT_BATCH_SIZE,
    MAX_LINE_BYTES,
    OPTIONAL_FIELDS,
    Batch,
    OnError,
    ParseReport,
    ReadContext,
    Rows,
    run_reader,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


def csv_rows(ctx: ReadContext) -> Rows:
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
        attrs = {k: v for k, v in cells.items() if k not in CORE_FIELDS and k not in OPTIONAL_FIELDS and v != ""}
        types = cells.get("subject_type", "").strip(), cells.get("object_type", "").strip()
        yield ctx.builder.build(line, cells["subject"], cells["relation"], cells["object"], *types, attrs)


def _check_header(path: Path, line: int, row: list[str]) -> list[str]:
    header = [cell.strip() for cell in row]
    missing = [c for c in CORE_FIELDS if c not in header]
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
        if name not in CORE_FIELDS and name not in OPTIONAL_FIELDS:
            try:
                property_key(name)
            except InvalidIdentifierError as exc:
                raise InputError(f"CSV attribute column: {exc}", path=path, line=line) from exc
    return header


def iter_csv(
    path: str | Path,
    *,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_line_bytes: int = MAX_LINE_BYTES,
    report: ParseReport | None = None,
) -> Iterator[Batch]:
    """Yield batches of records from a CSV file with a ``subject,relation,object[,...]`` header."""
    return run_reader(csv_rows, "csv", path, on_error, batch_size, max_line_bytes, report)
