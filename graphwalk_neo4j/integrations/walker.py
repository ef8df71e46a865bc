"""The one walk composition every framework adapter shares: :class:`GraphWalker` owns a connected
:class:`~graphwalk_neo4j.store.GraphStore`, an embedder, a decision backend and one warm
:class:`~graphwalk_neo4j.walk.service.WalkService` for one graph, and answers with the same
:meth:`WalkService.walk` the CLI, HTTP and MCP call.

Frameworks call retrievers both synchronously (neo4j-graphrag's ``search``, LangChain's ``invoke``, LlamaIndex's
``retrieve``) and from their own event loop (``ainvoke``, ``aretrieve``, a notebook cell). The async Neo4j driver
belongs to the loop it was opened on, so the walker runs its own loop on one daemon thread, started by the first
walk (nothing is opened in the constructor); :meth:`GraphWalker.walk` blocks on it and :meth:`GraphWalker.awalk`
awaits it from any loop. :func:`retrieved_answers` turns an outcome into the framework-neutral items (text,
relevance, metadata with the path and the walk id) that each adapter wraps in its own type.
"""

from __future__ import annotations

import asyncio
import math
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from graphwalk_neo4j.backends import graph_model_choice, resolve_backend
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.errors import InputError, WalkFailedError
from graphwalk_neo4j.identifiers import graph_name
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.walk.config import build_config, check_question
from graphwalk_neo4j.walk.service import WalkOutcome, WalkService

if TYPE_CHECKING:
    from collections.abc import Coroutine, Sequence
    from concurrent.futures import Future
    from types import TracebackType

    from graphwalk_neo4j.decide.base import DecisionBackend
    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.walk.config import WalkConfig
    from graphwalk_neo4j.walk.result import Answer, WalkPath

T = TypeVar("T")
MAX_TOP_K = 100  # answers an adapter returns per question (the same bound in every framework)


def check_top_k(top_k: int) -> int:
    """``top_k`` must be an int from 1 to :data:`MAX_TOP_K` (:class:`InputError` naming the bound)."""
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
        raise InputError(f"top_k is {top_k!r}; it must be a whole number from 1 to {MAX_TOP_K} (answers returned)")
    return top_k


