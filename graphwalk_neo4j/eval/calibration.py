"""How well a walk's confidence predicts that its answer is right: ECE and a reliability diagram per run.

A graphwalk record's confidence is the probability of its best path: the product of the decider's
probabilities for the choices along it (forced moves count 1; ``SystemAnswer.extra["confidence"]``). It is
right when its top answer is a gold answer (hits@1). Per system and hop (and over all hops):
:func:`~graphwalk_neo4j.decide.calibration.expected_calibration_error` with 10 equal-width bins, and the bins
themselves; :func:`write_reliability_diagram` draws them (one line per system) into ``reliability.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphwalk_neo4j.decide.calibration import expected_calibration_error, reliability_bins
from graphwalk_neo4j.extras import has_module

if TYPE_CHECKING:
    from collections.abc import Sequence

BINS = 10
ALL = "all"


def calibration_rows(records: Sequence[Any]) -> list[dict[str, Any]]:
    """``{system, hops, n, ece, mean_confidence, accuracy, bins}`` for every system whose records carry a
    confidence, per hop and then ``all``."""
    groups: dict[tuple[str, str], list[Any]] = {}
    for r in records:
        confidence = (r.extra or {}).get("confidence")
        if confidence is None:
            continue
        groups.setdefault((r.system, str(r.hops)), []).append(r)
        groups.setdefault((r.system, ALL), []).append(r)
    rows = []
    for system, hops in sorted(groups, key=lambda k: (k[0], k[1] == ALL, k[1])):
        group = groups[(system, hops)]
        conf = np.asarray([float(r.extra["confidence"]) for r in group])
        right = np.asarray([1.0 if r.hits_at_1 >= 1.0 else 0.0 for r in group])
        rows.append(
            {
                "system": system,
                "hops": hops,
                "n": len(group),
                "ece": expected_calibration_error(conf, right, BINS),
                "mean_confidence": float(conf.mean()),
                "accuracy": float(right.mean()),
                "bins": reliability_bins(conf, right, BINS),
            }
        )
    return rows


def write_reliability_diagram(rows: Sequence[dict[str, Any]], path: str | Path, title: str = "") -> Path | None:
    """A PNG with the diagonal and, per system (all hops), accuracy against mean confidence per bin, with each
    system's ECE in the legend. Nothing is written (``None``) when no system has confidences."""
    overall = [r for r in rows if r["hops"] == ALL]
    if not overall or not has_module("matplotlib"):  # the plot is the bench extra's; the numbers are in results
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5.0), dpi=110)
    ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="perfect calibration")
    for row in overall:
        bins = row["bins"]
        ax.plot(
            [b["confidence"] for b in bins],
            [b["accuracy"] for b in bins],
            marker="o",
            label=f"{row['system']} (ECE {row['ece']:.3f}, n={row['n']})",
        )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("confidence of the best path (mean per bin)")
    ax.set_ylabel("hits@1 (share right per bin)")
    ax.set_title(title or "Reliability diagram", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
