"""Chunking: whole paragraphs packed in order up to the limit; long paragraphs cut at sentences, then words."""

from __future__ import annotations

import hashlib

import pytest

from graphwalk_neo4j.ingest.chunking import chunk_text, paragraphs, split_paragraph


def test_paragraphs_split_on_blank_lines_and_normalise_line_endings() -> None:
    text = "  First line\r\nsame paragraph.\r\n\r\n\r\nSecond.\n \t\nThird.  \n"
    assert paragraphs(text) == ["First line\nsame paragraph.", "Second.", "Third."]


def test_packing_keeps_whole_paragraphs_in_order() -> None:
    a, b, c = "a" * 40, "b" * 40, "c" * 40
    chunks = chunk_text(f"{a}\n\n{b}\n\n{c}", max_chars=90)
    assert [ch.text for ch in chunks] == [f"{a}\n\n{b}", c]
    assert [ch.index for ch in chunks] == [0, 1]
    assert chunks[0].hash == hashlib.sha256(f"{a}\n\n{b}".encode()).hexdigest()
    assert len(chunks[0].text) == 82  # two paragraphs plus the blank line between them


def test_exact_fit_and_one_over() -> None:
    assert [len(c.text) for c in chunk_text("x" * 49 + "\n\n" + "y" * 49, max_chars=100)] == [100]
    assert [len(c.text) for c in chunk_text("x" * 50 + "\n\n" + "y" * 49, max_chars=100)] == [50, 49]


def test_long_paragraph_is_cut_at_sentence_ends() -> None:
    para = "One two three. Four five six! Seven eight nine? Ten."
    assert split_paragraph(para, max_chars=30) == ["One two three. Four five six!", "Seven eight nine? Ten."]


def test_long_sentence_is_cut_at_spaces_then_hard() -> None:
    assert split_paragraph("alpha beta gamma delta", max_chars=11) == ["alpha beta", "gamma delta"]
    assert split_paragraph("x" * 25, max_chars=20) == ["x" * 20, "x" * 5]


def test_nothing_lost_and_every_chunk_within_the_limit() -> None:
    words = [f"w{i}" for i in range(3000)]
    paras = [" ".join(words[i : i + 37]) + "." for i in range(0, 3000, 37)]
    paras.insert(5, " ".join(words) + ".")  # one paragraph far over the limit
    chunks = chunk_text("\n\n".join(paras), max_chars=2000)
    assert all(len(c.text) <= 2000 for c in chunks)
    assert " ".join(" ".join(c.text.split()) for c in chunks).split() == " ".join(paras).split()
    assert [c.index for c in chunks] == list(range(len(chunks)))


def test_empty_text_has_no_chunks_and_limit_is_checked() -> None:
    assert chunk_text(" \n\n \t") == []
    with pytest.raises(ValueError, match="max_chars must be at least 20"):
        chunk_text("text", max_chars=5)
