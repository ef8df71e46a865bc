"""The path ceiling: what an oracle that follows each question's gold relation path over THIS graph answers.

The gold path comes from the question type (:func:`~graphwalk_neo4j.eval.metaqa.qtype_path`); it is followed in
Neo4j with ``eval/follow_relation``, one round trip per hop for a whole batch of questions, with the same
topic rule as the in-memory reference :func:`~graphwalk_neo4j.eval.metaqa.follow_path` (on paths of two or
more hops the topic entity is dropped after every hop). Scoring the ceiling's answer set against gold gives
the best any system can score on this graph (the MetaQA KB here is ~97% of the original, so 2- and 3-hop
ceilings are below 1).

Only the oracle reads question types; systems under test never do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from graphwalk_neo4j.eval.metaqa import MetaQAQuestion, qtype_path
from graphwalk_neo4j.eval.metrics import score_answers
from graphwalk_neo4j.graph.identity import entity_id, entity_uid
from graphwalk_neo4j.qa_format import answer_set

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.store import GraphStore

BATCH = 250


class CeilingAnswer(BaseModel):
    """The oracle's answer set for one question and its scores against gold."""

    question_id: str
    qtype: str
    answers: list[str]
    hits_at_1: float
    exact_match: float
    f1: float
    reachable: bool  # every gold answer is in the oracle's set


async def follow_paths(store: GraphStore, graph: str, questions: Sequence[MetaQAQuestion]) -> dict[str, list[str]]:
    """Question id -> names reached by following its gold path (sorted). Questions without a qtype are left out."""
    out: dict[str, list[str]] = {}
    typed = [q for q in questions if q.qtype]
    for start in range(0, len(typed), BATCH):
        batch = typed[start : start + BATCH]
        paths = {q.id: qtype_path(q.qtype or "") for q in batch}
        topic_ids = {q.id: entity_id(q.topic) for q in batch}
        frontier: dict[str, list[str]] = {q.id: [topic_ids[q.id]] for q in batch}
        names: dict[str, list[str]] = {q.id: [] for q in batch}
        for hop in range(max(len(p) for p in paths.values())):
            rows: list[dict[str, Any]] = []
            for q in batch:
                path = paths[q.id]
                if hop >= len(path) or not frontier[q.id]:
                    continue
                exclude = [topic_ids[q.id]] if len(path) >= 2 else []
                rows.append(
                    {
                        "key": q.id,
                        "uids": [entity_uid(graph, i) for i in frontier[q.id]],
                        "relation": path[hop].relation,
                        "direction": path[hop].direction,
                        "exclude": exclude,
                    }
                )
            if not rows:
                break
            found = {r["key"]: r for r in await store.read("eval/follow_relation", graph=graph, rows=rows)}
            for row in rows:
                key = str(row["key"])
                hit = found.get(key)
                frontier[key] = list(hit["ids"]) if hit else []
                names[key] = list(hit["names"]) if hit else []
        for q in batch:
            out[q.id] = sorted(names[q.id]) if frontier[q.id] else []
    return out


async def ceiling_answers(store: GraphStore, graph: str, questions: Sequence[MetaQAQuestion]) -> list[CeilingAnswer]:
    """Score the oracle's answer set of every question that has a qtype."""
    reached = await follow_paths(store, graph, questions)
    results = []
    for q in questions:
        if q.id not in reached:
            continue
        answers = reached[q.id]
        scores = score_answers(answers, q.answers)
        # An oracle ranks nothing, so its hits@1 is whether any gold answer is in its set.
        found, gold = answer_set(answers), answer_set(q.answers)
        results.append(
            CeilingAnswer(
                question_id=q.id,
                qtype=q.qtype or "",
                answers=answers,
                hits_at_1=1.0 if found & gold else 0.0,
                exact_match=scores.exact_match,
                f1=scores.f1,
                reachable=gold <= found,
            )
        )
    return results
