"""The Browser guide and style served by the real app under uvicorn, over real HTTP: CORS as Neo4j Browser
asks for it, the guide listing a walk just run through POST /v1/walk, and the guide's one-click blocks run as they
are against the real Neo4j, drawing that walk."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import neo4j
from graphwalk_neo4j.service.browser import bound_recipe, style_sheet
from tests.unit.test_browser_guide import Blocks

if TYPE_CHECKING:
    import httpx

    from graphwalk_neo4j.settings import Settings
    from tests.service.conftest import ServedApp

ORIGIN = "http://127.0.0.1:7474"  # where Neo4j Browser runs
BROWSER_HEADERS = "cache-control,pragma,sentry-trace,baggage"  # what Browser 5.24's guide fetch sends


def test_guide_lists_the_walk_and_its_block_draws_it(
    client: httpx.Client, served: ServedApp, movie_graph: str, neo4j_settings: Settings
) -> None:
    walked = client.post("/v1/walk", json={"question": "who directed Memento", "graph": movie_graph})
    assert walked.status_code == 200, walked.text
    body = walked.json()
    walk_id = body["walk_id"]

    preflight = client.options(
        "/guide",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": BROWSER_HEADERS,
        },
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert preflight.headers["access-control-allow-headers"] == BROWSER_HEADERS
    assert "GET" in preflight.headers["access-control-allow-methods"]

    guide = client.get("/guide", headers={"Origin": ORIGIN})
    assert guide.status_code == 200
    assert guide.headers["content-type"].startswith("text/html")
    assert guide.headers["access-control-allow-origin"] == "*"
    parsed = Blocks(guide.text)
    assert parsed.slides == 5
    assert "<title>graphwalk: walks in Neo4j Browser</title>" in guide.text
    assert parsed.blocks[0] == f":style http://localhost:{served.port}/style.grass"
    draw = bound_recipe("draw_walk", walk_id)
    assert draw in parsed.blocks
    assert "who directed Memento" in guide.text

    # the block runs as it is, as Browser would run it: it draws the walk just made
    auth = (neo4j_settings.user, neo4j_settings.password.get_secret_value())
    with neo4j.GraphDatabase.driver(neo4j_settings.uri, auth=auth) as driver:
        records, _, _ = driver.execute_query(draw, database_=neo4j_settings.database)
    [row] = records
    assert row["walk"]["id"] == walk_id
    assert row["question"] == "who directed Memento"
    assert row["answers"] == [a["name"] for a in body["answers"]]
    assert [p.end_node["name"] for p in row["start"]] == ["Memento"]
    # one virtual hop per step of the stored walk, chained from the start to the answer
    hops = [(p.start_node["name"], p.end_node["name"]) for p in row["hops"]]
    shown = client.get(f"/v1/walks/{walk_id}", params={"graph": movie_graph}).json()
    moved = [s for s in shown["walk"]["steps"] if not s["is_stop"] and s["chosen"] is not None]
    assert shown["replay"]["guide"] == f":guide http://localhost:8765/guide/walk/{walk_id}"
    assert len(hops) == len(moved) >= 1
    assert hops[0][0] == "Memento"
    assert hops[-1][1] == row["answers"][0]
    assert all(a[1] == b[0] for a, b in itertools.pairwise(hops))

    one = client.get(f"/guide/walk/{walk_id}", headers={"Origin": ORIGIN})
    assert one.status_code == 200
    assert one.headers["access-control-allow-origin"] == "*"
    assert Blocks(one.text).blocks == [draw, bound_recipe("walk_options", walk_id)]
    missing = client.get("/guide/walk/no-such-walk")
    assert missing.status_code == 404
    assert "no stored walk &#x27;no-such-walk&#x27;" in missing.text

    style = client.get("/style.grass", headers={"Origin": ORIGIN})
    assert style.status_code == 200
    assert style.text == style_sheet()
    assert style.headers["access-control-allow-origin"] == "*"


def test_the_guide_leaves_out_walk_nodes_graphwalk_did_not_store(
    client: httpx.Client, neo4j_settings: Settings, movie_graph: str
) -> None:
    """A bare :Walk node (another tool's label; found by the API fuzzer as a 500) does not break the guide."""
    auth = (neo4j_settings.user, neo4j_settings.password.get_secret_value())
    with neo4j.GraphDatabase.driver(neo4j_settings.uri, auth=auth) as driver:
        driver.execute_query("CREATE (:Walk {made_by_test: $g})", g=movie_graph, database_=neo4j_settings.database)
        try:
            r = client.get("/guide", params={"graph": movie_graph})
        finally:
            driver.execute_query(
                "MATCH (w:Walk {made_by_test: $g}) DELETE w", g=movie_graph, database_=neo4j_settings.database
            )
    assert r.status_code == 200, r.text
