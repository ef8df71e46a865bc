"""Pure scoring for question answering over answer sets: hits@1, exact match, all scores of a question at once,
percentiles and per-group aggregation. No I/O, no dataset knowledge.

Answers are matched as normalised sets, and P/R/F1 is set precision, recall and F1, both from
:mod:`graphwalk_neo4j.qa_format` (the rule and the empty-set conventions are in its docstring), which training
uses too.

Percentiles (:func:`percentile`) use linear interpolation between closest ranks, the default of
``numpy.percentile`` (Hyndman & Fan type 7): the p-th percentile of sorted ``x[0..n-1]`` sits at rank
``(n - 1) * p / 100``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pydantic import BaseModel

from graphwalk_neo4j.qa_format import answer_set, normalize_answer, precision_recall_f1

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence


def hits_at_1(ranked: Sequence[str], gold: Iterable[str]) -> float:
    """1.0 when the first prediction (after normalisation) is one of the gold answers, else 0.0."""
    if not ranked:
        return 0.0
    return 1.0 if normalize_answer(ranked[0]) in answer_set(gold) else 0.0


def exact_match(predicted: Iterable[str], gold: Iterable[str]) -> float:
    """1.0 when the normalised predicted and gold answer sets are equal, else 0.0."""
    return 1.0 if answer_set(predicted) == answer_set(gold) else 0.0


class AnswerScores(BaseModel):
    """All per-question scores at once."""

    hits_at_1: float
    exact_match: float
    precision: float
    recall: float
    f1: float


def score_answers(ranked: Sequence[str], gold: Iterable[str]) -> AnswerScores:
    """Score one question: ``ranked`` predictions (best first; also taken as the predicted set) vs gold."""
    gold = list(gold)
    prf = precision_recall_f1(ranked, gold)
    return AnswerScores(
        hits_at_1=hits_at_1(ranked, gold),
        exact_match=exact_match(ranked, gold),
        precision=prf.precision,
        recall=prf.recall,
        f1=prf.f1,
    )


def percentile(values: Iterable[float], p: float) -> float:
    """The ``p``-th percentile (0..100) with linear interpolation (numpy's default); NaN for no values."""
    if not 0 <= p <= 100:
        raise ValueError(f"percentile must be between 0 and 100, got {p}")
    xs = sorted(values)
    if not xs:
        return math.nan
    rank = (len(xs) - 1) * p / 100
    lo = math.floor(rank)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (rank - lo)


class Summary(BaseModel):
    """Count, mean, p50 and p95 of one series."""

    n: int
    mean: float
    p50: float
    p95: float


def summarize(values: Iterable[float]) -> Summary:
    """Count, mean and the p50/p95 percentiles (NaN when empty)."""
    xs = list(values)
    mean = math.fsum(xs) / len(xs) if xs else math.nan
    return Summary(n=len(xs), mean=mean, p50=percentile(xs, 50), p95=percentile(xs, 95))


ALL = "(all)"
"""The group key under which :func:`aggregate` reports every row together."""


class GroupStats(BaseModel):
    """Aggregate of one group: row count and the mean of each metric."""

    group: str
    n: int
    means: dict[str, float]


def aggregate(
    rows: Iterable[Mapping[str, object]],
    metrics: Sequence[str],
    by: str | Callable[[Mapping[str, object]], str] | None = None,
) -> dict[str, GroupStats]:
    """Mean of each metric per group, plus the :data:`ALL` group over every row.

    ``by`` is a row key, a function of the row, or ``None`` (only :data:`ALL`). Groups come back sorted by
    name after :data:`ALL`. A row missing a metric is an error (``KeyError``), not silently skipped.
    """
    sums: dict[str, dict[str, float]] = {}
    counts: dict[str, int] = {}
    for row in rows:
        keys = [ALL]
        if by is not None:
            keys.append(str(by(row) if callable(by) else row[by]))
        for key in keys:
            acc = sums.setdefault(key, dict.fromkeys(metrics, 0.0))
            counts[key] = counts.get(key, 0) + 1
            for m in metrics:
                acc[m] += float(row[m])  # type: ignore[arg-type]
    order = ([ALL] if ALL in counts else []) + sorted(k for k in counts if k != ALL)
    return {k: GroupStats(group=k, n=counts[k], means={m: sums[k][m] / counts[k] for m in metrics}) for k in order}
