"""Question–answer data as both measurement (:mod:`graphwalk_neo4j.eval`) and training
(:mod:`graphwalk_neo4j.learned`) read it. Pure: no I/O beyond the text given, no dataset knowledge.

* The line format (:func:`parse_qa_line`): ``question with one [topic]<TAB>answer1|answer2``, as MetaQA's
  ``qa_*.txt`` files and ``decider train --qa`` files write it.
* Answer sets (:func:`answer_set`, :func:`precision_recall_f1`). Matching rule (:func:`normalize_answer`): Unicode
  case-fold, strip, and collapse inner whitespace runs to one space. Nothing else: punctuation, articles and
  accents are kept, so ``"Paris, Texas"`` and ``"Paris Texas"`` are different answers. Predictions and gold
  answers are compared as *sets* of normalised strings; empty strings are dropped. Empty sets: both empty -> 1, 1,
  1; exactly one empty -> 0, 0, 0.

Both packages sit above this module, so training scores its gold paths with the very F1 the eval reports, and
neither package imports the other for it (eval may import learned; learned never imports eval).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from graphwalk_neo4j.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

TOPIC = re.compile(r"\[([^\[\]]+)\]")


class QALine(NamedTuple):
    """One parsed ``question<TAB>answers`` line."""

    text: str  # the question as written, with its [topic]
    text_without_brackets: str
    topic: str
    answers: tuple[str, ...]  # distinct, in file order


def parse_qa_line(text: str, *, line: int, path: str | Path | None = None) -> QALine:
    """Parse one ``question<TAB>answer1|answer2`` line with exactly one ``[topic]``; ``line`` (1-based) and ``path``
    name the place in an :class:`InputError`."""
    parts = text.rstrip("\r\n").split("\t")
    if len(parts) != 2:
        raise InputError(
            f"expected 'question<TAB>answer1|answer2|...', found {len(parts)} TAB-separated fields",
            path=path,
            line=line,
        )
    question, answer_field = parts[0].strip(), parts[1]
    topics = TOPIC.findall(question)
    if len(topics) != 1 or question.count("[") != 1 or question.count("]") != 1:
        raise InputError(
            f"expected exactly one [topic entity] in the question, found {len(topics)}: {question!r}",
            path=path,
            line=line,
        )
    answers = tuple(dict.fromkeys(a.strip() for a in answer_field.split("|") if a.strip()))
    if not answers:
        raise InputError("the question has no answers after the TAB", path=path, line=line)
    return QALine(question, TOPIC.sub(lambda m: m.group(1), question), topics[0].strip(), answers)


def normalize_answer(text: str) -> str:
    """Case-fold, strip and collapse whitespace (see the module docstring)."""
    return " ".join(text.casefold().split())


def answer_set(answers: Iterable[str]) -> frozenset[str]:
    """The set of normalised, non-empty answers."""
    return frozenset(n for n in (normalize_answer(a) for a in answers) if n)


class PRF(NamedTuple):
    precision: float
    recall: float
    f1: float


def precision_recall_f1(predicted: Iterable[str], gold: Iterable[str]) -> PRF:
    """Set precision, recall and F1 of normalised answers (empty-set conventions in the module docstring)."""
    pred, ref = answer_set(predicted), answer_set(gold)
    if not pred and not ref:
        return PRF(1.0, 1.0, 1.0)
    if not pred or not ref:
        return PRF(0.0, 0.0, 0.0)
    hit = len(pred & ref)
    if hit == 0:
        return PRF(0.0, 0.0, 0.0)
    p, r = hit / len(pred), hit / len(ref)
    return PRF(p, r, 2 * p * r / (p + r))
