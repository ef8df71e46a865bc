"""The walk engine: search over decision distributions, one expander round trip and one decision request per
depth.

``WalkEngine(expander, backend, trace_sink, config).run(question, start_ids)`` owns the search loop only;
graph access is the :class:`~.ports.Expander`'s job, wording is :mod:`.choice_questions`', numbers are :mod:`.scoring`
/ :mod:`.sampling`'s, beam bookkeeping is :mod:`.beams`'. Per depth, for every active beam:

* no legal option and STOP allowed -> forced STOP (a decision with p = 1, no call);
* no legal option and STOP not allowed (still at the start) -> dead end, the beam is dropped;
* one legal option and STOP not allowed -> forced move (no decision, no call);
* otherwise one choice question. All questions of the depth go in ONE request.

Greedy is beam search with k = 1 (argmax, ties by offer order); beam keeps the top k of finished beams and new
candidates; sample runs ``n_samples`` independent walks, each drawing from its tempered / top-p distribution
with its own seeded generator, and ranks answers by votes. STOP is allowed from the first hop on (and at the
start only with ``allow_stop_at_start``). Budgets abort with the best partial answers (``status="budget"``):
the decision budgets before a request; the work budget (nodes read, memory estimate; :class:`~.config.Budget`)
before an expansion that would pass it (forecast from the widest request so far) and after each one, and each
request gets its share of the nodes left as its frontier cap. A walk given a ``deadline`` checks it before
every depth and bounds each depth's expansion and decision by it, so it stops within a depth of it (status
``budget``, reason ``deadline: ...``). A decider or store failure returns ``status="error"`` with what was found
so far. Every CPU-heavy pure step runs in the shared CPU pool (:mod:`.cpu`), never on the event loop.
"""

from __future__ import annotations

import asyncio
import time
import traceback
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from graphwalk_neo4j.errors import (
    ConfigError,
    DecisionError,
    DecisionResponseError,
    ExpanderContractError,
    StoreError,
)
from graphwalk_neo4j.faults import pause_point
from graphwalk_neo4j.walk import choice_questions
from graphwalk_neo4j.walk.beams import Beam, Candidate, decision_candidates, forced_candidate, select
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.cpu import off_loop, walk_deadline
from graphwalk_neo4j.walk.ports import (
    Expander,
    ExpandRequest,
    Expansion,
    Move,
    NodeRef,
    Option,
)
from graphwalk_neo4j.walk.result import Answer, DepthEvent, Status, WalkResult
from graphwalk_neo4j.walk.sampling import adjust, draw, walk_rng
from graphwalk_neo4j.walk.scoring import confidence as choice_confidence
from graphwalk_neo4j.walk.state import Plan, WalkState, step_record
from graphwalk_neo4j.walk.trace_records import CallInfo, DepthRecord, StepKind, StepRecord, WalkMeta
from graphwalk_neo4j.walk.trace_sinks import NullTraceSink, OrderedTraceWriter

if TYPE_CHECKING:
    import numpy as np

    from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionBackend, DecisionResponse
    from graphwalk_neo4j.walk.ports import TraceSink

DepthObserver = Callable[[DepthEvent], None]
WORK_BUDGET = ("max_nodes_read", "max_memory_mb")  # the stop reasons of the work budget
INTERRUPT_WRITE_S = 5.0  # how long an interrupted walk may take to store its `interrupted` status


T = TypeVar("T")
PENDING_READ_GRACE_S = 2.0  # after the deadline: how long reading the best beam's unresolved move may take


class _DeadlineHit(Exception):
    """The walk's deadline passed (raised inside the search, turned into status ``budget``)."""


