"""The Neo4j :class:`~graphwalk_neo4j.walk.ports.Expander`: one Cypher round trip per depth for every beam.

Entity hops use ``walk/expand_entities``: compact rows (lists, not maps) ordered by importance; lists longer than
the request's limit are prefiltered here by cosine similarity between the question and the neighbours' stored
embeddings.

Relation hops use ``walk/relation_moves``, which never reads every target of every option: a move is built from
per-(relation, direction) edge counts (stored per-type degrees on dense nodes) and at most ``scan`` of its
targets. A move with at most ``scan`` edges is read whole and offered exactly as before (distinct unvisited
targets, by name); a bigger one is offered unresolved (a sample of names, the edge count as an upper bound, see
:mod:`.ports`), and when the walk takes it, the next depth's single round trip reads its targets and the moves
out of them together. The ``max_frontier`` cap of a followed move is taken inside that query (a ``LIMIT`` on
the lazily read targets), so a move into a hub reads at most the cap's worth of targets whatever the hub's
degree; the expansion then says ``frontier_truncated`` and gives the move's edge count from the stored degrees
as ``frontier_total``. A frontier of more than ``counted`` nodes (:data:`COUNTED_NODES`) has its moves counted
on that many of them, evenly spread, and scaled: every move out of it is then offered unresolved with an estimated
count (``Option.estimated``), so a depth costs what it keeps and shows, not every frontier node's relationships.

Those embeddings are kept in a process-wide :class:`EmbeddingCache` (filled from Neo4j on a miss, one extra round
trip), because reading 4,000 384-float vectors inside Cypher for every pass through a hub such as ``Drama`` costs
~50 ms each time, while a NumPy dot product over cached rows costs well under 1 ms.

The graph's :class:`~graphwalk_neo4j.graph.profile.GraphProfile` travels with every expansion as ``$profile``: the
same templates and the same code expand an ingested graph (``:Entity`` nodes by id) and an adopted one (the
user's own nodes by element id, restricted to the profile's labels and moves, named by its name properties).
Besides relationships, a node's answer properties are offered as moves to a *value* (``born = 1964``): a
:class:`NodeRef` whose id starts with ``val:`` and whose ``value`` is the property value. A value has no moves
of its own, so the walk stops there and the value is the answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from graphwalk_neo4j.graph.identity import entity_uid
from graphwalk_neo4j.graph.profile import (
    GraphProfile,
    ingested_profile,
    is_value_id,
    node_name,
    plain_value,
    value_id,
    value_text,
)
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.store.queries import (
    ADOPTED_EMBEDDINGS,
    EMBEDDINGS_BY_ELEMENT_ID,
    EMBEDDINGS_BY_ID,
    EMBEDDINGS_PAGE,
    EXPAND_ENTITIES,
    RELATION_MOVES,
    ExpandEntitiesRow,
    RelationMovesRow,
)
from graphwalk_neo4j.walk.cpu import off_loop
from graphwalk_neo4j.walk.ports import ExpandRequest, Expansion, NodeRef, Option, PrunedOption

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.store.queries import Query


_Vectors = dict[str, "np.ndarray | None"]  # entity id -> stored vector (None: it has none)
R = TypeVar("R")  # a query template's row type


class EmbeddingCache:
    """Per graph and process: entity id -> stored unit vector (ids without one are remembered as missing), and
    the :class:`NodeRef` objects of targets already seen, since relation hops over big frontiers would otherwise
    build thousands of them on every pass through the same hub."""

    def __init__(
        self, store: GraphStore, graph: str, max_size: int = 500_000, profile: GraphProfile | None = None
    ) -> None:
        self.store, self.graph, self.max_size = store, graph, max_size
        self.profile = profile or ingested_profile(graph)
        self._vectors: dict[str, np.ndarray | None] = {}
        self._refs: dict[tuple[str, str, str | None], NodeRef] = {}
        self.fetches = 0

    @property
    def vector_entries(self) -> int:
        """Entity ids held (with their vector, or remembered as having none)."""
        return len(self._vectors)

    @property
    def ref_entries(self) -> int:
        """Target references held."""
        return len(self._refs)

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
        if self.profile.adopted:
            adopted = await self.store.read(ADOPTED_EMBEDDINGS, graph=self.graph)
            for r in adopted:
                self._vectors[r["id"]] = np.asarray(r["embedding"], dtype=np.float32)
            return len(adopted)
        after, loaded = "", 0
        while True:
            rows = await self.store.read(EMBEDDINGS_PAGE, graph=self.graph, after=after, limit=page)
            if not rows:
                return loaded
            for r in rows:
                self._vectors[r["id"]] = np.asarray(r["embedding"], dtype=np.float32)
            loaded += len(rows)
            after = rows[-1]["uid"]

    def lookup(self, ids: Sequence[str]) -> tuple[_Vectors, list[str]]:
        """The cached vectors of ``ids`` (id -> vector, ``None`` for an id known to have none) and the ids not
        cached yet, each once. No I/O: a hub's frontier is 10,000s of ids, so the expander calls it in the CPU
        pool, not on the event loop."""
        known: _Vectors = {}
        missing: list[str] = []
        vectors = self._vectors
        for i in dict.fromkeys(ids):
            if i in vectors:
                known[i] = vectors[i]
            else:
                missing.append(i)
        return known, missing

    async def read(self, missing: Sequence[str]) -> list[Any]:
        """The stored vectors of ``missing`` from Neo4j (rows of ``id`` and ``embedding``), for :meth:`keep`."""
        if self.profile.adopted:
            return list(await self.store.read(EMBEDDINGS_BY_ELEMENT_ID, graph=self.graph, ids=list(missing)))
        uids = [entity_uid(self.graph, i) for i in missing]
        return list(await self.store.read(EMBEDDINGS_BY_ID, uids=uids))

    def keep(self, missing: Sequence[str], rows: Sequence[Any]) -> _Vectors:
        """Cache what :meth:`read` found for ``missing`` (an id without a row is remembered as having no
        vector) and return it as id -> vector. No I/O."""
        if len(self._vectors) + len(missing) > self.max_size:
            self._vectors.clear()
        self.fetches += 1
        found = {r["id"]: np.asarray(r["embedding"], dtype=np.float32) for r in rows}
        kept: _Vectors = {i: found.get(i) for i in missing}
        self._vectors.update(kept)
        return kept

    async def get_many(self, ids: Sequence[str]) -> list[np.ndarray | None]:
        """The vectors of ``ids`` in their order, read from Neo4j on a miss (:meth:`lookup`, :meth:`read`,
        :meth:`keep` in one call, all on the caller's thread)."""
        known, missing = self.lookup(ids)
        if missing:
            known.update(self.keep(missing, await self.read(missing)))
        return [known.get(i) for i in ids]


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
    return tuple(
        PrunedOption(relation=rel, direction=d, target_ids=tuple(ids), reason="prefilter")  # type: ignore[arg-type]
        for (rel, d), ids in groups.items()
    )


# Relation moves with at most this many edges are read whole (exact); bigger ones are offered unresolved.
RELATION_SCAN = 50
# Nodes with more relationships than this read per-type degrees from the store instead of counting records.
DENSE_DEGREE = 100
# A relation frontier of more nodes than this has its moves counted on this many of them, evenly spread: the
# moves out of 2,000 films cost ~86k db hits and 70-120 ms on the 1M scale graph, out of 200 of them ~18k and
# 40 ms (2026-12-03). The counts of its moves are then estimates scaled to the whole frontier (unresolved
# options, ``Option.estimated``); the frontier itself, and the targets of a move once taken, are read exactly.
COUNTED_NODES = 200


def _distinct(rows: Sequence[Sequence[Any]], excluded: set[str] | frozenset[str]) -> list[Sequence[Any]]:
    """``[id, name, type]`` rows without excluded ids and repeats, in their incoming order."""
    seen: dict[str, Sequence[Any]] = {}
    for row in rows:
        if row[0] not in excluded and row[0] not in seen:
            seen[row[0]] = row
    return list(seen.values())


MAX_VALUE_OPTIONS = 10
# Node ids one expansion statement carries at most (its requests' node keys and exclusion lists together), unless
# one request alone carries more. Bolt packs a statement's parameters in one call that holds the interpreter lock
# (about 0.15 us per id here: 1.3M ids held it 190 ms, stalling the service's event loop), so a depth whose beams
# carry more is sent as several statements, one after the other; below it, one round trip per hop mode as before.
IDS_PER_STATEMENT = 50_000
MAX_DESCRIPTION = 240


def props_text(pairs: Sequence[Sequence[Any]]) -> str:
    """``[["roles", ["Neo"]], ["rating", 7]]`` -> ``roles: Neo, rating: 7`` (relationship properties)."""
    return ", ".join(f"{k}: {value_text(plain_value(v))}" for k, v in pairs)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1] + "…"


