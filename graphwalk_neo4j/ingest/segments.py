"""Content-defined segments of a structured file: how re-ingest finds the part of a file that changed.

A file's bytes are cut into segments of whole lines. A segment ends after a line whose CRC-32 has its low
:data:`BOUNDARY_BITS` bits zero (about one line in 64), or after :data:`MAX_LINES` lines. Because the cut
points depend only on the lines themselves, an edit moves no boundary outside the segments it touches: inserting,
deleting or changing one line changes one segment (two when it creates or removes a cut), whatever its position.
A segment's hash covers its bytes and the parse settings (format, delimiter), so the same bytes read another way
never count as unchanged. CSV is one segment (a row depends on the header and may span lines).

Pure functions, no I/O: :func:`split` gives the segments, :class:`Segment` their line numbers and hashes, and
:func:`filter_tokens` / :func:`may_mention` the cheap test that decides which unchanged lines are worth parsing
when re-ingest must know whether a name still occurs somewhere in the file (see
:mod:`graphwalk_neo4j.ingest.structured`).
"""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass

BOUNDARY_BITS = 6
MAX_LINES = 1024
_MASK = (1 << BOUNDARY_BITS) - 1
_ASCII_RUN = re.compile(r"[A-Za-z0-9]+")


@dataclass(frozen=True)
class Segment:
    start: int  # byte offset
    end: int  # byte offset, exclusive
    first_line: int  # 1-based line number of its first line
    hash: str


def salt(fmt: str, sep: str | None) -> str:
    """The parse settings a segment hash depends on."""
    return f"segments-1\x1f{fmt}\x1f{sep or ''}\x1f"


def segment_hash(data: bytes, settings: str) -> str:
    return hashlib.sha256(settings.encode() + data).hexdigest()[:32]


def split(data: bytes, fmt: str, settings: str) -> list[Segment]:
    """The segments of ``data`` (see the module docstring)."""
    if fmt == "csv" or not data:
        return [Segment(0, len(data), 1, segment_hash(data, settings))]
    out: list[Segment] = []
    start = offset = 0
    line_no = first = 1
    lines_in = 0
    for line in data.split(b"\n"):
        offset += len(line) + 1
        lines_in += 1
        line_no += 1
        if (zlib.crc32(line) & _MASK) == 0 or lines_in >= MAX_LINES:
            end = min(offset, len(data))
            if end > start:
                out.append(Segment(start, end, first, segment_hash(data[start:end], settings)))
            start, first, lines_in = end, line_no, 0
    if start < len(data):
        out.append(Segment(start, len(data), first, segment_hash(data[start:], settings)))
    return out


def filter_tokens(*names: str) -> list[bytes]:
    """Byte strings that any line mentioning all of ``names`` must contain: the longest ASCII letter/digit run of
    each name (a name without one adds nothing). Used only on lines that are pure ASCII and free of backslashes
    (see :func:`may_mention`), where the raw text cannot spell a name differently from its canonical form."""
    tokens = []
    for name in names:
        runs = _ASCII_RUN.findall(name)
        if runs:
            tokens.append(max(runs, key=len).encode())
    return tokens


def may_mention(line: bytes, tokens: list[bytes]) -> bool:
    """False only when ``line`` certainly does not mention what ``tokens`` stand for."""
    if not line.isascii() or b"\\" in line:  # Unicode normalisation or JSON escapes could spell it otherwise
        return True
    return all(t in line for t in tokens)
