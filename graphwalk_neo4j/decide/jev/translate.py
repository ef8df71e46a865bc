"""The SDK's errors, after its own retries, as this package's :mod:`~graphwalk_neo4j.errors` with the way out."""

from __future__ import annotations

from typesafe_sdk import (
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

from graphwalk_neo4j.decide.jev.wire import AUTH_HINT
from graphwalk_neo4j.errors import DecisionAuthError, DecisionError, DecisionRateLimitError, DecisionResponseError


def translate_error(
    exc: TypeSafeError, *, provider: str, base_url: str, retries: int, timeout_s: float
) -> DecisionError:
    where = f"Jev ({provider}, {base_url})"
    n = retries
    tries = f"{n} {'retry' if n == 1 else 'retries'}"
    if isinstance(exc, TypeSafeAPIResponseValidationError):
        problem = f"invalid data at {exc.field_path!r}" if exc.field_path else "not a JSON object"
        return DecisionResponseError(f"{where} returned a malformed response: {problem}")
    if isinstance(exc, TypeSafeAuthenticationError | TypeSafePermissionDeniedError):
        return DecisionAuthError(f"{where} rejected the API key (HTTP {exc.status}): {AUTH_HINT}")
    if isinstance(exc, TypeSafeRateLimitError):
        wait = f"; the server asked to wait {exc.retry_after_ms / 1000:g}s" if exc.retry_after_ms is not None else ""
        return DecisionRateLimitError(
            f"{where} is rate limiting (HTTP 429) after {tries}{wait}: retry later or lower "
            "GW_NEO4J_DECISION_CONCURRENCY"
        )
    if isinstance(exc, TypeSafeAPITimeoutError):
        return DecisionError(
            f"{where} did not answer within {timeout_s:g}s (tried {n + 1} times): raise "
            "GW_NEO4J_DECISION_TIMEOUT_S or retry later"
        )
    if isinstance(exc, TypeSafeAPIConnectionError):
        return DecisionError(f"{where} could not be reached: {exc}")
    if isinstance(exc, TypeSafeInternalServerError):
        return DecisionError(f"{where} failed with a server error (HTTP {exc.status}) after {tries}")
    if isinstance(exc, TypeSafeNotFoundError):
        return DecisionError(
            f"{where} answered HTTP 404 for /v1/systemone: check GW_NEO4J_JEV_BASE_URL and the model id"
        )
    if isinstance(exc, TypeSafeBadRequestError | TypeSafeUnprocessableEntityError):
        return DecisionError(f"{where} rejected the request: {exc}")
    if isinstance(exc, TypeSafeAPIError):
        return DecisionError(f"{where} failed with HTTP {exc.status}")
    return DecisionError(f"{where}: {exc}")
