"""neo4j-viz (Neo4j's notebook graph renderer): :func:`walk_graph` turns a walk into a
:class:`neo4j_viz.VisualizationGraph` to explore interactively (zoom, drag, search) with its ``render()``, beside
the static drawing every walk shows by itself (``_repr_html_``, docs/integrations/). Needs the ``[notebook]``
extra (neo4j-viz).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from neo4j_viz import Node, Relationship, VisualizationGraph

if TYPE_CHECKING:
    from graphwalk_neo4j.walk.expansion import NodeRef
    from graphwalk_neo4j.walk.result import WalkResult

START_COLOR, ANSWER_COLOR, REACHED_COLOR = "#8e6cc0", "#e05050", "#7fa7d9"


def walk_graph(result: WalkResult) -> VisualizationGraph:
    """Every kept path of ``result``: one node per entity it stood on or reached (start violet, answers red, the
    rest blue; property answers are nodes too), one relationship per hop from where the beam stood to where it
    went, captioned ``directed_by ← p 0.91`` (← : walked against the stored direction), as the Browser's
    ``draw_walk`` recipe draws it. Node properties keep the id, type and, for answers, the rank."""
    answers = {a.node_id: a.rank for a in result.answers}
    starts: set[str] = set()
    nodes: dict[str, Node] = {}
    hops: dict[tuple[str, str, str], Relationship] = {}

    def add(ref: NodeRef, color: str) -> None:
        if ref.id in nodes:
            return
        props: dict[str, Any] = {"id": ref.id, "type": ref.type}
        if ref.id in answers:
            props["answer_rank"] = answers[ref.id]
            color = ANSWER_COLOR
        nodes[ref.id] = Node(id=ref.id, caption=ref.name, color=color, properties=props)

    for path in result.paths:
        for ref in path.start:
            starts.add(ref.id)
            add(ref, START_COLOR)
        for step in path.steps:
            if step.is_stop or step.relation is None:
                continue
            arrow = "←" if step.direction == "in" else "→"
            caption = f"{step.relation} {arrow}" + (f" p {step.p:.2f}" if step.p is not None else "")
            for ref in step.nodes:
                add(ref, START_COLOR if ref.id in starts else REACHED_COLOR)
                for source in step.from_ids:
                    key = (source, ref.id, caption)
                    if key not in hops and source in nodes:
                        hops[key] = Relationship(id=f"hop{len(hops)}", source=source, target=ref.id, caption=caption)
    return VisualizationGraph(nodes=list(nodes.values()), relationships=list(hops.values()))
