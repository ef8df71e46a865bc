"""Chunking: a document's text cut into ordered chunks of at most ``max_chars`` characters.

Chunks are packed from whole paragraphs (paragraphs are separated by blank lines), in order, joined by one blank
line. A paragraph longer than ``max_chars`` on its own is cut at sentence ends, and a sentence that is still too
long is cut at the last whitespace before the limit (or hard, at the limit, when it has none). Nothing is lost
or reordered: every non-blank paragraph's text appears in exactly one chunk, in document order.

Each :class:`Chunk` carries its 0-based ``index``, its ``text`` and ``hash`` (sha256 of the text), which keys the
extraction cache. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphwalk_neo4j.graph.identity import content_hash

MAX_CHARS = 2000
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Chunk:
    index: int
    text: str
    hash: str


def paragraphs(text: str) -> list[str]:
    """Non-blank paragraphs of ``text`` (line endings normalised, each paragraph stripped)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [p.strip() for p in _PARAGRAPH_BREAK.split(text) if p.strip()]


def _cut_long(piece: str, max_chars: int) -> list[str]:
    """Cut one over-long sentence at whitespace (hard at ``max_chars`` when there is none)."""
    out: list[str] = []
    while len(piece) > max_chars:
        cut = piece.rfind(" ", 0, max_chars + 1)
        if cut <= 0:
            cut = max_chars
        out.append(piece[:cut].rstrip())
        piece = piece[cut:].lstrip()
    if piece:
        out.append(piece)
    return out


def split_paragraph(paragraph: str, max_chars: int = MAX_CHARS) -> list[str]:
    """A paragraph as pieces of at most ``max_chars``: whole sentences packed together where possible."""
    if len(paragraph) <= max_chars:
        return [paragraph]
    pieces: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(paragraph):
        for part in _cut_long(sentence, max_chars):
            if not current:
                current = part
            elif len(current) + 1 + len(part) <= max_chars:
                current = f"{current} {part}"
            else:
                pieces.append(current)
                current = part
    if current:
        pieces.append(current)
    return pieces


def chunk_text(text: str, max_chars: int = MAX_CHARS) -> list[Chunk]:
    """Pack the paragraphs of ``text`` into chunks of at most ``max_chars`` characters (see module docstring)."""
    if max_chars < 20:
        raise ValueError("max_chars must be at least 20")
    texts: list[str] = []
    current: list[str] = []
    size = 0
    for paragraph in paragraphs(text):
        for piece in split_paragraph(paragraph, max_chars):
            extra = len(piece) + (2 if current else 0)
            if current and size + extra > max_chars:
                texts.append("\n\n".join(current))
                current, size = [], 0
                extra = len(piece)
            current.append(piece)
            size += extra
    if current:
        texts.append("\n\n".join(current))
    return [Chunk(index=i, text=t, hash=content_hash(t)) for i, t in enumerate(texts)]
