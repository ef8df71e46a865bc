"""Pure wiring of the service app (no server, no Neo4j): the routes it serves, the Browser router it includes when
that module exists, and the error-to-status mapping."""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

import pytest
from fastapi import APIRouter, FastAPI

from graphwalk_neo4j.errors import (
    ConfigError,
    DecisionError,
    DrainingError,
    InputError,
    NotFoundError,
    RequestTimeoutError,
    SaturatedError,
    StoreBusyError,
    StoreUnavailableError,
)
from graphwalk_neo4j.service.app import BROWSER_ROUTER, create_app
from graphwalk_neo4j.service.context import check_caller_model
from graphwalk_neo4j.service.problems import from_exception, status_for
from graphwalk_neo4j.settings import Settings

if TYPE_CHECKING:
    from pathlib import Path

API = {
    "/v1/walk",
    "/v1/walks",
    "/v1/walks/{walk_id}",
    "/v1/search",
    "/v1/graphs",
    "/v1/graphs/{graph}/schema",
    "/v1/ingest",
    "/v1/jobs/{job_id}",
    "/healthz",
    "/readyz",
    "/metrics",
    "/mcp",
}


def paths(app: FastAPI) -> set[str]:
    """Documented paths plus the plain Starlette routes (``/mcp``)."""
    return set(app.openapi()["paths"]) | {p for r in app.routes if isinstance(p := getattr(r, "path", None), str)}


def test_the_app_serves_the_api() -> None:
    assert paths(create_app(Settings(embedder="fake"))) >= API


def test_the_browser_router_is_included_when_its_module_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType(BROWSER_ROUTER)
    router = APIRouter()

    @router.get("/guide")
    async def guide() -> str:
        return "guide"

    module.router = router  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, BROWSER_ROUTER, module)
    assert "/guide" in paths(create_app(Settings(embedder="fake")))


def test_error_statuses() -> None:
    cases = [
        (ConfigError("x"), 400),
        (NotFoundError("x"), 404),
        (SaturatedError("x"), 429),
        (DrainingError("x"), 503),
        (StoreUnavailableError("x"), 503),
        (StoreBusyError("x"), 503),
        (DecisionError("x"), 502),
        (RequestTimeoutError("x"), 504),
        (RuntimeError("secret detail"), 500),
    ]
    assert [status_for(e) for e, _ in cases] == [s for _, s in cases]
    status, body = from_exception(RuntimeError("secret detail"), instance="/v1/walk", request_id="r1")
    assert status == 500
    assert "secret detail" not in body["detail"]
    assert "r1" in body["detail"]
    status, body = from_exception(ConfigError("unknown walk preset 'x'"), instance="/v1/walk", request_id="r2")
    assert body == {
        "type": "about:blank",
        "title": "Bad Request",
        "status": 400,
        "detail": "unknown walk preset 'x'",
        "instance": "/v1/walk",
        "request_id": "r2",
    }


def test_a_caller_may_name_a_learned_decider_only_under_the_allowed_folders(tmp_path: Path) -> None:
    allowed, other = tmp_path / "models", tmp_path / "elsewhere"
    (allowed / "m1").mkdir(parents=True)
    other.mkdir()
    closed = Settings(model="local")
    with pytest.raises(InputError, match="GW_NEO4J_SERVICE_LEARNED_DIRS"):
        check_caller_model(closed, f"learned:{allowed / 'm1'}")
    check_caller_model(closed, "local")  # other kinds are not folders: unaffected
    check_caller_model(closed, None)
    check_caller_model(closed, "general")  # the learned decider the package ships: no folder of the caller's
    opened = Settings(model="local", service_learned_dirs=f" {allowed} ,")
    check_caller_model(opened, f"learned:{allowed / 'm1'}")
    with pytest.raises(InputError):
        check_caller_model(opened, f"learned:{allowed / 'm1' / '..' / '..' / 'elsewhere'}")
    with pytest.raises(InputError):
        check_caller_model(opened, f"learned:{other}")
    own = Settings(model=f"learned:{other}")  # the service's own default is always allowed
    check_caller_model(own, f"learned:{other}")
