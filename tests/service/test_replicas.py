"""Two replicas of the service against the one Neo4j behave as one service: each is its own app with its own
ServiceContext, driver and pool, as two `gw-neo4j serve` processes would be. A walk run on A is readable from B
(its trace lives in Neo4j; B reads it after the bookmark A's response carried, through a neo4j:// routing
driver); an ingest job is visible on the replica that runs it only; a bookmark the database never issued is
refused with 400."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import httpx
import pytest

from graphwalk_neo4j.service.app import BOOKMARK_HEADER
from tests.service.conftest import ServedApp, drop, service_settings
from tests.service.test_ingest_jobs import wait_finished

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graphwalk_neo4j.settings import Settings


@pytest.fixture
def replicas(neo4j_settings: Settings, movie_graph: str, graph_name: str) -> Iterator[tuple[ServedApp, ServedApp]]:
    a = ServedApp(service_settings(neo4j_settings, movie_graph)).start()
    # B talks to the server as to a cluster: a neo4j:// routing URI (a single server answers the routing table
    # with itself), so reads go out as read transactions and the bookmarks travel between the two drivers
    routed = neo4j_settings.model_copy(update={"uri": neo4j_settings.uri.replace("bolt://", "neo4j://", 1)})
    b = ServedApp(service_settings(routed, movie_graph)).start()
    yield a, b
    a.stop()
    b.stop()
    asyncio.run(drop(neo4j_settings, graph_name + "_jobs"))


def test_a_walk_run_on_one_replica_is_read_on_the_other(
    replicas: tuple[ServedApp, ServedApp], movie_graph: str, graph_name: str
) -> None:
    a, b = replicas
    assert a.ctx.store is not b.ctx.store
    assert a.ctx.store.driver is not b.ctx.store.driver
    assert b.ctx.store.settings.uri.startswith("neo4j://")
    with httpx.Client(base_url=a.url, timeout=60) as on_a, httpx.Client(base_url=b.url, timeout=60) as on_b:
        r = on_a.post("/v1/walk", json={"question": "who directed Memento", "graph": movie_graph, "preset": "relation"})
        assert r.status_code == 200, r.text
        walk_id = r.json()["walk_id"]
        bookmark = r.headers[BOOKMARK_HEADER]
        assert bookmark  # the bookmarks of A's trace write
        # B, with its own driver, reads the walk after that bookmark: the same stored walk and answers
        got = on_b.get(f"/v1/walks/{walk_id}", params={"graph": movie_graph}, headers={BOOKMARK_HEADER: bookmark})
        assert got.status_code == 200, got.text
        stored = got.json()["walk"]
        assert stored["status"] == r.json()["status"]
        assert stored["answer_names"] == [x["name"] for x in r.json()["answers"]]
        listed = on_b.get("/v1/walks", params={"graph": movie_graph}, headers={BOOKMARK_HEADER: bookmark})
        assert walk_id in [w["id"] for w in listed.json()["walks"]]
        assert on_b.get(f"/v1/walks/{walk_id}", params={"graph": movie_graph}).status_code == 200  # no bookmark
        # a header that is no bookmark at all is the caller's mistake, not a 500 (refused before Neo4j sees it)
        bad = on_b.get(f"/v1/walks/{walk_id}", params={"graph": movie_graph}, headers={BOOKMARK_HEADER: "nonsense"})
        assert bad.status_code == 400, bad.text
        assert "'nonsense', which is not a Neo4j bookmark" in bad.json()["detail"]
        # an ingest job is visible on the replica that runs it; the graph it loads is visible on both
        files = [{"name": "kb.txt", "content": "Heat|directed_by|Michael Mann\n"}]
        job = on_a.post("/v1/ingest", json={"graph": graph_name + "_jobs", "files": files})
        assert job.status_code == 202, job.text
        assert wait_finished(on_a, job.json()["id"])["status"] == "done"
        elsewhere = on_b.get(f"/v1/jobs/{job.json()['id']}")
        assert elsewhere.status_code == 404
        assert graph_name + "_jobs" in [g["graph"] for g in on_b.get("/v1/graphs").json()["graphs"]]
