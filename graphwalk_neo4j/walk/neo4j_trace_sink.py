"""The Neo4j :class:`~graphwalk_neo4j.walk.ports.TraceSink`: every walk written back as ``:Walk`` / ``:Step`` /
``:Call`` nodes next to the entities it walked (schema: ``docs/walk-schema.md``).

Owns the mapping from trace records to property rows and the three writes, one Cypher round trip each:

* ``start_walk``  -> ``stored_walks/start_walk``: the :Walk (status ``running``), ``-[:STARTED_AT]->`` its start
  entities;
* ``record_depth`` -> ``stored_walks/record_depth``: ONE statement (so one transaction) per depth: the :Call and every
  :Step with ``HAS_STEP`` / ``FIRST_STEP`` / ``NEXT`` / ``AT`` / ``CHOSE`` / ``DECIDED_BY`` / ``HAS_CALL``;
* ``finish_walk`` -> ``stored_walks/finish_walk``: status, stop reason, totals, answers ``-[:ANSWERED]->``.

Everything is MERGEd by id, so a retried transaction writes nothing twice. Rows are built here, before the
transaction opens, in the CPU pool (:mod:`.cpu`); nested data (offered options, distributions, config) travels
as JSON strings, and the parts worth querying without JSON are flattened into parallel lists (``option_labels``,
``option_relations``, ``probs`` ...). Large lists are capped: option targets at :data:`MAX_OPTION_TARGETS`,
AT/CHOSE links and the id lists behind them at :data:`MAX_STEP_LINKS`, answers at :data:`MAX_ANSWERS`; the full
sizes are kept as counts.

Also owns the caption properties that make raw trace queries readable in Neo4j Browser: ``Walk.caption`` (the
question, shortened), ``Step.caption`` (``d1 directed_by ← p .89``) and ``Step.hop`` (``directed_by ← .89``, the
caption the replay recipe gives the hop's virtual relationship). :func:`walk_caption` / :func:`step_captions` work
on stored property maps too, so old traces are backfilled with the same rules (``gw-neo4j walks captions``).
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.graph.identity import entity_uid
from graphwalk_neo4j.identifiers import graph_name
from graphwalk_neo4j.walk.cpu import off_loop

if TYPE_CHECKING:
    from collections.abc import Mapping

    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.walk.result import WalkResult
    from graphwalk_neo4j.walk.trace_records import CallInfo, DepthRecord, StepRecord, WalkMeta

MAX_OPTION_TARGETS = 20  # target ids kept per offered option in Step.options
MAX_STEP_LINKS = 50  # AT / CHOSE relationships (and node_ids / chosen_target_ids) per step
MAX_ANSWERS = 100  # ANSWERED relationships (and answer_names / answer_ids) per walk
MAX_WALK_CAPTION = 60  # characters of the question kept in Walk.caption
MAX_CAPTION_RELATION = 40  # characters of a relation name kept in a caption (the full name stays beside it)
ARROWS = {"out": "→", "in": "←"}


def to_json(value: Any) -> str:
    """Compact JSON, as stored in string properties (``config``, ``options``, distributions)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def short_p(p: float) -> str:
    """``0.89`` -> ``.89``, ``1.0`` -> ``1``: a probability as short as a caption wants it."""
    if p >= 0.995:
        return "1"
    return f"{p:.2f}".removeprefix("0")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def walk_caption(question: str) -> str:
    """``Walk.caption``: the question, cut at :data:`MAX_WALK_CAPTION` characters."""
    return _cut(" ".join(question.split()), MAX_WALK_CAPTION)


def _move(relation: Any, direction: Any) -> str:
    """``directed_by ←``; a relation name over :data:`MAX_CAPTION_RELATION` characters is cut with ``…`` (the
    step keeps the whole name in ``chosen_relation`` / ``option_relations``)."""
    return f"{_cut(str(relation), MAX_CAPTION_RELATION)} {ARROWS.get(str(direction), '–')}"


