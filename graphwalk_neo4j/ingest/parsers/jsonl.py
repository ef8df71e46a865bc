"""JSON Lines: one object per line with the core keys, optional types and an ``attributes`` object."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from graphwalk_neo4j.ingest.parsers.common import (
    CORE_FIELDS,
    DEFAULT_BATCH_SIZE,
    JSON_KEYS,
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


def jsonl_rows(ctx: ReadContext) -> Rows:
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
        unknown = sorted(set(obj) - JSON_KEYS)
        missing = [k for k in CORE_FIELDS if k not in obj]
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


def iter_jsonl(
    path: str | Path,
    *,
    on_error: OnError = "fail",
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_line_bytes: int = MAX_LINE_BYTES,
    report: ParseReport | None = None,
) -> Iterator[Batch]:
    """Yield batches of records from a JSON Lines file (one object per line)."""
    return run_reader(jsonl_rows, "jsonl", path, on_error, batch_size, max_line_bytes, report)
