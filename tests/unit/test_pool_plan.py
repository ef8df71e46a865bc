"""The one sizing rule for the driver pool, the walk limit and the timeouts (Settings.pool_plan), and how an
exhausted pool or an overloaded server is translated (store.translate): exact values."""

from __future__ import annotations

import pytest

from graphwalk_neo4j.errors import QueryError, StoreBusyError
from graphwalk_neo4j.settings import PoolPlan, Settings
from graphwalk_neo4j.store.store import translate
from neo4j import exceptions as nx


@pytest.mark.parametrize(
    ("env", "plan"),
    [
        ({}, PoolPlan(max_walks=64, max_connections=136, acquire_timeout_s=30.0, request_timeout_s=120.0)),
        ({"service_max_walks": 8}, PoolPlan(8, 24, 30.0, 120.0)),
        ({"service_max_walks": 1, "service_timeout_s": 20.0}, PoolPlan(1, 10, 5.0, 20.0)),
        ({"service_timeout_s": 600.0}, PoolPlan(64, 136, 60.0, 600.0)),  # the wait is capped at 60 s
        ({"pool_size": 1, "pool_acquire_timeout_s": 0.5}, PoolPlan(64, 1, 0.5, 120.0)),  # explicit overrides
    ],
)
def test_pool_plan(env: dict[str, float], plan: PoolPlan) -> None:
    assert Settings(**env).pool_plan() == plan  # type: ignore[arg-type]


def test_pool_settings_are_bounded() -> None:
    with pytest.raises(ValueError, match="pool_size"):
        Settings(pool_size=0)
    with pytest.raises(ValueError, match="pool_acquire_timeout_s"):
        Settings(pool_acquire_timeout_s=601)


def test_an_exhausted_pool_and_an_overloaded_server_are_busy_not_failed() -> None:
    waited = translate(nx.ConnectionAcquisitionTimeoutError("failed to obtain a connection"), "bolt://db:7687")
    assert isinstance(waited, StoreBusyError)
    assert str(waited).startswith("Neo4j at bolt://db:7687 is busy: no pooled connection came free in time")
    overloaded = translate(nx.TransientError("memory pool full"), "bolt://db:7687")
    assert isinstance(overloaded, StoreBusyError)
    assert str(overloaded).startswith("Neo4j at bolt://db:7687 is overloaded: a transient error outlasted the")
    assert isinstance(translate(nx.ClientError("bad"), "bolt://db:7687"), QueryError)
