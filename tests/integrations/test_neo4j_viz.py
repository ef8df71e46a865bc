"""walk_graph on the real neo4j-viz: the hand-made walk of the notebook unit tests as a VisualizationGraph, exact
nodes and hops, and its render() carrying them."""

from __future__ import annotations

from neo4j_viz import VisualizationGraph

from graphwalk_neo4j.integrations.neo4j_viz import ANSWER_COLOR, START_COLOR, walk_graph
from tests.unit.test_walk_notebook import result


def test_a_walk_as_a_visualization_graph() -> None:
    graph = walk_graph(result())
    assert isinstance(graph, VisualizationGraph)
    assert [(n.id, n.caption, str(n.color)) for n in graph.nodes] == [
        ("e_nolan", "Christopher Nolan", str(START_COLOR)),
        ("e_inception", "Inception", str(ANSWER_COLOR)),
        ("e_memento", "Memento", str(ANSWER_COLOR)),
        ("e_the prestige", "The Prestige", str(ANSWER_COLOR)),
    ]
    assert [n.properties for n in graph.nodes][1] == {"id": "e_inception", "type": "Movie", "answer_rank": 1}
    assert [(r.source, r.target, r.caption) for r in graph.relationships] == [
        ("e_nolan", target, "directed_by ← p 0.91") for target in ("e_inception", "e_memento", "e_the prestige")
    ]
    html = graph.render().data
    assert isinstance(html, str)
    for caption in ("Christopher Nolan", "The Prestige", "directed_by ← p 0.91"):
        assert caption in html or caption.replace("←", "\\u2190") in html
