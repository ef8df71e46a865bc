"""The structure of one choice question, as the walk knows it (no text, no layout).

Every choice question the walk asks carries a :class:`DecisionContext` besides its rendered text
(:attr:`~graphwalk_neo4j.decide.base.ChoiceQuestion.context`): the user's question, the start entities with
their types, the path so far as (relation, direction, source type, target type, count) hops, where the beam
stands, and every option's relation, direction, target type, count and sample names, STOP included.

Text-reading backends (Jev, an LLM) get the text that :mod:`graphwalk_neo4j.decide.render` makes from this;
the context never goes over the wire. Backends that score structure (the local coverage decider, the learned
decider) read it directly instead of parsing a layout back out of the text. A question built without a
context (entity routing, linking, hand-made tests) still works everywhere: those backends fall back to its
text.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Direction = Literal["out", "in"]
HopMode = Literal["entity", "relation"]


class EntityInfo(BaseModel):
    """A node as the decider sees it: its name and type (and id, for traces)."""

    model_config = ConfigDict(frozen=True)

    name: str
    type: str | None = None
    id: str | None = None
    summary: str | None = None


class HopInfo(BaseModel):
    """One hop already taken: ``relation`` followed in ``direction`` from ``source_type`` nodes, reaching
    ``count`` nodes of ``target_type`` (``names``: a few of them; entity mode: the one node)."""

    model_config = ConfigDict(frozen=True)

    relation: str
    direction: Direction
    source_type: str | None = None
    target_type: str | None = None
    count: int = 0
    names: tuple[str, ...] = ()
    from_names: tuple[str, ...] = ()  # where the hop left from (a few names)
    from_count: int = 0  # how many nodes it left from


class OptionInfo(BaseModel):
    """One offered option: a move (relation, direction, what it reaches) or STOP (``is_stop``)."""

    model_config = ConfigDict(frozen=True)

    label: str
    is_stop: bool = False
    relation: str | None = None
    direction: Direction | None = None
    source_type: str | None = None
    target_type: str | None = None
    count: int = 0  # targets behind the option (all of them, before any frontier cap)
    reached: int = 0  # targets the walk would move to (after the frontier cap)
    names: tuple[str, ...] = ()  # a few target names (entity mode: the target)
    types: tuple[str | None, ...] = ()  # their types, aligned with names
    summary: str | None = None  # entity mode: the target's summary
    description: str | None = None  # extra text about the edge, when the graph has some


class DecisionContext(BaseModel):
    """Everything one choice question is about, as structure."""

    model_config = ConfigDict(frozen=True)

    question: str
    hop_mode: HopMode = "relation"
    start: tuple[EntityInfo, ...] = ()
    path: tuple[HopInfo, ...] = ()
    current: tuple[EntityInfo, ...] = ()  # where the beam stands (a sample when the frontier is large)
    current_count: int = 0
    current_type: str | None = None
    options: tuple[OptionInfo, ...] = Field(default_factory=tuple)  # in offer order, STOP last when allowed
    stop_allowed: bool = False
    answer_type_hint: str | None = None

    @property
    def labels(self) -> list[str]:
        return [o.label for o in self.options]

    def option(self, label: str) -> OptionInfo:
        for option in self.options:
            if option.label == label:
                return option
        raise KeyError(label)
