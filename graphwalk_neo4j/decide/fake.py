"""FakeBackend: a scriptable, seeded decision backend for tests (no network).

Answers, in this order of precedence:

1. ``script[question.key]``: a label (gets probability 1) or a ``{label: weight}`` mapping;
2. ``by_instruction``: the first ``substring -> answer`` whose substring occurs in the question's instructions
   (rendered as compact JSON when they are not text);
3. ``answer(question, state)``: a callable returning an answer or ``None``;
4. otherwise a Dirichlet(alpha) draw over the offered labels from a generator seeded by
   ``(seed, instructions, labels)``: the same question always gets the same answer, whatever the call order.

Every answer goes through :func:`normalize_distribution`, so a script can't break the contract. Requests are
recorded in ``requests`` (a deep copy each; ``record=False``, as ``--model fake`` builds it for a long-running
service or benchmark, keeps none); ``fail_with(error, times=None)`` makes the next calls raise ``error``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionBackend, DecisionRequest, DecisionResponse, Usage
from graphwalk_neo4j.decide.normalize import check_request, make_result, top_confidence
from graphwalk_neo4j.decide.text import compact_json

Answer = str | Mapping[str, float]
AnswerFn = Callable[[ChoiceQuestion, Any], Answer | None]


class FakeBackend(DecisionBackend):
    def __init__(
        self,
        *,
        seed: int = 0,
        script: Mapping[str, Answer] | None = None,
        by_instruction: Mapping[str, Answer] | None = None,
        answer: AnswerFn | None = None,
        alpha: float = 1.0,
        model: str = "fake",
        max_options: int = 255,
        tokens_per_question: tuple[int, int] = (100, 10),
        cost_per_input_token: float | None = None,
        confidence: bool = True,
        record: bool = True,
    ) -> None:
        if alpha <= 0:
            raise ValueError("alpha must be > 0")
        self.seed = seed
        self.script: dict[str, Answer] = dict(script or {})
        self.by_instruction: dict[str, Answer] = dict(by_instruction or {})
        self.answer = answer
        self.alpha = alpha
        self._model = model
        self._max_options = max_options
        self.tokens_per_question = tokens_per_question
        self.cost_per_input_token = cost_per_input_token
        self.report_confidence = confidence
        self.requests: list[DecisionRequest] = []
        self.record = record
        self._fail: BaseException | None = None
        self._fail_times: int | None = None
        self.closed = False

    @property
    def model_id(self) -> str:
        return self._model

    @property
    def max_options(self) -> int:
        return self._max_options

    def __repr__(self) -> str:
        return f"FakeBackend(seed={self.seed}, model={self._model!r}, scripted={len(self.script)})"

    def fail_with(self, error: BaseException | None, times: int | None = None) -> None:
        """Raise ``error`` on the next ``times`` calls (``None``: until cleared with ``error=None``)."""
        self._fail = error
        self._fail_times = times

    def _dirichlet(self, question: ChoiceQuestion) -> dict[str, float]:
        labels = list(question.options)
        material = compact_json([self.seed, question.instructions, labels]).encode("utf-8")
        seed = int.from_bytes(hashlib.sha256(material).digest()[:8], "little")
        draw = np.random.default_rng(seed).dirichlet([self.alpha] * len(labels))
        return {label: float(p) for label, p in zip(labels, draw, strict=True)}

    def _scripted(self, question: ChoiceQuestion, state: Any) -> Answer | None:
        if question.key in self.script:
            return self.script[question.key]
        if self.by_instruction:
            text = (
                question.instructions if isinstance(question.instructions, str) else compact_json(question.instructions)
            )
            for needle, answer in self.by_instruction.items():
                if needle in text:
                    return answer
        if self.answer is not None:
            return self.answer(question, state)
        return None

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        if self.record:
            self.requests.append(request.model_copy(deep=True))
        if self._fail is not None and (self._fail_times is None or self._fail_times > 0):
            if self._fail_times is not None:
                self._fail_times -= 1
            raise self._fail
        check_request(request, max_options=self._max_options, backend="fake")
        started = time.perf_counter()
        results = {}
        for question in request.questions:
            answer = self._scripted(question, request.state)
            if answer is None:
                raw: Mapping[str, float] = self._dirichlet(question)
            elif isinstance(answer, str):
                raw = {answer: 1.0}
            else:
                raw = answer
            result = make_result(question, raw)
            if self.report_confidence:
                result.confidence = top_confidence(result.probabilities, result.top)
            results[question.key] = result
        n_questions = len(request.questions)
        usage = Usage(
            input_tokens=self.tokens_per_question[0] * n_questions,
            output_tokens=self.tokens_per_question[1] * n_questions,
            cost_usd=None
            if self.cost_per_input_token is None
            else self.cost_per_input_token * self.tokens_per_question[0] * n_questions,
        )
        return DecisionResponse(
            results=results,
            usage=usage,
            latency_s=time.perf_counter() - started,
            model=self._model,
            request_id=f"fake-{len(self.requests)}",
            provider="fake",
            calls=1,
            request_ids=[f"fake-{len(self.requests)}"],
        )

    async def aclose(self) -> None:
        self.closed = True
