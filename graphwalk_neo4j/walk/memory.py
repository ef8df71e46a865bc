"""An :class:`~.ports.Expander` over a small in-memory graph, for tests, demos and docs.

It follows the expansion contract in :mod:`.ports` literally (direction, exclusion, ``limit``/``keep``
pruning, ``max_frontier`` capping) but prunes by importance then insertion order, never by similarity, and
counts its round trips so tests can check "one expansion per depth". With ``lazy_above=k`` it offers relation
moves with more than ``k`` edges unresolved (the first ``k`` unvisited targets as the sample, the edge count as
the bound) and reads them when they come back as ``follow``, as the Neo4j expander does for hubs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.walk.ports import EdgeDirection, ExpandRequest, Expansion, NodeRef, Option, PrunedOption

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

Triple = tuple[str, str, str]  # (source id, relation, target id)


class InMemoryExpander:
    """Expands over ``nodes`` and ``(source, relation, target)`` edges, in insertion order."""

    def __init__(self, nodes: Iterable[NodeRef], edges: Iterable[Triple], lazy_above: int | None = None) -> None:
        self.nodes: dict[str, NodeRef] = {n.id: n for n in nodes}
        self.edges: list[Triple] = list(dict.fromkeys(edges))
        self._adjacent: dict[str, list[tuple[str, EdgeDirection, str]]] = {}
        for source, relation, target in self.edges:
            self._adjacent.setdefault(source, []).append((relation, "out", target))
            self._adjacent.setdefault(target, []).append((relation, "in", source))
        self.calls = 0
        self.requests: list[list[ExpandRequest]] = []
        self.lazy_above = lazy_above

    @classmethod
    def from_triples(cls, triples: Iterable[Triple], types: Mapping[str, str] | None = None) -> InMemoryExpander:
        """A graph whose node ids are names, as in MetaQA (``types`` maps a name to its type)."""
        edges = list(triples)
        names = dict.fromkeys(n for s, _, t in edges for n in (s, t))
        return cls([NodeRef(id=n, name=n, type=(types or {}).get(n)) for n in names], edges)

    def node(self, node_id: str) -> NodeRef:
        return self.nodes.get(node_id) or NodeRef(id=node_id, name=node_id)

    async def expand(self, requests: Sequence[ExpandRequest]) -> list[Expansion]:
        self.calls += 1
        self.requests.append(list(requests))
        return [self._expand(r) for r in requests]

    def _moves(self, node_id: str, request: ExpandRequest) -> list[tuple[str, EdgeDirection, str]]:
        excluded = set(request.exclude_ids)
        return [
            (relation, direction, other)
            for relation, direction, other in self._adjacent.get(node_id, [])
            if request.direction in ("both", direction) and other not in excluded
        ]

    def _expand(self, request: ExpandRequest) -> Expansion:
        if request.follow is None:
            return self._options(request)
        move = request.follow
        excluded = set(request.exclude_ids)
        reached = [
            other
            for node_id in request.node_ids
            for relation, direction, other in self._adjacent.get(node_id, [])
            if (relation, direction) == (move.relation, move.direction) and other not in excluded
        ]
        distinct = list(dict.fromkeys(reached))
        frontier = tuple(self.node(i) for i in distinct[: request.max_frontier])
        after = request.model_copy(
            update={
                "node_ids": tuple(n.id for n in frontier),
                "follow": None,
                "exclude_ids": (*request.exclude_ids, *(n.id for n in frontier)),
            }
        )
        expansion = self._options(after) if request.moves else Expansion(beam_key=request.beam_key)
        return expansion.model_copy(
            update={
                "frontier": frontier,
                "frontier_total": len(distinct),
                "frontier_pruned_ids": tuple(distinct[request.max_frontier :]),
                "frontier_truncated": len(distinct) > request.max_frontier,
            }
        )

    def _options(self, request: ExpandRequest) -> Expansion:
        options: list[Option] = []
        if request.hop_mode == "entity":
            moves = self._moves(request.node_id, request)
            options = [Option(relation=r, direction=d, targets=(self.node(t),)) for r, d, t in moves]
            options.sort(key=lambda o: -(o.target.importance or 0.0))
        else:
            grouped: dict[tuple[str, EdgeDirection], list[str]] = {}
            for node_id in request.node_ids:
                for relation, direction, other in self._moves(node_id, request):
                    grouped.setdefault((relation, direction), []).append(other)
            for (relation, direction), ids in grouped.items():
                distinct = list(dict.fromkeys(ids))
                if self.lazy_above is not None and len(ids) > self.lazy_above:
                    options.append(
                        Option(
                            relation=relation,
                            direction=direction,
                            resolved=False,
                            targets=tuple(self.node(i) for i in distinct[: self.lazy_above]),
                            total_targets=len(ids),
                        )
                    )
                    continue
                kept = distinct[: request.max_frontier]
                options.append(
                    Option(
                        relation=relation,
                        direction=direction,
                        targets=tuple(self.node(i) for i in kept),
                        total_targets=len(distinct),
                        pruned_target_ids=tuple(distinct[request.max_frontier :]),
                    )
                )
        total = len(options)
        pruned: tuple[PrunedOption, ...] = ()
        if total > request.limit:
            pruned = tuple(
                PrunedOption(relation=o.relation, direction=o.direction, target_ids=o.target_ids, reason="truncated")
                for o in options[request.keep :]
            )
            options = options[: request.keep]
        return Expansion(beam_key=request.beam_key, options=tuple(options), pruned=pruned, total_count=total)
