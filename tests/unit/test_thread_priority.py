"""The service's background threads at a lower priority than its event loop (issue 21): a thread's niceness set
and read back by its native id (graphwalk_neo4j/threads.py), the walks' CPU pool workers (walk/cpu.py) and the
driver's thread (store.DriverThread) started that many steps nicer than their starter, which stays as it was;
a no-op where threads have no niceness of their own."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from graphwalk_neo4j import threads
from graphwalk_neo4j.store.store import DriverThread
from graphwalk_neo4j.walk import cpu

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness is Linux's")


def _nice(native_id: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, native_id)


def _in_thread(work: object) -> object:
    """``work()`` in a fresh thread (so the test's own thread keeps its niceness); its result."""
    out: list[object] = []
    thread = threading.Thread(target=lambda: out.append(work()))  # type: ignore[operator]
    thread.start()
    thread.join(30)
    return out[0]


@linux
def test_a_thread_runs_the_given_steps_nicer_and_no_other_thread_does() -> None:
    base = _nice(threading.get_native_id())

    def lowered() -> tuple[int | None, int]:
        return threads.lower_thread_priority(3), _nice(threading.get_native_id())

    assert _in_thread(lowered) == (min(19, base + 3), min(19, base + 3))
    assert _nice(threading.get_native_id()) == base


@linux
def test_niceness_is_capped_at_19_and_a_step_outside_0_to_19_is_refused() -> None:
    assert _in_thread(lambda: threads.lower_thread_priority(19)) == 19
    assert _in_thread(lambda: (threads.lower_thread_priority(19), threads.lower_thread_priority(5))[1]) == 19
    with pytest.raises(ValueError, match=r"niceness step of 20 is outside 0\.\.19"):
        threads.lower_thread_priority(20)
    with pytest.raises(ValueError, match=r"niceness step of -1 is outside 0\.\.19"):
        threads.lower_thread_priority(-1)


def test_without_per_thread_niceness_nothing_is_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "PER_THREAD", False)
    before = os.getpriority(os.PRIO_PROCESS, 0) if hasattr(os, "getpriority") else None
    assert _in_thread(lambda: threads.lower_thread_priority(7)) is None
    assert threads.thread_nice() is None
    if before is not None:
        assert os.getpriority(os.PRIO_PROCESS, 0) == before


@linux
def test_the_cpu_pools_workers_run_the_set_steps_nicer_than_their_starter() -> None:
    base = _nice(threading.get_native_id())
    pool = cpu._Pool(2, nice=4)
    assert len(pool.native_ids) == 2
    assert [_nice(tid) for tid in pool.native_ids] == [base + 4, base + 4]
    seen = pool.submit(0.0, lambda: _nice(threading.get_native_id())).result(30)
    assert seen == base + 4  # the step runs on a worker at that niceness
    pool.renice(9)  # the running workers, from their starter's niceness
    assert [_nice(tid) for tid in pool.native_ids] == [base + 9, base + 9]
    assert _nice(threading.get_native_id()) == base


@linux
def test_the_shared_pool_follows_set_worker_nice() -> None:
    base = _nice(threading.get_native_id())
    shared = cpu._shared()  # started by now (here, or by an earlier test), at whatever step was set then
    assert shared.base_nice is not None
    before = [_nice(tid) for tid in shared.native_ids]
    cpu.set_worker_nice(6)
    assert shared.nice == 6
    # lower priority only: a worker already nicer than its starter + 6 stays where it is
    assert [_nice(tid) for tid in shared.native_ids] == [max(b, shared.base_nice + 6) for b in before]
    with pytest.raises(ValueError, match=r"niceness step of 25 is outside 0\.\.19"):
        cpu.set_worker_nice(25)
    assert _nice(threading.get_native_id()) == base


@linux
def test_the_driver_thread_runs_the_set_steps_nicer() -> None:
    base = _nice(threading.get_native_id())
    driver = DriverThread(nice=5)
    try:
        assert driver.native_id is not None
        assert _nice(driver.native_id) == base + 5
        plain = DriverThread()
        try:
            assert plain.native_id is not None
            assert _nice(plain.native_id) == base
        finally:
            plain.stop()
    finally:
        driver.stop()
    assert _nice(threading.get_native_id()) == base