class GraphWalker:
    """Walks over one graph for framework adapters. ``settings`` default to the ``GW_NEO4J_*`` environment;
    ``preset``/``config`` choose the walk (default: the default walk of ``gw-neo4j walk``, relation hops searched
    as the decider prefers); ``model`` names the decider as
    ``gw-neo4j walk --model`` does (without one, the model ``gw-neo4j walk`` would take: the graph's own, else the
    usual default), or ``backend``/``embedder`` hand in ready ones (the walker then leaves closing them to the
    caller). Use it as a context manager, or call :meth:`close`."""

    def __init__(
        self,
        graph: str = "default",
        *,
        settings: Settings | None = None,
        preset: str | None = None,
        config: WalkConfig | None = None,
        model: str | None = None,
        backend: DecisionBackend | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self.graph = graph_name(graph)
        self.settings = settings if settings is not None else Settings()
        self.config = config if config is not None else build_config(preset)
        self.model = model
        self._given_backend = backend
        self._given_embedder = embedder
        self._service: WalkService | None = None
        self._store: GraphStore | None = None
        self._opening: asyncio.Lock | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    # ---- the loop thread -----------------------------------------------------------------------------------
    def _submit(self, work: Coroutine[Any, Any, T]) -> Future[T]:
        with self._start_lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name=f"graphwalk-{self.graph}", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            loop = self._loop
        return asyncio.run_coroutine_threadsafe(work, loop)

    async def _opened(self) -> WalkService:
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if self._service is None:
                store = GraphStore(self.settings)
                await store.connect()
                try:
                    embedder = self._given_embedder or make_embedder(self.settings)
                    model = self.model
                    if self._given_backend is None and not model:
                        # none named: every door's rule (GW_NEO4J_MODEL, the graph's own model, Jev with a key,
                        # the shipped general model, local; backends.graph_model_choice)
                        model = (await graph_model_choice(store, self.settings, self.graph, None)).model
                    backend = self._given_backend or resolve_backend(
                        self.settings, model, embedder_factory=lambda _s: embedder
                    )
                    if self._given_backend is None:
                        await backend.verify()  # Jev: the pinned model id must be listed; others: nothing
                except BaseException:
                    await store.close()
                    raise
                self._store = store
                self._service = WalkService(store, self.graph, backend, embedder=embedder, preload_embeddings=True)
            return self._service

    async def _walk(self, question: str, start: Sequence[str] | None) -> WalkOutcome:
        check_question(question)
        service = await self._opened()
        outcome = await service.walk(question, self.config, start=start or None)
        if outcome.result.status == "error":
            raise WalkFailedError(
                f"walk {outcome.result.walk_id} failed: {outcome.result.stop_reason}; "
                f"see it with `gw-neo4j walks show {outcome.result.walk_id}`"
            )
        return outcome

    # ---- public --------------------------------------------------------------------------------------------
    def walk(self, question: str, *, start: Sequence[str] | None = None) -> WalkOutcome:
        """Answer ``question`` (blocking). ``start`` names start entities (default: linked from the question).
        A walk that finds no start entity returns status ``no_start``; one whose decider or store failed raises
        :class:`~graphwalk_neo4j.errors.WalkFailedError`. The trace is stored in Neo4j when this returns."""
        return self._submit(self._walk(question, start)).result()

    async def awalk(self, question: str, *, start: Sequence[str] | None = None) -> WalkOutcome:
        """:meth:`walk` from any event loop, without blocking it."""
        return await asyncio.wrap_future(self._submit(self._walk(question, start)))

    async def _aclose(self) -> None:
        service, store = self._service, self._store
        self._service, self._store, self._opening = None, None, None
        if service is not None and self._given_backend is None:
            await service.backend.aclose()
        if store is not None:
            await store.close()

    def close(self) -> None:
        """Close the connection and the backend this walker opened, and stop its loop thread (idempotent; a
        later walk opens them again)."""
        with self._start_lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(self._aclose(), loop).result()
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()

    def __enter__(self) -> GraphWalker:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


@dataclass(frozen=True)
class RetrievedAnswer:
    """One answer as a framework item: ``text`` for the reader (the answer and the path that reached it),
    ``relevance`` in (0, 1] (exp of the best path score, as the context bundle's), ``metadata`` (JSON values)."""

    text: str
    relevance: float
    metadata: dict[str, Any]


def path_steps(path: WalkPath) -> list[dict[str, Any]]:
    """The hops of ``path`` as JSON values: ``{depth, relation, direction, from, to, p}`` (STOP left out)."""
    return [
        {
            "depth": s.depth,
            "relation": s.relation,
            "direction": s.direction,
            "from": list(s.from_names),
            "to": [n.name for n in s.nodes],
            "p": s.p,
        }
        for s in path.steps
        if not s.is_stop
    ]


def _item(outcome: WalkOutcome, graph: str, answer: Answer) -> RetrievedAnswer:
    result = outcome.result
    path = result.paths[answer.path] if answer.path < len(result.paths) else None
    shown = path.describe() if path is not None else ""
    kind = f" ({answer.type})" if answer.type else ""
    text = f"{answer.name}{kind}: {shown}" if shown else f"{answer.name}{kind}"
    return RetrievedAnswer(
        text=text,
        relevance=math.exp(answer.score),
        metadata={
            "walk_id": result.walk_id,
            "graph": graph,
            "question": result.question,
            "status": result.status,
            "rank": answer.rank,
            "name": answer.name,
            "node_id": answer.node_id,
            "type": answer.type,
            "value": answer.value,
            "score": answer.score,
            "path": shown,
            "path_steps": path_steps(path) if path is not None else [],
        },
    )


def retrieved_answers(outcome: WalkOutcome, graph: str, top_k: int) -> list[RetrievedAnswer]:
    """The first ``top_k`` answers of ``outcome`` in rank order (none for a walk without a start)."""
    check_top_k(top_k)
    return [_item(outcome, graph, a) for a in outcome.result.answers[:top_k]]


def walk_metadata(outcome: WalkOutcome, graph: str) -> dict[str, Any]:
    """What a retriever reports about the walk as a whole: its id, graph, status and why it stopped."""
    result = outcome.result
    return {"walk_id": result.walk_id, "graph": graph, "status": result.status, "stop_reason": result.stop_reason}
