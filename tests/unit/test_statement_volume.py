"""What one expansion statement carries: a depth's requests cut by node-id volume (``by_volume``), and list
parameters the driver's debug line prints by length (``UnprintedList``)."""

from __future__ import annotations

from graphwalk_neo4j.store.store import UnprintedList, unprinted
from graphwalk_neo4j.walk.graph_expander import by_volume


def entity(key: str, excluded: int) -> dict[str, object]:
    return {"beam_key": key, "node_key": key, "exclude": [f"x{i}" for i in range(excluded)]}


def relation(key: str, nodes: int, excluded: int) -> dict[str, object]:
    return {
        "beam_key": key,
        "node_keys": [f"n{i}" for i in range(nodes)],
        "exclude": [f"x{i}" for i in range(excluded)],
    }


def keys(chunks: list[list[dict[str, object]]]) -> list[list[object]]:
    return [[p["beam_key"] for p in chunk] for chunk in chunks]


def test_requests_are_cut_in_order_by_their_node_ids() -> None:
    params = [entity("a", 1), entity("b", 2), entity("c", 0)]  # 2, 3 and 1 ids
    assert keys(by_volume(params, 6)) == [["a", "b", "c"]]
    assert keys(by_volume(params, 5)) == [["a", "b"], ["c"]]
    assert keys(by_volume(params, 3)) == [["a"], ["b"], ["c"]]
    assert keys(by_volume(params, 1)) == [["a"], ["b"], ["c"]]  # a request over the limit goes alone
    rel = [relation("r", 3, 4), relation("s", 2, 0), relation("t", 1, 1)]  # 7, 2 and 2 ids
    assert keys(by_volume(rel, 4)) == [["r"], ["s", "t"]]
    assert keys(by_volume(rel, 11)) == [["r", "s", "t"]]
    assert by_volume([], 10) == []


def test_list_parameters_print_their_length_and_stay_lists() -> None:
    requests = [{"exclude": ["a", "b"]}, {"exclude": []}]
    params = unprinted({"requests": requests, "graph": "g", "profile": {"labels": ["Film"]}})
    assert repr(params["requests"]) == "<list of 2>"
    assert isinstance(params["requests"], UnprintedList)
    assert params["requests"] == requests
    assert params["graph"] == "g"
    assert params["profile"] == {"labels": ["Film"]}
    assert type(params["profile"]) is dict
    assert repr((" RETURN 1", params, {})).count("'a'") == 0  # what the driver's debug line formats
