"""One walk's mutable bookkeeping, kept out of the engine's loop: the beam pool, finished beams, totals and
budget checks, call records, trace step records, and the final :class:`~.result.WalkResult` assembly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphwalk_neo4j.walk.beams import Beam, Candidate, rank_answers, rank_paths
from graphwalk_neo4j.walk.config import NODE_ID_BYTES, NODE_REF_BYTES
from graphwalk_neo4j.walk.result import Answer, Status, Termination, Totals, WalkPath, WalkResult
from graphwalk_neo4j.walk.trace_records import CallInfo, OfferedOption, StepKind, StepRecord

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionResponse
    from graphwalk_neo4j.walk.config import WalkConfig
    from graphwalk_neo4j.walk.ports import Expansion, Option


@dataclass
class Plan:
    """What one active beam does at one depth, and what the decider said about it."""

    index: int  # position in the pool
    key: str
    beam: Beam
    kind: StepKind
    expansion: Expansion
    labelled: dict[str, Option | None]  # label -> option (None = STOP), in offer order
    question: ChoiceQuestion | None = None
    raw: dict[str, float] = field(default_factory=dict)
    dist: dict[str, float] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)
    confidence: float | None = None


@dataclass
class WalkState:
    walk_id: str
    config: WalkConfig
    model: str
    pool: list[Beam] = field(default_factory=list)
    finished: list[Beam] = field(default_factory=list)  # every finished beam that made the pool, in order
    steps: list[StepRecord] = field(default_factory=list)
    totals: Totals = field(default_factory=Totals)
    answer_type: dict[str, float] | None = None
    memory_now_mb: float = 0.0  # the memory estimate after the latest expansion
    widest_read: int = 0  # the most nodes one expansion request has read

    def budget_reason(self) -> str | None:
        """Why the next decision call may not be made, or ``None``."""
        budget, totals = self.config.budget, self.totals
        if budget.max_decision_calls is not None and totals.decision_calls + 1 > budget.max_decision_calls:
            return f"max_decision_calls: {totals.decision_calls} decision calls made, limit {budget.max_decision_calls}"
        if budget.max_input_tokens is not None and totals.input_tokens >= budget.max_input_tokens:
            return f"max_input_tokens: {totals.input_tokens} input tokens used, limit {budget.max_input_tokens}"
        return None

    def record_read(self, expansions: Sequence[Expansion]) -> None:
        """Count what ``expansions`` read into the work budget: every node they returned (offered and pruned
        targets, frontiers), and the memory estimate of what the walk holds now (their NodeRefs and the beams'
        frontiers, plus every id read so far, which the step records keep)."""
        totals, held = self.totals, sum(len(b.current) for b in self.pool)
        for e in expansions:
            offered = sum(len(o.targets) for o in e.options) + len(e.frontier or ())
            read = offered + len(e.frontier_pruned_ids) + sum(len(o.pruned_target_ids) for o in e.options)
            read += sum(len(p.target_ids) for p in e.pruned)
            totals.nodes_read += read
            self.widest_read = max(self.widest_read, read)
            held += offered
        estimate = (held * NODE_REF_BYTES + totals.nodes_read * NODE_ID_BYTES) / 2**20
        totals.memory_mb = max(totals.memory_mb, round(estimate, 3))
        self.memory_now_mb = estimate

    def work_reason(self) -> str | None:
        """Why the walk must stop after its latest expansion (the work budget), or ``None``."""
        budget, totals = self.config.budget, self.totals
        if totals.nodes_read > budget.max_nodes_read:
            return f"max_nodes_read: {totals.nodes_read} nodes read, limit {budget.max_nodes_read}"
        if self.memory_now_mb > budget.max_memory_mb:
            return f"max_memory_mb: about {self.memory_now_mb:.1f} MiB held, limit {budget.max_memory_mb}"
        return None

    def forecast_reason(self, requests: int, pending: int) -> str | None:
        """Why the next expansion (``requests`` of them, ``pending`` reading a move's frontier) may not run: when
        as many requests as the widest one so far, plus those frontiers at their share, would pass
        ``max_nodes_read``. ``None`` before the first expansion and while the budget holds."""
        if self.widest_read == 0:
            return None
        budget, read = self.config.budget, self.totals.nodes_read
        forecast = requests * self.widest_read + pending * self.frontier_share(requests)
        if read + forecast <= budget.max_nodes_read:
            return None
        return (
            f"max_nodes_read: {read} nodes read and the next depth would read about {forecast} more, "
            f"limit {budget.max_nodes_read}"
        )

    def frontier_share(self, requests: int) -> int:
        """The most targets one of ``requests`` expansions may keep per option: ``max_frontier``, or less when
        the nodes left in the work budget, split evenly, are fewer."""
        left = self.config.budget.max_nodes_read - self.totals.nodes_read
        return max(1, min(self.config.max_frontier, left // max(1, requests)))

    def record_call(self, response: DecisionResponse, n_questions: int) -> CallInfo:
        totals = self.totals
        totals.decision_requests += 1
        totals.decision_calls += max(1, response.calls)
        totals.questions += n_questions
        totals.input_tokens += response.usage.input_tokens
        totals.output_tokens += response.usage.output_tokens
        if response.usage.cost_usd is not None:
            totals.cost_usd = (totals.cost_usd or 0.0) + response.usage.cost_usd
        totals.decision_latency_s += response.latency_s
        return CallInfo(
            call_id=f"{self.walk_id}/c{totals.decision_requests}",
            n_questions=n_questions,
            latency_s=response.latency_s,
            input_tokens=response.usage.input_tokens,
            output_tokens=response.usage.output_tokens,
            cost_usd=response.usage.cost_usd,
            request_id=response.request_id,
            model=response.model or self.model,
            provider=response.provider,
            wire_calls=max(1, response.calls),
        )

    def answers_so_far(self) -> list[Answer]:
        """The answers of the walks that have finished, ranked as :meth:`result` would rank them."""
        return self._answers(rank_paths([b.to_path(self.config) for b in self.finished]))

    @property
    def answers_with_best_path(self) -> bool:
        """A relation beam: each of its paths ends on a whole answer set, so the walk answers with the best path's
        set (one path = one answer set, as ``eval`` scores it) and the other beams stay alternatives in ``paths``.
        An entity beam's paths each end on one node, so every finished one is an answer; sampled walks vote."""
        return self.config.hop_mode == "relation" and self.config.strategy == "beam"

    def _answers(self, ranked: list[WalkPath]) -> list[Answer]:
        """The answers of ``ranked`` paths (:attr:`answers_with_best_path`)."""
        if self.answers_with_best_path:
            ranked = ranked[:1]
        return rank_answers(ranked, voting=self.config.strategy == "sample")

    def result(self, question: str, status: Status, reason: str, wall_s: float) -> WalkResult:
        cfg = self.config
        cut: Termination = "max_depth" if reason.startswith("max_depth") else "error" if status == "error" else "budget"
        paths = [b.to_path(cfg) for b in self.finished]
        paths += [
            b.to_path(cfg, terminated_by=cut)
            for b in self.pool
            if not b.finished and (b.hops > 0 or cfg.allow_stop_at_start)
        ]
        ranked = rank_paths(paths)
        self.totals.wall_s = wall_s
        return WalkResult(
            walk_id=self.walk_id,
            question=question,
            status=status,
            stop_reason=reason,
            strategy=cfg.strategy,
            hop_mode=cfg.hop_mode,
            model=self.model,
            answers=self._answers(ranked),
            paths=ranked,
            steps=list(self.steps),
            totals=self.totals.model_copy(),
            answer_type=self.answer_type,
        )


def offered(plan: Plan, sample_names: int) -> list[OfferedOption]:
    out = []
    described = plan.question.options if plan.question is not None else {}
    for label, option in plan.labelled.items():
        text = described.get(label)
        description = text if isinstance(text, str) or text is None else str(text)
        if option is None:
            out.append(OfferedOption(label=label, description=description, is_stop=True))
            continue
        out.append(
            OfferedOption(
                label=label,
                description=description,
                relation=option.relation,
                direction=option.direction,
                target_ids=list(option.target_ids),
                target_names=[t.name for t in option.targets[: max(1, sample_names)]],
                count=option.count,
                resolved=option.resolved,
                estimated=option.estimated,
            )
        )
    return out


def step_record(
    state: WalkState,
    plan: Plan,
    cand: Candidate | None,
    step_id: str,
    depth: int,
    call: CallInfo | None,
    *,
    kept: bool,
) -> StepRecord:
    """The trace record of one step (``cand is None`` for a dead end)."""
    beam = plan.beam
    record = StepRecord(
        step_id=step_id,
        walk_id=state.walk_id,
        depth=depth,
        beam=plan.key,
        decision_id=f"{state.walk_id}/d{depth}/{plan.key}",
        parent_step_id=beam.last_step_id,
        kind=plan.kind,
        kept=kept,
        node_ids=[n.id for n in beam.current],
        node_names=[n.name for n in beam.current],
        options=offered(plan, state.config.sample_names),
        pruned=list(plan.expansion.pruned),
        total_count=plan.expansion.total_count,
        raw_distribution=plan.raw,
        distribution=plan.dist,
        used_distribution=plan.used,
        call_id=call.call_id if call is not None and plan.question else None,
        cum_logp=beam.cum_logp,
        n_decisions=beam.n_decisions,
        n_choices=beam.n_choices,
        score=beam.score(state.config),
    )
    if cand is None:
        return record
    option = cand.option
    return record.model_copy(
        update={
            "chosen": cand.label,
            "is_stop": option is None,
            "chosen_relation": option.relation if option else None,
            "chosen_direction": option.direction if option else None,
            # an unresolved relation move's targets are filled in once the next expansion has read them
            "chosen_target_ids": list(option.target_ids) if option and option.resolved else [],
            "chosen_truncated": bool(option and option.pruned_target_ids),
            "chosen_total": option.count if option and option.pruned_target_ids else None,
            "p": cand.p,
            "step_logp": cand.step_logp,
            "cum_logp": cand.cum_logp,
            "n_decisions": cand.n_decisions,
            "n_choices": cand.n_choices,
            "score": cand.score,
            "confidence": cand.confidence,
        }
    )
