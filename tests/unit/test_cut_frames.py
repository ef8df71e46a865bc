"""A walk cut at its deadline is freed by reference counting: ``release_cut_frames`` clears the finished frames
that the cancelled step's error keeps (the driver holds that error on its own objects)."""

from __future__ import annotations

import asyncio
import gc
import weakref

from graphwalk_neo4j.walk.engine import release_cut_frames


class State:
    """Stands for the walk's state, held in a local of the step that gets cut."""


async def cut_step(kept: list[BaseException], refs: list[weakref.ref[State]]) -> None:
    state = State()
    refs.append(weakref.ref(state))
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError as exc:
        kept.append(exc)  # as the driver does: the error stays reachable after the step is gone
        raise
    finally:
        assert state is not None


async def cut(release: bool) -> tuple[weakref.ref[State], list[BaseException]]:
    kept: list[BaseException] = []
    refs: list[weakref.ref[State]] = []
    try:
        await asyncio.wait_for(cut_step(kept, refs), 0.01)
    except TimeoutError as exc:
        if release:
            release_cut_frames(exc)
    return refs[0], kept


def test_the_cut_steps_locals_go_with_their_frames_cleared() -> None:
    gc.disable()
    try:
        ref, kept = asyncio.run(cut(release=True))
        assert kept  # the error is still held
        assert ref() is None  # but not the state its frame had
        ref, kept = asyncio.run(cut(release=False))
        assert ref() is not None  # without: the held error's frames keep it
    finally:
        gc.enable()
        gc.collect()
