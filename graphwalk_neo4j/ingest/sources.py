"""Text sources: files turned into :class:`SourceDocument` objects (id, title, text, hash), or a clear rejection.

Supported files: ``.txt`` and ``.md`` (the text as is), ``.json`` (rendered as text, see :func:`json_to_text`)
and ``.csv`` read *as text* (one paragraph per row, ``column: value`` pairs; see :func:`csv_to_text`). A
directory is read recursively, files in sorted order, skipping names that start with a dot; a document's id is
its path relative to the directory given (for a single file, its file name), so ids are stable across machines.

Rejections are not errors: :func:`read_document` returns a :class:`Rejected` carrying the reason, so one bad
file does not stop a run. A file is rejected when it is larger than ``max_bytes`` (default 5 MB), looks binary
(a NUL byte in its first 8 KB), is not UTF-8, or is JSON that does not parse. A file whose text is blank is
returned as a document with empty text; the pipeline reports it as empty and writes nothing for it.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.identity import content_hash

TEXT_SUFFIXES = (".txt", ".md", ".json", ".csv")
MAX_BYTES = 5_000_000
_TEXT_KEYS = ("text", "body", "content", "abstract", "description")
_TITLE_KEYS = ("title", "name", "headline")


@dataclass(frozen=True)
class SourceDocument:
    """One document of a source. ``hash`` covers the text and title (what extraction reads)."""

    doc_id: str
    title: str
    text: str
    kind: str  # "txt" | "md" | "json" | "csv"
    path: str
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def hash(self) -> str:
        return content_hash({"title": self.title, "text": self.text})


@dataclass(frozen=True)
class Rejected:
    doc_id: str
    path: str
    reason: str


def json_to_text(value: Any, *, depth: int = 0) -> str:
    """Render JSON as prose-like text: a text field as is, objects as ``key: value`` lines, lists as paragraphs.

    An object with a text-like field (``text``, ``body``, ``content``, ...) becomes its title (when it has one)
    and that text; other scalar fields follow as ``key: value`` lines. A list becomes one paragraph per item.
    """
    if isinstance(value, list):
        return "\n\n".join(t for t in (json_to_text(v, depth=depth + 1) for v in value) if t.strip())
    if isinstance(value, dict):
        lines: list[str] = []
        title_key = next((k for k in _TITLE_KEYS if isinstance(value.get(k), str)), None)
        body_key = next((k for k in _TEXT_KEYS if isinstance(value.get(k), str)), None)
        for key in (title_key, body_key):
            if key is not None:
                lines.append(str(value[key]))
        rest: list[str] = []
        for key, item in value.items():
            if key in (title_key, body_key):
                continue
            if isinstance(item, dict | list):
                nested = json_to_text(item, depth=depth + 1)
                if nested.strip():
                    rest.append(f"{key}:\n{nested}")
            elif item is not None:
                rest.append(f"{key}: {item}")
        if rest:
            lines.append("\n".join(rest))
        return "\n\n".join(lines)
    return "" if value is None else str(value)


def csv_to_text(text: str) -> str:
    """CSV read as text: one paragraph per data row, ``header: value`` pairs joined by ``; ``."""
    reader = csv.reader(io.StringIO(text))
    rows = [r for r in reader if any(cell.strip() for cell in r)]
    if not rows:
        return ""
    header, body = rows[0], rows[1:]
    paragraphs = []
    for row in body:
        pairs = [f"{h.strip()}: {v.strip()}" for h, v in zip(header, row, strict=False) if v.strip()]
        paragraphs.append("; ".join(pairs) + ".")
    return "\n\n".join(paragraphs)


def _title_of(text: str, fallback: str) -> str:
    for line in text.splitlines():
        stripped = line.strip().lstrip("#").strip()
        if stripped:
            return stripped[:200]
    return fallback


def read_document(path: Path, doc_id: str, *, max_bytes: int = MAX_BYTES) -> SourceDocument | Rejected:
    """Read one file as a document, or say why it cannot be one."""
    suffix = path.suffix.lower()
    if suffix not in TEXT_SUFFIXES:
        return Rejected(
            doc_id,
            str(path),
            f"unsupported file type {suffix or '(none)'!r} (text ingest reads {', '.join(TEXT_SUFFIXES)})",
        )
    try:
        size = path.stat().st_size
        if size > max_bytes:
            return Rejected(
                doc_id,
                str(path),
                f"file is {size:,} bytes, over the {max_bytes:,}-byte limit (split it, or raise --max-bytes)",
            )
        data = path.read_bytes()
    except OSError as exc:
        return Rejected(doc_id, str(path), f"cannot read the file: {exc.strerror or exc}")
    if b"\x00" in data[:8192]:
        return Rejected(doc_id, str(path), "looks like a binary file (NUL bytes); only text files are ingested")
    try:
        raw = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return Rejected(doc_id, str(path), f"not UTF-8 text (byte {exc.start}: {exc.reason})")
    title = path.stem
    if suffix == ".json":
        try:
            parsed = json.loads(raw) if raw.strip() else None
        except json.JSONDecodeError as exc:
            return Rejected(doc_id, str(path), f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}")
        text = json_to_text(parsed)
        if isinstance(parsed, dict):
            title = next((str(parsed[k]) for k in _TITLE_KEYS if isinstance(parsed.get(k), str)), title)
    elif suffix == ".csv":
        text = csv_to_text(raw)
    else:
        text = raw.replace("\r\n", "\n").strip()
        title = _title_of(text, path.stem) if suffix == ".md" else path.stem
    return SourceDocument(doc_id=doc_id, title=title, text=text, kind=suffix[1:], path=str(path))


def discover(paths: list[str | Path]) -> list[tuple[Path, str]]:
    """(file, doc id) for every file named or found (recursively, sorted) under a directory named."""
    found: list[tuple[Path, str]] = []
    seen: set[str] = set()
    for given in paths:
        p = Path(given)
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                rel = f.relative_to(p)
                hidden = any(part.startswith(".") for part in rel.parts)
                if f.is_file() and not hidden and f.suffix.lower() in TEXT_SUFFIXES:
                    found.append((f, rel.as_posix()))
        elif p.is_file():
            found.append((p, p.name))
        else:
            raise InputError("file or directory not found", path=p)
    for _, doc_id in found:
        if doc_id in seen:
            raise InputError(
                f"two inputs have the same document id {doc_id!r}; ingest them under different "
                "--source names or from one directory"
            )
        seen.add(doc_id)
    return found
