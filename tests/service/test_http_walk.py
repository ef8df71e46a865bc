"""POST /v1/walk and the probes, over real HTTP against the real app under uvicorn and the real Neo4j."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx

    from tests.service.conftest import ServedApp


def test_walk_answers_with_the_contract_and_the_trace_is_committed(
    client: httpx.Client, served: ServedApp, movie_graph: str
) -> None:
    r = client.post(
        "/v1/walk",
        json={
            "question": "which movies did Christopher Nolan direct",
            "graph": movie_graph,
            "config": {"hop_mode": "relation", "max_depth": 3},
        },
    )
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert set(body) == {"walk_id", "graph", "status", "answers", "bundle"}
    assert body["graph"] == movie_graph
    assert body["status"] in {"ok", "budget"}
    bundle = body["bundle"]
    assert bundle["walk_id"] == body["walk_id"]
    assert bundle["goal"] == "which movies did Christopher Nolan direct"
    assert bundle["linking"]["start"] == ["Christopher Nolan"]
    assert bundle["linking"]["method"] == "exact"
    assert [a["name"] for a in body["answers"]] == [a["name"] for a in bundle["answers"]]
    for answer in body["answers"]:
        assert answer["uid"].startswith(f"{movie_graph}:e_")
        assert answer["value"] is None
    # the trace is in Neo4j already: the stored walk has finished with the same answers
    stored = client.get(f"/v1/walks/{body['walk_id']}", params={"graph": movie_graph})
    assert stored.status_code == 200, stored.text
    walk = stored.json()["walk"]
    assert walk["status"] == body["status"]
    assert walk["question"] == bundle["goal"]
    assert walk["answer_names"] == [a["name"] for a in body["answers"]]
    assert len(walk["calls"]) == bundle["usage"]["decision_requests"]


def test_given_start_and_preset(client: httpx.Client, movie_graph: str) -> None:
    r = client.post(
        "/v1/walk",
        json={
            "question": "who starred in Titanic",
            "graph": movie_graph,
            "start": "Titanic",
            "preset": "relation",
            "model": "fake",
        },
    )
    assert r.status_code == 200, r.text
    bundle = r.json()["bundle"]
    assert bundle["linking"] == {
        "method": "given",
        "start": ["Titanic"],
        "candidates": ["Titanic"],
        "decision_calls": 0,
    }


def test_the_get_form_walks_like_the_post_and_refuses_cross_site_browsers(
    client: httpx.Client, movie_graph: str
) -> None:
    params = {"question": "who starred in Titanic", "graph": movie_graph, "preset": "relation"}
    got = client.get("/v1/walk", params=params)
    assert got.status_code == 200, got.text
    posted = client.post("/v1/walk", json={**params, "start": None})
    assert posted.status_code == 200, posted.text
    assert [a["name"] for a in got.json()["answers"]] == [a["name"] for a in posted.json()["answers"]]
    assert got.json()["bundle"]["linking"]["start"] == ["Titanic"]
    for site in ("cross-site", "same-site"):
        refused = client.get("/v1/walk", params=params, headers={"Sec-Fetch-Site": site})
        assert refused.status_code == 403
        assert refused.json()["detail"].startswith(f"GET /v1/walk from a {site} browser request is refused")
    assert client.get("/v1/walk", params={**params, "question": ""}).status_code == 422


def test_probes(client: httpx.Client, served: ServedApp, movie_graph: str) -> None:
    health = client.get("/healthz")
    assert health.status_code == 200
    assert health.json()["status"] == "ok"
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.text
    checks = ready.json()["checks"]
    assert checks["neo4j"] is True
    assert checks["indexes"] is True
    assert checks["embedder"] is True
    assert served.ctx.warm_state() == {movie_graph: True}


def test_errors_are_problem_json_with_the_cli_message(client: httpx.Client, movie_graph: str) -> None:
    bad_preset = client.post("/v1/walk", json={"question": "q", "graph": movie_graph, "preset": "nope"})
    assert bad_preset.status_code == 400
    assert bad_preset.headers["content-type"] == "application/problem+json"
    problem = bad_preset.json()
    assert problem["status"] == 400
    assert problem["title"] == "Bad Request"
    assert problem["detail"] == "unknown walk preset 'nope'; valid presets: " + ", ".join(
        ["greedy", "beam", "relation", "relation-beam", "sample", "relation-hint", "relation-beam-hint"]
    )
    assert problem["request_id"] == bad_preset.headers["x-request-id"]
    floating = client.post("/v1/walk", json={"question": "q", "graph": movie_graph, "model": "jev-latest"})
    assert floating.status_code == 400
    assert "refusing the floating model alias 'jev-latest'" in floating.json()["detail"]
    bad_field = client.post("/v1/walk", json={"question": "q", "graph": movie_graph, "config": {"beam_width": 0}})
    assert bad_field.status_code == 422
    assert bad_field.json()["detail"] == "invalid walk options: beam_width=0 is under its minimum 1"
    missing = client.post("/v1/walk", json={"graph": movie_graph})
    assert missing.status_code == 422
    assert missing.json()["detail"] == "invalid request: question: Field required"
    unknown_graph = client.post("/v1/walk", json={"question": "q", "graph": "no_such_graph_here"})
    assert unknown_graph.status_code == 404
    assert "no graph named 'no_such_graph_here'" in unknown_graph.json()["detail"]
    no_walk = client.get("/v1/walks/nope", params={"graph": movie_graph})
    assert no_walk.status_code == 404
    assert no_walk.json()["detail"] == (
        f"no stored walk 'nope' in graph {movie_graph!r}; list them with `gw-neo4j walks list --graph {movie_graph}`"
    )
    no_route = client.get("/v2/nothing")
    assert no_route.status_code == 404
    assert no_route.headers["content-type"] == "application/problem+json"


def test_a_walk_over_a_limit_is_refused_with_422_naming_the_limit(client: httpx.Client, movie_graph: str) -> None:
    huge = {"strategy": "beam", "beam_width": 100_000, "max_depth": 50}
    over = client.post("/v1/walk", json={"question": "q", "graph": movie_graph, "config": huge})
    assert over.status_code == 422
    assert over.headers["content-type"] == "application/problem+json"
    assert over.json()["detail"] == (
        "invalid walk options: beam_width=100000 is over its limit 64; budget.max_depth=50 is over its limit 8"
    )
    work = client.post(
        "/v1/walk", json={"question": "q", "graph": movie_graph, "config": {"budget": {"max_nodes_read": 10**9}}}
    )
    assert work.status_code == 422
    assert work.json()["detail"] == "invalid walk options: budget.max_nodes_read=1000000000 is over its limit 1000000"
    long = client.post("/v1/walk", json={"question": "q" * 2001, "graph": movie_graph})
    assert long.status_code == 422
    assert long.json()["detail"] == "invalid request: question: String should have at most 2000 characters"
    starts = client.post("/v1/walk", json={"question": "q", "graph": movie_graph, "start": ["Titanic"] * 17})
    assert starts.status_code == 422
    assert "List should have at most 16 items after validation, not 17" in starts.json()["detail"]


def test_a_malformed_bookmark_is_a_400_naming_the_header(client: httpx.Client, movie_graph: str) -> None:
    """Neo4j answers a value not shaped like its bookmarks with an internal error; the API fuzzer found it as a 500."""
    for value in ("Ul", "FB:abc"):  # not a bookmark at all; shaped like one but not one this database issued
        r = client.get("/v1/walks", params={"graph": movie_graph}, headers={"X-Graphwalk-Bookmark": value})
        assert r.status_code == 400, r.text
        assert "X-Graphwalk-Bookmark" in r.json()["detail"]
