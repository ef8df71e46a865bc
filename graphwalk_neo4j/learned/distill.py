"""Training data for the learned decider from stored walks (distillation: a local model learns to imitate the
backend that made them, e.g. Jev).

Every stored decision step (``:Step`` with ``kind = "decision"`` and a distribution) of the graph's finished
walks becomes one decision: its :class:`~graphwalk_neo4j.decide.request.DecisionContext` is rebuilt from the
trace (the question, the start entities, the path so far from the chain of parent steps, where the beam stood,
the options as offered, in the stored order) with the entities' types read back from the graph (one round trip
per walk), and its target is the backend's stored distribution (soft targets). Walks split into train / val /
test by their question (:func:`~graphwalk_neo4j.learned.qa.split_of`); ``test`` is left out.

Stored traces cap long lists (20 target ids per option, 50 node ids per step); the model reads counts and types,
not names, so the caps do not change what it sees, except that a type is taken from the first targets only.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.identity import entity_uid
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.learned.fit import Example, fit
from graphwalk_neo4j.learned.inputs import decision_inputs
from graphwalk_neo4j.learned.mining import Decision
from graphwalk_neo4j.learned.qa import TEST_SHARE, VAL_SHARE, split_of
from graphwalk_neo4j.stored_walks.read import get_walk, list_walks
from graphwalk_neo4j.walk import choice_questions
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.ports import NodeRef, Option
from graphwalk_neo4j.walk.result import PathStep

if TYPE_CHECKING:
    from graphwalk_neo4j.progress import Progress
    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.stored_walks.models import StoredStep, StoredWalk


async def _refs(store: GraphStore, graph: str, walk: StoredWalk) -> dict[str, NodeRef]:
    ids: set[str] = set(walk.start_ids)
    for step in walk.steps:
        ids.update(step.node_ids)
        ids.update(step.chosen_target_ids)
        for option in step.options:
            ids.update(option.target_ids)
    uids = [entity_uid(graph, i) for i in sorted(ids)]
    rows = await store.read("graph/entities_by_id", uids=uids, bookkeeping=BOOKKEEPING_TYPES)
    return {r["id"]: NodeRef(id=r["id"], name=r["name"], type=r.get("type")) for r in rows}


def _ref(refs: dict[str, NodeRef], node_id: str, name: str | None = None) -> NodeRef:
    return refs.get(node_id) or NodeRef(id=node_id, name=name or node_id)


def walk_decisions(walk: StoredWalk, refs: dict[str, NodeRef]) -> list[Decision]:
    """The decisions of one stored walk, each with the backend's distribution as its target."""
    by_id = {s.id: s for s in walk.steps}
    config = WalkConfig(hop_mode=walk.hop_mode or "relation")  # type: ignore[arg-type]
    start = [_ref(refs, i, n) for i, n in zip(walk.start_ids, walk.start_names + walk.start_ids, strict=False)]
    out: list[Decision] = []
    for step in walk.steps:
        if step.kind != "decision" or not step.distribution or len(step.options) < 2:
            continue
        chain: list[StoredStep] = []
        parent = by_id.get(step.parent_step_id or "")
        while parent is not None:
            chain.append(parent)
            parent = by_id.get(parent.parent_step_id or "")
        chain.reverse()
        path: list[PathStep] = []
        for hop in chain:
            if hop.is_stop or hop.chosen_relation is None:
                continue
            path.append(
                PathStep(
                    step_id=hop.id,
                    depth=hop.depth,
                    kind="decision",
                    label=hop.chosen,
                    relation=hop.chosen_relation,
                    direction=hop.chosen_direction,  # type: ignore[arg-type]
                    from_ids=list(hop.node_ids),
                    from_names=list(hop.node_names),
                    nodes=[_ref(refs, i) for i in hop.chosen_target_ids],
                )
            )
        current = [_ref(refs, i, n) for i, n in zip(step.node_ids, step.node_names + step.node_ids, strict=False)]
        labelled: list[tuple[str, Option]] = []
        stop_allowed = False
        for option in step.options:
            if option.is_stop:
                stop_allowed = True
                continue
            targets = tuple(
                _ref(refs, i, n)
                for i, n in zip(option.target_ids, option.target_names + option.target_ids, strict=False)
            )
            if not targets:
                continue
            labelled.append(
                (
                    option.label,
                    Option(
                        relation=option.relation or "",
                        direction=option.direction or "out",  # type: ignore[arg-type]
                        targets=targets,
                        total_targets=option.count or len(targets),
                    ),
                )
            )
        if not labelled:
            continue
        context = choice_questions.build_context(
            walk.question,
            current=current,
            start=start,
            steps=path,
            labelled=labelled,
            stop_allowed=stop_allowed,
            config=config,
        )
        if step.n_nodes > len(current):  # the trace keeps 50 node ids; the count is exact
            context = context.model_copy(update={"current_count": step.n_nodes})
        target = [float(step.distribution.get(label, 0.0)) for label in context.labels]
        total = sum(target)
        if total <= 0:
            continue
        out.append(
            Decision(
                qid=walk.id,
                hops=len(path),
                depth=step.depth,
                inputs=decision_inputs(context),
                target=[t / total for t in target],
            )
        )
    return out


