"""drop-graph deletes only graphwalk's own nodes of a graph: a user's node with a `graph` property of the same value
stays, and an adopted graph (the user's own data) is refused with the way out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.graph.profile import GraphProfile, delete_profile, save_profile

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore

pytestmark = pytest.mark.neo4j


async def test_drop_graph_leaves_user_nodes_with_a_graph_property(store: GraphStore, graph_name: str) -> None:
    label = f"UserThing_{graph_name[2:]}"
    await store.query(f"CREATE (:{label} {{graph: $g, name: 'mine'}})", {"g": graph_name})
    await store.query("CREATE (:Entity {graph: $g, uid: $g + ':x', id: 'x', name: 'ours'})", {"g": graph_name})
    try:
        await drop_graph(store, graph_name)
        rows = await store.query("MATCH (n {graph: $g}) RETURN labels(n) AS labels, n.name AS name", {"g": graph_name})
        assert rows == [{"labels": [label], "name": "mine"}]
    finally:
        await store.query(f"MATCH (n:{label}) DELETE n", {})


async def test_drop_graph_refuses_an_adopted_graph(store: GraphStore, graph_name: str) -> None:
    await save_profile(store, GraphProfile.model_validate({"graph": graph_name, "kind": "adopted"}))
    try:
        with pytest.raises(InputError, match=r"adopt --undo --graph"):
            await drop_graph(store, graph_name)
    finally:
        assert await delete_profile(store, graph_name) == 1
