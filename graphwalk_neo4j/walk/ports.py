"""The two ports the walk engine talks through, so that it never knows about Neo4j. The value types they carry
live in :mod:`.expansion` (re-exported here), :mod:`.records` and :mod:`.result`.

* :class:`Expander` answers "what are the moves from here?" for every active beam of one depth in ONE call
  (the Neo4j expander does one Cypher round trip with ``UNWIND`` over the requests).
* :class:`TraceSink` receives the walk's trace: ``start_walk`` once, ``record_depth`` once per depth, then
  ``finish_walk``. The engine schedules the writes in order as background work and awaits them all before
  ``finish_walk``, so a slow sink does not hold up the next decision.

Expansion contract (the engine relies on it and checks the parts it can):

* **Entity hops** (``hop_mode="entity"``): one :class:`Option` per (relation, direction, neighbour) of
  ``node_ids[0]``; ``targets`` holds exactly that neighbour. **Relation hops**: one option per distinct
  (relation, direction) over the whole frontier ``node_ids``; ``targets`` are all distinct targets in a stable
  order, capped at ``max_frontier`` (by query similarity when an embedder is available, else truncated); the
  dropped ids go to ``pruned_target_ids`` and ``total_targets`` counts them all.
* ``direction``: ``"out"`` means ``(current)-[relation]->(target)``, ``"in"`` means
  ``(target)-[relation]->(current)``. A request with ``direction="both"`` yields options of both kinds.
* Targets in ``exclude_ids`` are never offered (in relation mode, an option left without targets is dropped).
* **Lazy relation moves.** A relation-mode option may come with ``resolved=False``: its ``targets`` are then only
  a sample (possibly empty) and ``total_targets`` an upper bound (the edge count), because reading every target
  of every option through a hub costs more than the whole depth should. When the engine takes such an option it
  sends it back at the next depth as ``ExpandRequest.follow`` with ``node_ids`` = the frontier it was offered
  from; the expander moves along it (distinct targets not in ``exclude_ids``, capped at ``max_frontier``; the
  Neo4j expander takes the cap in Cypher and keeps the first targets read) and returns the new frontier in
  ``Expansion.frontier`` together with the options out of it, in the same call; ``frontier_truncated`` and
  ``frontier_total`` say what the cap left out. ``moves=False`` asks for the frontier only (the walk has ended).
  An expander may count the moves of a big frontier on part of it (the Neo4j expander: ``COUNTED_NODES``
  evenly spread nodes); its options are then all unresolved, ``estimated=True``, and ``total_targets`` is the
  edge count scaled to the whole frontier, an estimate rather than a bound. Taking one reads it exactly.
* If there are at most ``limit`` options, offer them all; otherwise keep ``keep`` (by similarity to ``query``,
  else by importance) and list the rest in ``Expansion.pruned``. ``total_count`` counts options before
  pruning.
* ``options`` are in offer order (most important first); offer order breaks ties everywhere downstream, so it
  must be deterministic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from graphwalk_neo4j.walk.expansion import (
    Direction,
    EdgeDirection,
    ExpandRequest,
    Expansion,
    HopMode,
    Move,
    NodeRef,
    Option,
    PrunedOption,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.walk.result import WalkResult
    from graphwalk_neo4j.walk.trace_records import DepthRecord, WalkMeta

__all__ = [
    "Direction",
    "EdgeDirection",
    "ExpandRequest",
    "Expander",
    "Expansion",
    "HopMode",
    "Move",
    "NodeRef",
    "Option",
    "PrunedOption",
    "TraceSink",
]


@runtime_checkable
class Expander(Protocol):
    async def expand(self, requests: Sequence[ExpandRequest]) -> list[Expansion]: ...


@runtime_checkable
class TraceSink(Protocol):
    async def start_walk(self, meta: WalkMeta) -> None: ...

    async def record_depth(self, record: DepthRecord) -> None: ...

    async def finish_walk(self, result: WalkResult) -> None: ...
