"""Read access to stored walks: :func:`list_walks` and :func:`get_walk`, one read round trip each, returning the
typed models of :mod:`graphwalk_neo4j.trace.models`.

Also owns :func:`replay_snippet`, the ready-to-paste Browser commands that replay one walk with the
``recipes/replay_walk`` recipe. A missing walk raises :class:`~graphwalk_neo4j.errors.WalkNotFoundError`.
"""

from __future__ import annotations

import json

from graphwalk_neo4j.errors import WalkNotFoundError
from graphwalk_neo4j.store import GraphStore, template
from graphwalk_neo4j.trace.models import StoredAnswer, StoredCall, StoredStep, StoredWalk

REPLAY_RECIPE = "recipes/replay_walk"


async def list_walks(
    store: GraphStore, graph: str, limit: int = 20, status: str | None = None
) -> list[StoredWalk]:
    """The walks of ``graph``, newest first (``status`` keeps only walks with that status). Steps, calls and
    answers are left empty; ``answer_names``, ``best_path`` and the totals are filled."""
    if limit < 1:
        return []
    rows = await store.read("trace/list_walks", graph=graph, status=status, limit=limit)
    return [StoredWalk.from_props(r["walk"]) for r in rows]


async def get_walk(store: GraphStore, graph: str, walk_id: str) -> StoredWalk:
    """The walk ``walk_id`` of ``graph`` with its steps (by depth, beam, position), calls and answers.

    Raises :class:`WalkNotFoundError` when there is none.
    """
    rows = await store.read("trace/get_walk", graph=graph, walk_id=walk_id)
    if not rows:
        raise WalkNotFoundError(
            f"no stored walk {walk_id!r} in graph {graph!r}; list them with `gw-neo4j trace list --graph {graph}`"
        )
    row = rows[0]
    return StoredWalk.from_props(
        row["walk"],
        steps=[StoredStep.model_validate(s) for s in row["steps"]],
        calls=[StoredCall.model_validate(c) for c in row["calls"]],
        answers=[StoredAnswer.model_validate(a) for a in row["answers"]],
    )


def replay_snippet(walk_id: str) -> str:
    """Browser commands that set ``walkId`` and run the replay recipe (paste both into the Browser editor)."""
    return f":param walkId => {json.dumps(walk_id)}\n\n{template(REPLAY_RECIPE).body}\n"