def value_ref(key: str, value: Any) -> NodeRef:
    """The walk's node for a literal answer: ``born = 1964`` -> ``NodeRef(id='val:born:1964', name='1964')``."""
    plain = plain_value(value)
    return NodeRef(id=value_id(key, plain), name=value_text(plain), type=key, value=plain)


def by_volume(params: list[dict[str, Any]], limit: int) -> list[list[dict[str, Any]]]:
    """Expansion requests' parameters in order, cut into consecutive statements of at most ``limit`` node ids
    (``node_key`` / ``node_keys`` and ``exclude`` together; a request over the limit goes alone); none for none."""
    chunks: list[list[dict[str, Any]]] = []
    size = 0
    for p in params:
        ids = len(p["exclude"]) + (len(p["node_keys"]) if "node_keys" in p else 1)
        if not chunks or size + ids > limit:
            chunks.append([])
            size = 0
        chunks[-1].append(p)
        size += ids
    return chunks


def value_options(pairs: Sequence[Sequence[Any]], excluded: set[str], relation_mode: bool) -> list[Option]:
    """Entity mode: one option per (property, value) of the node; relation mode: one per property over the
    whole frontier, its targets the distinct values (sorted by text). A list property (``released: [1999, 2003]``)
    is one value per element, as a node with two such relationships would be. Capped at
    :data:`MAX_VALUE_OPTIONS`."""
    by_key: dict[str, list[NodeRef]] = {}
    for key, value in pairs:
        for element in value if isinstance(value, list | tuple) else (value,):
            ref = value_ref(key, element)
            if ref.id not in excluded:
                by_key.setdefault(key, []).append(ref)
    options: list[Option] = []
    for key in sorted(by_key):
        refs = list({r.id: r for r in by_key[key]}.values())
        if relation_mode:
            options.append(
                Option(
                    relation=key,
                    direction="out",
                    targets=tuple(sorted(refs, key=lambda r: r.name)),
                    description="a property value",
                )
            )
        else:
            options.extend(
                Option(relation=key, direction="out", targets=(r,), description="a property value") for r in refs
            )
    return options[:MAX_VALUE_OPTIONS]


