"""The Browser guide of a service that wants a bearer token, over real HTTP: a signed guide key (``?key=``) opens
the guide routes Browser fetches (the guide, one walk's guide, the style, their preflights) and nothing else;
a missing, expired, forged or other-token key is refused; the key is in no log record."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import httpx
import pytest
from click.testing import CliRunner

from graphwalk_neo4j.cli import main
from graphwalk_neo4j.service.browser import style_sheet
from graphwalk_neo4j.stored_walks.read import GUIDE_KEY_TTL_S, guide_key, guide_key_valid
from tests.service.conftest import ServedApp, service_settings
from tests.service.test_shutdown import ServeProcess, fake_service_env
from tests.unit.test_browser_guide import Blocks

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graphwalk_neo4j.settings import Settings

TOKEN = "s3cret-token-for-tests-0123456789"
ORIGIN = "http://127.0.0.1:7474"
PREFLIGHT = {"Origin": ORIGIN, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "pragma"}


@pytest.fixture
def guarded(neo4j_settings: Settings, movie_graph: str) -> Iterator[ServedApp]:
    app = ServedApp(service_settings(neo4j_settings, movie_graph, service_token=TOKEN)).start()
    yield app
    app.stop()


def test_a_signed_key_opens_the_guide_and_only_the_guide(guarded: ServedApp, movie_graph: str) -> None:
    key = guide_key(TOKEN)
    with httpx.Client(base_url=guarded.url, timeout=60) as c:
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        walked = c.post("/v1/walk", json={"question": "who directed Memento", "graph": movie_graph}, headers=bearer)
        assert walked.status_code == 200, walked.text
        walk_id = walked.json()["walk_id"]

        refused = c.get("/guide", headers={"Origin": ORIGIN})
        assert refused.status_code == 401
        assert "guide key" in refused.json()["detail"]
        assert "`gw-neo4j walks guide`" in refused.json()["detail"]

        assert c.options("/guide", params={"key": key}, headers=PREFLIGHT).status_code == 204
        guide = c.get("/guide", params={"key": key}, headers={"Origin": ORIGIN})
        assert guide.status_code == 200, guide.text
        assert guide.headers["access-control-allow-origin"] == "*"
        style_block = Blocks(guide.text).blocks[0]
        assert style_block == f":style http://localhost:{guarded.port}/style.grass?key={key}"  # the style opens too
        one = c.get(f"/guide/walk/{walk_id}", params={"key": key})
        assert one.status_code == 200
        assert f":guide http://localhost:{guarded.port}/guide?key={key}" in one.text
        style = c.get("/style.grass", params={"key": key})
        assert style.status_code == 200
        assert style.text == style_sheet()
        assert c.get("/guide", headers=bearer).status_code == 200  # the bearer token still works

        # the key opens nothing else, and no other method
        assert c.get(f"/v1/walks/{walk_id}", params={"key": key, "graph": movie_graph}).status_code == 401
        assert c.get("/v1/graphs", params={"key": key}).status_code == 401
        assert c.post("/guide", params={"key": key}).status_code == 401
        # expired, forged, signed under another token, given twice
        stale = guide_key(TOKEN, now=time.time() - GUIDE_KEY_TTL_S - 5)
        other = guide_key("another-token-of-the-same-length-xx")
        expiry, signature = key.split(".")
        forged = f"{int(expiry) + 86_400}.{signature}"
        for bad in (stale, other, forged, "", "1.2"):
            answer = c.get("/guide", params={"key": bad})
            assert answer.status_code == 401, bad
        assert c.get("/guide", params=[("key", key), ("key", key)]).status_code == 401


def test_the_real_service_never_logs_the_key(neo4j_settings: Settings, movie_graph: str) -> None:
    server = ServeProcess(fake_service_env(neo4j_settings, movie_graph, GW_NEO4J_SERVICE_TOKEN=TOKEN))
    try:
        url = server.wait_started()
        key = guide_key(TOKEN)
        with httpx.Client(base_url=url, timeout=60) as c:
            assert c.options("/guide", params={"key": key}, headers=PREFLIGHT).status_code == 204
            assert c.get("/guide", params={"key": key}).status_code == 200
            assert c.get("/style.grass", params={"key": key}).status_code == 200
            assert c.get("/guide", params={"key": key + "0"}).status_code == 401
    finally:
        server.proc.terminate()
        server.proc.wait(timeout=60)
    logged = [line for line in server.logs() if line.get("msg") == "request"]
    assert [(line["path"], line["status"]) for line in logged][-4:] == [
        ("/guide", 204),
        ("/guide", 200),
        ("/style.grass", 200),
        ("/guide", 401),
    ]
    assert not [line for line in server.lines if key.split(".")[1] in line]  # the key is in no log line


def test_walks_guide_prints_a_signed_line(neo4j_settings: Settings) -> None:
    env = {"GW_NEO4J_URI": neo4j_settings.uri, "GW_NEO4J_SERVICE_TOKEN": TOKEN}
    result = CliRunner().invoke(main, ["walks", "guide", "w-42"], env=env)
    assert result.exit_code == 0, result.output
    prefix = ":guide http://localhost:8765/guide/walk/w-42?key="
    line = result.output.strip()
    assert line.startswith(prefix)
    assert guide_key_valid(TOKEN, line.removeprefix(prefix))
    plain = CliRunner().invoke(main, ["walks", "guide"], env={"GW_NEO4J_URI": neo4j_settings.uri})
    assert plain.output.strip() == ":guide http://localhost:8765/guide"
