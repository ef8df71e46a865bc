"""JevBackend: TypeSafe's Jev through the official ``typesafe-sdk`` async client, on either provider.

* ``typesafe``: the SDK's default base URL (``https://api.typesafe.ai``), model ``jev-1.13.0``.
* ``openrouter``: base URL ``https://openrouter.ai/api`` (OpenRouter serves the TypeSafe-compatible
  ``POST /api/v1/systemone``), model ``typesafe/jev-1.13``. OpenRouter adds ``id``, ``provider`` and
  ``usage.cost`` (USD) to the body; :class:`JevWireResponse` reads them.

One :class:`DecisionRequest` becomes one or more ``POST /v1/systemone`` calls: all questions share the
state, and a request is split when it would exceed Jev's documented budgets (see :func:`plan_batches`). The
pieces run concurrently under a semaphore (``concurrency``) and their answers are merged. The SDK's retries
(429 honouring ``Retry-After``, 5xx, timeouts) are kept; what remains becomes this package's errors.
The API key is held in a :class:`SecretStr`, sent only in the ``Authorization`` header and never logged.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import httpx
from pydantic import Field, SecretStr

from graphwalk_neo4j.decide.base import ChoiceQuestion, ChoiceResult, DecisionRequest, DecisionResponse, Usage
from graphwalk_neo4j.decide.normalize import check_request, make_result
from graphwalk_neo4j.decide.text import compact_json
from graphwalk_neo4j.errors import (
    ConfigError,
    DecisionAuthError,
    DecisionError,
    DecisionRateLimitError,
    DecisionResponseError,
)

try:  # the SDK is a base dependency; keep the import error readable if it is missing
    import typesafe_sdk
    from typesafe_sdk import (
        AsyncTypeSafeClient,
        ChoiceAnswer,
        ChoiceModel,
        RetryPolicy,
        SystemOneResponse,
        TypeSafeAPIConnectionError,
        TypeSafeAPIError,
        TypeSafeAPIResponseValidationError,
        TypeSafeAPITimeoutError,
        TypeSafeAuthenticationError,
        TypeSafeBadRequestError,
        TypeSafeError,
        TypeSafeInternalServerError,
        TypeSafeNotFoundError,
        TypeSafePermissionDeniedError,
        TypeSafeRateLimitError,
        TypeSafeUnprocessableEntityError,
    )
    from typesafe_sdk import Usage as SDKUsage
except ImportError as _exc:  # pragma: no cover
    raise ImportError("graphwalk_neo4j.decide.jev needs typesafe-sdk>=0.7.2,<0.8") from _exc

log = logging.getLogger(__name__)

Provider = Literal["typesafe", "openrouter"]
PROVIDERS: tuple[Provider, ...] = ("typesafe", "openrouter")
PINNED_MODELS: dict[str, str] = {"typesafe": "jev-1.13.0", "openrouter": "typesafe/jev-1.13"}
DEFAULT_BASE_URLS: dict[str, str] = {
    "typesafe": typesafe_sdk.constants.DEFAULT_BASE_URL,
    "openrouter": "https://openrouter.ai/api",
}
KEY_ENV = {"typesafe": "TYPESAFE_API_KEY", "openrouter": "OPENROUTER_API_KEY"}
AUTH_HINT = "check TYPESAFE_API_KEY / OPENROUTER_API_KEY"

MAX_OPTIONS = 255  # Jev's Choice limit
MAX_REQUEST_TOKENS = 64_000  # documented context per request
MAX_QUESTION_TOKENS = 32_000  # documented budget for state + the longest single question
CHARS_PER_TOKEN = 4  # estimate: len(compact JSON) / 4
REQUEST_OVERHEAD_TOKENS = 16  # {"model":..., "state":..., "questions":{...}} framing
DEFAULT_TOKEN_MARGIN = 0.9  # plan against 90% of each budget


# -- wire response -----------------------------------------------------------------------------------------


class JevUsage(SDKUsage):
    """The SDK's usage plus OpenRouter's ``usage.cost`` (USD)."""

    cost: float | None = None


class JevWireResponse(SystemOneResponse):
    """``SystemOneResponse`` (answers, model, request id) plus OpenRouter's top-level ``id`` and ``provider``.

    The extras use Python names that can't collide with question names: the SDK copies an answer into a
    top-level field when a question has that field's name."""

    usage: JevUsage
    generation_id: str | None = Field(default=None, alias="id")
    served_by: str | None = Field(default=None, alias="provider")


