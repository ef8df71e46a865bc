"""Typed views of a stored trace: :class:`StoredWalk` with its :class:`StoredStep` s, :class:`StoredCall` s and
:class:`StoredAnswer` s, built from the property maps the ``stored_walks/*`` read templates return.

Owns the reverse of :mod:`graphwalk_neo4j.walk.neo4j_trace_sink`'s mapping: JSON string properties are parsed back
(``config``, ``options``, distributions), flat totals are packed into :class:`~graphwalk_neo4j.walk.result.Totals`,
and Neo4j temporal values become ``datetime``. Nothing here does I/O.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, field_validator

from graphwalk_neo4j.walk.result import Totals


def _native(value: Any) -> Any:
    """``neo4j.time.DateTime`` -> ``datetime`` (other values unchanged)."""
    to_native = getattr(value, "to_native", None)
    return to_native() if callable(to_native) else value


def _parsed(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


class StoredOption(BaseModel):
    """One option offered at a step, with the probability the decider gave it (``None``: no decision)."""

    label: str
    description: str | None = None
    is_stop: bool = False
    relation: str | None = None
    direction: str | None = None
    target_ids: list[str] = Field(default_factory=list)  # at most 20 (see ``count``)
    target_names: list[str] = Field(default_factory=list)
    count: int = 0
    p: float | None = None


class StoredCall(BaseModel):
    """One decision request (``:Call``)."""

    id: str
    walk_id: str
    depth: int
    latency_s: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    request_id: str | None = None
    model: str = ""
    provider: str | None = None
    wire_calls: int = 1
    n_questions: int = 0
    answer_type: dict[str, float] | None = None

    @field_validator("answer_type", mode="before")
    @classmethod
    def _decode(cls, value: Any) -> Any:
        return _parsed(value)


class StoredStep(BaseModel):
    """One step (``:Step``): where a beam stood, what it was offered, what the decider said, what it followed."""

    id: str
    walk_id: str
    depth: int
    beam: str
    seq: int = 0  # position in its depth's record
    decision_id: str
    parent_step_id: str | None = None
    call_id: str | None = None
    kind: str
    kept: bool = True
    node_ids: list[str] = Field(default_factory=list)  # at most 50 (see n_nodes)
    node_names: list[str] = Field(default_factory=list)
    n_nodes: int = 0
    options: list[StoredOption] = Field(default_factory=list)
    pruned: list[dict[str, Any]] = Field(default_factory=list)  # {relation, direction, reason, count}
    pruned_count: int = 0
    total_count: int = 0
    raw_distribution: dict[str, float] = Field(default_factory=dict)
    distribution: dict[str, float] = Field(default_factory=dict)
    used_distribution: dict[str, float] = Field(default_factory=dict)
    probs: list[float] = Field(default_factory=list)  # distribution in option order; empty without a decision
    chosen: str | None = None
    is_stop: bool = False
    chosen_relation: str | None = None
    chosen_direction: str | None = None
    chosen_target_ids: list[str] = Field(default_factory=list)  # at most 50 (see n_chosen_targets)
    n_chosen_targets: int = 0
    truncated: bool = False  # the frontier cap dropped targets of the chosen move (absent on older traces)
    total: int | None = None  # with truncated: the targets behind the chosen move
    p: float | None = None
    step_logp: float = 0.0
    cum_logp: float = 0.0
    score: float = 0.0
    confidence: float | None = None
    n_decisions: int = 0
    n_choices: int = 0
    caption: str | None = None  # `d1 directed_by ← p .89` (absent on traces stored before captions)
    hop: str | None = None  # `directed_by ← .89`: the replay's virtual relationship type

    @field_validator("options", "pruned", "raw_distribution", "distribution", "used_distribution", mode="before")
    @classmethod
    def _decode(cls, value: Any) -> Any:
        return _parsed(value)

    def model_post_init(self, __context: Any) -> None:
        if self.distribution:
            for option in self.options:
                option.p = self.distribution.get(option.label, 0.0)

    @property
    def chosen_option(self) -> StoredOption | None:
        return next((o for o in self.options if o.label == self.chosen), None)


class StoredAnswer(BaseModel):
    """One ``(:Walk)-[:ANSWERED]->(:Entity)``, or, for answers with no :Entity to link (an adopted graph's node, a
    property value), the same read from the walk's ``answer_*`` lists."""

    id: str
    name: str
    type: str | None = None
    rank: int
    score: float
    votes: int = 1
    terminated_by: str | None = None
    value: Any = None  # a property-value answer (``born = 1964``)


