"""LLMBackend: any chat model litellm can reach, asked to choose, with its answer turned into a distribution.

One chat call per question (questions run concurrently, ``concurrency`` at a time). The options are shown with
short keys (``A``..``Z``, or ``1``..``N`` beyond 26 options) so that the first token of the reply names one
option.

* **logprobs** (``mode="logprobs"``, or ``"auto"`` while the provider returns them): the model is asked for
  the key only, with ``logprobs`` and ``top_logprobs``; ``p(option) = sum of exp(logprob)`` over the first
  token's alternatives that spell its key (``"A"``, ``" A"``, ...). Options absent from them get 0. If
  the alternatives cover less than ``min_logprob_mass`` (0.5) of the mass the reply is not trusted and the
  question falls back to JSON.
* **json** (``mode="json"``, or ``"auto"`` once a provider returned no logprobs): the model is asked for
  ``{label: probability}``; the reply is validated by :func:`normalize_distribution`. An invalid reply is
  retried once with the validation error; a second failure raises :class:`DecisionResponseError`.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from graphwalk_neo4j.decide.base import (
    ChoiceQuestion,
    ChoiceResult,
    DecisionBackend,
    DecisionRequest,
    DecisionResponse,
    Usage,
)
from graphwalk_neo4j.decide.normalize import check_request, make_result, normalize_distribution
from graphwalk_neo4j.errors import (
    ConfigError,
    DecisionAuthError,
    DecisionError,
    DecisionRateLimitError,
    DecisionResponseError,
    LLMError,
)
from graphwalk_neo4j.llm import LLMClient, LLMReply

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantic import SecretStr

Mode = Literal["auto", "logprobs", "json"]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

SYSTEM_PROMPT = (
    "You are a careful decision model. You are given a question (the state), a task, and numbered options. "
    "Judge which option best fulfils the task for that question, reading each option's description literally."
)
KEY_INSTRUCTION = "Reply with the key of the single best option ({keys}) and nothing else."
JSON_INSTRUCTION = (
    "Reply with one JSON object that maps every option label ({labels}) to the probability that it is the "
    "best option: numbers between 0 and 1 that sum to 1. Reply with the JSON object only."
)
RETRY_INSTRUCTION = "Your reply was not valid: {error}. Reply again with the JSON object only."


def option_keys(n: int) -> list[str]:
    """Display keys whose first token identifies the option: letters up to 26 options, then numbers."""
    return list(LETTERS[:n]) if n <= len(LETTERS) else [str(i) for i in range(1, n + 1)]


def build_prompt(state: Any, question: ChoiceQuestion) -> tuple[dict[str, Any], list[str]]:
    """The user message payload (state, task, keyed options) and the display keys, in offer order."""
    keys = option_keys(len(question.options))
    options = [
        {"key": key, "label": label, "description": description}
        for key, (label, description) in zip(keys, question.options.items(), strict=True)
    ]
    return {"question": state, "task": question.instructions, "options": options}, keys


def _token_key(token: str) -> str:
    return token.strip().strip("\"'`*().:[]").upper()


def distribution_from_logprobs(
    top_logprobs: Sequence[tuple[str, float]], keys: Sequence[str], labels: Sequence[str]
) -> tuple[dict[str, float], float]:
    """Map first-token alternatives to labels; return (label -> probability mass, total mass matched)."""
    by_key = {key.upper(): label for key, label in zip(keys, labels, strict=True)}
    masses = {label: 0.0 for label in labels}
    for token, logprob in top_logprobs:
        label = by_key.get(_token_key(token))
        if label is not None and math.isfinite(logprob):
            masses[label] += math.exp(logprob)
    return masses, math.fsum(masses.values())


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


def parse_json_distribution(text: str, labels: Sequence[str], key: str) -> dict[str, float]:
    """Parse and validate a ``{label: probability}`` reply (code fences and surrounding prose tolerated)."""
    cleaned = _FENCE.sub("", (text or "").strip())
    start, end = cleaned.find("{"), cleaned.rfind("}")
    if start < 0 or end <= start:
        raise DecisionResponseError(f"question {key!r}: the reply contains no JSON object")
    try:
        payload = json.loads(cleaned[start : end + 1])
    except json.JSONDecodeError as exc:
        raise DecisionResponseError(f"question {key!r}: the reply is not valid JSON ({exc.msg})") from None
    if not isinstance(payload, dict):
        raise DecisionResponseError(f"question {key!r}: the reply is not a JSON object")
    normalize_distribution(labels, payload, key=key)  # raises on unknown labels / bad values
    return payload


@dataclass
class _Outcome:
    result: ChoiceResult | None = None
    usage: Usage = field(default_factory=Usage)
    calls: int = 0
    model: str = ""


class LLMBackend(DecisionBackend):
    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | SecretStr | None = None,
        mode: Mode = "auto",
        concurrency: int = 8,
        timeout_s: float = 30.0,
        num_retries: int = 2,
        top_logprobs: int = 20,
        min_logprob_mass: float = 0.5,
        max_options: int = 255,
        extra_params: dict[str, Any] | None = None,
    ) -> None:
        if not model or not model.strip():
            raise ConfigError("LLMBackend needs a litellm model name (e.g. openai/gpt-4o-mini)")
        if mode not in ("auto", "logprobs", "json"):
            raise ConfigError(f"unknown LLM decision mode {mode!r}: use auto, logprobs or json")
        self._model = model
        self.api_base = api_base
        self._client = LLMClient(
            model, api_base=api_base, api_key=api_key, timeout_s=timeout_s, num_retries=num_retries, label="LLM"
        )
        self.mode: Mode = mode
        self.timeout_s = timeout_s
        self.num_retries = num_retries
        self.top_logprobs = top_logprobs
        self.min_logprob_mass = min_logprob_mass
        self._max_options = max_options
        self.extra_params = dict(extra_params or {})
        self._semaphore = asyncio.Semaphore(concurrency)
        self.logprobs_supported: bool | None = None if mode == "auto" else mode == "logprobs"

    @property
    def model_id(self) -> str:
        return self._model

    @property
    def max_options(self) -> int:
        return self._max_options

    def __repr__(self) -> str:
        return f"LLMBackend(model={self._model!r}, api_base={self.api_base!r}, mode={self.mode!r})"

    @classmethod
    def from_settings(cls, settings: Any, model: str) -> LLMBackend:
        return cls(
            model,
            api_base=settings.llm_api_base,
            api_key=settings.llm_api_key,
            concurrency=settings.decision_concurrency,
            timeout_s=settings.decision_timeout_s,
        )

    async def aclose(self) -> None:
        return None

    # -- calls ----------------------------------------------------------------------------------------------

    async def _complete(self, messages: list[dict[str, str]], **params: Any) -> LLMReply:
        try:
            return await self._client.complete(messages, **{**self.extra_params, **params})
        except LLMError as exc:
            raise self._translate(exc) from None

    def _translate(self, exc: LLMError) -> DecisionError:
        where = exc.where
        if exc.kind == "auth":
            return DecisionAuthError(
                f"{where} rejected the API key: check GW_NEO4J_LLM_API_KEY or the provider's key variable"
            )
        if exc.kind == "rate_limit":
            return DecisionRateLimitError(
                f"{where} is rate limiting after {self.num_retries} retries: retry later or lower "
                "GW_NEO4J_DECISION_CONCURRENCY"
            )
        if exc.kind == "timeout":
            return DecisionError(f"{where} did not answer within {self.timeout_s:g}s")
        if exc.kind == "connection":
            return DecisionError(f"{where} could not be reached: {exc.detail}")
        return DecisionError(str(exc))

    @staticmethod
    def _usage(reply: LLMReply) -> Usage:
        return Usage(input_tokens=reply.input_tokens, output_tokens=reply.output_tokens, cost_usd=reply.cost_usd)

    @staticmethod
    def _first_token_alternatives(response: Any) -> list[tuple[str, float]] | None:
        try:
            logprobs = response.choices[0].logprobs
        except (AttributeError, IndexError, TypeError):
            return None
        if logprobs is None:
            return None
        content = getattr(logprobs, "content", None)
        if content is None and isinstance(logprobs, dict):
            content = logprobs.get("content")
        if not content:
            return None
        first = content[0]
        alternatives = getattr(first, "top_logprobs", None)
        if alternatives is None and isinstance(first, dict):
            alternatives = first.get("top_logprobs")
        pairs: list[tuple[str, float]] = []
        for alt in alternatives or []:
            token = getattr(alt, "token", None) if not isinstance(alt, dict) else alt.get("token")
            logprob = getattr(alt, "logprob", None) if not isinstance(alt, dict) else alt.get("logprob")
            if isinstance(token, str) and isinstance(logprob, int | float):
                pairs.append((token, float(logprob)))
        if not pairs:
            token = getattr(first, "token", None) if not isinstance(first, dict) else first.get("token")
            logprob = getattr(first, "logprob", None) if not isinstance(first, dict) else first.get("logprob")
            if isinstance(token, str) and isinstance(logprob, int | float):
                pairs.append((token, float(logprob)))
        return pairs or None

    # -- one question ---------------------------------------------------------------------------------------

    async def _ask(self, state: Any, question: ChoiceQuestion) -> _Outcome:
        payload, keys = build_prompt(state, question)
        labels = list(question.options)
        outcome = _Outcome()
        body = json.dumps(payload, ensure_ascii=False, default=str)
        if self.logprobs_supported is not False:
            messages = [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": body + "\n\n" + KEY_INSTRUCTION.format(keys=", ".join(keys))},
            ]
            response = await self._complete(messages, logprobs=True, top_logprobs=self.top_logprobs, max_tokens=4)
            outcome.calls += 1
            outcome.usage = outcome.usage + self._usage(response)
            outcome.model = getattr(response.response, "model", None) or self._model
            alternatives = self._first_token_alternatives(response.response)
            if alternatives is None:
                if self.mode == "logprobs":
                    raise DecisionResponseError(
                        f"LLM {self._model} returned no logprobs for question {question.key!r} "
                        "(use mode='json' or 'auto' for this provider)"
                    )
                self.logprobs_supported = False
            else:
                self.logprobs_supported = True
                masses, covered = distribution_from_logprobs(alternatives, keys, labels)
                if covered >= self.min_logprob_mass:
                    outcome.result = make_result(question, masses)
                    return outcome
                if self.mode == "logprobs":
                    raise DecisionResponseError(
                        f"LLM {self._model}: the first token's alternatives cover only {covered:.2f} of the "
                        f"probability mass for question {question.key!r}"
                    )
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": body + "\n\n" + JSON_INSTRUCTION.format(labels=", ".join(labels))},
        ]
        error: DecisionResponseError | None = None
        for attempt in range(2):
            response = await self._complete(
                messages,
                max_tokens=64 + 16 * len(labels),
                response_format={"type": "json_object"},
            )
            outcome.calls += 1
            outcome.usage = outcome.usage + self._usage(response)
            outcome.model = getattr(response.response, "model", None) or self._model
            text = response.content
            try:
                raw = parse_json_distribution(text, labels, question.key)
            except DecisionResponseError as exc:
                error = exc
                if attempt == 0:
                    messages = [
                        *messages,
                        {"role": "assistant", "content": text},
                        {"role": "user", "content": RETRY_INSTRUCTION.format(error=exc)},
                    ]
                continue
            outcome.result = make_result(question, raw)
            return outcome
        raise DecisionResponseError(
            f"LLM {self._model} did not return a valid distribution for question {question.key!r} after one "
            f"retry: {error}"
        )

    async def _ask_limited(self, state: Any, question: ChoiceQuestion) -> _Outcome:
        async with self._semaphore:
            return await self._ask(state, question)

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        check_request(request, max_options=self._max_options, backend="llm")
        started = time.perf_counter()
        outcomes = await asyncio.gather(*(self._ask_limited(request.state, q) for q in request.questions))
        usage = Usage()
        for outcome in outcomes:
            usage = usage + outcome.usage
        return DecisionResponse(
            results={q.key: o.result for q, o in zip(request.questions, outcomes, strict=True) if o.result},
            usage=usage,
            latency_s=time.perf_counter() - started,
            model=outcomes[0].model or self._model,
            provider="litellm",
            calls=sum(outcome.calls for outcome in outcomes),
        )