# -- token budget ------------------------------------------------------------------------------------------


def estimate_tokens(content: Any) -> int:
    """Estimated tokens of ``content`` as sent: ``ceil(len(compact JSON) / 4)``. Jev's tokenizer is not
    public; English JSON runs about 3.5-4.5 characters per token, and the planner keeps a 10% margin below
    each limit."""
    return math.ceil(len(compact_json(content)) / CHARS_PER_TOKEN)


def question_wire(question: ChoiceQuestion) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "choice", "criteria": dict(question.options)}
    if question.instructions is not None:
        body["instructions"] = question.instructions
    return body


def plan_batches(
    request: DecisionRequest,
    *,
    max_request_tokens: int = MAX_REQUEST_TOKENS,
    max_question_tokens: int = MAX_QUESTION_TOKENS,
    margin: float = DEFAULT_TOKEN_MARGIN,
) -> list[list[ChoiceQuestion]]:
    """Split ``request.questions`` (in order) into batches that fit Jev's two budgets.

    With ``S`` = state tokens and ``Q_i`` = question tokens (both :func:`estimate_tokens` of the JSON sent):
    each question needs ``S + Q_i <= margin * max_question_tokens`` (else :class:`DecisionError`: splitting
    can't help, the walk must send less); a batch is filled greedily while
    ``overhead + S + sum(Q_i) <= margin * max_request_tokens``.
    """
    state_tokens = estimate_tokens(request.state)
    request_budget = margin * max_request_tokens
    question_budget = margin * max_question_tokens
    batches: list[list[ChoiceQuestion]] = []
    current: list[ChoiceQuestion] = []
    used = REQUEST_OVERHEAD_TOKENS + state_tokens
    for question in request.questions:
        tokens = estimate_tokens({question.key: question_wire(question)})
        if state_tokens + tokens > question_budget:
            raise DecisionError(
                f"question {question.key!r} is too large for Jev: about {state_tokens} state + {tokens} "
                f"question tokens exceeds the {int(question_budget)}-token budget (documented limit "
                f"{max_question_tokens}, estimated as JSON characters / 4); offer fewer options or shorter "
                "descriptions"
            )
        if current and used + tokens > request_budget:
            batches.append(current)
            current, used = [], REQUEST_OVERHEAD_TOKENS + state_tokens
        current.append(question)
        used += tokens
    if current:
        batches.append(current)
    return batches


# -- model listing -----------------------------------------------------------------------------------------


def listed_model_ids(body: Any) -> list[str]:
    """Model ids in a listing: TypeSafe ``{"models": [{"name"}]}`` or OpenRouter ``{"data": [{"id"}]}``."""
    ids: list[str] = []
    if not isinstance(body, dict):
        return ids
    for key, field in (("models", "name"), ("data", "id")):
        entries = body.get(key)
        if isinstance(entries, list):
            for entry in entries:
                if isinstance(entry, dict):
                    for name in (entry.get(field), entry.get("id"), entry.get("canonical_slug")):
                        if isinstance(name, str) and name not in ids:
                            ids.append(name)
                elif isinstance(entry, str) and entry not in ids:
                    ids.append(entry)
    return ids


def check_pinned_model(model: str) -> None:
    if model.strip().lower().endswith("-latest") or model.strip().lower() == "latest":
        raise ConfigError(
            f"refusing the floating model alias {model!r}: pin a version (e.g. jev-1.13.0 on TypeSafe, "
            "typesafe/jev-1.13 on OpenRouter) so traces and evals are reproducible"
        )


