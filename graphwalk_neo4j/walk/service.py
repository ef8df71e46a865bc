"""The walk as a service over one graph: entry (given or linked) → engine over the Neo4j expander → trace in Neo4j.

This is the library call behind ``gw-neo4j walk``, the eval runner and the demo. It owns no connection: the caller
passes a connected :class:`~graphwalk_neo4j.store.GraphStore`, a decision backend and (optionally) an embedder,
and may run many walks concurrently through one service (the expander's embedding cache is shared).
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from graphwalk_neo4j.errors import LinkingError
from graphwalk_neo4j.graph.profile import GraphProfile, load_profile
from graphwalk_neo4j.identifiers import graph_name
from graphwalk_neo4j.walk.config import Configured, check_question, check_starts, with_backend_defaults
from graphwalk_neo4j.walk.engine import DepthObserver, WalkEngine
from graphwalk_neo4j.walk.entry import Linking, link_question, resolve_starts
from graphwalk_neo4j.walk.graph_expander import DENSE_DEGREE, RELATION_SCAN, EmbeddingCache, Neo4jExpander
from graphwalk_neo4j.walk.neo4j_trace_sink import Neo4jTraceSink
from graphwalk_neo4j.walk.trace_sinks import NullTraceSink

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.decide.base import DecisionBackend
    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.walk.config import WalkConfig
    from graphwalk_neo4j.walk.ports import TraceSink
    from graphwalk_neo4j.walk.result import WalkResult


@runtime_checkable
class GraphReadingBackend(Protocol):
    """A decision backend that reads the graph it walks before its first decision there (a learned model on a
    graph it was not trained on reads that graph's types, ``LearnedDecider.for_graph``): it returns the backend
    as it decides on ``graph``. The walk engine never sees it; :meth:`WalkService.graph_backend` asks once."""

    async def for_graph(self, store: GraphStore, graph: str, profile: GraphProfile) -> DecisionBackend: ...


@dataclass
class WalkOutcome:
    result: WalkResult
    linking: Linking | None
    round_trips: int
    configured: Configured | None = field(default=None, repr=False)  # the settings walked under, and why

    def _repr_html_(self) -> str:
        """Jupyter shows an outcome as its walk (:meth:`WalkResult._repr_html_`)."""
        return self.result._repr_html_()

    def bundle(self) -> dict[str, Any]:
        data = self.result.context_bundle()
        if self.configured is not None:
            data["walk_rule"] = self.configured.rule()
            data["search"] = self.configured.search()
        if self.linking is not None:
            data["linking"] = {
                "method": self.linking.method,
                "start": [n.name for n in self.linking.start],
                "candidates": [n.name for n in self.linking.candidates],
                "decision_calls": self.linking.decision_calls,
            }
        data["cypher_round_trips"] = self.round_trips
        return data


class WalkService:
    def __init__(
        self,
        store: GraphStore,
        graph: str,
        backend: DecisionBackend,
        *,
        embedder: Embedder | None = None,
        trace: bool = True,
        preload_embeddings: bool = False,
        relation_scan: int = RELATION_SCAN,
        relation_dense: int = DENSE_DEGREE,
    ) -> None:
        self.store = store
        self.graph = graph_name(graph)
        self.backend = backend
        self.embedder = embedder
        self.trace = trace
        self._cache: EmbeddingCache | None = None
        self._profile: GraphProfile | None = None
        self._profile_read: asyncio.Future[GraphProfile] | None = None
        self.relation_scan, self.relation_dense = relation_scan, relation_dense
        self._types: list[str] | None = None
        self._preload = preload_embeddings and embedder is not None
        self._preloaded: asyncio.Task[int] | None = None
        # per backend walked with (by identity, the backend kept): the backend as it decides on this graph
        self._graph_backends: dict[int, tuple[DecisionBackend, asyncio.Future[DecisionBackend]]] = {}

    async def profile(self) -> GraphProfile:
        """The graph's profile (stored for an adopted graph, built in for an ingested one), read once."""
        if self._profile is None:  # one read, also when the first walks start together
            if self._profile_read is None:
                self._profile_read = asyncio.ensure_future(load_profile(self.store, self.graph))
            self._profile = await self._profile_read
        return self._profile

    @property
    def cache(self) -> EmbeddingCache:
        if self._cache is None:
            raise RuntimeError("WalkService.ready() must run first")  # the cache needs the profile
        return self._cache

    async def ready(self) -> None:
        """Read the graph's profile; with ``preload_embeddings``, load every stored vector once (shared by
        concurrent walks), so hub prefiltering never waits on a cache miss. Long-running callers (eval,
        benchmarks) want it; a one-off CLI walk does not."""
        profile = await self.profile()
        if self._cache is None:
            self._cache = EmbeddingCache(self.store, self.graph, profile=profile)
        if self._preload:
            if self._preloaded is None:
                self._preloaded = asyncio.ensure_future(self.cache.preload())
            await self._preloaded

    async def graph_backend(self, backend: DecisionBackend) -> DecisionBackend:
        """``backend`` as it decides on this graph (:class:`GraphReadingBackend`: a learned model on a graph it
        was not trained on reads this graph's types; any other backend as it is), worked out once per backend
        and shared by concurrent walks; a failed reading is tried again by the next walk."""
        if not isinstance(backend, GraphReadingBackend):
            return backend
        key = id(backend)
        found = self._graph_backends.get(key)
        if found is None or found[0] is not backend:
            found = (backend, asyncio.ensure_future(self._for_graph(backend)))
            self._graph_backends[key] = found
        try:
            return await asyncio.shield(found[1])
        except Exception:
            if self._graph_backends.get(key) is found:
                del self._graph_backends[key]
            raise

    async def _for_graph(self, backend: GraphReadingBackend) -> DecisionBackend:
        return await backend.for_graph(self.store, self.graph, await self.profile())

    def _sink(self) -> TraceSink:
        if not self.trace:
            return NullTraceSink()
        return Neo4jTraceSink(self.store, self.graph)  # written by the trace module

    async def answer_types(self) -> list[str]:
        if self._types is None:
            profile = await self.profile()
            if profile.adopted:
                self._types = profile.answer_types()
            else:
                self._types = [r["type"] for r in await self.store.read("graph/entity_types", graph=self.graph)]
        return self._types

    def configure(self, config: WalkConfig, backend: DecisionBackend | None = None) -> Configured:
        """``config`` with the walk settings ``backend`` (default: the service's) was trained under, where the
        caller set none (:func:`~graphwalk_neo4j.walk.config.with_backend_defaults`)."""
        return with_backend_defaults(config, dict((backend or self.backend).walk_defaults))

    async def walk(
        self,
        question: str,
        config: WalkConfig,
        *,
        start: Sequence[str] | None = None,
        choose_start: bool = False,
        walk_id: str | None = None,
        on_depth: DepthObserver | None = None,
        backend: DecisionBackend | None = None,
        deadline: float | None = None,
    ) -> WalkOutcome:
        """Walk toward the answer of ``question``. ``start`` takes entity ids or names; without it the question's
        entities are linked. A linking failure returns status ``no_start`` with the reason (not an exception);
        an empty or over-long question, or too many start entities, raise :class:`InputError` before anything is
        read or stored.
        ``on_depth`` hears every depth as it ends (see :meth:`WalkEngine.run`); ``backend`` replaces the
        service's own for this walk (a long-running service keeps one backend per model). The walk runs under
        :meth:`configure` of ``config``: a learned model's exclusion rule unless ``config`` set one.
        ``deadline`` (a :func:`time.monotonic` time) is the engine's (:meth:`WalkEngine.run`): past it the walk
        stops with its partial answer, status ``budget``."""
        check_question(question)
        start = check_starts(start)
        configured = self.configure(config, backend or self.backend)
        config = configured.config
        await self.ready()
        profile = await self.profile()
        backend = await self.graph_backend(backend or self.backend)
        expander = Neo4jExpander(
            self.store,
            self.graph,
            self.embedder,
            cache=self.cache,
            scan=self.relation_scan,
            dense=self.relation_dense,
            profile=profile,
        )
        engine = WalkEngine(expander, backend, self._sink(), config)
        linking: Linking | None = None
        try:
            if start:
                starts = await resolve_starts(self.store, self.graph, start, profile=profile)
                linking = Linking(start=starts, method="given", candidates=starts)
            else:
                linking = await link_question(
                    self.store,
                    self.graph,
                    question,
                    embedder=self.embedder,
                    backend=backend,
                    choose=choose_start,
                    profile=profile,
                    scorer=backend.mention_scorer,
                )
        except LinkingError as exc:
            result = await engine.run(question, [], walk_id=walk_id or uuid.uuid4().hex)
            result = result.model_copy(update={"status": "no_start", "stop_reason": f"linking: {exc}"})
            return WalkOutcome(result=result, linking=None, round_trips=expander.round_trips, configured=configured)
        types = await self.answer_types() if config.answer_type == "hint" else None
        result = await engine.run(
            question, linking.start, answer_types=types, walk_id=walk_id, on_depth=on_depth, deadline=deadline
        )
        return WalkOutcome(result=result, linking=linking, round_trips=expander.round_trips, configured=configured)
