"""The value types of expansion: what the engine asks an :class:`~.ports.Expander` (:class:`ExpandRequest`) and
what it gets back (:class:`Expansion` of :class:`Option` / :class:`PrunedOption` over :class:`NodeRef`). The
contract they follow is described in :mod:`.ports`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

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
    # with resolved=False: total_targets is an estimate, scaled from the moves of part of the frontier
    estimated: bool = False

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
    # its targets: untruncated, the distinct unvisited ones read; truncated, the move's edge count (stored degrees)
    frontier_total: int | None = None
    frontier_pruned_ids: tuple[str, ...] = ()  # the targets the max_frontier cap dropped, where they were read
    frontier_truncated: bool = False  # the max_frontier cap dropped targets (frontier_total counts them)
