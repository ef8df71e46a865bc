"""Backfill of the caption properties (``Walk.caption``, ``Step.caption`` / ``hop`` / ``option_captions`` /
``pruned_captions``) on traces stored before the trace writer wrote them.

The captions come from the same functions the writer uses
(:func:`~graphwalk_neo4j.walk.neo4j_trace_sink.walk_caption`,
:func:`~graphwalk_neo4j.walk.neo4j_trace_sink.step_captions`),
applied to the stored properties; one read and one write round trip per page until nothing is left. Only our own
``:Walk`` / ``:Step`` nodes are touched. Running it again finds nothing to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphwalk_neo4j.walk.neo4j_trace_sink import step_captions, walk_caption

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore

PAGE = 2000


@dataclass(frozen=True)
class CaptionBackfill:
    walks: int
    steps: int


async def backfill_captions(store: GraphStore, graph: str | None = None, page: int = PAGE) -> CaptionBackfill:
    """Caption every uncaptioned walk and step (of ``graph``, or of every graph when ``None``)."""
    walks = steps = 0
    while True:
        rows = await store.read("stored_walks/uncaptioned", graph=graph, limit=page)
        if not rows:
            return CaptionBackfill(walks=walks, steps=steps)
        walk_rows = [
            {"id": r["id"], "props": {"caption": walk_caption(r["props"].get("question") or "")}}
            for r in rows
            if r["kind"] == "walk"
        ]
        step_rows = [{"id": r["id"], "props": step_captions(r["props"])} for r in rows if r["kind"] == "step"]
        [done] = await store.write("stored_walks/set_captions", walks=walk_rows, steps=step_rows)
        walks += done["walks"]
        steps += done["steps"]