def step_captions(props: Mapping[str, Any]) -> dict[str, Any]:
    """The caption properties of a :Step, from its other properties (as written, or as stored).

    * ``caption``: ``d1 directed_by ← p .89`` (← : the walk followed the relationship against its direction; a
      beam other than ``b0`` is named, ``d2 b1 …``; a forced step says ``forced``; a step cut by the beam ends in
      ``✗``; a move whose targets the frontier cap truncated says how many it kept of how many,
      ``d1 has_genre ← p .89 · 2,000 of 41,259``);
    * ``hop``: the move alone, ``directed_by ← .89``, or ``None`` when the step moved nowhere (STOP, dead end);
    * ``option_captions``: one per offered option, in option order (``written_by → .05``, ``STOP .10``; ``–``
      without a decision);
    * ``pruned_captions``: one per relation the expander dropped (``release_year → 37 pruned``).
    """
    p = props.get("p")
    forced = props.get("kind") in ("forced_move", "forced_stop") or p is None
    how = "forced" if forced or p is None else f"p {short_p(float(p))}"
    where = f"d{props.get('depth')}"
    if props.get("beam") not in (None, "b0"):
        where += f" {props.get('beam')}"
    hop: str | None = None
    if props.get("kind") == "dead_end" or props.get("chosen") is None:
        caption = f"{where} dead end"
    elif props.get("is_stop"):
        caption = f"{where} STOP {how}"
    else:
        move = _move(props.get("chosen_relation"), props.get("chosen_direction"))
        hop = f"{move} {how.removeprefix('p ')}"
        caption = f"{where} {move} {how}"
        if props.get("truncated"):
            caption += f" · {props.get('n_chosen_targets', 0):,} of {props.get('total') or 0:,}"
    if props.get("kept") is False:
        caption += " ✗"
    probs = list(props.get("probs") or [])
    relations = list(props.get("option_relations") or [])
    directions = list(props.get("option_directions") or [])
    options = []
    for i, relation in enumerate(relations):
        p_i = short_p(float(probs[i])) if i < len(probs) else "–"
        direction = directions[i] if i < len(directions) else ""
        options.append(f"{_move(relation, direction)} {p_i}" if relation else f"STOP {p_i}")
    pruned = props.get("pruned") or []
    if isinstance(pruned, str):
        pruned = json.loads(pruned)
    pruned_captions = [f"{_move(d.get('relation'), d.get('direction'))} {d.get('count', 0)} pruned" for d in pruned]
    return {"caption": caption, "hop": hop, "option_captions": options, "pruned_captions": pruned_captions}


def walk_row(meta: WalkMeta) -> dict[str, Any]:
    """The :Walk properties written when a walk starts."""
    return {
        "id": meta.walk_id,
        "question": meta.question,
        "caption": walk_caption(meta.question),
        "status": "running",
        "strategy": meta.strategy,
        "hop_mode": meta.hop_mode,
        "model": meta.model,
        "config": to_json(meta.config),
        "started_at": meta.started_at,
        "start_ids": list(meta.start_ids),
        "start_names": list(meta.start_names),
    }


def call_row(call: CallInfo, record: DepthRecord, graph: str) -> dict[str, Any]:
    """The :Call properties of one decision request."""
    return {
        "id": call.call_id,
        "graph": graph,
        "walk_id": record.walk_id,
        "depth": record.depth,
        "latency_s": call.latency_s,
        "input_tokens": call.input_tokens,
        "output_tokens": call.output_tokens,
        "cost_usd": call.cost_usd,
        "request_id": call.request_id,
        "model": call.model,
        "provider": call.provider,
        "wire_calls": call.wire_calls,
        "n_questions": call.n_questions,
        "answer_type": to_json(record.answer_type) if record.answer_type is not None else None,
    }


def step_row(step: StepRecord, seq: int, graph: str) -> dict[str, Any]:
    """``{id, parent, call_id, at, chose, props}`` for one step; ``props`` are the :Step properties."""
    offered = [o for o in step.options if not o.is_stop]
    options = [
        {
            "label": o.label,
            "description": o.description,
            "is_stop": o.is_stop,
            "relation": o.relation,
            "direction": o.direction,
            "target_ids": o.target_ids[:MAX_OPTION_TARGETS],
            "target_names": o.target_names[:MAX_OPTION_TARGETS],
            "count": o.count,
            **({"estimated": True} if o.estimated else {}),
        }
        for o in step.options
    ]
    pruned = [
        {"relation": p.relation, "direction": p.direction, "reason": p.reason, "count": len(p.target_ids)}
        for p in step.pruned
    ]
    at = step.node_ids[:MAX_STEP_LINKS]
    chose = step.chosen_target_ids[:MAX_STEP_LINKS]
    props: dict[str, Any] = {
        "id": step.step_id,
        "graph": graph,
        "walk_id": step.walk_id,
        "depth": step.depth,
        "beam": step.beam,
        "seq": seq,
        "decision_id": step.decision_id,
        "parent_step_id": step.parent_step_id,
        "call_id": step.call_id,
        "kind": step.kind,
        "kept": step.kept,
        "node_ids": at,
        "node_names": step.node_names[:MAX_STEP_LINKS],
        "n_nodes": len(step.node_ids),
        "options": to_json(options),
        "option_labels": [o.label for o in step.options],
        "option_relations": [o.relation or "" for o in step.options],
        "option_directions": [o.direction or "" for o in step.options],
        "option_counts": [o.count for o in step.options],
        "pruned": to_json(pruned),
        "pruned_count": max(0, step.total_count - len(offered)),
        "total_count": step.total_count,
        "raw_distribution": to_json(step.raw_distribution),
        "distribution": to_json(step.distribution),
        "used_distribution": to_json(step.used_distribution),
        "probs": [float(step.distribution.get(o.label, 0.0)) for o in step.options] if step.distribution else [],
        "chosen": step.chosen,
        "is_stop": step.is_stop,
        "chosen_relation": step.chosen_relation,
        "chosen_direction": step.chosen_direction,
        "chosen_target_ids": chose,
        "n_chosen_targets": len(step.chosen_target_ids),
        "truncated": step.chosen_truncated,
        "total": step.chosen_total,
        "p": step.p,
        "step_logp": step.step_logp,
        "cum_logp": step.cum_logp,
        "score": step.score,
        "confidence": step.confidence,
        "n_decisions": step.n_decisions,
        "n_choices": step.n_choices,
    }
    props.update(step_captions(props))
    return {
        "id": step.step_id,
        "parent": step.parent_step_id,
        "call_id": step.call_id,
        "at": [entity_uid(graph, i) for i in at],
        "chose": [entity_uid(graph, i) for i in chose],
        "props": props,
    }


