"""What a walk returns: :class:`WalkResult` with ranked :class:`Answer` s, the ranked :class:`WalkPath` s,
per-step trace records, :class:`Totals`, and :meth:`WalkResult.context_bundle` for a downstream reader (LLM or
agent step).

Statuses: ``ok`` (every kept walk ended on its own), ``budget`` (a budget ran out: depth, decision calls,
input tokens; ``stop_reason`` says which), ``error`` (the decider or the store failed; the message is in
``stop_reason``), ``dead_end`` (no walk could leave its start node), ``no_start`` (no start node was given).
In every case ``answers`` holds the best that was found.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, Field

from graphwalk_neo4j.walk.expansion import EdgeDirection, NodeRef
from graphwalk_neo4j.walk.notebook import walk_html
from graphwalk_neo4j.walk.trace_records import DepthRecord, StepKind, StepRecord

Status = Literal["ok", "budget", "error", "dead_end", "no_start", "interrupted"]
Termination = Literal["stop", "forced_stop", "max_depth", "budget", "error"]


class PathStep(BaseModel):
    """One step of a path: a hop to ``nodes`` (entity: one node; relation: the new frontier) or a STOP."""

    step_id: str
    depth: int
    kind: StepKind
    label: str | None
    is_stop: bool = False
    relation: str | None = None
    direction: EdgeDirection | None = None
    from_ids: list[str] = Field(default_factory=list)
    from_names: list[str] = Field(default_factory=list)
    nodes: list[NodeRef] = Field(default_factory=list)
    truncated: bool = False  # relation mode: the max_frontier cap dropped targets of this move
    total: int | None = None  # with truncated: the targets behind the move (see Expansion.frontier_total)
    p: float | None = None
    step_logp: float = 0.0
    cum_logp: float = 0.0
    confidence: float | None = None


class WalkPath(BaseModel):
    """One beam (or one sampled walk) from its start to where it ended."""

    beam: str
    sample: int | None = None
    start: list[NodeRef]
    steps: list[PathStep]
    end: list[NodeRef]  # the node(s) it answers with
    cum_logp: float
    n_decisions: int
    n_choices: int
    score: float
    finished: bool  # ended with a STOP (chosen or forced)
    terminated_by: Termination
    min_confidence: float | None = None

    def describe(self) -> str:
        """A readable one-line rendering, e.g. ``Memento --directed_by--> Christopher Nolan -> STOP``."""
        parts = [_names(self.start)]
        for step in self.steps:
            if step.is_stop:
                parts.append("-> STOP")
            elif step.direction == "in":
                parts.append(f"<--{step.relation}-- {_names(step.nodes)}")
            else:
                parts.append(f"--{step.relation}--> {_names(step.nodes)}")
        return " ".join(parts)


class Answer(BaseModel):
    node_id: str
    name: str
    type: str | None = None
    score: float  # best normalised score of a path ending here
    rank: int  # 1-based
    votes: int = 1  # paths (or sampled walks) ending here
    finished: bool = True  # some path ending here stopped on its own
    terminated_by: Termination = "stop"
    n_choices: int = 0
    min_confidence: float | None = None
    path: int = 0  # index into WalkResult.paths of the best path ending here
    summary: str | None = None
    properties: dict[str, Any] = Field(default_factory=dict)
    value: Any = None  # set when the answer is a property value (``born = 1964``), not a node


class Totals(BaseModel):
    depths: int = 0
    decision_calls: int = 0  # wire calls (a request may be split by the backend)
    decision_requests: int = 0
    questions: int = 0
    expansions: int = 0  # expander round trips (one per depth)
    nodes_read: int = 0  # nodes the expansions returned (the work budget's count)
    memory_mb: float = 0.0  # the largest memory estimate of the walk (the work budget's other count)
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    decision_latency_s: float = 0.0
    wall_s: float = 0.0


class WalkResult(BaseModel):
    walk_id: str
    question: str
    status: Status
    stop_reason: str
    strategy: str
    hop_mode: str
    model: str
    answers: list[Answer] = Field(default_factory=list)
    paths: list[WalkPath] = Field(default_factory=list)  # ranked: finished first, then by score
    steps: list[StepRecord] = Field(default_factory=list)  # every step, per depth, per beam
    totals: Totals = Field(default_factory=Totals)
    answer_type: dict[str, float] | None = None

    @property
    def best_path(self) -> WalkPath | None:
        return self.paths[0] if self.paths else None

    @property
    def answer_names(self) -> list[str]:
        return [a.name for a in self.answers]

    def _repr_html_(self) -> str:
        """Jupyter's rich display: question, answers, the best path drawn, the options on demand."""
        return walk_html(self)

    def context_bundle(self, max_nodes: int = 50) -> dict[str, Any]:
        """``{goal, answers, nodes: [{id, name, type, relevance, hop, via, properties}], hops, stopped, usage,
        walk_id, truncated, truncated_moves}``: answers first, then the other nodes on the kept paths by relevance
        (exp of the best score of a path through the node, in (0, 1]). ``truncated`` is true when the frontier cap
        cut a move on a kept path; ``truncated_moves`` lists those moves as ``{hop, relation, direction, kept,
        total, truncated: true}`` (``kept`` targets of ``total``), so a reader knows the set is not complete.
        """
        nodes: dict[str, dict[str, Any]] = {}
        cut: dict[str, dict[str, Any]] = {}

        def add(node: NodeRef, relevance: float, hop: int, via: str | None) -> None:
            seen = nodes.get(node.id)
            if seen is None:
                props = dict(node.properties)
                if node.summary:
                    props.setdefault("summary", node.summary)
                nodes[node.id] = {
                    "id": node.id,
                    "name": node.name,
                    "type": node.type,
                    "relevance": relevance,
                    "hop": hop,
                    "via": via,
                    "properties": props,
                }
            elif relevance > seen["relevance"]:
                seen["relevance"] = relevance

        for path in self.paths:
            relevance = math.exp(path.score)
            for node in path.start:
                add(node, relevance, 0, None)
            hop = 0
            for step in path.steps:
                if step.is_stop:
                    continue
                hop += 1
                if step.truncated and step.step_id not in cut:
                    cut[step.step_id] = {
                        "hop": hop,
                        "relation": step.relation,
                        "direction": step.direction,
                        "kept": len(step.nodes),
                        "total": step.total,
                        "truncated": True,
                    }
                source = _names(step.from_names)
                for node in step.nodes:
                    via = (
                        f"{source} --{step.relation}--> {node.name}"
                        if step.direction == "out"
                        else f"{node.name} --{step.relation}--> {source}"
                    )
                    add(node, relevance, hop, via)
        answer_ids = [a.node_id for a in self.answers]
        ordered = [nodes[i] for i in answer_ids if i in nodes]
        answer_set = set(answer_ids)
        rest = [n for i, n in nodes.items() if i not in answer_set]
        rest.sort(key=lambda n: (-n["relevance"], n["hop"]))
        return {
            "walk_id": self.walk_id,
            "goal": self.question,
            "answers": [
                {
                    "id": a.node_id,
                    "name": a.name,
                    "type": a.type,
                    "value": a.value,
                    "score": a.score,
                    "rank": a.rank,
                    "votes": a.votes,
                }
                for a in self.answers
            ],
            "nodes": (ordered + rest)[:max_nodes],
            "hops": self.totals.depths,
            "stopped": f"{self.status}: {self.stop_reason}",
            "usage": self.totals.model_dump(),
            "truncated": bool(cut),
            "truncated_moves": list(cut.values()),
        }


class DepthEvent(BaseModel):
    """What a walk observer hears after each depth (``WalkEngine.run(on_depth=...)``): the depth's trace record
    (options offered, the distribution, what was chosen), the answers of the walks finished so far (ranked as the
    final result would rank them), and the depth's wall time (expand + decide + advance)."""

    walk_id: str
    depth: int
    seconds: float
    record: DepthRecord
    answers: list[Answer] = Field(default_factory=list)


def _names(items: list[NodeRef] | list[str], limit: int = 3) -> str:
    names = [i if isinstance(i, str) else i.name for i in items]
    if len(names) <= limit:
        return ", ".join(names) if len(names) != 1 else names[0]
    return ", ".join(names[:limit]) + f" (+{len(names) - limit} more)"
