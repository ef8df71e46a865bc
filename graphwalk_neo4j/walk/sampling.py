"""Client-side temperature and top-p over a returned distribution, seeded draws, and argmax (pure functions).

Jev has no server-side temperature, so the engine reshapes the distribution it gets back:

* temperature: ``p_i ∝ p_i ** (1 / T)``; ``T = 0`` means argmax (one-hot). A 0 stays 0.
* top-p: sort descending (ties by offer order), keep the smallest prefix whose mass is ``>= top_p``,
  renormalise.
* draw: one ``rng.random()`` against the cumulative mass in offer order.

Ties everywhere break by offer order (the order of the mapping), so results are deterministic. Each sampled
walk gets its own generator from ``(seed, question, walk index)`` so results don't depend on order.
"""

from __future__ import annotations

import hashlib
import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

_EPS = 1e-12


def _normalise(weights: Sequence[float]) -> list[float]:
    total = math.fsum(weights)
    if total <= 0:
        return [1.0 / len(weights)] * len(weights) if weights else []
    return [w / total for w in weights]


def argmax_index(probabilities: Sequence[float]) -> int:
    """Index of the largest probability; the first one in offer order on ties."""
    best = 0
    for i, p in enumerate(probabilities):
        if p > probabilities[best]:
            best = i
    return best


def apply_temperature(probabilities: Sequence[float], temperature: float) -> list[float]:
    """``p ** (1 / T)`` renormalised; one-hot argmax for ``T == 0``."""
    if temperature < 0:
        raise ValueError(f"temperature must be >= 0, got {temperature}")
    if not probabilities:
        return []
    if temperature == 0:
        top = argmax_index(probabilities)
        return [1.0 if i == top else 0.0 for i in range(len(probabilities))]
    if temperature == 1:
        return _normalise(list(probabilities))
    peak = max(probabilities)
    if peak <= 0:
        return _normalise([0.0] * len(probabilities))
    log_peak = math.log(peak)
    weights = [math.exp((math.log(p) - log_peak) / temperature) if p > 0 else 0.0 for p in probabilities]
    return _normalise(weights)


def top_p_filter(probabilities: Sequence[float], top_p: float) -> list[float]:
    """Keep the smallest set (sorted descending, ties by offer order) with mass ``>= top_p``; renormalise."""
    if not 0 < top_p <= 1:
        raise ValueError(f"top_p must be in (0, 1], got {top_p}")
    probs = _normalise(list(probabilities))
    if top_p >= 1:
        return probs
    order = sorted(range(len(probs)), key=lambda i: (-probs[i], i))
    kept: set[int] = set()
    mass = 0.0
    for i in order:
        kept.add(i)
        mass += probs[i]
        if mass >= top_p - _EPS:
            break
    return _normalise([p if i in kept else 0.0 for i, p in enumerate(probs)])


def adjust(distribution: Mapping[str, float], temperature: float, top_p: float) -> dict[str, float]:
    """Temperature, then top-p, over a label -> probability mapping (offer order preserved)."""
    labels = list(distribution)
    probs = top_p_filter(apply_temperature([distribution[k] for k in labels], temperature), top_p)
    return dict(zip(labels, probs, strict=True))


def draw(distribution: Mapping[str, float], rng: np.random.Generator) -> str:
    """Draw one label: the first whose cumulative mass (in offer order) exceeds ``rng.random()``."""
    labels = list(distribution)
    if not labels:
        raise ValueError("cannot draw from an empty distribution")
    u = float(rng.random())
    mass = 0.0
    last_positive = labels[0]
    for label in labels:
        p = distribution[label]
        if p <= 0:
            continue
        last_positive = label
        mass += p
        if u < mass:
            return label
    return last_positive


def walk_rng(seed: int, question: str, index: int) -> np.random.Generator:
    """The generator for sampled walk ``index`` of ``question`` (stable across runs and platforms)."""
    digest = hashlib.sha256(f"{seed}\x1f{question}\x1f{index}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))
