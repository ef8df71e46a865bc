"""``subject|relation|object`` lines (or TAB-separated), as in MetaQA's ``kb.txt``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.ingest.parsers.common import (
    DEFAULT_BATCH_SIZE,
    MAX_LINE_BYTES,
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


def _separator(text: str) -> str:
    return "\t" if "\t" in text and "|" not in text else "|"


def triple_separator(data: bytes) -> str:
    """The delimiter of a triples file: TAB when its first non-empty line has a TAB and no ``|``, else ``|``."""
    for raw in data.split(b"\n", 64):
        text = raw.decode("utf-8", "replace").lstrip("\ufeff")
        if text.strip():
            return _separator(text)
    return "|"


def triple_rows(ctx: ReadContext) -> Rows:
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


def iter_triples(
    path: str | Path,
    *,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_line_bytes: int = MAX_LINE_BYTES,
    report: ParseReport | None = None,
) -> Iterator[Batch]:
    """Yield batches of records from a ``subject|relation|object`` (or tab-separated) file."""
    return run_reader(triple_rows, "triples", path, on_error, batch_size, max_line_bytes, report)
