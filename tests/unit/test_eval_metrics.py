"""Exact-value tests for graphwalk_neo4j.eval.metrics and the answer-set scoring it takes from
graphwalk_neo4j.qa_format."""

from __future__ import annotations

import math

import numpy as np
import pytest

from graphwalk_neo4j.eval.metrics import (
    ALL,
    AnswerScores,
    aggregate,
    exact_match,
    hits_at_1,
    percentile,
    score_answers,
    summarize,
)
from graphwalk_neo4j.qa_format import PRF, answer_set, normalize_answer, precision_recall_f1


def test_normalize_answer() -> None:
    assert normalize_answer("  The   Big\tSleep \n") == "the big sleep"
    assert normalize_answer("STRASSE") == normalize_answer("straße")  # casefold, not lower
    assert normalize_answer("Paris, Texas") != normalize_answer("Paris Texas")  # punctuation is kept
    assert normalize_answer("Amélie") != normalize_answer("Amelie")  # accents are kept


def test_answer_set_drops_empties_and_duplicates() -> None:
    assert answer_set(["Kismet", " kismet ", "", "  ", "Blonde Venus"]) == {"kismet", "blonde venus"}


def test_hits_at_1() -> None:
    assert hits_at_1(["kismet", "Blonde Venus"], ["Kismet"]) == 1.0
    assert hits_at_1(["Blonde Venus", "Kismet"], ["Kismet"]) == 0.0
    assert hits_at_1([], ["Kismet"]) == 0.0


def test_exact_match() -> None:
    assert exact_match(["B", "a "], ["A", "b", "b"]) == 1.0
    assert exact_match(["A"], ["A", "B"]) == 0.0
    assert exact_match([], []) == 1.0


@pytest.mark.parametrize(
    ("pred", "gold", "expected"),
    [
        (["a", "b", "c", "d"], ["a", "b", "e"], PRF(0.5, 2 / 3, 4 / 7)),
        (["a"], ["a", "b"], PRF(1.0, 0.5, 2 / 3)),
        (["x"], ["a"], PRF(0.0, 0.0, 0.0)),
        ([], ["a"], PRF(0.0, 0.0, 0.0)),
        (["a"], [], PRF(0.0, 0.0, 0.0)),
        ([], [], PRF(1.0, 1.0, 1.0)),
        (["A", "a"], ["a"], PRF(1.0, 1.0, 1.0)),
    ],
)
def test_precision_recall_f1(pred: list[str], gold: list[str], expected: PRF) -> None:
    got = precision_recall_f1(pred, gold)
    assert got == pytest.approx(expected, abs=1e-12)


def test_score_answers() -> None:
    assert score_answers(["b", "a"], iter(["a", "c"])) == AnswerScores(
        hits_at_1=0.0, exact_match=0.0, precision=0.5, recall=0.5, f1=0.5
    )


def test_percentile_linear_interpolation() -> None:
    xs = [10.0, 1.0, 4.0, 3.0, 2.0]  # sorted: 1 2 3 4 10
    assert percentile(xs, 50) == 3.0
    assert percentile(xs, 95) == pytest.approx(8.8)  # rank 3.8: 4 + 0.8 * (10 - 4)
    assert percentile(xs, 0) == 1.0
    assert percentile(xs, 100) == 10.0
    assert percentile([1.0, 2.0], 50) == 1.5
    assert percentile([7.0], 95) == 7.0
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError, match="percentile must be between 0 and 100, got 101"):
        percentile(xs, 101)


def test_percentile_matches_numpy_default() -> None:
    rng = np.random.default_rng(7)
    xs = rng.exponential(size=101).tolist()
    for p in (0, 5, 50, 90, 95, 99, 100):
        assert percentile(xs, p) == pytest.approx(float(np.percentile(xs, p)), rel=1e-12)


def test_summarize() -> None:
    s = summarize([1.0, 2.0, 3.0, 4.0, 10.0])
    assert (s.n, s.mean, s.p50) == (5, 4.0, 3.0)
    assert s.p95 == pytest.approx(8.8)
    empty = summarize([])
    assert empty.n == 0
    assert math.isnan(empty.mean)
    assert math.isnan(empty.p95)


def test_aggregate_by_key_and_function() -> None:
    rows = [
        {"qtype": "movie_to_actor", "hits": 1.0, "f1": 0.5},
        {"qtype": "movie_to_actor", "hits": 0.0, "f1": 0.25},
        {"qtype": "actor_to_movie", "hits": 1.0, "f1": 1.0},
    ]
    out = aggregate(rows, ["hits", "f1"], by="qtype")
    assert list(out) == [ALL, "actor_to_movie", "movie_to_actor"]
    assert (out[ALL].n, out[ALL].means) == (3, {"hits": 2 / 3, "f1": 1.75 / 3})
    assert (out["movie_to_actor"].n, out["movie_to_actor"].means) == (2, {"hits": 0.5, "f1": 0.375})
    assert out["actor_to_movie"].means == {"hits": 1.0, "f1": 1.0}
    by_len = aggregate(rows, ["hits"], by=lambda r: str(len(str(r["qtype"]).split("_to_")) - 1))
    assert list(by_len) == [ALL, "1"]
    assert by_len["1"].n == 3
    assert list(aggregate(rows, ["hits"])) == [ALL]
    assert aggregate([], ["hits"]) == {}
    with pytest.raises(KeyError):
        aggregate([{"hits": 1.0}], ["f1"])
