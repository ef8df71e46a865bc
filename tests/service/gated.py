"""A decision backend the test controls: every request announces itself on ``entered`` and waits until the test
sets ``release`` (threading events, since the app runs on uvicorn's loop in another thread), then answers as the
seeded :class:`FakeBackend` would."""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING

from graphwalk_neo4j.decide.fake import FakeBackend

if TYPE_CHECKING:
    from graphwalk_neo4j.decide.base import DecisionRequest, DecisionResponse


class GatedBackend(FakeBackend):
    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        self.entered.set()
        await asyncio.to_thread(self.release.wait, 60)
        return await super().decide(request)
