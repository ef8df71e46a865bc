"""One set of rules that turns any backend's raw answer into the contract's distribution.

``normalize_distribution(offered, raw)`` applies, in order:

1. Every returned label must be one of the offered labels, otherwise :class:`DecisionResponseError`.
2. Every value must be a finite number >= 0 (``bool``, ``NaN``, ``inf``, negatives and non-numbers are
   rejected with :class:`DecisionResponseError`).
3. An offered label that is missing from the answer gets probability 0 and a warning.
4. The values are divided by their sum, so the result sums to 1 (up to float rounding, ``|fsum - 1| < 1e-9``).
   If every value is 0 the result is uniform, with a warning. A raw sum far from 1 (off by more than the
   rounding slack ``max(0.01, 0.005 * n)``, as Jev rounds to 2 decimals) is renormalised too, with a warning.
5. The keys are reordered to the offer order.

``top_label`` is the argmax; ties go to the label offered first (Jev's rounding makes exact ties common).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from graphwalk_neo4j.decide.base import ChoiceQuestion, ChoiceResult, DecisionRequest, DecisionResponse, Usage
from graphwalk_neo4j.errors import DecisionError, DecisionResponseError

__all__ = [
    "check_request",
    "in_process_response",
    "make_result",
    "normalize_distribution",
    "top_label",
]


def _where(key: str | None) -> str:
    return f"question {key!r}: " if key else ""


def normalize_distribution(
    offered: Sequence[str], raw: Mapping[str, Any], *, key: str | None = None
) -> tuple[dict[str, float], list[str]]:
    """Return ``(probabilities in offer order summing to 1, warnings)``; rules in the module docstring."""
    offered = list(offered)
    if not offered:
        raise DecisionError(f"{_where(key)}no labels were offered")
    if not isinstance(raw, Mapping):
        raise DecisionResponseError(
            f"{_where(key)}expected a mapping of label -> probability, got {type(raw).__name__}"
        )
    offered_set = set(offered)
    warnings: list[str] = []
    values: dict[str, float] = {}
    for label, value in raw.items():
        if label not in offered_set:
            raise DecisionResponseError(
                f"{_where(key)}the backend answered label {label!r}, which was not offered "
                f"(offered: {', '.join(offered)})"
            )
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise DecisionResponseError(f"{_where(key)}probability for {label!r} is not a number: {value!r}")
        number = float(value)
        if not math.isfinite(number):
            raise DecisionResponseError(f"{_where(key)}probability for {label!r} is not finite: {value!r}")
        if number < 0:
            raise DecisionResponseError(f"{_where(key)}probability for {label!r} is negative: {value!r}")
        values[label] = number
    missing = [label for label in offered if label not in values]
    if missing:
        warnings.append(f"{_where(key)}labels missing from the answer were set to 0: {', '.join(missing)}")
    total = math.fsum(values.values())
    if total <= 0.0:
        warnings.append(f"{_where(key)}all probabilities were 0; using a uniform distribution")
        uniform = 1.0 / len(offered)
        return {label: uniform for label in offered}, warnings
    slack = max(0.01, 0.005 * len(offered))
    if abs(total - 1.0) > slack + 1e-12:
        warnings.append(f"{_where(key)}probabilities summed to {total:.6g}, renormalised to 1")
    return {label: values.get(label, 0.0) / total for label in offered}, warnings


def top_label(probabilities: Mapping[str, float], offered: Sequence[str] | None = None) -> str:
    """The most probable label; ties are broken by offer order (``offered`` or the mapping's order)."""
    order = list(offered) if offered is not None else list(probabilities)
    if not order:
        raise DecisionError("cannot pick the top label of an empty distribution")
    best = order[0]
    best_p = probabilities.get(best, 0.0)
    for label in order[1:]:
        p = probabilities.get(label, 0.0)
        if p > best_p:
            best, best_p = label, p
    return best


def top_confidence(probabilities: Mapping[str, float], top: str) -> float:
    """Jev's Choice confidence from a distribution: ``(n * p_top - 1) / (n - 1)``, 0 when uniform, 1 when certain."""
    n = len(probabilities)
    return (n * probabilities[top] - 1) / (n - 1)


def make_result(
    question: ChoiceQuestion,
    raw: Mapping[str, Any],
    *,
    confidence: float | None = None,
    warnings: Sequence[str] = (),
) -> ChoiceResult:
    """Normalise one raw answer for ``question`` into a :class:`ChoiceResult`."""
    offered = list(question.options)
    probabilities, notes = normalize_distribution(offered, raw, key=question.key)
    raw_copy: dict[str, float] = {}
    for label, value in raw.items():
        raw_copy[label] = float(value)
    return ChoiceResult(
        key=question.key,
        probabilities=probabilities,
        raw_probabilities=raw_copy,
        top=top_label(probabilities, offered),
        confidence=confidence,
        warnings=[*warnings, *notes],
    )


def in_process_response(
    request: DecisionRequest, probabilities: Mapping[str, Mapping[str, float]], *, started: float, model: str
) -> DecisionResponse:
    """The response of a decider that runs in this process (local, learned): one result per question from its
    raw ``probabilities`` (question key -> label -> p) with Jev's confidence, no tokens, no cost, one call."""
    results = {}
    for question in request.questions:
        result = make_result(question, probabilities[question.key])
        result.confidence = top_confidence(result.probabilities, result.top)
        results[question.key] = result
    return DecisionResponse(
        results=results,
        usage=Usage(input_tokens=0, output_tokens=0, cost_usd=0.0),
        latency_s=time.perf_counter() - started,
        model=model,
        provider="local",
        calls=1,
    )


def check_request(request: DecisionRequest, *, max_options: int | None = None, backend: str = "") -> None:
    """Reject requests no backend can answer, before any call: no questions, duplicate keys, fewer than 2
    options (the walk must short-circuit a forced step itself), or more than ``max_options`` options (the walk
    must prefilter)."""
    who = f"{backend}: " if backend else ""
    if not request.questions:
        raise DecisionError(f"{who}a decision request needs at least one question")
    seen: set[str] = set()
    for question in request.questions:
        if question.key in seen:
            raise DecisionError(f"{who}duplicate question key {question.key!r} in one request")
        seen.add(question.key)
        n = len(question.options)
        if n < 2:
            raise DecisionError(
                f"{who}question {question.key!r} offers {n} option(s); a choice needs at least 2 "
                "(a forced step must be taken without asking)"
            )
        if max_options is not None and n > max_options:
            raise DecisionError(
                f"{who}question {question.key!r} offers {n} options; at most {max_options} are allowed "
                "(prefilter the options before asking)"
            )
