"""The walks' CPU pool (walk/cpu.py): earliest deadline first, cancellation of queued steps, results and errors
handed back; and the service's answer margin."""

from __future__ import annotations

import asyncio
import math
import threading
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.service.context import answer_margin
from graphwalk_neo4j.walk import cpu

if TYPE_CHECKING:
    from collections.abc import Callable


def test_queued_steps_run_earliest_deadline_first_then_in_arrival_order() -> None:
    pool = cpu._Pool(1)
    release, started = threading.Event(), threading.Event()
    order: list[str] = []

    def blocker() -> None:
        started.set()
        release.wait(30)

    first = pool.submit(0.0, blocker)
    assert started.wait(30)  # the one worker is busy: everything below queues

    def note(name: str) -> Callable[[], None]:
        return lambda: order.append(name)

    done = [
        pool.submit(deadline, note(name))
        for name, deadline in (("late", 30.0), ("none-a", math.inf), ("early", 10.0), ("none-b", math.inf))
    ]
    dropped = pool.submit(5.0, note("cancelled"))
    assert dropped.cancel()
    release.set()
    first.result(30)
    for future in done:
        future.result(30)
    assert order == ["early", "late", "none-a", "none-b"]


async def test_off_loop_returns_the_result_and_raises_the_error_with_the_deadline_of_its_context() -> None:
    seen: list[float] = []

    def step(x: int) -> int:
        seen.append(cpu._deadline.get())
        return x * 2

    def failing() -> None:
        raise ValueError("bad step")

    with cpu.walk_deadline(12.5):
        assert await cpu.off_loop(step, 21) == 42
    assert await cpu.off_loop(step, 1) == 2
    assert seen == [12.5, math.inf]
    with pytest.raises(ValueError, match="bad step"):
        await cpu.off_loop(failing)


async def test_a_cancelled_walk_waits_for_its_running_step() -> None:
    release, started = threading.Event(), threading.Event()
    finished: list[bool] = []

    def long_step() -> None:
        started.set()
        release.wait(30)
        finished.append(True)

    task = asyncio.ensure_future(cpu.off_loop(long_step))
    await asyncio.to_thread(started.wait, 30)
    task.cancel()
    await asyncio.sleep(0.05)
    assert not task.done()  # still waiting for the step: nothing else may touch the walk's state meanwhile
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert finished == [True]


@pytest.mark.parametrize(("timeout_s", "margin"), [(120.0, 15.0), (60.0, 15.0), (40.0, 10.0), (10.0, 2.5)])
def test_answer_margin_is_a_quarter_of_the_timeout_at_most_15_s(timeout_s: float, margin: float) -> None:
    assert answer_margin(timeout_s) == margin
