"""The one ASGI middleware in front of every route: request ids, bearer-token auth, refusing work while draining,
the request size limit, the in-flight gauge, per-route request counts and one JSON log line per request.

Pure ASGI (no ``BaseHTTPMiddleware``), so streamed responses pass through untouched.
"""

from __future__ import annotations

import hmac
import logging
import re
import time
import uuid
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from graphwalk_neo4j.service.logs import request_id_var, walk_id_var
from graphwalk_neo4j.service.problems import send_problem
from graphwalk_neo4j.stored_walks.read import guide_key_valid

if TYPE_CHECKING:
    from graphwalk_neo4j.service.context import ServiceContext
    from graphwalk_neo4j.service.metrics import Metrics

log = logging.getLogger("graphwalk_neo4j.service.http")
OPEN_PATHS = frozenset({"/healthz", "/readyz"})  # probes work without the token
DRAIN_OPEN_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})  # answered while draining
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
GUIDE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # what a guide key allows, on the guide routes only


def is_guide_path(path: str) -> bool:
    """The routes Neo4j Browser fetches for a guide: ``/guide``, ``/guide/walk/ID`` and ``/style.grass``."""
    return path in ("/guide", "/style.grass") or path.startswith("/guide/walk/")


class BodyTooLargeError(Exception):
    pass


class Guard:
    def __init__(self, app: Any, ctx: ServiceContext, metrics: Metrics) -> None:
        self.app = app
        self.ctx = ctx
        self.metrics = metrics
        settings = ctx.settings
        token = settings.service_token.get_secret_value() if settings.service_token is not None else ""
        self.token = token.encode("utf-8") if token else None
        self.max_body = settings.service_max_body_bytes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        given = headers.get("x-request-id", "")
        request_id = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
        request_token = request_id_var.set(request_id)
        walk_token = walk_id_var.set(None)
        state = scope.setdefault("state", {})
        state["request_id"] = request_id
        path: str = scope.get("path", "")
        started = time.perf_counter()
        status_box = {"status": 0}
        over = {"limit": False, "replaced": False}

        async def send_with_id(message: dict[str, Any]) -> None:
            if over["limit"]:  # the body ran over while the app read it: whatever it answers becomes a 413
                if not over["replaced"]:
                    over["replaced"] = True
                    await send_problem(send_with_id_raw, 413, self._too_large(), request_id=request_id)
                return
            await send_with_id_raw(message)

        async def send_with_id_raw(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status_box["status"] = message["status"]
                message = {**message, "headers": [*message.get("headers", []), (b"x-request-id", request_id.encode())]}
            await send(message)

        self.metrics.in_flight.inc()
        counted = path not in DRAIN_OPEN_PATHS
        if counted:
            self.ctx.enter_request()
        try:
            refusal = self._refuse(path, headers, scope)
            if refusal is not None:
                status, reason, detail, extra = refusal
                self.metrics.rejected.labels(reason=reason).inc()
                await send_problem(send_with_id, status, detail, request_id=request_id, headers=extra)
                return
            length = headers.get("content-length")
            if length is not None and length.isdigit() and int(length) > self.max_body:
                self.metrics.rejected.labels(reason="too_large").inc()
                await send_problem(send_with_id, 413, self._too_large(), request_id=request_id)
                return
            try:
                await self.app(scope, self._limited(receive, over), send_with_id)
            except BodyTooLargeError:
                if not over["replaced"]:
                    over["replaced"] = True
                    await send_problem(send_with_id_raw, 413, self._too_large(), request_id=request_id)
        finally:
            if counted:
                self.ctx.leave_request()
            self.metrics.in_flight.dec()
            route = scope.get("route")
            template = getattr(route, "path", None) or ("/mcp" if path.startswith("/mcp") else "unmatched")
            self.metrics.requests.labels(
                method=scope.get("method", ""), route=template, status=str(status_box["status"])
            ).inc()
            walk_id = state.get("walk_id")
            if walk_id is not None:
                walk_id_var.set(walk_id)
            if path not in OPEN_PATHS and path != "/metrics":
                log.info(
                    "request",
                    extra={
                        "method": scope.get("method"),
                        "path": path,
                        "status": status_box["status"],
                        "ms": round((time.perf_counter() - started) * 1000, 2),
                    },
                )
            walk_id_var.reset(walk_token)
            request_id_var.reset(request_token)

    def _too_large(self) -> str:
        return (
            f"request body larger than {self.max_body} bytes (GW_NEO4J_SERVICE_MAX_BODY_BYTES); send less, "
            "or ingest big files with `gw-neo4j ingest`"
        )

    def _guide_key_opens(self, path: str, scope: Any) -> bool:
        """A signed guide key (``?key=``, see :func:`~graphwalk_neo4j.stored_walks.read.guide_key`) opens only
        ``GET``/``HEAD``/``OPTIONS`` of the guide routes: Neo4j Browser fetches guides and styles with no way to
        send a header. The key is read from the query string and never logged (the log line has the path only)."""
        if self.token is None or scope.get("method") not in GUIDE_METHODS or not is_guide_path(path):
            return False
        keys = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("key", [])
        return len(keys) == 1 and guide_key_valid(self.token.decode("utf-8"), keys[0])

    def _refuse(self, path: str, headers: dict[str, str], scope: Any) -> tuple[int, str, str, dict[str, str]] | None:
        if self.token is not None and path not in OPEN_PATHS:
            auth = headers.get("authorization", "")
            scheme, _, value = auth.partition(" ")
            bearer = scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode("utf-8"), self.token)
            if not bearer and not self._guide_key_opens(path, scope):
                detail = "missing or wrong bearer token: send `Authorization: Bearer $GW_NEO4J_SERVICE_TOKEN`"
                if is_guide_path(path):
                    detail = (
                        "missing, wrong or expired guide key: open the guide with the signed link "
                        "`gw-neo4j walks guide` prints (it is valid for 12 hours)"
                    )
                return 401, "unauthorized", detail, {"WWW-Authenticate": "Bearer"}
        if self.ctx.draining and path not in DRAIN_OPEN_PATHS:
            return 503, "draining", "the service is shutting down and takes no new requests; retry shortly", {}
        return None

    def _limited(self, receive: Any, over: dict[str, bool]) -> Any:
        seen = 0
        limit = self.max_body

        async def wrapped() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    over["limit"] = True
                    raise BodyTooLargeError
            return message

        return wrapped