def echoed_matches(requested: str, echoed: str) -> bool:
    """The server may echo a dated endpoint id (``typesafe/jev-1.13-20260917`` for ``typesafe/jev-1.13``)."""
    return echoed == requested or echoed.startswith(requested + "-") or echoed.startswith(requested + ".")


# -- backend -----------------------------------------------------------------------------------------------


@dataclass
class _Piece:
    results: dict[str, ChoiceResult]
    usage: Usage
    model: str
    request_id: str | None
    provider: str | None


class JevBackend:
    """Decision backend for Jev. ``api_key`` is required; everything else has the documented defaults."""

    def __init__(
        self,
        api_key: str | SecretStr,
        *,
        provider: Provider = "typesafe",
        model: str | None = None,
        base_url: str | None = None,
        concurrency: int = 8,
        timeout_s: float = 30.0,
        retry: RetryPolicy | None = None,
        max_request_tokens: int = MAX_REQUEST_TOKENS,
        max_question_tokens: int = MAX_QUESTION_TOKENS,
        token_margin: float = DEFAULT_TOKEN_MARGIN,
        compression: Literal["zstd", False] | None = None,
    ) -> None:
        if provider not in PROVIDERS:
            raise ConfigError(f"unknown Jev provider {provider!r}: use 'typesafe' or 'openrouter'")
        secret = api_key if isinstance(api_key, SecretStr) else SecretStr(api_key or "")
        if not secret.get_secret_value().strip():
            raise ConfigError(f"Jev on {provider} needs an API key: set {KEY_ENV[provider]}")
        self._api_key = secret
        self._provider: Provider = provider
        self._model = model or PINNED_MODELS[provider]
        check_pinned_model(self._model)
        self._base_url = (base_url or DEFAULT_BASE_URLS[provider]).rstrip("/")
        if concurrency < 1:
            raise ConfigError("decision concurrency must be >= 1")
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.retry = retry if retry is not None else RetryPolicy()
        self.max_request_tokens = max_request_tokens
        self.max_question_tokens = max_question_tokens
        self.token_margin = token_margin
        # OpenRouter's acceptance of zstd request bodies is unverified: send it plain JSON.
        self._compression = compression if compression is not None else (False if provider == "openrouter" else None)
        self._semaphore = asyncio.Semaphore(concurrency)
        self._client: AsyncTypeSafeClient | None = None
        self.verified_model: str | None = None

    # -- properties -----------------------------------------------------------------------------------------

    @property
    def model_id(self) -> str:
        return self._model

    @property
    def provider(self) -> Provider:
        return self._provider

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def max_options(self) -> int:
        return MAX_OPTIONS

    def __repr__(self) -> str:
        return f"JevBackend(provider={self._provider!r}, model={self._model!r}, base_url={self._base_url!r})"

    @classmethod
    def from_settings(cls, settings: Any, *, model: str | None = None, provider: Provider | None = None) -> JevBackend:
        """Build from :class:`Settings`: key per provider, ``jev_base_url``, concurrency and timeout."""
        chosen: Provider = (
            provider
            or settings.jev_provider
            or ("openrouter" if settings.openrouter_api_key and not settings.typesafe_api_key else "typesafe")
        )
        key = settings.openrouter_api_key if chosen == "openrouter" else settings.typesafe_api_key
        if key is None or not key.get_secret_value().strip():
            raise ConfigError(f"Jev on {chosen} needs an API key: set {KEY_ENV[chosen]}")
        return cls(
            key,
            provider=chosen,
            model=model,
            base_url=settings.jev_base_url,
            concurrency=settings.decision_concurrency,
            timeout_s=settings.decision_timeout_s,
        )

    # -- client ---------------------------------------------------------------------------------------------

    def _sdk(self) -> AsyncTypeSafeClient:
        if self._client is None:
            try:
                self._client = AsyncTypeSafeClient(
                    api_key=self._api_key.get_secret_value(),
                    model=self._model,
                    base_url=self._base_url,
                    retry=self.retry,
                    timeout=self.timeout_s,
                    compression=self._compression,
                )
            except TypeSafeError as exc:
                raise ConfigError(f"could not create the TypeSafe client: {exc}") from None
        return self._client

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    async def __aenter__(self) -> JevBackend:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- verify ---------------------------------------------------------------------------------------------

    async def verify(self) -> str:
        """Check at start-up that the provider lists the pinned model; return the id found.

        ``GET {base_url}/v1/models`` (TypeSafe: ``{"models": [{"name"}]}``, OpenRouter:
        ``{"data": [{"id"}]}``). OpenRouter's general listing may omit decision models, so there a missing id
        is looked up once more via ``GET /v1/models/{id}/endpoints``. Raises ConfigError when the id is not
        offered, DecisionAuthError on 401/403 and DecisionError when the listing can't be read.
        """
        headers = {
            "Authorization": f"Bearer {self._api_key.get_secret_value()}",
            "Accept": "application/json",
        }
        url = f"{self._base_url}/v1/models"
        try:
            async with httpx.AsyncClient(timeout=self.timeout_s, headers=headers) as http:
                response = await http.get(url)
                self._raise_listing_error(response, url)
                try:
                    ids = listed_model_ids(response.json())
                except ValueError as exc:
                    raise DecisionError(f"{url} did not return JSON: {exc}") from None
                if self._model in ids:
                    self.verified_model = self._model
                    return self._model
                if self._provider == "openrouter":
                    endpoints_url = f"{url}/{self._model}/endpoints"
                    response = await http.get(endpoints_url)
                    if response.status_code == 200:
                        self.verified_model = self._model
                        return self._model
                    if response.status_code != 404:
                        self._raise_listing_error(response, endpoints_url)
        except httpx.TimeoutException:
            raise DecisionError(f"listing models at {url} timed out after {self.timeout_s}s") from None
        except httpx.HTTPError as exc:
            raise DecisionError(f"could not list models at {url}: {type(exc).__name__}: {exc}") from None
        shown = ", ".join(ids[:20]) + (" ..." if len(ids) > 20 else "") if ids else "none"
        raise ConfigError(f"the pinned model {self._model!r} is not offered by {self._provider} ({url} lists: {shown})")

    def _raise_listing_error(self, response: httpx.Response, url: str) -> None:
        if response.status_code in (401, 403):
            raise DecisionAuthError(
                f"Jev ({self._provider}) rejected the API key (HTTP {response.status_code} from {url}): {AUTH_HINT}"
            )
        if response.status_code >= 400:
            raise DecisionError(f"listing models at {url} failed with HTTP {response.status_code}")

    # -- decide ---------------------------------------------------------------------------------------------

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        check_request(request, max_options=MAX_OPTIONS, backend="jev")
        batches = plan_batches(
            request,
            max_request_tokens=self.max_request_tokens,
            max_question_tokens=self.max_question_tokens,
            margin=self.token_margin,
        )
        started = time.perf_counter()
        pieces = await asyncio.gather(*(self._call(request.state, batch) for batch in batches))
        latency = time.perf_counter() - started
        results: dict[str, ChoiceResult] = {}
        for piece in pieces:
            results.update(piece.results)
        usage = Usage()
        for piece in pieces:
            usage = usage + piece.usage
        request_ids = [piece.request_id for piece in pieces if piece.request_id]
        return DecisionResponse(
            results={question.key: results[question.key] for question in request.questions},
            usage=usage,
            latency_s=latency,
            model=pieces[0].model,
            request_id=request_ids[0] if request_ids else None,
            provider=self._provider,
            served_by=pieces[0].provider,
            calls=len(pieces),
            request_ids=request_ids,
        )

    async def _call(self, state: Any, questions: Sequence[ChoiceQuestion]) -> _Piece:
        wire_questions = {question.key: cast(ChoiceModel, question_wire(question)) for question in questions}
        client = self._sdk()
        async with self._semaphore:
            try:
                response = await client.system_one(
                    state, wire_questions, model=self._model, response_model=JevWireResponse
                )
            except TypeSafeError as exc:
                raise self._translate(exc) from None
        return self._read(response, questions)

    def _read(self, response: JevWireResponse, questions: Sequence[ChoiceQuestion]) -> _Piece:
        if not echoed_matches(self._model, response.model):
            log.warning("Jev answered with model %r for requested %r", response.model, self._model)
        results: dict[str, ChoiceResult] = {}
        for question in questions:
            answer = response.answers.get(question.key)
            if answer is None:
                raise DecisionResponseError(
                    f"Jev's answer is missing question {question.key!r} "
                    f"(answered: {', '.join(response.answers) or 'none'})"
                )
            if not isinstance(answer, ChoiceAnswer):
                raise DecisionResponseError(
                    f"Jev answered question {question.key!r} with a {answer.type!r} answer, expected 'choice'"
                )
            result = make_result(question, answer.probabilities, confidence=answer.confidence)
            # Rounding ties may make the server's pick differ from our offer-order tie-break: keep ours, and
            # note a real disagreement.
            if (
                answer.choice != result.top
                and answer.choice in question.options
                and result.probabilities[answer.choice] < result.probabilities[result.top]
            ):
                result.warnings.append(
                    f"question {question.key!r}: server chose {answer.choice!r} but its probabilities "
                    f"favour {result.top!r}"
                )
            results[question.key] = result
        request_id: str | None
        try:
            request_id = response.generation_id or response.request_id
        except TypeSafeError:
            request_id = response.generation_id
        usage = Usage(
            input_tokens=response.usage.input_tokens or 0,
            output_tokens=response.usage.output_tokens or 0,
            cost_usd=response.usage.cost,
        )
        return _Piece(results, usage, response.model, request_id, response.served_by)

    def _translate(self, exc: TypeSafeError) -> DecisionError:
        where = f"Jev ({self._provider}, {self._base_url})"
        n = self.retry.max_retries
        retries = f"{n} {'retry' if n == 1 else 'retries'}"
        if isinstance(exc, TypeSafeAPIResponseValidationError):
            problem = f"invalid data at {exc.field_path!r}" if exc.field_path else "not a JSON object"
            return DecisionResponseError(f"{where} returned a malformed response: {problem}")
        if isinstance(exc, TypeSafeAuthenticationError | TypeSafePermissionDeniedError):
            return DecisionAuthError(f"{where} rejected the API key (HTTP {exc.status}): {AUTH_HINT}")
        if isinstance(exc, TypeSafeRateLimitError):
            wait = (
                f"; the server asked to wait {exc.retry_after_ms / 1000:g}s" if exc.retry_after_ms is not None else ""
            )
            return DecisionRateLimitError(
                f"{where} is rate limiting (HTTP 429) after {retries}{wait}: retry later or lower "
                "GW_NEO4J_DECISION_CONCURRENCY"
            )
        if isinstance(exc, TypeSafeAPITimeoutError):
            return DecisionError(
                f"{where} did not answer within {self.timeout_s:g}s (tried {n + 1} times): raise "
                "GW_NEO4J_DECISION_TIMEOUT_S or retry later"
            )
        if isinstance(exc, TypeSafeAPIConnectionError):
            return DecisionError(f"{where} could not be reached: {exc}")
        if isinstance(exc, TypeSafeInternalServerError):
            return DecisionError(f"{where} failed with a server error (HTTP {exc.status}) after {retries}")
        if isinstance(exc, TypeSafeNotFoundError):
            return DecisionError(
                f"{where} answered HTTP 404 for /v1/systemone: check GW_NEO4J_JEV_BASE_URL and the model id"
            )
        if isinstance(exc, TypeSafeBadRequestError | TypeSafeUnprocessableEntityError):
            return DecisionError(f"{where} rejected the request: {exc}")
        if isinstance(exc, TypeSafeAPIError):
            return DecisionError(f"{where} failed with HTTP {exc.status}")
        return DecisionError(f"{where}: {exc}")
