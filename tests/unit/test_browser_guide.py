"""The Browser guide's pure parts (graphwalk_neo4j.service.browser, graphwalk_neo4j.stored_walks.read): guide URLs,
parameter lines, one-click recipe binding, escaping of stored text, the style sheet, and the recipes that must
draw alike. The guide over HTTP, in Neo4j and in Chromium is tested in tests/service/."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.localserver import APOC_HTTP_READ_TIMEOUT_MS, LocalServer
from graphwalk_neo4j.service.browser import (
    bound_recipe,
    guide_page,
    param_line,
    style_sheet,
    walk_blocks,
    walk_page,
)
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import template
from graphwalk_neo4j.stored_walks import StoredWalk, browser_line, guide_url

if TYPE_CHECKING:
    from pathlib import Path


class Blocks(HTMLParser):
    """The text of every ``<pre class="code runnable">`` and the number of ``<slide>`` elements."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.blocks: list[str] = []
        self.slides = 0
        self._in = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "slide":
            self.slides += 1
        if tag == "pre" and "runnable" in (dict(attrs).get("class") or ""):
            self._in = True
            self.blocks.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._in = False

    def handle_data(self, data: str) -> None:
        if self._in:
            self.blocks[-1] += data


def walk(walk_id: str = "w1", question: str = "Who directed Memento?") -> StoredWalk:
    return StoredWalk(
        id=walk_id,
        graph="movies",
        question=question,
        status="ok",
        answer_names=["Christopher Nolan"],
        started_at=datetime(2026, 12, 1, 10, 0, tzinfo=UTC),
    )


def test_guide_urls_say_localhost_for_loopback() -> None:
    assert guide_url("http://127.0.0.1:8765") == "http://localhost:8765/guide"
    assert guide_url("http://127.0.0.1:8765/", "w/1 2") == "http://localhost:8765/guide/walk/w%2F1%202"
    assert guide_url("http://example.org:9000") == "http://example.org:9000/guide"
    assert browser_line("abc", Settings().resolved_service_url()) == ":guide http://localhost:8765/guide/walk/abc"
    assert Settings(service_host="0.0.0.0", service_port=9100).resolved_service_url() == "http://127.0.0.1:9100"


def test_param_lines_are_json_literals() -> None:
    assert param_line(walkId="a'b") == ':param walkId => "a\'b"'
    assert param_line(walkId=None) == ":param walkId => null"
    assert param_line(question='say "hi"', graph="g", preset=None) == (
        ':params {question: "say \\"hi\\"", graph: "g", preset: null}'
    )
    with pytest.raises(ValueError, match="not a parameter name"):
        param_line(**{"x}) MATCH (n": 1})


def test_plain_walk_ids_are_bound_into_one_statement_and_others_are_not() -> None:
    body = template("recipes/draw_walk").body
    assert bound_recipe("draw_walk", "3f2a-9c.d:1") == body.replace("$walkId", "'3f2a-9c.d:1'")
    assert "$walkId" not in (bound_recipe("draw_walk", None) or "$walkId")
    assert bound_recipe("draw_walk", None) == body.replace("$walkId", "null")
    for hostile in ("x' OR 1=1 //", "a\\b", "", "-lead", "a b"):
        assert bound_recipe("draw_walk", hostile) is None, hostile
        blocks = Blocks("".join(walk_blocks("draw_walk", hostile))).blocks
        assert blocks == [param_line(walkId=hostile), body]  # the id travels as a parameter


def test_guide_escapes_stored_text_and_lists_walks_with_one_click_replays() -> None:
    hostile = walk("w2", "<script>alert(1)</script> & who?")
    html = guide_page([walk(), hostile], "http://127.0.0.1:8765")
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; who?" in html
    parsed = Blocks(html)
    assert parsed.slides == 5
    assert parsed.blocks[0] == ":style http://localhost:8765/style.grass"
    assert bound_recipe("draw_walk", "w1") in parsed.blocks
    assert bound_recipe("draw_walk", "w2") in parsed.blocks
    assert bound_recipe("draw_walk", None) in parsed.blocks
    assert bound_recipe("walk_options", None) in parsed.blocks
    run = parsed.blocks.index(template("recipes/run_walk").body)
    assert parsed.blocks[run - 1] == param_line(
        question="which movies did Christopher Nolan direct",
        graph="movies",
        preset=None,
        service="http://127.0.0.1:8765",
    )
    assert ':param graph => "movies"' in parsed.blocks
    for name in ("dead_end_walks", "confidence_per_relation", "unsure_steps", "pruned_steps", "costliest_walks"):
        assert template(f"recipes/{name}").body in parsed.blocks, name
    empty = Blocks(guide_page([], "http://127.0.0.1:8765"))
    assert empty.slides == 5
    assert ':param graph => "demo"' in empty.blocks
    chosen = Blocks(guide_page([walk()], "http://127.0.0.1:8765", graph="mine")).blocks
    assert ':param graph => "mine"' in chosen
    assert any('graph: "mine"' in b for b in chosen)


def test_walk_page_draws_the_walk_and_its_options() -> None:
    parsed = Blocks(walk_page(walk("w1"), "http://127.0.0.1:8765"))
    assert parsed.slides == 2
    assert parsed.blocks == [bound_recipe("draw_walk", "w1"), bound_recipe("walk_options", "w1")]


def test_style_sheet_styles_walks_steps_answers_and_entity_types() -> None:
    rules = dict(re.findall(r"^([\w.]+) \{\n(.*?)\n\}", style_sheet(), flags=re.S | re.M))
    props = {sel: dict(re.findall(r"^\s*([\w-]+): (.*);$", body, flags=re.M)) for sel, body in rules.items()}
    assert props["node.Walk"]["caption"] == "'{caption}'"
    assert props["node.Step"]["caption"] == "'{caption}'"
    assert props["node.Pruned"]["caption"] == "'{caption}'"
    assert props["relationship.ANSWERED"]["caption"] == "'answer #{rank}'"
    for label in ("Entity", "Movie", "Person", "Genre", "Year", "Tag", "Language"):
        assert props[f"node.{label}"]["caption"] == "'{name}'", label
    colours = {props[s]["color"] for s in ("node.Walk", "node.Step", "node.Movie", "node.Person")}
    assert len(colours) == 4
    # every rule is well formed: the sheet parses into as many rules as it has opening braces
    assert len(rules) == style_sheet().count("{\n")


def test_run_walk_draws_exactly_as_draw_walk() -> None:
    """Cypher has no includes: the walk-from-Cypher recipe repeats draw_walk's drawing, and must stay identical."""

    def drawing(name: str) -> tuple[str, list[str]]:
        body = template(f"recipes/{name}").body
        hops = body[body.index("CALL (w) {") : body.index("\nRETURN ")]
        return hops, [line.strip() for line in body.splitlines() if "COLLECT {" in line]

    assert drawing("run_walk") == drawing("draw_walk")


def test_local_server_raises_apocs_http_read_timeout(tmp_path: Path) -> None:
    server = LocalServer(home=tmp_path)
    server.write_conf()
    lines = (tmp_path / "run" / "conf" / "apoc.conf").read_text().splitlines()
    assert f"apoc.http.timeout.read={APOC_HTTP_READ_TIMEOUT_MS}" in lines
    assert Settings().service_timeout_s < APOC_HTTP_READ_TIMEOUT_MS / 1000  # the service gives up first
