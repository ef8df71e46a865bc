"""JevBackend: one DecisionRequest as one or more concurrent ``POST /v1/systemone`` calls, answers merged."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

import httpx
from pydantic import SecretStr
from typesafe_sdk import AsyncTypeSafeClient, ChoiceAnswer, ChoiceModel, RetryPolicy, TypeSafeError

from graphwalk_neo4j.decide.base import (
    ChoiceQuestion,
    ChoiceResult,
    DecisionBackend,
    DecisionRequest,
    DecisionResponse,
    Usage,
)
from graphwalk_neo4j.decide.jev.budget import (
    DEFAULT_TOKEN_MARGIN,
    MAX_QUESTION_TOKENS,
    MAX_REQUEST_TOKENS,
    plan_batches,
)
from graphwalk_neo4j.decide.jev.listing import check_pinned_model, echoed_matches, listed_model_ids
from graphwalk_neo4j.decide.jev.translate import translate_error
from graphwalk_neo4j.decide.jev.wire import (
    AUTH_HINT,
    DEFAULT_BASE_URLS,
    KEY_ENV,
    MAX_OPTIONS,
    PINNED_MODELS,
    PROVIDERS,
    JevWireResponse,
    Provider,
    question_wire,
)
from graphwalk_neo4j.decide.normalize import check_request, make_result
from graphwalk_neo4j.errors import ConfigError, DecisionAuthError, DecisionError, DecisionResponseError

if TYPE_CHECKING:
    from collections.abc import Sequence

log = logging.getLogger(__name__)


@dataclass
class _Piece:
    results: dict[str, ChoiceResult]
    usage: Usage
    model: str
    request_id: str | None
    provider: str | None


class JevBackend(DecisionBackend):
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
        wire_questions = {question.key: cast("ChoiceModel", question_wire(question)) for question in questions}
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
        return translate_error(
            exc,
            provider=self._provider,
            base_url=self._base_url,
            retries=self.retry.max_retries,
            timeout_s=self.timeout_s,
        )
