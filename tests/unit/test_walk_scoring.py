"""Exact values for walk scoring (floor, cumulative, length normalisation, confidence) and sampling
(temperature, top-p, draws, seeded generators)."""

from __future__ import annotations

import math

import pytest

from graphwalk_neo4j.walk.sampling import (
    adjust,
    apply_temperature,
    argmax_index,
    draw,
    top_p_filter,
    walk_rng,
)
from graphwalk_neo4j.walk.scoring import (
    confidence,
    cumulative_logp,
    min_confidence,
    normalized_score,
    step_logp,
)

FLOOR = 1e-3


class FixedRng:
    """Stands in for numpy's Generator: returns the given uniforms in order."""

    def __init__(self, *values: float) -> None:
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


# --- scoring -------------------------------------------------------------------------------------------------


def test_step_logp_floors_zero_and_tiny_probabilities() -> None:
    assert step_logp(0.5, FLOOR) == math.log(0.5)
    assert step_logp(1.0, FLOOR) == 0.0
    assert step_logp(0.0, FLOOR) == math.log(1e-3) == -6.907755278982137
    assert step_logp(0.0004, FLOOR) == math.log(1e-3)
    assert step_logp(0.001, FLOOR) == math.log(0.001)
    assert step_logp(0.0, 1e-9) == math.log(1e-9)


def test_cumulative_logp_sums_floored_logs() -> None:
    assert cumulative_logp([0.9, 0.8, 1.0], FLOOR) == pytest.approx(math.log(0.9) + math.log(0.8), abs=0)
    assert cumulative_logp([0.9, 0.0], FLOOR) == math.log(0.9) + math.log(1e-3)
    assert cumulative_logp([], FLOOR) == 0.0


def test_normalized_score_alpha_one_is_mean_logprob() -> None:
    cum = math.log(0.9) + math.log(0.8)
    assert normalized_score(cum, 3, n_choices=2, alpha=1.0, floor=FLOOR) == cum / 3
    assert normalized_score(cum, 2, n_choices=2, alpha=1.0, floor=FLOOR) == cum / 2


def test_normalized_score_alpha_zero_is_plain_sum_and_alpha_half_divides_by_sqrt() -> None:
    cum = math.log(0.5) + math.log(0.25)
    assert normalized_score(cum, 2, n_choices=2, alpha=0.0, floor=FLOOR) == cum
    assert normalized_score(cum, 4, n_choices=2, alpha=0.5, floor=FLOOR) == cum / 2.0


def test_never_decided_walk_scores_log_floor() -> None:
    # only forced moves and a forced STOP: cum 0, one decision (the forced STOP), no choices
    assert normalized_score(0.0, 1, n_choices=0, alpha=1.0, floor=FLOOR) == math.log(1e-3)
    assert normalized_score(0.0, 0, n_choices=0, alpha=1.0, floor=0.01) == math.log(0.01)


def test_forced_stop_counts_in_length() -> None:
    # one choice at p=0.7 then a forced STOP (p = 1): (log 0.7 + 0) / 2
    assert normalized_score(math.log(0.7), 2, n_choices=1, alpha=1.0, floor=FLOOR) == math.log(0.7) / 2


def test_confidence_matches_typesafe_formula() -> None:
    assert confidence([0.93, 0.07, 0.0]) == pytest.approx((3 * 0.93 - 1) / 2)
    assert confidence([0.8, 0.2]) == pytest.approx(0.6)
    assert confidence([1 / 3, 1 / 3, 1 / 3]) == pytest.approx(0.0)
    assert confidence([1.0, 0.0, 0.0, 0.0]) == 1.0
    assert confidence([1.0]) == 1.0
    assert confidence([]) == 1.0


def test_min_confidence_skips_forced_steps() -> None:
    assert min_confidence([0.9, None, 0.4, 0.7]) == 0.4
    assert min_confidence([None, None]) is None


# --- temperature -------------------------------------------------------------------------------------------


def test_temperature_one_is_identity() -> None:
    assert apply_temperature([0.5, 0.3, 0.2], 1.0) == [0.5, 0.3, 0.2]


def test_temperature_half_squares_and_renormalises() -> None:
    out = apply_temperature([0.5, 0.3, 0.2], 0.5)
    assert out == pytest.approx([0.25 / 0.38, 0.09 / 0.38, 0.04 / 0.38], rel=1e-12)


def test_temperature_two_takes_square_roots() -> None:
    roots = [math.sqrt(0.5), math.sqrt(0.3), math.sqrt(0.2)]
    total = sum(roots)
    assert apply_temperature([0.5, 0.3, 0.2], 2.0) == pytest.approx([r / total for r in roots], rel=1e-12)


