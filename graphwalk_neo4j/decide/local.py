"""LocalDecider: a key-free, network-free decision backend that scores options by embedding similarity.

Method (per question):

* Structured content (objects, arrays) is rendered as its leaf values joined by spaces: field names such as
  ``query`` or ``relation`` are left out, and a value repeated within one piece of content (``path`` ending in
  ``current``) is kept once.
* ``q`` = embedding of the state (the user's question).
* For each option ``label -> description``: ``o = embedding(context + " " + description)``, where
  ``context`` is the question's path context taken from its instructions (the ``path``/``current``/``context``
  fields of an object, or the whole instructions when they are text or have none of those fields; see
  ``context_keys``). An option without a description is embedded by its label.
* ``score = cos(q, o)``; the STOP option (label ``stop_label``) is scored the same way from its own
  description, plus ``stop_bias``. So the walk's prompt text decides what STOP "reads like".
* ``p = softmax(score / temperature)``.

Everything is deterministic. Embeddings of state and option texts are kept in an LRU map (``cache_size``), so
a question whose texts were seen before costs a few dot products. Limits: this is a similarity ranker, not a
reader; it can't follow negation, numbers or multi-step logic, and its probabilities are a temperature-scaled
similarity, not a calibrated belief.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionRequest, DecisionResponse, Usage
from graphwalk_neo4j.decide.normalize import check_request, make_result
from graphwalk_neo4j.decide.text import values_text
from graphwalk_neo4j.embed.base import Embedder, VectorCache

DEFAULT_TEMPERATURE = 0.05
DEFAULT_CONTEXT_KEYS = ("path", "current", "context")


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    logits = np.asarray(scores, dtype=np.float64) / temperature
    logits -= logits.max()
    weights = np.exp(logits)
    return weights / weights.sum()


class LocalDecider:
    def __init__(
        self,
        embedder: Embedder,
        temperature: float = DEFAULT_TEMPERATURE,
        stop_bias: float = 0.0,
        *,
        stop_label: str = "STOP",
        context_keys: Sequence[str] = DEFAULT_CONTEXT_KEYS,
        cache_size: int = 50_000,
        max_options: int = 255,
    ) -> None:
        if not (temperature > 0 and math.isfinite(temperature)):
            raise ValueError("temperature must be a positive finite number")
        self.embedder = embedder
        self.temperature = float(temperature)
        self.stop_bias = float(stop_bias)
        self.stop_label = stop_label
        self.context_keys = tuple(context_keys)
        self.cache = VectorCache(cache_size)
        self._max_options = max_options

    @property
    def model_id(self) -> str:
        return f"local:{self.embedder.model_id}"

    @property
    def max_options(self) -> int:
        return self._max_options

    def __repr__(self) -> str:
        return (
            f"LocalDecider(embedder={self.embedder.model_id!r}, temperature={self.temperature}, "
            f"stop_bias={self.stop_bias})"
        )

    # -- texts -----------------------------------------------------------------------------------------------

    def context_of(self, instructions: Any) -> str:
        """The path context an option is read in, from a question's instructions."""
        if isinstance(instructions, dict):
            picked = {k: instructions[k] for k in self.context_keys if k in instructions}
            return values_text(picked if picked else instructions)
        return values_text(instructions)

    def option_text(self, question: ChoiceQuestion, label: str) -> str:
        description = question.options[label]
        body = values_text(description) if description is not None else ""
        if not body:
            body = label
        context = self.context_of(question.instructions)
        return f"{context} {body}".strip() if context else body

    # -- embedding -------------------------------------------------------------------------------------------

    async def _vectors(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        missing: dict[str, None] = {}  # ordered set
        for text in texts:
            if text in out or text in missing:
                continue
            vector = self.cache.get(text)
            if vector is None:
                missing[text] = None
            else:
                out[text] = vector
        if missing:
            matrix = await self.embedder.embed(list(missing))
            for text, vector in zip(missing, matrix, strict=True):
                out[text] = vector
                self.cache.put(text, vector)
        return out

    # -- decide ----------------------------------------------------------------------------------------------

    def score(
        self,
        state_vector: np.ndarray,
        question: ChoiceQuestion,
        vectors: dict[str, np.ndarray],
        option_texts: Sequence[str] | None = None,
    ) -> np.ndarray:
        """Cosine of each option text with the state (+ ``stop_bias`` on STOP), in offer order."""
        labels = list(question.options)
        if option_texts is None:
            option_texts = [self.option_text(question, label) for label in labels]
        matrix = np.stack([vectors[text] for text in option_texts])
        scores = matrix.astype(np.float64) @ state_vector.astype(np.float64)
        if self.stop_bias and self.stop_label in question.options:
            scores[labels.index(self.stop_label)] += self.stop_bias
        return scores

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        check_request(request, max_options=self._max_options, backend="local")
        started = time.perf_counter()
        state_text = values_text(request.state) or " "
        option_texts = {
            question.key: [self.option_text(question, label) for label in question.options]
            for question in request.questions
        }
        texts = [state_text]
        for question_texts in option_texts.values():
            texts.extend(question_texts)
        vectors = await self._vectors(texts)
        state_vector = vectors[state_text]
        results = {}
        for question in request.questions:
            scores = self.score(state_vector, question, vectors, option_texts[question.key])
            probs = softmax(scores, self.temperature)
            raw = {label: float(p) for label, p in zip(question.options, probs, strict=True)}
            result = make_result(question, raw)
            n = len(raw)
            result.confidence = (n * result.probabilities[result.top] - 1) / (n - 1)
            results[question.key] = result
        return DecisionResponse(
            results=results,
            usage=Usage(input_tokens=0, output_tokens=0, cost_usd=0.0),
            latency_s=time.perf_counter() - started,
            model=self.model_id,
            provider="local",
            calls=1,
        )

    async def aclose(self) -> None:
        return None
