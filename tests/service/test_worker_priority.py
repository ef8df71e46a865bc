"""The service runs the walks' CPU pool and the driver's thread ``GW_NEO4J_SERVICE_WORKER_NICE`` steps nicer than
its event loop (issue 21: a woken loop, a ``/healthz`` probe, gets a core first). A real ``ServiceContext`` on
the real Neo4j; each thread's niceness read back by its native id. Linux only (elsewhere it is a no-op)."""

from __future__ import annotations

import os
import sys
import threading

import pytest
from pydantic import ValidationError

from graphwalk_neo4j.service.context import ServiceContext
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.walk import cpu
from tests.service.conftest import service_settings

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness is Linux's")


async def test_the_pool_and_the_driver_thread_run_the_setting_nicer_than_the_loop(
    neo4j_settings: Settings, movie_graph: str
) -> None:
    settings = service_settings(neo4j_settings, movie_graph, service_worker_nice=7)
    loop_nice = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    ctx = ServiceContext(settings)
    await ctx.start()
    try:
        driver = ctx.store._thread
        assert driver is not None
        assert driver.native_id is not None
        assert os.getpriority(os.PRIO_PROCESS, driver.native_id) == min(19, loop_nice + 7)
        pool = cpu._shared()
        assert pool.nice == 7
        assert pool.base_nice is not None
        assert all(os.getpriority(os.PRIO_PROCESS, t) >= min(19, pool.base_nice + 7) for t in pool.native_ids)
        worker = await cpu.off_loop(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        assert worker >= min(19, pool.base_nice + 7)
        assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == loop_nice  # the loop: as it was
    finally:
        await ctx.close()


def test_the_setting_defaults_to_10_steps_and_refuses_more_than_19(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GW_NEO4J_SERVICE_WORKER_NICE", raising=False)
    assert Settings().service_worker_nice == 10
    monkeypatch.setenv("GW_NEO4J_SERVICE_WORKER_NICE", "20")
    with pytest.raises(ValidationError, match="less than or equal to 19"):
        Settings()
