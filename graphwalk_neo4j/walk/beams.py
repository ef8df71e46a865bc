"""Beam state and the pure search steps: candidates from one decision, top-k selection, answer ranking.

* A :class:`Beam` is one partial walk: where it stands, what it visited, its steps, its log-prob and counts.
* A :class:`Candidate` is one possible next step of a beam, already scored (see :mod:`.scoring`).
* :func:`select` keeps the top ``k`` of finished beams plus new candidates by normalised score; the sort is
  stable over (pool order, offer order), so ties break by offer order. Finished beams stay in the pool and
  compete for the k slots (the walk ends when every kept beam has finished).
* :func:`rank_answers` turns ranked paths into answers: grouped by node, best score per node (a path that
  ended on its own beats one that was cut off), votes counted (they decide the order in sample mode).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from graphwalk_neo4j.walk.result import Answer, PathStep, Termination, WalkPath
from graphwalk_neo4j.walk.scoring import min_confidence, normalized_score, step_logp

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from graphwalk_neo4j.walk.config import WalkConfig
    from graphwalk_neo4j.walk.ports import NodeRef, Option
    from graphwalk_neo4j.walk.trace_records import StepKind


@dataclass(frozen=True)
class Beam:
    key: str  # question key at its latest depth (b<i>, or s<i> for sampled walk i)
    start: tuple[NodeRef, ...]
    current: tuple[NodeRef, ...]
    visited: frozenset[str]
    sample: int | None = None
    steps: tuple[PathStep, ...] = ()
    cum_logp: float = 0.0
    n_decisions: int = 0
    n_choices: int = 0
    finished: bool = False
    terminated_by: Termination | None = None
    last_step_id: str | None = None
    confidences: tuple[float | None, ...] = field(default=())
    # An unresolved relation move taken at the last depth: ``current`` is still the frontier it left from, and
    # the engine settles the beam (see :meth:`settle`) once the expander has read the move's targets.
    pending: Option | None = None

    @property
    def hops(self) -> int:
        return sum(1 for s in self.steps if not s.is_stop)

    def score(self, config: WalkConfig) -> float:
        return normalized_score(
            self.cum_logp,
            self.n_decisions,
            n_choices=self.n_choices,
            alpha=config.length_alpha,
            floor=config.prob_floor,
        )

    def settle(self, frontier: Sequence[NodeRef], total: int | None = None, truncated: bool = False) -> Beam:
        """The beam after its pending move reached ``frontier``: that is where it stands, what it visited, and
        the nodes of its last step (with ``truncated``, ``total`` counts the targets the cap left out too)."""
        last = self.steps[-1].model_copy(
            update={"nodes": list(frontier), "truncated": truncated, "total": total if truncated else None}
        )
        return replace(
            self,
            current=tuple(frontier),
            visited=self.visited | {n.id for n in frontier},
            steps=(*self.steps[:-1], last),
            pending=None,
        )

    def to_path(self, config: WalkConfig, terminated_by: Termination | None = None) -> WalkPath:
        ended = terminated_by or self.terminated_by or "max_depth"
        return WalkPath(
            beam=self.key,
            sample=self.sample,
            start=list(self.start),
            steps=list(self.steps),
            end=list(self.current),
            cum_logp=self.cum_logp,
            n_decisions=self.n_decisions,
            n_choices=self.n_choices,
            score=self.score(config),
            finished=self.finished,
            terminated_by=ended,
            min_confidence=min_confidence(self.confidences),
        )


@dataclass(frozen=True)
class Candidate:
    """One scored next step of ``beam`` (``option is None`` means STOP)."""

    beam: Beam
    key: str
    kind: StepKind
    label: str | None
    option: Option | None
    p: float | None
    step_logp: float
    confidence: float | None
    cum_logp: float
    n_decisions: int
    n_choices: int
    score: float

    @property
    def is_stop(self) -> bool:
        return self.option is None

    def child(self, step_id: str, depth: int) -> Beam:
        """The beam after taking this step (``step_id`` is assigned once the step is kept)."""
        parent = self.beam
        step = PathStep(
            step_id=step_id,
            depth=depth,
            kind=self.kind,
            label=self.label,
            is_stop=self.is_stop,
            relation=self.option.relation if self.option else None,
            direction=self.option.direction if self.option else None,
            from_ids=[n.id for n in parent.current],
            from_names=[n.name for n in parent.current],
            nodes=list(self.option.targets) if self.option else [],
            truncated=bool(self.option and self.option.pruned_target_ids),
            total=self.option.count if self.option and self.option.pruned_target_ids else None,
            p=self.p,
            step_logp=self.step_logp,
            cum_logp=self.cum_logp,
            confidence=self.confidence,
        )
        if self.option is None:
            return replace(
                parent,
                key=self.key,
                steps=(*parent.steps, step),
                cum_logp=self.cum_logp,
                n_decisions=self.n_decisions,
                n_choices=self.n_choices,
                finished=True,
                terminated_by="forced_stop" if self.kind == "forced_stop" else "stop",
                last_step_id=step_id,
                confidences=(*parent.confidences, self.confidence),
            )
        targets = self.option.targets
        if not self.option.resolved:  # the expander reads the targets at the next depth (Beam.settle)
            step = step.model_copy(update={"nodes": []})
        return replace(
            parent,
            key=self.key,
            current=tuple(targets) if self.option.resolved else parent.current,
            visited=parent.visited | {t.id for t in targets} if self.option.resolved else parent.visited,
            pending=None if self.option.resolved else self.option,
            steps=(*parent.steps, step),
            cum_logp=self.cum_logp,
            n_decisions=self.n_decisions,
            n_choices=self.n_choices,
            last_step_id=step_id,
            confidences=(*parent.confidences, self.confidence),
        )


def forced_candidate(
    beam: Beam, key: str, kind: StepKind, label: str, option: Option | None, config: WalkConfig
) -> Candidate:
    """A forced move (no decision: nothing added) or a forced STOP (a decision with p = 1)."""
    if kind == "forced_stop":
        n_decisions, p = beam.n_decisions + 1, 1.0
    else:
        n_decisions, p = beam.n_decisions, None
    score = normalized_score(
        beam.cum_logp,
        n_decisions,
        n_choices=beam.n_choices,
        alpha=config.length_alpha,
        floor=config.prob_floor,
    )
    return Candidate(
        beam=beam,
        key=key,
        kind=kind,
        label=label,
        option=option,
        p=p,
        step_logp=0.0,
        confidence=None,
        cum_logp=beam.cum_logp,
        n_decisions=n_decisions,
        n_choices=beam.n_choices,
        score=score,
    )


def decision_candidates(
    beam: Beam,
    key: str,
    labelled: Mapping[str, Option | None],
    probabilities: Mapping[str, float],
    confidence: float | None,
    config: WalkConfig,
    only: str | None = None,
) -> list[Candidate]:
    """One candidate per offered label in offer order (or just ``only``), scored with the floored log-prob."""
    out: list[Candidate] = []
    for label, option in labelled.items():
        if only is not None and label != only:
            continue
        p = probabilities.get(label, 0.0)
        lp = step_logp(p, config.prob_floor)
        cum = beam.cum_logp + lp
        n_dec, n_ch = beam.n_decisions + 1, beam.n_choices + 1
        score = normalized_score(cum, n_dec, n_choices=n_ch, alpha=config.length_alpha, floor=config.prob_floor)
        out.append(
            Candidate(
                beam=beam,
                key=key,
                kind="decision",
                label=label,
                option=option,
                p=p,
                step_logp=lp,
                confidence=confidence,
                cum_logp=cum,
                n_decisions=n_dec,
                n_choices=n_ch,
                score=score,
            )
        )
    return out


def select(
    pool: Sequence[Beam], candidates: Mapping[int, Sequence[Candidate]], k: int, config: WalkConfig
) -> list[Beam | Candidate]:
    """Top ``k`` by normalised score over finished beams (kept as they are) and the candidates of active ones.

    ``candidates`` maps a pool index to that beam's candidates in offer order. The order before the stable
    sort is pool order, then offer order, so equal scores keep it.
    """
    entries: list[tuple[float, Beam | Candidate]] = []
    for i, beam in enumerate(pool):
        if beam.finished:
            entries.append((beam.score(config), beam))
        else:
            entries.extend((c.score, c) for c in candidates.get(i, ()))
    entries.sort(key=lambda e: -e[0])
    return [entry for _, entry in entries[:k]]


def rank_paths(paths: Sequence[WalkPath]) -> list[WalkPath]:
    """Paths that ended on their own first, then by score; stable otherwise."""
    return sorted(paths, key=lambda p: (not p.finished, -p.score))


@dataclass
class _Group:
    node: NodeRef
    path: int
    best: tuple[bool, float]
    first: int
    finished: bool
    votes: int = 1


def rank_answers(paths: Sequence[WalkPath], *, voting: bool) -> list[Answer]:
    """Answers from ranked ``paths``: one per end node, best (finished, score) path per node.

    Order: nodes reached by a finished path first; then by votes (sample voting only); then best score; then
    first appearance.
    """
    groups: dict[str, _Group] = {}
    for index, path in enumerate(paths):
        for node in path.end:
            group = groups.get(node.id)
            if group is None:
                groups[node.id] = _Group(
                    node=node,
                    path=index,
                    best=(path.finished, path.score),
                    first=len(groups),
                    finished=path.finished,
                )
                continue
            group.votes += 1
            group.finished = group.finished or path.finished
            if (path.finished, path.score) > group.best:
                group.best, group.path = (path.finished, path.score), index

    def order(g: _Group) -> tuple[bool, int, float, int]:
        return (not g.finished, -g.votes if voting else 0, -g.best[1], g.first)

    answers: list[Answer] = []
    for rank, g in enumerate(sorted(groups.values(), key=order), start=1):
        best = paths[g.path]
        answers.append(
            Answer(
                node_id=g.node.id,
                name=g.node.name,
                type=g.node.type,
                score=best.score,
                rank=rank,
                votes=g.votes,
                finished=g.finished,
                terminated_by=best.terminated_by,
                n_choices=best.n_choices,
                min_confidence=best.min_confidence,
                path=g.path,
                summary=g.node.summary,
                properties=dict(g.node.properties),
                value=g.node.value,
            )
        )
    return answers
