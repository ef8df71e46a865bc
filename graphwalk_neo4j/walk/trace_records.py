"""Trace records handed to a :class:`~graphwalk_neo4j.walk.ports.TraceSink`: JSON-serialisable pydantic
models.

* :class:`WalkMeta` — once per walk, before the first depth.
* :class:`DepthRecord` — once per depth: the decision call (if one was made) and one :class:`StepRecord` per
  step taken at that depth. A step is "beam B, standing at node(s) N, was offered these options, the decider
  returned this distribution, and the walk followed option X". In beam search one decision can spawn several
  surviving steps (siblings share ``decision_id``); a decision none of whose candidates survived is recorded
  once, for its best candidate, with ``kept=False``. ``parent_step_id`` links a step to the step that led to
  its node(s).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from graphwalk_neo4j.walk.expansion import EdgeDirection, PrunedOption

StepKind = Literal["decision", "forced_move", "forced_stop", "dead_end"]


class WalkMeta(BaseModel):
    walk_id: str
    question: str
    start_ids: list[str]
    start_names: list[str]
    strategy: str
    hop_mode: str
    model: str  # the backend's configured model id (the server-echoed one is on each CallInfo)
    config: dict[str, Any]
    started_at: datetime


class CallInfo(BaseModel):
    """One decision request (the backend may have split it into ``wire_calls`` wire calls)."""

    call_id: str
    n_questions: int
    latency_s: float
    input_tokens: int
    output_tokens: int
    cost_usd: float | None = None
    request_id: str | None = None
    model: str = ""
    provider: str | None = None
    wire_calls: int = 1


class OfferedOption(BaseModel):
    """An option as shown to the decider. STOP has ``is_stop=True`` and no relation."""

    label: str
    description: str | None = None
    is_stop: bool = False
    relation: str | None = None
    direction: EdgeDirection | None = None
    target_ids: list[str] = Field(default_factory=list)
    target_names: list[str] = Field(default_factory=list)  # at most a few (relation mode)
    count: int = 0  # targets behind the option (1 in entity mode)
    resolved: bool = True  # False: target_ids are a sample and count the edge count (an upper bound)
    estimated: bool = False  # count is an estimate: the moves were counted on part of the frontier


class StepRecord(BaseModel):
    step_id: str
    walk_id: str
    depth: int
    beam: str  # the question key of the beam at this depth (b0.., or s<i> for sample walk i)
    decision_id: str  # shared by steps spawned by the same decision
    parent_step_id: str | None
    kind: StepKind
    kept: bool = True
    node_ids: list[str]  # where the beam stood
    node_names: list[str]
    options: list[OfferedOption]
    pruned: list[PrunedOption] = Field(default_factory=list)
    total_count: int = 0
    raw_distribution: dict[str, float] = Field(default_factory=dict)  # as the backend returned it
    distribution: dict[str, float] = Field(default_factory=dict)  # normalised over the offered labels
    used_distribution: dict[str, float] = Field(default_factory=dict)  # after temperature / top-p (sample)
    chosen: str | None = None  # label followed (None for a dead end)
    is_stop: bool = False
    chosen_relation: str | None = None
    chosen_direction: EdgeDirection | None = None
    chosen_target_ids: list[str] = Field(default_factory=list)
    chosen_truncated: bool = False  # relation mode: the max_frontier cap dropped targets of the chosen move
    chosen_total: int | None = None  # the targets behind the chosen move (the kept ones are chosen_target_ids)
    p: float | None = None  # probability of the chosen label (1.0 for a forced STOP, None for a forced move)
    step_logp: float = 0.0
    cum_logp: float = 0.0
    n_decisions: int = 0  # decisions so far incl. forced STOPs (the length L in the score)
    n_choices: int = 0  # decisions the decider actually answered
    score: float = 0.0  # normalised score after this step
    confidence: float | None = None
    call_id: str | None = None


class DepthRecord(BaseModel):
    walk_id: str
    depth: int
    call: CallInfo | None = None  # None when every step at this depth was forced
    steps: list[StepRecord] = Field(default_factory=list)
    answer_type: dict[str, float] | None = None  # the answer-type distribution, when asked in this call
