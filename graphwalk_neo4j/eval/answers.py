"""What an evaluated system is and what one answer carries: the :class:`QASystem` protocol, :class:`SystemAnswer`,
and the per-question Cypher round-trip count (:func:`count_round_trips`, with the :class:`CountingStore` that
feeds it). Value types only: the systems themselves live in :mod:`.systems` and :mod:`.baseline`.

Round trips are counted with a context variable: every question runs in its own asyncio task, so concurrent
questions never mix their counts.
"""

from __future__ import annotations

import contextvars
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from graphwalk_neo4j.store import GraphStore, Query, QueryName

_TRIPS: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("gw_eval_round_trips", default=None)


class SystemAnswer(BaseModel):
    """One system's answer to one question, with what it cost. ``answers`` is ranked (best first) and is
    also the predicted set. ``ranked`` may hold a longer ranking (the vector baseline keeps its top 20 so
    the cut-off k can be chosen afterwards)."""

    answers: list[str]
    status: str = "ok"
    stop_reason: str = ""
    path: str | None = None
    walk_id: str | None = None
    linked: list[str] | None = None  # start entities the system used (names)
    linking_method: str | None = None
    decision_calls: int = 0
    llm_calls: int = 0
    round_trips: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    ranked: list[str] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)


class QASystem(Protocol):
    """Anything that answers a question from its system input."""

    name: str

    def describe(self) -> dict[str, Any]:
        """Settings that decide this system's answers (recorded in results.json; checked on resume)."""
        ...

    async def answer(self, question: Mapping[str, str]) -> SystemAnswer: ...


@contextmanager
def count_round_trips() -> Iterator[list[int]]:
    """Count the :class:`CountingStore` round trips made in the current task while the block runs."""
    box = [0]
    token = _TRIPS.set(box)
    try:
        yield box
    finally:
        _TRIPS.reset(token)


class CountingStore:
    """A :class:`GraphStore` stand-in that forwards everything and counts reads and writes per task."""

    def __init__(self, store: GraphStore) -> None:
        self._store = store

    @staticmethod
    def _tick() -> None:
        box = _TRIPS.get()
        if box is not None:
            box[0] += 1

    async def read(self, query: Query[Any] | QueryName, **params: Any) -> list[Any]:
        self._tick()
        return await self._store.read(query, **params)

    async def write(self, query: Query[Any] | QueryName, **params: Any) -> list[Any]:
        self._tick()
        return await self._store.write(query, **params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)
