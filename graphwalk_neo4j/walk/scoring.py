"""Path scoring (pure functions, exact values are unit-tested).

* A decision contributes ``log(max(p, prob_floor))`` for the chosen label. Jev rounds probabilities to two
  decimals, so a reported 0 means "< 0.005", not "impossible"; the floor (default 1e-3) keeps it finite.
* A forced move (one legal option, no STOP allowed) is not a decision: it adds nothing and does not count in
  L.
* A forced STOP (dead end) is a decision with p = 1: it adds ``log 1 = 0`` and counts in L.
* ``score = sum(log max(p, floor)) / L ** alpha`` where L counts the decisions including STOP. alpha = 1 is
  the mean log-prob, alpha = 0 the plain sum.
* A walk the decider never answered (``n_choices == 0``: only forced steps) scores ``log(prob_floor)``, the
  lowest possible, rather than 0, the best possible, with no evidence behind it.
* Confidence of a choice distribution, as TypeSafe defines it: ``(n * p_max - 1) / (n - 1)``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


def step_logp(p: float, floor: float) -> float:
    """``log(max(p, floor))``."""
    return math.log(max(p, floor))


def cumulative_logp(probabilities: Iterable[float], floor: float) -> float:
    """Sum of :func:`step_logp` over the chosen probabilities of a path."""
    return math.fsum(step_logp(p, floor) for p in probabilities)


def normalized_score(cum_logp: float, n_decisions: int, *, n_choices: int, alpha: float, floor: float) -> float:
    """``cum_logp / n_decisions ** alpha``, or ``log(floor)`` for a walk the decider never answered."""
    if n_choices <= 0 or n_decisions <= 0:
        return math.log(floor)
    return cum_logp / math.pow(n_decisions, alpha)


def confidence(probabilities: Sequence[float]) -> float:
    """``(n * p_max - 1) / (n - 1)`` clamped to [0, 1]; 1.0 for a single option."""
    n = len(probabilities)
    if n <= 1:
        return 1.0
    value = (n * max(probabilities) - 1.0) / (n - 1)
    return min(1.0, max(0.0, value))


def min_confidence(values: Iterable[float | None]) -> float | None:
    """The lowest confidence along a path, skipping forced steps (``None``); ``None`` if none was decided."""
    present = [v for v in values if v is not None]
    return min(present) if present else None
