"""The two ports the walk engine talks through, so that it never knows about Neo4j.

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
  from; the expander moves along it (distinct targets not in ``exclude_ids``, capped at ``max_frontier`` like a
  resolved option) and returns the new frontier in ``Expansion.frontier`` together with the options out of it,
  in the same call. ``moves=False`` asks for the frontier only (the walk has ended).
* If there are at most ``limit`` options, offer them all; otherwise keep ``keep`` (by similarity to ``query``,
  else by importance) and list the rest in ``Expansion.pruned``. ``total_count`` counts options before
  pruning.
* ``options`` are in offer order (most important first); offer order breaks ties everywhere downstream, so it
  must be deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from graphwalk_neo4j.walk.records import DepthRecord, WalkMeta
    from graphwalk_neo4j.walk.result import WalkResult

HopMode = Literal["entity", "relation"]
Direction = Literal["out", "in", "both"]
EdgeDirection = Literal["out", "in"]


class NodeRef(BaseModel):
    """A graph node as the walk sees it."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    type: str | None = None
    summary: str | None = None  # short description shown to the decider
    importance: float | None = None  # e.g. degree or PageRank; higher is offered first
    properties: dict[str, Any] = Field(default_factory=dict)  # a few literal properties for the context bundle
    value: Any = None  # a literal answer (a property value such as born = 1964); its id starts with "val:"


class Option(BaseModel):
    """One move offered from a beam: follow ``relation`` in ``direction`` to ``targets``."""

    model_config = ConfigDict(frozen=True)

    relation: str
    direction: EdgeDirection
    targets: tuple[NodeRef, ...]  # entity mode: exactly one; relation mode: the new frontier
    total_targets: int | None = None  # relation mode: distinct targets before the max_frontier cap
    pruned_target_ids: tuple[str, ...] = ()  # relation mode: targets dropped by that cap
    description: str | None = None  # optional extra text about the edge itself
    resolved: bool = True  # False: targets are a sample, total_targets an upper bound (see the module docstring)

    @property
    def target(self) -> NodeRef:
        return self.targets[0]

    @property
    def target_ids(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.targets)

    @property
    def count(self) -> int:
        return self.total_targets if self.total_targets is not None else len(self.targets)


class PrunedOption(BaseModel):
    """An option the expander dropped before the decision (recorded in the trace)."""

    model_config = ConfigDict(frozen=True)

    relation: str
    direction: EdgeDirection
    target_ids: tuple[str, ...]
    reason: Literal["prefilter", "truncated"] = "prefilter"


class Move(BaseModel):
    """A relation move taken at the previous depth whose targets the expander has not read yet."""

    model_config = ConfigDict(frozen=True)

    relation: str
    direction: EdgeDirection


class ExpandRequest(BaseModel):
    """What one beam needs expanded at this depth."""

    model_config = ConfigDict(frozen=True)

    beam_key: str
    hop_mode: HopMode = "entity"
    node_ids: tuple[str, ...]  # entity mode: one node; relation mode: the frontier
    exclude_ids: tuple[str, ...] = ()  # visited nodes (empty when exclude_visited is off)
    direction: Direction = "both"
    limit: int = 50  # offer everything when there are at most this many options
    keep: int = 30  # otherwise keep this many
    max_frontier: int = 2000  # relation mode: targets kept per option
    query: str = ""  # the question, for a similarity prefilter
    follow: Move | None = None  # relation mode: first move from node_ids along this (an unresolved option)
    moves: bool = True  # with follow: False = return the new frontier only

    @property
    def node_id(self) -> str:
        return self.node_ids[0]


class Expansion(BaseModel):
    """The options for one :class:`ExpandRequest`, matched to it by ``beam_key``."""

    model_config = ConfigDict(frozen=True)

    beam_key: str
    options: tuple[Option, ...] = ()
    pruned: tuple[PrunedOption, ...] = ()
    total_count: int = 0  # options before pruning
    frontier: tuple[NodeRef, ...] | None = None  # with ExpandRequest.follow: the frontier reached
    frontier_total: int | None = None  # its distinct targets before the max_frontier cap
    frontier_pruned_ids: tuple[str, ...] = ()  # the targets that cap dropped


@runtime_checkable
class Expander(Protocol):
    async def expand(self, requests: Sequence[ExpandRequest]) -> list[Expansion]: ...


@runtime_checkable
class TraceSink(Protocol):
    async def start_walk(self, meta: WalkMeta) -> None: ...

    async def record_depth(self, record: DepthRecord) -> None: ...

    async def finish_walk(self, result: WalkResult) -> None: ...
