"""Errors as ``application/problem+json`` (RFC 9457), carrying the same one-line message the CLI prints.

The project's error tree maps onto statuses (:func:`status_for`); anything else is a 500 whose detail names only
the request id (the exception goes to the log, never into the response).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from graphwalk_neo4j.errors import (
    ClientGoneError,
    ConfigError,
    DecisionError,
    DrainingError,
    GraphwalkError,
    InputError,
    InvalidIdentifierError,
    LinkingError,
    NotFoundError,
    OptionValueError,
    RequestTimeoutError,
    SaturatedError,
    StoreAuthError,
    StoreBusyError,
    StoreUnavailableError,
    WalkProcessError,
)

MEDIA_TYPE = "application/problem+json"
RETRY_AFTER_S = 1
log = logging.getLogger("graphwalk_neo4j.service")

TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Content Too Large",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
    499: "Client Closed Request",
}


def status_for(exc: BaseException) -> int:
    if isinstance(exc, OptionValueError):
        return 422
    if isinstance(exc, (ConfigError, InvalidIdentifierError, InputError, LinkingError)):
        return 400
    if isinstance(exc, NotFoundError):
        return 404
    if isinstance(exc, SaturatedError):
        return 429
    if isinstance(exc, (DrainingError, StoreUnavailableError, StoreAuthError, StoreBusyError, WalkProcessError)):
        return 503
    if isinstance(exc, DecisionError):
        return 502
    if isinstance(exc, RequestTimeoutError):
        return 504
    if isinstance(exc, ClientGoneError):
        return 499  # nginx's "client closed request": nobody reads it, but it is no server error
    return 500


def problem_body(
    status: int, detail: str, *, instance: str | None = None, request_id: str | None = None, **extra: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
    }
    if instance is not None:
        body["instance"] = instance
    if request_id is not None:
        body["request_id"] = request_id
    body.update(extra)
    return body


def retry_headers(status: int) -> dict[str, str]:
    return {"Retry-After": str(RETRY_AFTER_S)} if status in (429, 503) else {}


def from_exception(exc: BaseException, *, instance: str | None, request_id: str | None) -> tuple[int, dict[str, Any]]:
    """``(status, body)`` for ``exc``; unexpected exceptions are logged and answered without their text."""
    status = status_for(exc)
    if isinstance(exc, GraphwalkError):
        detail = str(exc)
        if status >= 500 and not isinstance(
            exc,
            (DrainingError, StoreUnavailableError, StoreAuthError, StoreBusyError, DecisionError, RequestTimeoutError),
        ):
            log.error("request failed", exc_info=exc)
    else:
        log.error("unexpected error", exc_info=exc)
        detail = f"internal error; the service log has the details under request id {request_id}"
    return status, problem_body(status, detail, instance=instance, request_id=request_id)


async def send_problem(
    send: Any, status: int, detail: str, *, request_id: str | None = None, headers: dict[str, str] | None = None
) -> None:
    """Answer a raw ASGI request with a problem (used by the middleware, before any route runs)."""
    body = json.dumps(problem_body(status, detail, request_id=request_id)).encode("utf-8")
    raw = [(b"content-type", MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode())]
    for name, value in {**retry_headers(status), **(headers or {})}.items():
        raw.append((name.lower().encode(), value.encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
