"""Exact-value tests for the distribution rules every backend shares."""

from __future__ import annotations

import math

import pytest

from graphwalk_neo4j.decide import ChoiceQuestion, DecisionRequest, check_request, make_result
from graphwalk_neo4j.decide.normalize import normalize_distribution, top_label
from graphwalk_neo4j.errors import DecisionError, DecisionResponseError

OFFERED = ["o1", "o2", "STOP"]


def test_reorders_to_offer_order_and_keeps_exact_values() -> None:
    probs, warnings = normalize_distribution(OFFERED, {"STOP": 0.25, "o2": 0.25, "o1": 0.5})
    assert list(probs) == OFFERED
    assert probs == {"o1": 0.5, "o2": 0.25, "STOP": 0.25}
    assert warnings == []


def test_renormalises_weights_exactly() -> None:
    probs, warnings = normalize_distribution(OFFERED, {"o1": 2, "o2": 1, "STOP": 1})
    assert probs == {"o1": 0.5, "o2": 0.25, "STOP": 0.25}
    assert len(warnings) == 1
    assert "summed to 4" in warnings[0]


def test_rounded_jev_answer_within_slack_is_renormalised_silently() -> None:
    probs, warnings = normalize_distribution(OFFERED, {"o1": 0.33, "o2": 0.33, "STOP": 0.33})
    assert probs == pytest.approx({"o1": 1 / 3, "o2": 1 / 3, "STOP": 1 / 3}, abs=1e-15)
    assert warnings == []
    assert math.isclose(math.fsum(probs.values()), 1.0, abs_tol=1e-12)


def test_missing_label_gets_zero_with_warning() -> None:
    probs, warnings = normalize_distribution(OFFERED, {"o1": 0.75, "STOP": 0.25}, key="b0")
    assert probs == {"o1": 0.75, "o2": 0.0, "STOP": 0.25}
    assert warnings == ["question 'b0': labels missing from the answer were set to 0: o2"]


def test_all_zero_becomes_uniform_with_warning() -> None:
    probs, warnings = normalize_distribution(["a", "b", "c", "d"], {"a": 0, "b": 0.0}, key="b3")
    assert probs == {"a": 0.25, "b": 0.25, "c": 0.25, "d": 0.25}
    assert "question 'b3': all probabilities were 0; using a uniform distribution" in warnings


def test_unknown_label_is_an_error_with_exact_message() -> None:
    with pytest.raises(DecisionResponseError) as info:
        normalize_distribution(OFFERED, {"o1": 0.5, "o9": 0.5}, key="b0")
    assert str(info.value) == (
        "question 'b0': the backend answered label 'o9', which was not offered (offered: o1, o2, STOP)"
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (-0.1, "question 'b0': probability for 'o1' is negative: -0.1"),
        (float("nan"), "question 'b0': probability for 'o1' is not finite: nan"),
        (float("inf"), "question 'b0': probability for 'o1' is not finite: inf"),
        ("0.5", "question 'b0': probability for 'o1' is not a number: '0.5'"),
        (True, "question 'b0': probability for 'o1' is not a number: True"),
        (None, "question 'b0': probability for 'o1' is not a number: None"),
    ],
)
def test_bad_values_are_errors(value: object, message: str) -> None:
    with pytest.raises(DecisionResponseError) as info:
        normalize_distribution(OFFERED, {"o1": value, "o2": 0.5}, key="b0")
    assert str(info.value) == message


def test_top_label_breaks_ties_by_offer_order() -> None:
    assert top_label({"o1": 0.4, "o2": 0.4, "STOP": 0.2}) == "o1"
    assert top_label({"STOP": 0.5, "o1": 0.5}, ["o1", "STOP"]) == "o1"
    assert top_label({"o1": 0.0, "o2": 0.0, "STOP": 0.0}, OFFERED) == "o1"
    assert top_label({"o1": 0.1, "o2": 0.45, "STOP": 0.45}, OFFERED) == "o2"


def test_make_result_keeps_raw_and_tie_breaks() -> None:
    question = ChoiceQuestion(key="b0", instructions="x", options={"o1": None, "o2": None, "STOP": None})
    result = make_result(question, {"STOP": 0.5, "o2": 0.5}, confidence=0.0)
    assert result.key == "b0"
    assert result.probabilities == {"o1": 0.0, "o2": 0.5, "STOP": 0.5}
    assert list(result.raw_probabilities) == ["STOP", "o2"]
    assert result.top == "o2"
    assert result.confidence == 0.0
    assert result.warnings == ["question 'b0': labels missing from the answer were set to 0: o1"]


def _request(*option_counts: int, keys: list[str] | None = None) -> DecisionRequest:
    keys = keys or [f"b{i}" for i in range(len(option_counts))]
    return DecisionRequest(
        state="q",
        questions=[
            ChoiceQuestion(key=k, options={f"o{j}": None for j in range(n)})
            for k, n in zip(keys, option_counts, strict=True)
        ],
    )


def test_check_request_rules() -> None:
    check_request(_request(2, 255), max_options=255)
    with pytest.raises(DecisionError, match=r"^a decision request needs at least one question$"):
        check_request(DecisionRequest(state="q", questions=[]))
    with pytest.raises(DecisionError) as info:
        check_request(_request(3, 1), backend="jev")
    assert str(info.value) == (
        "jev: question 'b1' offers 1 option(s); a choice needs at least 2 (a forced step must be taken without asking)"
    )
    with pytest.raises(DecisionError) as info:
        check_request(_request(256), max_options=255, backend="jev")
    assert str(info.value) == (
        "jev: question 'b0' offers 256 options; at most 255 are allowed (prefilter the options before asking)"
    )
    with pytest.raises(DecisionError, match="duplicate question key 'b0'"):
        check_request(_request(2, 2, keys=["b0", "b0"]))