async def traces_dataset(
    store: GraphStore, graph: str, *, limit: int = 100_000, model: str | None = None, observe: Progress | None = None
) -> tuple[list[StoredWalk], list[Decision]]:
    """Every finished walk of ``graph`` (only those made by ``model`` when given) and its decisions."""
    listed = [w for w in await list_walks(store, graph, limit=limit) if w.finished and w.status != "error"]
    if model:
        listed = [w for w in listed if (w.model or "") == model]
    walks: list[StoredWalk] = []
    for i, brief in enumerate(listed):
        walks.append(await get_walk(store, graph, brief.id))
        if observe:
            observe.advance("walks", i + 1, len(listed))
    # Walk ids are random: order by what the walks asked, so the same traces give the same training order (and
    # the same model) on every run.
    walks.sort(key=lambda w: (w.question, w.start_ids, w.started_at.isoformat() if w.started_at else "", w.id))
    decisions: list[Decision] = []
    for walk in walks:
        decisions.extend(walk_decisions(walk, await _refs(store, graph, walk)))
    return walks, decisions


async def train_from_traces(
    store: GraphStore,
    graph: str,
    embedder: Any,
    out_dir: str | Path,
    *,
    seed: int = 0,
    model: str | None = None,
    fit_options: Any = None,
    observe: Progress | None = None,
) -> dict[str, Any]:
    """Stored walks -> decisions with soft targets -> a fitted, calibrated artifact in ``out_dir``."""
    started = time.perf_counter()
    walks, decisions = await traces_dataset(store, graph, model=model, observe=observe)
    if not decisions:
        raise InputError(
            f"graph {graph!r} has no stored decision steps"
            f"{f' by model {model!r}' if model else ''}; store some walks first "
            "(every gw-neo4j walk --graph G ... is stored; eval metaqa stores its walks with --store-walks)"
        )
    questions = {w.id: w.question for w in walks}
    splits = {wid: split_of(seed, q) for wid, q in questions.items()}
    train = [Example(d.inputs, d.target, f"depth{d.depth}") for d in decisions if splits[d.qid] == "train"]
    val = [Example(d.inputs, d.target, f"depth{d.depth}") for d in decisions if splits[d.qid] == "val"]
    digest = hashlib.sha256(json.dumps(sorted(questions.items())).encode()).hexdigest()
    meta = {
        "graph": graph,
        "source": "traces",
        "traces": [f"{graph}: {len(walks)} walks"],
        "teacher_models": sorted({w.model or "" for w in walks}),
        "traces_sha256": digest,
        "split": {"seed": seed, "val": VAL_SHARE, "test": TEST_SHARE, "by": "question"},
        "questions": {s: sum(1 for v in splits.values() if v == s) for s in ("train", "val", "test")},
        "walks": len(walks),
    }
    metrics = await fit(train, val, embedder, out_dir, options=fit_options, meta=meta, progress=observe)
    metrics["seconds"]["read_traces"] = round(time.perf_counter() - started - metrics["seconds"]["total"], 1)
    (Path(out_dir) / "metrics.json").write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    return metrics