def depth_rows(record: DepthRecord, graph: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The :Call rows and :Step rows of one depth (JSON strings and captions: for a 64-beam depth over a hub,
    thousands of options; built in the CPU pool, :mod:`.cpu`)."""
    calls = [call_row(record.call, record, graph)] if record.call is not None else []
    return calls, [step_row(step, seq, graph) for seq, step in enumerate(record.steps)]


def finish_row(result: WalkResult, finished_at: datetime) -> dict[str, Any]:
    """The :Walk properties written when a walk ends (status, totals, answers, best path)."""
    totals = result.totals
    answers = result.answers[:MAX_ANSWERS]
    best = result.best_path
    return {
        "status": result.status,
        "stop_reason": result.stop_reason,
        "finished_at": finished_at,
        "answer_names": [a.name for a in answers],
        "answer_ids": [a.node_id for a in answers],
        "answer_scores": [a.score for a in answers],
        "answer_types": [a.type or "" for a in answers],
        "answer_values": to_json([a.value for a in answers]),
        "n_answers": len(result.answers),
        "best_path": best.describe() if best is not None else None,
        "best_score": answers[0].score if answers else None,
        "n_steps": len(result.steps),
        "depths": totals.depths,
        "decision_calls": totals.decision_calls,
        "decision_requests": totals.decision_requests,
        "questions": totals.questions,
        "expansions": totals.expansions,
        "nodes_read": totals.nodes_read,
        "memory_mb": totals.memory_mb,
        "input_tokens": totals.input_tokens,
        "output_tokens": totals.output_tokens,
        "cost_usd": totals.cost_usd,
        "decision_latency_s": totals.decision_latency_s,
        "wall_s": totals.wall_s,
        "answer_type": to_json(result.answer_type) if result.answer_type is not None else None,
    }


def answer_rows(result: WalkResult, graph: str) -> list[dict[str, Any]]:
    return [
        {
            "uid": entity_uid(graph, a.node_id),
            "rank": a.rank,
            "score": a.score,
            "votes": a.votes,
            "terminated_by": a.terminated_by,
        }
        for a in result.answers[:MAX_ANSWERS]
    ]


class Neo4jTraceSink:
    """Writes the walks of graph ``graph`` into Neo4j through ``store``; one round trip per call.

    ``write_seconds`` keeps the wall time of every write by kind (``start``, ``depth``, ``finish``) so callers
    and benchmarks can see what tracing costs.
    """

    def __init__(self, store: GraphStore, graph: str) -> None:
        self.store = store
        self.graph = graph_name(graph)
        self.write_seconds: dict[str, list[float]] = {"start": [], "depth": [], "finish": []}

    async def start_walk(self, meta: WalkMeta) -> None:
        started = time.perf_counter()
        walk = walk_row(meta)
        await self.store.write(
            "stored_walks/start_walk",
            graph=self.graph,
            walk=walk,
            start_uids=[entity_uid(self.graph, i) for i in walk["start_ids"]],
        )
        self.write_seconds["start"].append(time.perf_counter() - started)

    async def record_depth(self, record: DepthRecord) -> None:
        started = time.perf_counter()
        calls, steps = await off_loop(depth_rows, record, self.graph)
        await self.store.write(
            "stored_walks/record_depth", graph=self.graph, walk_id=record.walk_id, calls=calls, steps=steps
        )
        self.write_seconds["depth"].append(time.perf_counter() - started)

    async def finish_walk(self, result: WalkResult) -> None:
        started = time.perf_counter()
        await self.store.write(
            "stored_walks/finish_walk",
            graph=self.graph,
            walk_id=result.walk_id,
            props=await off_loop(finish_row, result, datetime.now(UTC)),
            answers=answer_rows(result, self.graph),
        )
        self.write_seconds["finish"].append(time.perf_counter() - started)
