"""The Neo4j :class:`~graphwalk_neo4j.walk.ports.Expander`: one Cypher round trip per depth for every beam.

Entity hops use ``walk/expand_entities``, relation hops ``walk/expand_relations``. Both return compact rows
(lists, not maps) ordered by importance. Lists longer than the request's limit are prefiltered here by cosine
similarity between the question and the neighbours' stored embeddings. Those embeddings are kept in a
process-wide :class:`EmbeddingCache` (filled from Neo4j on a miss, one extra round trip), because reading 4,000
384-float vectors inside Cypher for every pass through a hub such as ``Drama`` costs ~50 ms each time, while a
NumPy dot product over cached rows costs well under 1 ms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from graphwalk_neo4j.embed.base import Embedder
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.walk.ports import ExpandRequest, Expansion, NodeRef, Option, PrunedOption


class EmbeddingCache:
    """Per graph and process: entity id -> stored unit vector (ids without one are remembered as missing), and
    the :class:`NodeRef` objects of targets already seen, since relation hops over big frontiers would otherwise
    build thousands of them on every pass through the same hub."""

    def __init__(self, store: GraphStore, graph: str, max_size: int = 500_000) -> None:
        self.store, self.graph, self.max_size = store, graph, max_size
        self._vectors: dict[str, np.ndarray | None] = {}
        self._refs: dict[tuple[str, str, str | None], NodeRef] = {}
        self.fetches = 0

    def ref(self, node_id: str, name: str, type_: str | None) -> NodeRef:
        key = (node_id, name, type_)
        found = self._refs.get(key)
        if found is None:
            if len(self._refs) >= self.max_size:
                self._refs.clear()
            found = self._refs[key] = NodeRef(id=node_id, name=name, type=type_)
        return found

    async def preload(self, page: int = 10_000) -> int:
        """Fetch every stored vector of the graph at once (for long-running services and evals: walks then never
        wait on a cache miss). Returns how many vectors were loaded."""
        after, loaded = "", 0
        while True:
            rows = await self.store.read("walk/embeddings_page", graph=self.graph, after=after, limit=page)
            if not rows:
                return loaded
            for r in rows:
                self._vectors[r["id"]] = np.asarray(r["embedding"], dtype=np.float32)
            loaded += len(rows)
            after = rows[-1]["uid"]

    async def get_many(self, ids: Sequence[str]) -> list[np.ndarray | None]:
        missing = [i for i in dict.fromkeys(ids) if i not in self._vectors]
        if missing:
            if len(self._vectors) + len(missing) > self.max_size:
                self._vectors.clear()
            rows = await self.store.read("walk/embeddings_by_id", graph=self.graph, ids=missing)
            self.fetches += 1
            found = {r["id"]: np.asarray(r["embedding"], dtype=np.float32) for r in rows}
            for i in missing:
                self._vectors[i] = found.get(i)
        return [self._vectors.get(i) for i in ids]


def rank_by_similarity(qvec: np.ndarray | None, vectors: list[np.ndarray | None]) -> list[int]:
    """Indices ordered by descending cosine similarity to ``qvec``; rows without a vector go last, and equal
    scores keep their incoming (importance) order, so the result is deterministic."""
    if qvec is None:
        return list(range(len(vectors)))
    scores = np.full(len(vectors), -2.0, dtype=np.float64)
    present = [i for i, v in enumerate(vectors) if v is not None]
    if present:
        matrix = np.stack([vectors[i] for i in present])  # type: ignore[misc]
        scores[present] = matrix @ qvec
    return sorted(range(len(vectors)), key=lambda i: (-scores[i], i))


def _group_pruned(rows: list[list[Any]]) -> tuple[PrunedOption, ...]:
    """One PrunedOption per (relation, direction) holding all its dropped targets: a hub drops thousands of
    neighbours, and one record per neighbour would cost more than the whole Cypher round trip."""
    groups: dict[tuple[str, str], list[str]] = {}
    for rel, d, i, *_ in rows:
        groups.setdefault((rel, d), []).append(i)
    return tuple(PrunedOption(relation=rel, direction=d, target_ids=tuple(ids), reason="prefilter")  # type: ignore[arg-type]
                 for (rel, d), ids in groups.items())


class Neo4jExpander:
    def __init__(self, store: GraphStore, graph: str, embedder: Embedder | None = None,
                 cache: EmbeddingCache | None = None) -> None:
        self.store = store
        self.graph = graph
        self.embedder = embedder
        self.cache = cache or EmbeddingCache(store, graph)
        self._qvec: dict[str, np.ndarray] = {}
        self.round_trips = 0

    async def _query_vector(self, query: str) -> np.ndarray | None:
        if self.embedder is None or not query:
            return None
        if query not in self._qvec:
            self._qvec[query] = np.asarray((await self.embedder.embed([query]))[0], dtype=np.float32)
        return self._qvec[query]

    async def _order(self, query: str, ids: list[str]) -> list[int]:
        qvec = await self._query_vector(query)
        if qvec is None:
            return list(range(len(ids)))
        return rank_by_similarity(qvec, await self.cache.get_many(ids))

    async def expand(self, requests: Sequence[ExpandRequest]) -> list[Expansion]:
        by_key: dict[str, Expansion] = {}
        entity = [r for r in requests if r.hop_mode == "entity"]
        relation = [r for r in requests if r.hop_mode == "relation"]
        if entity:
            rows = await self.store.read("walk/expand_entities", graph=self.graph, requests=[
                {"beam_key": r.beam_key, "node_id": r.node_id, "exclude": list(r.exclude_ids),
                 "direction": r.direction, "limit": r.limit} for r in entity
            ])
            self.round_trips += 1
            reqs = {r.beam_key: r for r in entity}
            for row in rows:
                by_key[row["beam_key"]] = await self._entity_expansion(row, reqs[row["beam_key"]])
        if relation:
            # Visited nodes are dropped here, not in Cypher: `NOT m.id IN list` costs frontier x visited there.
            rows = await self.store.read("walk/expand_relations", graph=self.graph, requests=[
                {"beam_key": r.beam_key, "node_ids": list(r.node_ids), "direction": r.direction} for r in relation
            ])
            self.round_trips += 1
            reqs = {r.beam_key: r for r in relation}
            for row in rows:
                by_key[row["beam_key"]] = await self._relation_expansion(row, reqs[row["beam_key"]])
        # A start node that does not exist yields no neighbours: it has no moves.
        return [by_key.get(r.beam_key, Expansion(beam_key=r.beam_key)) for r in requests]

    async def _entity_expansion(self, row: dict[str, Any], req: ExpandRequest) -> Expansion:
        rows = row["neighbours"]
        total = len(rows)
        kept, pruned = rows, []
        if total > req.limit:
            order = await self._order(req.query, [n[2] for n in rows])
            kept = [rows[i] for i in order[: req.keep]]
            pruned = [rows[i] for i in order[req.keep:]]
        options = tuple(
            Option(relation=rel, direction=d, targets=(NodeRef(id=i, name=name, type=t, importance=float(deg)),))
            for rel, d, i, name, t, deg in kept
        )
        return Expansion(
            beam_key=req.beam_key, options=options, total_count=total,
            pruned=_group_pruned(pruned),
        )

    async def _relation_expansion(self, row: dict[str, Any], req: ExpandRequest) -> Expansion:
        raw = sorted(row["options"], key=lambda o: (o["relation"], o["direction"]))
        excluded = set(req.exclude_ids)
        options: list[Option] = []
        for o in raw:
            targets = [t for t in o["targets"] if t[0] not in excluded]
            if not targets:
                continue
            kept, cut = targets, []
            if len(targets) > req.max_frontier:
                order = await self._order(req.query, [t[0] for t in targets])
                kept = [targets[i] for i in order[: req.max_frontier]]
                cut = [targets[i][0] for i in order[req.max_frontier:]]
            options.append(Option(
                relation=o["relation"], direction=o["direction"],
                targets=tuple(self.cache.ref(i, name, t) for i, name, t in kept),
                total_targets=len(targets), pruned_target_ids=tuple(cut),
            ))
        pruned: list[PrunedOption] = []
        if len(options) > req.limit:
            # Too many relation kinds (rare): keep the ones that reach the most targets.
            ranked = sorted(options, key=lambda o: (-o.count, o.relation, o.direction))
            keep = {(o.relation, o.direction) for o in ranked[: req.keep]}
            pruned = [PrunedOption(relation=o.relation, direction=o.direction, target_ids=o.target_ids,
                                   reason="truncated") for o in options if (o.relation, o.direction) not in keep]
            options = [o for o in options if (o.relation, o.direction) in keep]
        return Expansion(beam_key=req.beam_key, options=tuple(options), pruned=tuple(pruned),
                         total_count=len(options) + len(pruned))
