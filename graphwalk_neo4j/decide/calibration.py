"""Calibration measures (pure NumPy): expected calibration error and reliability-diagram bins.

A confidence is *calibrated* when, of the choices made with confidence about c, a share of about c is right.
Both functions use ``bins`` equal-width bins over [0, 1]; a confidence of exactly 0 falls in the first bin and 1
in the last.
"""

from __future__ import annotations

import numpy as np


def _bin_index(confidence: np.ndarray, bins: int) -> np.ndarray:
    edges = np.linspace(0.0, 1.0, bins + 1)
    index: np.ndarray = np.clip(np.digitize(confidence, edges[1:-1], right=True), 0, bins - 1)
    return index


def expected_calibration_error(confidence: np.ndarray, correct: np.ndarray, bins: int = 10) -> float:
    """ECE: the |accuracy - confidence| gap per equal-width confidence bin, weighted by the bin's share."""
    confidence = np.asarray(confidence, dtype=np.float64)
    correct = np.asarray(correct, dtype=np.float64)
    if confidence.size == 0:
        return 0.0
    index = _bin_index(confidence, bins)
    total = 0.0
    for b in range(bins):
        mask = index == b
        if mask.any():
            total += mask.mean() * abs(correct[mask].mean() - confidence[mask].mean())
    return float(total)


def reliability_bins(confidence: np.ndarray, correct: np.ndarray, bins: int = 10) -> list[dict[str, float]]:
    """Per bin: its range, the number of items, mean confidence and accuracy (empty bins left out)."""
    confidence = np.asarray(confidence, dtype=np.float64)
    correct = np.asarray(correct, dtype=np.float64)
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = _bin_index(confidence, bins)
    out = []
    for b in range(bins):
        mask = index == b
        if mask.any():
            out.append(
                {
                    "lo": float(edges[b]),
                    "hi": float(edges[b + 1]),
                    "n": int(mask.sum()),
                    "confidence": float(confidence[mask].mean()),
                    "accuracy": float(correct[mask].mean()),
                }
            )
    return out
