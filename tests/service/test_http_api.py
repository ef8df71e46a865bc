"""The rest of HTTP API v1 over real HTTP: streamed walks (SSE), stored walks, search, graphs, metrics, OpenAPI."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.service.sse import events

if TYPE_CHECKING:
    import httpx

    from tests.service.conftest import ServedApp

QUESTION = "which movies did Christopher Nolan direct"


def test_streamed_walk_sends_one_event_per_depth_then_the_result(client: httpx.Client, movie_graph: str) -> None:
    body = {"question": "who directed Memento", "graph": movie_graph, "preset": "relation", "stream": True}
    with client.stream("POST", "/v1/walk", json=body) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        received = list(events(response))
    kinds = [k for k, _ in received]
    assert kinds[0] == "start"
    assert kinds[-1] == "result"
    depths = [d for k, d in received if k == "depth"]
    result = received[-1][1]
    assert len(depths) == result["bundle"]["hops"] >= 2
    assert [d["depth"] for d in depths] == list(range(1, len(depths) + 1))
    walk_id = received[0][1]["walk_id"]
    assert result["walk_id"] == walk_id
    assert all(d["walk_id"] == walk_id for d in depths)
    first = depths[0]
    [step] = first["steps"]
    assert step["at"] == ["Memento"]
    assert step["kind"] == "decision"
    offered = {o["relation"] for o in step["options"] if not o["is_stop"]}
    assert offered == {"directed_by", "release_year"}  # Memento's relations in this graph
    assert abs(sum(o["p"] for o in step["options"]) - 1.0) < 1e-6
    assert step["chosen"] in {o["label"] for o in step["options"]}
    assert first["call"]["n_questions"] == 1
    # the answers so far grow to the final answers
    assert depths[-1]["answers"] == result["answers"]


def test_accept_header_asks_for_a_stream_too(client: httpx.Client, movie_graph: str) -> None:
    body = {"question": QUESTION, "graph": movie_graph, "preset": "relation"}
    with client.stream("POST", "/v1/walk", json=body, headers={"Accept": "text/event-stream"}) as response:
        kinds = [k for k, _ in events(response)]
    assert kinds[0] == "start"
    assert kinds[-1] == "result"
    assert "depth" in kinds


def test_stored_walks_list_and_show(client: httpx.Client, movie_graph: str) -> None:
    ids = [
        client.post("/v1/walk", json={"question": QUESTION, "graph": movie_graph, "preset": "relation"}).json()[
            "walk_id"
        ]
        for _ in range(2)
    ]
    listed = client.get("/v1/walks", params={"graph": movie_graph, "limit": 10})
    assert listed.status_code == 200
    walks = listed.json()["walks"]
    assert [w["id"] for w in walks] == ids[::-1]  # newest first
    assert all(w["question"] == QUESTION and "steps" not in w for w in walks)
    assert len(client.get("/v1/walks", params={"graph": movie_graph, "limit": 1}).json()["walks"]) == 1
    shown = client.get(f"/v1/walks/{ids[0]}", params={"graph": movie_graph}).json()
    assert shown["walk"]["id"] == ids[0]
    assert shown["walk"]["steps"]
    assert shown["replay"]["cypher"].startswith(f':param walkId => "{ids[0]}"')


def test_search_and_graphs(client: httpx.Client, movie_graph: str) -> None:
    found = client.post("/v1/search", json={"text": "Christopher Nolan", "graph": movie_graph, "limit": 3})
    assert found.status_code == 200, found.text
    former = client.post("/v1/search", json={"text": "Christopher Nolan", "graph": movie_graph, "k": 3})
    assert former.json()["hits"] == found.json()["hits"]  # `k`, its former name, still works
    hits = found.json()["hits"]
    assert hits[0]["name"] == "Christopher Nolan"
    assert "exact name" in hits[0]["reasons"]
    assert hits[0]["uid"] == f"{movie_graph}:{hits[0]['id']}"
    graphs = {g["graph"]: g for g in client.get("/v1/graphs").json()["graphs"]}
    assert graphs[movie_graph] == {"graph": movie_graph, "entities": 7, "relationships": 6, "warm": True}
    schema = client.get(f"/v1/graphs/{movie_graph}/schema")
    assert schema.status_code == 200, schema.text
    assert {r["relation"]: r["count"] for r in schema.json()["relation_types"]} == {
        "directed_by": 2,
        "starred_actors": 2,
        "release_year": 2,
    }
    assert client.get("/v1/graphs/no%20such/schema").status_code == 422


def test_metrics_count_walks_depths_calls_and_round_trips(
    client: httpx.Client, served: ServedApp, movie_graph: str
) -> None:
    before = served.ctx.store.metrics.round_trips
    bundle = client.post("/v1/walk", json={"question": QUESTION, "graph": movie_graph, "preset": "relation"}).json()
    text = client.get("/metrics").text
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    usage = bundle["bundle"]["usage"]
    assert values['gw_walks_total{status="ok"}'] == 1
    assert values["gw_walk_depth_seconds_count"] == usage["depths"]
    assert values["gw_decision_calls_total"] == usage["decision_calls"]
    assert values['gw_decision_tokens_total{direction="input"}'] == usage["input_tokens"]
    assert values["gw_cypher_round_trips_total"] >= before + bundle["bundle"]["cypher_round_trips"]
    assert values["gw_walks_in_flight"] == 0
    assert values['gw_http_requests_total{method="POST",route="/v1/walk",status="200"}'] == 1
    assert values["gw_http_requests_in_flight"] == 1  # this scrape


def test_openapi_document_describes_the_api(client: httpx.Client) -> None:
    doc = client.get("/openapi.json").json()
    assert {
        "/v1/walk",
        "/v1/walks",
        "/v1/walks/{walk_id}",
        "/v1/search",
        "/v1/graphs",
        "/healthz",
        "/readyz",
        "/metrics",
    } <= set(doc["paths"])
    walk_body = doc["components"]["schemas"]["WalkRequest"]
    assert set(walk_body["properties"]) >= {"question", "graph", "start", "preset", "model", "config", "stream"}