class Neo4jExpander:
    def __init__(
        self,
        store: GraphStore,
        graph: str,
        embedder: Embedder | None = None,
        cache: EmbeddingCache | None = None,
        *,
        scan: int = RELATION_SCAN,
        dense: int = DENSE_DEGREE,
        counted: int = COUNTED_NODES,
        profile: GraphProfile | None = None,
    ) -> None:
        self.store = store
        self.graph = graph
        self.embedder = embedder
        self.profile = profile or (cache.profile if cache is not None else ingested_profile(graph))
        self.cache = cache or EmbeddingCache(store, graph, profile=self.profile)
        self._profile_params = self.profile.cypher()
        self.scan, self.dense, self.counted = scan, dense, counted
        self.ids_per_statement = IDS_PER_STATEMENT
        self._qvec: dict[str, np.ndarray] = {}
        self.round_trips = 0

    async def _query_vector(self, query: str) -> np.ndarray | None:
        if self.embedder is None or not query:
            return None
        if query not in self._qvec:
            self._qvec[query] = np.asarray((await self.embedder.embed([query]))[0], dtype=np.float32)
        return self._qvec[query]

    @staticmethod
    def _order(qvec: np.ndarray | None, ids: list[str], known: _Vectors) -> list[int]:
        if qvec is None:
            return list(range(len(ids)))
        return rank_by_similarity(qvec, [known.get(i) for i in ids])

    async def expand(self, requests: Sequence[ExpandRequest]) -> list[Expansion]:
        """One round trip per hop mode (and one more for vectors the cache misses); the requests' parameters,
        the cache look-ups and the rows' conversion into expansions run in the CPU pool (:mod:`.cpu`): for a
        hub's frontier each is milliseconds to seconds of pure Python, which must not hold the event loop."""
        entity, relation, entity_params, relation_params = await off_loop(self._params, requests)
        entity_rows = await self._read_requests(EXPAND_ENTITIES, entity_params)
        relation_rows = await self._relation_rows(relation, relation_params) if relation else {}
        queries = {r.query: await self._query_vector(r.query) for r in (*entity, *relation)}
        known: _Vectors = {}
        missing: list[str] = []
        if any(v is not None for v in queries.values()):
            known, missing = await off_loop(self._cached, entity, entity_rows, relation, relation_rows)
        # The vectors the cache misses are read here, so the conversion in the CPU pool never waits on Neo4j.
        read = await self.cache.read(missing) if missing else []
        return await off_loop(
            self._convert, requests, entity, entity_rows, relation, relation_rows, queries, known, missing, read
        )

    def _params(
        self, requests: Sequence[ExpandRequest]
    ) -> tuple[list[ExpandRequest], list[ExpandRequest], list[dict[str, Any]], list[dict[str, Any]]]:
        """The entity and relation requests that reach Neo4j, and their query parameters (a beam's exclusion
        list holds every node it visited: 10,000s of ids for a walk through hubs)."""
        # A value (a literal answer) has no moves: requests standing on values only never reach Neo4j.
        walkable = [
            r.model_copy(update={"node_ids": tuple(i for i in r.node_ids if not is_value_id(i))})
            if any(is_value_id(i) for i in r.node_ids)
            else r
            for r in requests
        ]
        entity = [r for r in walkable if r.hop_mode == "entity" and r.node_ids]
        relation = [r for r in walkable if r.hop_mode == "relation" and r.node_ids]
        entity_params = [
            {
                "beam_key": r.beam_key,
                "node_key": self._node_key(r.node_id),
                "exclude": list(r.exclude_ids),
                "direction": r.direction,
                "limit": r.limit,
            }
            for r in entity
        ]
        relation_params = [
            {
                "beam_key": r.beam_key,
                "node_keys": [self._node_key(i) for i in r.node_ids],
                "follow": r.follow.model_dump() if r.follow else None,
                "exclude": list(r.exclude_ids),
                "max_frontier": r.max_frontier,
                "moves": r.moves,
            }
            for r in relation
        ]
        return entity, relation, entity_params, relation_params

    def _cached(
        self,
        entity: Sequence[ExpandRequest],
        entity_rows: Sequence[ExpandEntitiesRow],
        relation: Sequence[ExpandRequest],
        relation_rows: dict[str, RelationMovesRow],
    ) -> tuple[_Vectors, list[str]]:
        """The cached vectors of the ids an expansion may rank, and those the cache misses (:meth:`_to_rank`)."""
        return self.cache.lookup(self._to_rank(entity, entity_rows, relation, relation_rows))

    def _to_rank(
        self,
        entity: Sequence[ExpandRequest],
        entity_rows: Sequence[ExpandEntitiesRow],
        relation: Sequence[ExpandRequest],
        relation_rows: dict[str, RelationMovesRow],
    ) -> list[str]:
        """Ids an expansion may rank by similarity: the neighbours of an entity row with more than ``limit``
        options, the targets of a read-whole relation move with more than ``max_frontier`` (a superset)."""
        reqs = {r.beam_key: r for r in entity}
        ids: list[str] = []
        for row in entity_rows:
            values = sum(len(v) if isinstance(v, list | tuple) else 1 for _, v in row.get("values") or [])
            if len(row["neighbours"]) + min(values, MAX_VALUE_OPTIONS) > reqs[row["beam_key"]].limit:
                ids.extend(n[2] for n in row["neighbours"])
        for req in relation:
            found = relation_rows.get(req.beam_key)
            for _, _, edges, rows, _ in (found.get("moves") if found is not None else None) or []:
                if edges <= self.scan and len(rows) > req.max_frontier:
                    ids.extend(t[0] for t in rows)
        return list(dict.fromkeys(ids))

    def _convert(
        self,
        requests: Sequence[ExpandRequest],
        entity: Sequence[ExpandRequest],
        entity_rows: Sequence[ExpandEntitiesRow],
        relation: Sequence[ExpandRequest],
        relation_rows: dict[str, RelationMovesRow],
        queries: dict[str, np.ndarray | None],
        known: _Vectors,
        missing: Sequence[str],
        read: Sequence[Any],
    ) -> list[Expansion]:
        if missing:
            known.update(self.cache.keep(missing, read))
        by_key: dict[str, Expansion] = {}
        reqs = {r.beam_key: r for r in entity}
        for row in entity_rows:
            req = reqs[row["beam_key"]]
            by_key[row["beam_key"]] = self._entity_expansion(row, req, queries[req.query], known)
        if relation:
            by_key.update(self._expand_relations(relation, relation_rows, queries, known))
        # A start node that does not exist yields no neighbours: it has no moves.
        return [
            by_key.get(r.beam_key, Expansion(beam_key=r.beam_key, frontier=() if r.follow else None)) for r in requests
        ]

    def _node_key(self, node_id: str) -> str:
        """What the expansion templates match a node by: an ingested entity's uid, an adopted node's element id."""
        return node_id if self.profile.adopted else entity_uid(self.graph, node_id)

    def _ref(self, node_id: str, name: Any, type_: str | None) -> NodeRef:
        return self.cache.ref(node_id, node_name(name, type_, node_id), type_)

    def _entity_expansion(
        self, row: ExpandEntitiesRow, req: ExpandRequest, qvec: np.ndarray | None, known: _Vectors
    ) -> Expansion:
        rows = row["neighbours"]
        values = value_options(row.get("values") or [], set(req.exclude_ids), relation_mode=False)
        total = len(rows) + len(values)
        kept, pruned = rows, []
        if total > req.limit:
            values = values[: req.keep // 2]
            room = req.keep - len(values)
            order = self._order(qvec, [n[2] for n in rows], known)
            kept = [rows[i] for i in order[:room]]
            pruned = [rows[i] for i in order[room:]]
        options = [
            Option(
                relation=rel,
                direction=d,
                targets=(NodeRef(id=i, name=node_name(name, t, i), type=t, importance=float(deg)),),
                description=_clip(props_text(rprops)) if rprops else None,
            )
            for rel, d, i, name, t, deg, rprops in kept
        ]
        return Expansion(
            beam_key=req.beam_key,
            options=tuple(options + values),
            total_count=total,
            pruned=_group_pruned(pruned),
        )

    async def _relation_rows(
        self, reqs: Sequence[ExpandRequest], params: list[dict[str, Any]]
    ) -> dict[str, RelationMovesRow]:
        rows = await self._read_requests(
            RELATION_MOVES,
            params,
            scan=self.scan,
            dense=self.dense,
            count_nodes=self.counted,
            cap=max(r.max_frontier for r in reqs) + 1,  # the whole batch's, so cutting it changes no answer
        )
        return {row["beam_key"]: row for row in rows}

    async def _read_requests(self, query: Query[R], requests: list[dict[str, Any]], **params: Any) -> list[R]:
        """``query`` over the expansion ``requests`` (none: no statement), in statements of at most
        :attr:`ids_per_statement` node ids (:func:`by_volume`), one round trip each; rows in request order."""
        rows: list[R] = []
        for chunk in by_volume(requests, self.ids_per_statement):
            rows += await self.store.read(
                query,
                graph=self.graph,
                profile=self._profile_params,
                bookkeeping=BOOKKEEPING_TYPES,
                requests=chunk,
                **params,
            )
            self.round_trips += 1
        return rows

    def _expand_relations(
        self,
        reqs: Sequence[ExpandRequest],
        rows: dict[str, RelationMovesRow],
        queries: dict[str, np.ndarray | None],
        known: _Vectors,
    ) -> dict[str, Expansion]:
        out: dict[str, Expansion] = {}
        for req in reqs:
            row = rows.get(req.beam_key)
            if row is None:
                continue
            if req.follow is None:
                out[req.beam_key] = self._relation_expansion(row, req, set(req.exclude_ids), queries[req.query], known)
                continue
            # The cap was taken in Cypher (the first max_frontier targets read); the moves out of them came along.
            frontier = tuple(self._ref(i, name, t) for i, name, t in row["moved"] or [])
            excluded = set(req.exclude_ids) | {n.id for n in frontier}
            expansion = self._relation_expansion(row, req, excluded, queries[req.query], known)
            out[req.beam_key] = expansion.model_copy(
                update={"frontier": frontier, "frontier_total": row["total"], "frontier_truncated": row["truncated"]}
            )
        return out

    def _relation_expansion(
        self,
        row: RelationMovesRow,
        req: ExpandRequest,
        excluded: set[str],
        qvec: np.ndarray | None,
        known: _Vectors,
    ) -> Expansion:
        """The options of one frontier from its ``relation_moves`` row: moves (with up to 3 samples of the
        profile's relationship properties in the description) and the frontier's answer properties."""
        options: list[Option] = []
        size, counted = row.get("frontier_size", 0), row.get("counted", 0)
        estimated = 0 < counted < size  # the moves were counted on part of the frontier (COUNTED_NODES)
        for relation, direction, edges, rows, samples in sorted(row.get("moves") or [], key=lambda m: (m[0], m[1])):
            if req.direction not in ("both", direction):
                continue
            targets = _distinct(rows, excluded)
            shown = [props_text(p) for p in samples or []]
            description = _clip("e.g. " + "; ".join(shown)) if shown else None
            if edges > self.scan or estimated:  # not read whole: a sample and the edge count (or its estimate)
                options.append(
                    Option(
                        relation=relation,
                        direction=direction,
                        resolved=False,
                        total_targets=max(len(targets), round(edges * size / counted)) if estimated else edges,
                        estimated=estimated,
                        targets=tuple(self._ref(i, name, t) for i, name, t in targets),
                        description=description,
                    )
                )
                continue
            if not targets:
                continue
            kept, cut = targets, []
            if len(targets) > req.max_frontier:
                order = self._order(qvec, [t[0] for t in targets], known)
                kept = [targets[i] for i in order[: req.max_frontier]]
                cut = [targets[i][0] for i in order[req.max_frontier :]]
            options.append(
                Option(
                    relation=relation,
                    direction=direction,
                    targets=tuple(self._ref(i, name, t) for i, name, t in kept),
                    total_targets=len(targets),
                    pruned_target_ids=tuple(cut),
                    description=description,
                )
            )
        options += value_options(row.get("values") or [], excluded, relation_mode=True)
        pruned: list[PrunedOption] = []
        if len(options) > req.limit:
            # Too many relation kinds (rare): keep the ones that reach the most targets.
            ranked = sorted(options, key=lambda o: (-o.count, o.relation, o.direction))
            keep = {(o.relation, o.direction) for o in ranked[: req.keep]}
            pruned = [
                PrunedOption(relation=o.relation, direction=o.direction, target_ids=o.target_ids, reason="truncated")
                for o in options
                if (o.relation, o.direction) not in keep
            ]
            options = [o for o in options if (o.relation, o.direction) in keep]
        return Expansion(
            beam_key=req.beam_key, options=tuple(options), pruned=tuple(pruned), total_count=len(options) + len(pruned)
        )