class StoredWalk(BaseModel):
    """A stored walk. :func:`~graphwalk_neo4j.stored_walks.read.list_walks` leaves ``steps``, ``calls`` and ``answers``
    empty; :func:`~graphwalk_neo4j.stored_walks.read.get_walk` fills them."""

    id: str
    graph: str
    question: str = ""
    caption: str | None = None  # the question, shortened (absent on traces stored before captions)
    status: str
    stop_reason: str | None = None
    strategy: str | None = None
    hop_mode: str | None = None
    model: str | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    start_ids: list[str] = Field(default_factory=list)
    start_names: list[str] = Field(default_factory=list)
    answer_names: list[str] = Field(default_factory=list)
    answer_ids: list[str] = Field(default_factory=list)
    answer_scores: list[float] = Field(default_factory=list)
    answer_types: list[str] = Field(default_factory=list)
    answer_values: list[Any] = Field(default_factory=list)
    n_answers: int = 0
    best_path: str | None = None
    best_score: float | None = None
    n_steps: int = 0
    answer_type: dict[str, float] | None = None
    # Entities this walk links to that a later re-ingest or retraction removed (kept as :RetractedEntity).
    retracted_ids: list[str] = Field(default_factory=list)
    retracted_names: list[str] = Field(default_factory=list)
    totals: Totals = Field(default_factory=Totals)
    steps: list[StoredStep] = Field(default_factory=list)
    calls: list[StoredCall] = Field(default_factory=list)
    answers: list[StoredAnswer] = Field(default_factory=list)

    @field_validator("config", "answer_type", "answer_values", mode="before")
    @classmethod
    def _decode(cls, value: Any) -> Any:
        return _parsed(value)

    def unlinked_answers(self) -> list[StoredAnswer]:
        """Answers kept only in the walk's lists (no ``ANSWERED`` link), in rank order."""
        linked = {a.id for a in self.answers}
        out: list[StoredAnswer] = []
        for rank, (node_id, name) in enumerate(zip(self.answer_ids, self.answer_names, strict=False), start=1):
            if node_id in linked:
                continue
            out.append(
                StoredAnswer(
                    id=node_id,
                    name=name,
                    rank=rank,
                    type=(self.answer_types[rank - 1] or None) if rank <= len(self.answer_types) else None,
                    score=self.answer_scores[rank - 1] if rank <= len(self.answer_scores) else 0.0,
                    value=self.answer_values[rank - 1] if rank <= len(self.answer_values) else None,
                )
            )
        return out

    @field_validator("started_at", "finished_at", mode="before")
    @classmethod
    def _to_datetime(cls, value: Any) -> Any:
        return _native(value)

    @classmethod
    def from_props(cls, props: dict[str, Any], **parts: Any) -> StoredWalk:
        """Build from a :Walk property map (flat totals) plus optional ``steps`` / ``calls`` / ``answers``."""
        totals = {k: props[k] for k in Totals.model_fields if props.get(k) is not None}
        data = {k: v for k, v in props.items() if k not in Totals.model_fields and v is not None}
        return cls.model_validate({**data, "totals": totals, **parts})

    @property
    def finished(self) -> bool:
        return self.status != "running"

    def depths(self) -> dict[int, list[StoredStep]]:
        """Steps grouped by depth, in stored order."""
        out: dict[int, list[StoredStep]] = {}
        for step in self.steps:
            out.setdefault(step.depth, []).append(step)
        return out

    def options_by_depth(self) -> list[dict[str, Any]]:
        """Why the walk went where it went: per depth, each step's position (``at``), what was offered with the
        probability the decider gave it (most likely first; ``chosen`` marks the option followed), and what the
        expander pruned before the decision. JSON values only (the MCP ``walk_options`` tool returns this)."""
        out = []
        for depth, steps in sorted(self.depths().items()):
            shown = []
            for step in steps:
                ranked = sorted(step.options, key=lambda o: -(o.p or 0.0))
                shown.append(
                    {
                        "beam": step.beam,
                        "kind": step.kind,
                        "kept": step.kept,
                        "at": step.node_names,
                        "chosen": step.chosen,
                        "p": step.p,
                        "options": [
                            {
                                "label": o.label,
                                "text": "STOP" if o.is_stop else o.description,
                                "relation": o.relation,
                                "direction": o.direction,
                                "targets": o.target_names,
                                "count": o.count,
                                "p": o.p,
                                "chosen": o.label == step.chosen,
                            }
                            for o in ranked
                        ],
                        "pruned": step.pruned,
                    }
                )
            out.append({"depth": depth, "steps": shown})
        return out