def release_cut_frames(exc: BaseException) -> None:
    """Clear the finished frames in the tracebacks of ``exc`` and the errors it came from. The driver keeps the
    ``CancelledError`` that cut a read on its transaction and result objects, and that error's traceback holds
    the cancelled step's frames, whose locals hold the walk (its state, every beam): a reference cycle that
    only a full collection frees (``gw-neo4j serve`` runs one when idle: 0.28 s holding the interpreter lock
    for a burst of 16 walks cut at their deadline). Without those locals the walk goes by reference counting
    when it ends. Frames still running are left alone (``traceback.clear_frames`` skips them)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        traceback.clear_frames(current.__traceback__)
        current = current.__cause__ or current.__context__


class WalkEngine:
    """Walks from start nodes to answers. Stateless between runs; concurrent runs are fine."""

    def __init__(
        self,
        expander: Expander,
        backend: DecisionBackend,
        trace_sink: TraceSink | None = None,
        config: WalkConfig | None = None,
    ) -> None:
        self.expander = expander
        self.backend = backend
        self.trace_sink: TraceSink = trace_sink or NullTraceSink()
        self.config = config or WalkConfig()
        cap = backend.max_options - 1  # one slot for STOP
        if cap < 1:
            raise ConfigError(f"backend {backend.model_id!r} offers max_options={backend.max_options}; need >= 2")
        if self.config.prefilter_keep > cap:
            raise ConfigError(
                f"prefilter_keep={self.config.prefilter_keep} exceeds what {backend.model_id!r} "
                f"accepts per question ({cap} options plus STOP)"
            )
        self.option_limit = min(self.config.max_neighbors, cap)

    async def run(
        self,
        question: str,
        start_ids: Sequence[str | NodeRef],
        *,
        start_names: Mapping[str, str] | Sequence[str] | None = None,
        start_types: Mapping[str, str] | None = None,
        answer_types: Sequence[str] | None = None,
        walk_id: str | None = None,
        on_depth: DepthObserver | None = None,
        deadline: float | None = None,
    ) -> WalkResult:
        """Walk from ``start_ids`` toward the answer to ``question``.

        ``start_ids`` are node ids or full :class:`NodeRef` s (with name and type, as entity linking returns
        them). ``start_names`` / ``start_types`` name and type plain ids (``start_names`` may also be a list in
        ``start_ids`` order). ``answer_types`` are the graph's node types for the answer-type hint
        (``config.answer_type="hint"``; needs at least two). ``on_depth`` is called synchronously after every
        depth with a :class:`DepthEvent` (for streaming a walk as it happens); it must return quickly and must not
        raise. ``deadline`` (a :func:`time.monotonic` time; a service's request deadline less the time it needs to
        answer) is checked before every depth and bounds its expansion and its decision: past it, the walk stops
        with its best partial answers, status ``budget`` and a ``deadline: ...`` reason.
        """
        ids = [s.id if isinstance(s, NodeRef) else s for s in start_ids]
        if isinstance(start_names, Mapping) or start_names is None:
            names = dict(start_names or {})
        else:
            names = dict(zip(ids, start_names, strict=False))
        types = dict(start_types or {})
        start: dict[str, NodeRef] = {}
        for item in start_ids:
            node = item if isinstance(item, NodeRef) else NodeRef(id=item, name=item)
            update = {k: v for k, v in (("name", names.get(node.id)), ("type", types.get(node.id))) if v}
            start.setdefault(node.id, node.model_copy(update=update) if update else node)
        walk = _Walk(self, question, list(start.values()), list(answer_types or ()), walk_id or uuid.uuid4().hex)
        walk.on_depth = on_depth
        walk.deadline = deadline
        with walk_deadline(deadline):  # its CPU steps queue by it (and its trace writes', started from here)
            return await walk.run()


def _move(option: Option | None) -> Move | None:
    return None if option is None else Move(relation=option.relation, direction=option.direction)


class _Walk:
    """One run's mutable state and loop."""

    def __init__(
        self, engine: WalkEngine, question: str, start: list[NodeRef], answer_types: list[str], walk_id: str
    ) -> None:
        self.engine = engine
        self.config = engine.config
        self.question = question
        self.state = WalkState(walk_id=walk_id, config=engine.config, model=engine.backend.model_id)
        self.start = start
        self.answer_type_q = (
            choice_questions.answer_type_question(answer_types, engine.backend.max_options)
            if self.config.answer_type == "hint"
            else None
        )
        self.hint: str | None = None
        self.answer_type_depth: int | None = None
        self.writer = OrderedTraceWriter(engine.trace_sink)
        self.rngs: dict[int, np.random.Generator] = {}
        self.on_depth: DepthObserver | None = None
        self.held: DepthRecord | None = None  # a depth whose chosen relation moves are not read yet
        self.deadline: float | None = None
        self.started = time.monotonic()

    async def run(self) -> WalkResult:
        t0 = time.perf_counter()
        cfg = self.config
        self.writer.start(
            WalkMeta(
                walk_id=self.state.walk_id,
                question=self.question,
                start_ids=[n.id for n in self.start],
                start_names=[n.name for n in self.start],
                strategy=cfg.strategy,
                hop_mode=cfg.hop_mode,
                model=self.state.model,
                config=cfg.model_dump(mode="json"),
                started_at=datetime.now(UTC),
            )
        )
        try:
            status, reason = await self._search() if self.start else ("no_start", "no start node given")
            if reason.startswith((*WORK_BUDGET, "deadline")):
                self._keep_best_pending()
            if any(b.pending is not None for b in self.state.pool):
                pending = {i: b.key for i, b in enumerate(self.state.pool) if b.pending is not None}
                try:  # the walk ended right after an unresolved move: read where it went (answers need it)
                    if reason.startswith("deadline"):  # briefly: the walk's time is up
                        await asyncio.wait_for(self._expand(pending, moves=False), PENDING_READ_GRACE_S)
                    else:
                        await self._expand(pending, moves=False)
                except TimeoutError as cut:  # not read in time: that beam's answers are unknown, so it is dropped
                    release_cut_frames(cut)
                    self.state.pool = [b for b in self.state.pool if b.pending is None]
                except StoreError as exc:
                    self.state.pool = [
                        replace(b, current=(), pending=None) if b.pending else b for b in self.state.pool
                    ]
                    if status != "error":
                        status, reason = "error", f"expander_error: {exc}"
            self._flush()
            wall = time.perf_counter() - t0
            with walk_deadline(time.monotonic()):  # the search is over: its last steps go before newer walks' work
                result = await off_loop(self.state.result, self.question, status, reason, wall)
                await self.writer.finish(result)
            return result
        except (asyncio.CancelledError, KeyboardInterrupt) as exc:
            # Ctrl-C / SIGTERM (the CLI turns both into a cancellation): close the stored walk as
            # `interrupted` instead of leaving it `running` forever, then let the interruption go on.
            reason = "interrupted: " + ("cancelled" if isinstance(exc, asyncio.CancelledError) else "Ctrl-C")
            partial = self.state.result(self.question, "interrupted", reason, time.perf_counter() - t0)
            await self.writer.close_interrupted(partial, timeout_s=INTERRUPT_WRITE_S)
            raise
        except BaseException:
            self.writer.cancel()
            raise

    def _keep_best_pending(self) -> None:
        """After a work-budget stop, read only the best beam's pending move (the pool is in rank order): reading
        every beam's would be the work the budget refused. The other unresolved beams are dropped, since they
        stand on the frontier they left from, which is not where their move went."""
        pending = [b for b in self.state.pool if b.pending is not None]
        if len(pending) > 1:
            self.state.pool = [b for b in self.state.pool if b.pending is None or b is pending[0]]

    def _initial_pool(self) -> list[Beam]:
        cfg = self.config
        if cfg.strategy == "sample":
            walks = []
            for i in range(cfg.n_samples):
                self.rngs[i] = walk_rng(cfg.seed, self.question, i)
                first = self.start if cfg.hop_mode == "relation" else [self.start[i % len(self.start)]]
                walks.append(
                    Beam(
                        key=f"s{i}",
                        start=tuple(first),
                        current=tuple(first),
                        visited=frozenset(n.id for n in first),
                        sample=i,
                    )
                )
            return walks
        if cfg.hop_mode == "relation":
            return [
                Beam(
                    key="b0",
                    start=tuple(self.start),
                    current=tuple(self.start),
                    visited=frozenset(n.id for n in self.start),
                )
            ]
        return [
            Beam(key=f"b{i}", start=(n,), current=(n,), visited=frozenset({n.id})) for i, n in enumerate(self.start)
        ]

    async def _search(self) -> tuple[Status, str]:
        cfg, state = self.config, self.state
        state.pool = self._initial_pool()
        for depth in range(1, cfg.max_depth + 1):
            await pause_point("walk.depth")  # a test hook (graphwalk_neo4j.faults); nothing unless asked for
            active = [i for i, b in enumerate(state.pool) if not b.finished]
            if not active:
                break
            depth_started = time.perf_counter()
            keys = {i: (state.pool[i].key if cfg.strategy == "sample" else f"b{n}") for n, i in enumerate(active)}
            work = state.forecast_reason(len(keys), sum(1 for i in keys if state.pool[i].pending is not None))
            if work:
                return "budget", work
            try:
                expansions = await self._bounded(self._expand(keys))
            except StoreError as exc:
                return "error", f"expander_error: {exc}"
            except _DeadlineHit:
                return "budget", self._deadline_reason(depth, "reading its options")
            work = state.work_reason()
            if work:
                return "budget", work
            plans = await off_loop(self._plan_depth, active, keys, expansions)
            call: CallInfo | None = None
            questions = [p.question for p in plans if p.question is not None]
            if questions:
                reason = state.budget_reason()
                if reason:
                    return "budget", reason
                try:
                    call = await self._bounded(self._decide(plans, questions, depth))
                except DecisionError as exc:
                    return "error", f"decision_error: {exc}"
                except _DeadlineHit:
                    return "budget", self._deadline_reason(depth, "waiting for its decision")
            record, answers = await off_loop(self._advance, plans, depth, call)
            self._write(record)
            if self.on_depth is not None:
                self.on_depth(
                    DepthEvent(
                        walk_id=state.walk_id,
                        depth=depth,
                        record=record,
                        seconds=time.perf_counter() - depth_started,
                        answers=answers or [],
                    )
                )
            if not state.pool:
                break
        if not state.pool and not state.finished:
            return "dead_end", "dead_end: no walk could leave its start node"
        open_beams = [b for b in state.pool if not b.finished]
        if open_beams and state.finished and state.answers_with_best_path:
            # the walk answers with its best stopped path's set: the open ones are alternatives cut at the depth
            # limit, not an answer left unfinished
            return "ok", (
                f"stop: a kept walk stopped; {len(open_beams)} other walk(s) still open at max_depth "
                f"{cfg.max_depth} were cut"
            )
        if open_beams:
            return "budget", (
                f"max_depth: {cfg.max_depth} decision depths reached with {len(open_beams)} walk(s) still open"
            )
        return "ok", "stop: every kept walk stopped"

    async def _bounded(self, work: Awaitable[T]) -> T:
        """``work`` (one long step of a depth: its expansion, its decision) within the walk's deadline;
        :class:`_DeadlineHit` when the deadline passes first (the step is cancelled)."""
        if self.deadline is None:
            return await work
        left = self.deadline - time.monotonic()
        if left <= 0:
            if asyncio.iscoroutine(work):
                work.close()
            raise _DeadlineHit
        try:
            return await asyncio.wait_for(work, left)
        except TimeoutError as cut:
            if time.monotonic() < self.deadline:  # the step's own timeout, not the deadline
                raise
            release_cut_frames(cut)
            raise _DeadlineHit from None

    def _deadline_reason(self, depth: int, doing: str) -> str:
        return (
            f"deadline: the walk's time ran out after {time.monotonic() - self.started:.1f} s, at depth {depth} "
            f"while {doing}"
        )

    async def _expand(self, keys: Mapping[int, str], moves: bool = True) -> dict[str, Expansion]:
        """One expander call for the beams ``keys`` (pool index -> request key). Beams with a pending relation
        move ask for it to be read first; they are settled on the frontier it reached before anything else
        looks at them. Building the requests and taking in the answers run in the CPU pool (a hub's visited
        set and frontiers hold thousands of ids)."""
        requests = await off_loop(self._expand_requests, keys, moves)
        await pause_point("walk.expand")  # a test hook: a long expansion (a cancellation or the deadline ends it)
        expansions = await self.engine.expander.expand(requests)
        by_key = await off_loop(self._take_expansions, keys, requests, expansions)
        self._flush()
        return by_key

    def _expand_requests(self, keys: Mapping[int, str], moves: bool) -> list[ExpandRequest]:
        cfg, pool = self.config, self.state.pool
        share = self.state.frontier_share(len(keys))
        return [
            ExpandRequest(
                beam_key=key,
                hop_mode=cfg.hop_mode,
                node_ids=tuple(n.id for n in pool[i].current),
                exclude_ids=tuple(sorted(self._excluded(pool[i]))),
                direction=cfg.direction,
                limit=self.engine.option_limit,
                keep=cfg.prefilter_keep,
                max_frontier=share,
                query=self.question,
                follow=_move(pool[i].pending),
                moves=moves,
            )
            for i, key in keys.items()
        ]

    def _take_expansions(
        self, keys: Mapping[int, str], requests: Sequence[ExpandRequest], expansions: Sequence[Expansion]
    ) -> dict[str, Expansion]:
        pool = self.state.pool
        self.state.totals.expansions += 1
        self.state.record_read(expansions)
        by_key = {e.beam_key: e for e in expansions}
        missing = [k for k in keys.values() if k not in by_key]
        if missing or len(expansions) != len(requests):
            raise ExpanderContractError(
                f"expander answered {len(expansions)} of {len(requests)} requests (missing beams: {missing})"
            )
        settled: dict[str, dict[str, Any]] = {}
        for i, key in keys.items():
            beam = pool[i]
            if beam.pending is None:
                continue
            reached = by_key[key]
            frontier = reached.frontier
            if frontier is None:
                raise ExpanderContractError(f"expander did not read the pending move of beam {key}")
            pool[i] = beam.settle(frontier, reached.frontier_total, reached.frontier_truncated)
            if beam.last_step_id is not None:
                settled[beam.last_step_id] = {
                    "chosen_target_ids": [n.id for n in frontier],
                    "chosen_truncated": reached.frontier_truncated,
                    "chosen_total": reached.frontier_total if reached.frontier_truncated else None,
                }
        if settled:
            self._settle_records(settled)
        return by_key

    def _settle_records(self, targets: Mapping[str, Mapping[str, Any]]) -> None:
        """Put the targets the expander just read (ids, and whether the cap truncated them) into the held depth
        record (and the walk's step list)."""
        for index, record in enumerate(self.state.steps):
            if record.step_id in targets:
                self.state.steps[index] = record.model_copy(update=targets[record.step_id])
        if self.held is not None:
            steps = [r.model_copy(update=targets[r.step_id]) if r.step_id in targets else r for r in self.held.steps]
            self.held = self.held.model_copy(update={"steps": steps})

    def _flush(self) -> None:
        if self.held is not None:
            self.writer.depth(self.held)
            self.held = None

    def _excluded(self, beam: Beam) -> frozenset[str]:
        """The nodes later hops may not reach (``exclude_visited`` and ``exclude_scope``)."""
        if not self.config.exclude_visited:
            return frozenset()
        if self.config.exclude_scope == "start":
            return frozenset(n.id for n in beam.start)
        return beam.visited

    def _legal(self, beam: Beam, expansion: Expansion) -> list[Option]:
        excluded = self._excluded(beam)
        legal: list[Option] = []
        for option in expansion.options:
            if self.config.hop_mode == "entity":
                if len(option.targets) != 1:
                    raise ExpanderContractError(
                        f"entity-mode option {option.relation!r} for beam "
                        f"{expansion.beam_key} has {len(option.targets)} targets, need 1"
                    )
                if option.target.id not in excluded:
                    legal.append(option)
                continue
            kept = tuple(t for t in option.targets if t.id not in excluded)
            if kept or not option.resolved:
                legal.append(
                    option if len(kept) == len(option.targets) else option.model_copy(update={"targets": kept})
                )
        return legal

    def _goes_back(self, beam: Beam, option: Option) -> bool:
        """Whether ``option`` only brings ``beam`` back to a frontier it stood on, whole (a capped one is not all its
        move reached; an unresolved option's targets are a sample): by the move that reached it, made again
        (``born_in``, the people born there, ``born_in``: the first city again), or by undoing the move that left
        it (suppliers, ``SUPPLIES`` their products, the suppliers of those: the same suppliers). Another relation
        may land on an earlier frontier and be the answer: the director of [X] also wrote the films he directed."""
        same = [s for s in beam.steps if not s.is_stop and not s.truncated and s.relation == option.relation]
        if not option.resolved or not same:
            return False
        reached = frozenset(t.id for t in option.targets)  # read only for a move along a relation taken before
        return any(
            reached == frozenset(n.id for n in step.nodes)  # the move made again
            if step.direction == option.direction
            else reached == frozenset(step.from_ids)  # the move undone
            for step in same
        )

    def _plan_depth(
        self, active: list[int], keys: Mapping[int, str], expansions: Mapping[str, Expansion]
    ) -> list[Plan]:
        return [self._plan(i, keys[i], expansions[keys[i]]) for i in active]

    def _plan(self, index: int, key: str, expansion: Expansion) -> Plan:
        cfg, beam = self.config, self.state.pool[index]
        options = self._legal(beam, expansion)
        stop_allowed = cfg.allow_stop_at_start or beam.hops > 0
        fit = self.engine.backend.max_options - (1 if stop_allowed else 0)
        if len(options) > fit:
            raise ExpanderContractError(
                f"expander offered {len(options)} options for beam {key}, but "
                f"{self.engine.backend.model_id!r} takes {fit} plus STOP; the expander "
                f"must cap at limit={self.engine.option_limit}"
            )
        labels = choice_questions.option_labels(options, cfg)
        labelled: dict[str, Option | None] = dict(zip(labels, options, strict=True))
        if not options:
            kind: StepKind = "forced_stop" if stop_allowed else "dead_end"
            return Plan(index, key, beam, kind, expansion, {choice_questions.STOP: None} if stop_allowed else {})
        if len(options) == 1 and not stop_allowed:
            return Plan(index, key, beam, "forced_move", expansion, labelled)
        question, labelled = choice_questions.build_question(
            key,
            current=beam.current,
            start=beam.start,
            steps=beam.steps,
            options=options,
            stop_allowed=stop_allowed,
            config=cfg,
            answer_type_hint=self.hint,
            question=self.question,
        )
        return Plan(index, key, beam, "decision", expansion, labelled, question)

    async def _decide(self, plans: list[Plan], questions: list[ChoiceQuestion], depth: int) -> CallInfo:
        backend = self.engine.backend
        asked_type = self.answer_type_q is not None
        if self.answer_type_q is not None:
            questions = [self.answer_type_q, *questions]
            self.answer_type_q = None  # asked once, in the first call
        request = await off_loop(choice_questions.build_request, self.question, questions)
        response: DecisionResponse = await backend.decide(request)
        return await off_loop(self._take_answers, plans, questions, response, asked_type, depth)

    def _take_answers(
        self,
        plans: list[Plan],
        questions: list[ChoiceQuestion],
        response: DecisionResponse,
        asked_type: bool,
        depth: int,
    ) -> CallInfo:
        state = self.state
        call = state.record_call(response, len(questions))
        for plan in plans:
            if plan.question is None:
                continue
            result = response.results.get(plan.key)
            if result is None:
                raise DecisionResponseError(f"no answer for question {plan.key!r}")
            unknown = [label for label in result.probabilities if label not in plan.labelled]
            if unknown:
                raise DecisionResponseError(f"answer for {plan.key!r} has labels it was not offered: {unknown}")
            plan.raw = dict(result.raw_probabilities or result.probabilities)
            plan.dist = {label: float(result.probabilities.get(label, 0.0)) for label in plan.labelled}
            plan.used = (
                adjust(plan.dist, self.config.temperature, self.config.top_p)
                if self.config.strategy == "sample"
                else dict(plan.dist)
            )
            conf = result.confidence if result.confidence is not None else choice_confidence(list(plan.dist.values()))
            plan.confidence = conf
        if asked_type:
            self.answer_type_depth = depth
            typed = response.results.get(choice_questions.ANSWER_TYPE_KEY)
            if typed is not None and typed.probabilities:
                state.answer_type = dict(typed.probabilities)
                self.hint = max(typed.probabilities, key=lambda k: typed.probabilities[k])
        return call

    def _candidates(self, plan: Plan) -> list[Candidate]:
        cfg = self.config
        if plan.kind == "dead_end":
            return []
        if plan.kind in ("forced_stop", "forced_move"):
            label, option = next(iter(plan.labelled.items()))
            return [forced_candidate(plan.beam, plan.key, plan.kind, label, option, cfg)]
        only = None
        if cfg.strategy == "sample":
            sample = plan.beam.sample if plan.beam.sample is not None else 0
            only = draw(plan.used, self.rngs[sample])
        candidates = decision_candidates(plan.beam, plan.key, plan.labelled, plan.dist, plan.confidence, cfg, only=only)
        if only is not None or not cfg.exclude_visited:
            return candidates
        # with exclude_visited, a greedy or beam walk never takes a move back onto a frontier it stood on; the move
        # is still offered, so the decider's probabilities over the others are what it said
        return [c for c in candidates if c.option is None or not self._goes_back(plan.beam, c.option)]

    def _advance(self, plans: list[Plan], depth: int, call: CallInfo | None) -> tuple[DepthRecord, list[Answer] | None]:
        """Score every candidate, keep the survivors, build the depth record (in the CPU pool; :meth:`_write`
        writes it); with a depth observer, also the answers so far."""
        state, cfg = self.state, self.config
        by_key = {p.key: p for p in plans}
        candidates = {p.index: self._candidates(p) for p in plans}
        if cfg.strategy == "sample":
            chosen: list[Beam | Candidate] = []
            for i, beam in enumerate(state.pool):
                chosen.extend([beam] if beam.finished else candidates[i])
        else:
            chosen = select(state.pool, candidates, cfg.width, cfg)
        records: list[StepRecord] = []
        new_pool: list[Beam] = []
        kept_plans: set[int] = set()
        for entry in chosen:
            if isinstance(entry, Beam):
                new_pool.append(entry)
                continue
            step_id = f"{state.walk_id}/d{depth}/{len(records)}"
            child = entry.child(step_id, depth)
            new_pool.append(child)
            if child.finished:
                state.finished.append(child)
            plan = by_key[entry.key]
            kept_plans.add(plan.index)
            records.append(step_record(state, plan, entry, step_id, depth, call, kept=True))
        for plan in plans:
            if plan.index in kept_plans:
                continue
            step_id = f"{state.walk_id}/d{depth}/{len(records)}"
            best = max(candidates[plan.index], key=lambda c: c.score, default=None)
            records.append(step_record(state, plan, best, step_id, depth, call, kept=False))
        state.pool = new_pool
        state.totals.depths = depth
        state.steps.extend(records)
        answer_type = state.answer_type if self.answer_type_depth == depth else None
        record = DepthRecord(walk_id=state.walk_id, depth=depth, call=call, steps=records, answer_type=answer_type)
        return record, (state.answers_so_far() if self.on_depth is not None else None)

    def _write(self, record: DepthRecord) -> None:
        """Hand a depth record to the trace writer (on the loop: the writer chains tasks)."""
        self._flush()
        if any(b.pending is not None for b in self.state.pool):
            self.held = record  # written once the next expansion has read the moves' targets
        else:
            self.writer.depth(record)
