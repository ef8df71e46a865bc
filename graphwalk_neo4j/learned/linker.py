"""A learned mention scorer for linking from plain text: which exact-name mention of a question is its topic.

Longest-match-first linking fails where a generic word of the question is also a name in the graph ("who is
the *director* that directed Livid": a film is called *Director*). The scorer learns, from the training
questions whose topic is known, how each candidate span reads:

* ``template`` — how often the span occurs in the training questions *outside* their topic, against how often
  inside one (``director``, ``actors``, ``language`` are question words; ``livid`` is not), as a smoothed share
  and as a log count;
* its length in words and characters, whether it sits inside a longer candidate, whether it ends the question;
* the log degree of the entity it names.

``score = w · features`` and the highest-scoring mention starts the walk; ``w`` is a conditional-logit fit
(softmax over each question's candidates, plain gradient descent, L2). Saved as ``linker.json`` next to the
learned decider's weights; :class:`~graphwalk_neo4j.learned.model.LearnedDecider` exposes it as
``mention_scorer``, which the walk's linking uses when present.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

LINKER_FILE = "linker.json"
MAX_GRAM = 4
FEATURES = ("template_share", "template_log", "words", "chars_log", "inside_longer", "at_end", "degree_log")
_TOPIC = re.compile(r"\[([^\[\]]+)\]")


def _grams(text: str) -> set[str]:
    tokens = text.lower().split()
    return {" ".join(tokens[i : i + n]) for n in range(1, MAX_GRAM + 1) for i in range(len(tokens) - n + 1)}


def template_counts(questions: Iterable[str]) -> tuple[Counter[str], Counter[str]]:
    """Per n-gram (up to 4 whitespace tokens, lower-cased): in how many bracketed questions it occurs outside
    the topic, and inside it."""
    outside: Counter[str] = Counter()
    inside: Counter[str] = Counter()
    for q in questions:
        topics = _TOPIC.findall(q)
        rest = _TOPIC.sub(" | ", q)
        grams: set[str] = set()
        for part in rest.split("|"):
            grams |= _grams(part)
        outside.update(grams)
        for t in topics:
            inside.update(_grams(t))
    return outside, inside


@dataclass
class MentionLinker:
    weights: np.ndarray
    outside: dict[str, int]
    inside: dict[str, int]

    def features(self, question: str, candidates: Sequence[tuple[str, Mapping[str, Any]]]) -> np.ndarray:
        text = " ".join(question.lower().replace("[", " ").replace("]", " ").split())
        spans = [c[0] for c in candidates]
        rows = []
        for span, row in candidates:
            out, ins = self.outside.get(span, 0), self.inside.get(span, 0)
            longer = any(span != other and f" {span} " in f" {other} " for other in spans)
            rows.append(
                [
                    (out + 0.0) / (out + ins + 1.0),
                    math.log1p(out),
                    float(len(span.split())),
                    math.log(len(span) + 1),
                    1.0 if longer else 0.0,
                    1.0 if text.rstrip(" ?.!").endswith(span.rstrip(" ?.!")) else 0.0,
                    math.log1p(float(row.get("degree") or 0)),
                ]
            )
        return np.asarray(rows, dtype=np.float64).reshape(len(candidates), len(FEATURES))

    def __call__(self, question: str, candidates: Sequence[tuple[str, Mapping[str, Any]]]) -> list[float]:
        if not candidates:
            return []
        return [float(s) for s in self.features(question, candidates) @ self.weights]

    def save(self, directory: str | Path) -> Path:
        path = Path(directory) / LINKER_FILE
        keep = {g for g in self.outside if self.outside[g] >= 2} | {g for g in self.inside if self.inside[g] >= 2}
        path.write_text(
            json.dumps(
                {
                    "features": list(FEATURES),
                    "weights": [float(w) for w in self.weights],
                    "outside": {g: self.outside[g] for g in sorted(keep) if g in self.outside},
                    "inside": {g: self.inside[g] for g in sorted(keep) if g in self.inside},
                },
                ensure_ascii=False,
            ),
            encoding="utf-8",
        )
        return path

    @classmethod
    def load(cls, directory: str | Path) -> MentionLinker | None:
        path = Path(directory) / LINKER_FILE
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(np.asarray(data["weights"], dtype=np.float64), dict(data["outside"]), dict(data["inside"]))


def fit_linker(
    examples: Sequence[tuple[str, Sequence[tuple[str, Mapping[str, Any]]], int]],
    outside: Counter[str],
    inside: Counter[str],
    *,
    steps: int = 600,
    lr: float = 0.5,
    l2: float = 1e-3,
) -> tuple[MentionLinker, dict[str, float]]:
    """``examples``: (question without brackets, candidates, index of the topic among them). Returns the linker
    and its training accuracy."""
    linker = MentionLinker(np.zeros(len(FEATURES)), dict(outside), dict(inside))
    mats = [(linker.features(q, c), gold) for q, c, gold in examples if len(c) > 1]
    if not mats:
        return linker, {"questions": float(len(examples)), "ambiguous": 0.0, "accuracy": 1.0}
    mean = np.concatenate([m for m, _ in mats]).mean(axis=0)
    std = np.concatenate([m for m, _ in mats]).std(axis=0) + 1e-6
    w = np.zeros(len(FEATURES))
    for _ in range(steps):
        grad = l2 * w
        for m, gold in mats:
            z = (m - mean) / std
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            grad += (p @ z - z[gold]) / len(mats)
        w -= lr * grad
    linker.weights = w / std  # fold the standardisation in (the mean shifts every candidate alike)
    right = sum(1 for m, gold in mats if int(np.argmax(m @ linker.weights)) == gold)
    return linker, {"questions": float(len(examples)), "ambiguous": float(len(mats)), "accuracy": right / len(mats)}