def test_temperature_zero_is_argmax_with_offer_order_ties() -> None:
    assert apply_temperature([0.2, 0.5, 0.3], 0.0) == [0.0, 1.0, 0.0]
    assert apply_temperature([0.4, 0.4, 0.2], 0.0) == [1.0, 0.0, 0.0]
    assert argmax_index([0.1, 0.45, 0.45]) == 1


def test_temperature_cannot_revive_a_zero() -> None:
    assert apply_temperature([0.5, 0.5, 0.0], 5.0) == [0.5, 0.5, 0.0]


def test_negative_temperature_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"temperature must be >= 0, got -0\.1"):
        apply_temperature([1.0], -0.1)


# --- top-p -------------------------------------------------------------------------------------------------


def test_top_p_keeps_smallest_prefix_reaching_mass() -> None:
    assert top_p_filter([0.5, 0.3, 0.2], 0.8) == pytest.approx([0.625, 0.375, 0.0], rel=1e-12)
    assert top_p_filter([0.5, 0.3, 0.2], 0.51) == pytest.approx([0.625, 0.375, 0.0], rel=1e-12)
    assert top_p_filter([0.5, 0.3, 0.2], 0.5) == [1.0, 0.0, 0.0]
    assert top_p_filter([0.5, 0.3, 0.2], 1.0) == [0.5, 0.3, 0.2]


def test_top_p_sorts_descending_and_breaks_ties_by_offer_order() -> None:
    assert top_p_filter([0.2, 0.3, 0.5], 0.7) == pytest.approx([0.0, 0.375, 0.625], rel=1e-12)
    assert top_p_filter([0.4, 0.4, 0.2], 0.3) == [1.0, 0.0, 0.0]
    assert top_p_filter([0.2, 0.4, 0.4], 0.3) == [0.0, 1.0, 0.0]


def test_top_p_rejects_out_of_range() -> None:
    with pytest.raises(ValueError, match=r"top_p must be in \(0, 1\], got 0\.0"):
        top_p_filter([1.0], 0.0)
    with pytest.raises(ValueError, match=r"top_p must be in \(0, 1\], got 1\.5"):
        top_p_filter([1.0], 1.5)


def test_adjust_applies_temperature_then_top_p_keeping_label_order() -> None:
    out = adjust({"o1": 0.5, "o2": 0.3, "STOP": 0.2}, 0.5, 0.85)
    assert list(out) == ["o1", "o2", "STOP"]
    # T=0.5 -> [0.6579, 0.2368, 0.1053]; top-p 0.85 keeps the first two (0.8947)
    assert out == pytest.approx({"o1": 0.25 / 0.34, "o2": 0.09 / 0.34, "STOP": 0.0}, rel=1e-12)


# --- draws -------------------------------------------------------------------------------------------------


def test_draw_walks_cumulative_mass_in_offer_order() -> None:
    dist = {"a": 0.5, "b": 0.3, "c": 0.2}
    assert draw(dist, FixedRng(0.0)) == "a"  # type: ignore[arg-type]
    assert draw(dist, FixedRng(0.4999)) == "a"  # type: ignore[arg-type]
    assert draw(dist, FixedRng(0.5)) == "b"  # type: ignore[arg-type]
    assert draw(dist, FixedRng(0.79)) == "b"  # type: ignore[arg-type]
    assert draw(dist, FixedRng(0.8)) == "c"  # type: ignore[arg-type]
    assert draw(dist, FixedRng(0.99999)) == "c"  # type: ignore[arg-type]


def test_draw_never_returns_a_zero_probability_label() -> None:
    assert draw({"a": 0.0, "b": 1.0, "c": 0.0}, FixedRng(0.0)) == "b"  # type: ignore[arg-type]
    assert draw({"a": 0.5, "b": 0.5, "c": 0.0}, FixedRng(0.9999999999999999)) == "b"  # type: ignore[arg-type]


def test_draw_rejects_empty() -> None:
    with pytest.raises(ValueError, match="cannot draw from an empty distribution"):
        draw({}, FixedRng(0.1))  # type: ignore[arg-type]


def test_walk_rng_is_stable_per_seed_question_and_index() -> None:
    assert walk_rng(0, "q", 0).random() == 0.6079742365395256
    assert walk_rng(0, "q", 1).random() == 0.3212246163266004
    assert walk_rng(0, "q", 0).random() == walk_rng(0, "q", 0).random()
    assert walk_rng(1, "q", 0).random() != walk_rng(0, "q", 0).random()
    assert walk_rng(0, "other", 0).random() != walk_rng(0, "q", 0).random()
