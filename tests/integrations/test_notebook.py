"""A real walk (real Neo4j, the demo graph) shows itself in a notebook: what ``_repr_html_`` of the outcome a
GraphWalker returns says, read with an XML parser."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from tests.integrations.conftest import NOLAN_MOVIES, QUESTION

if TYPE_CHECKING:
    from graphwalk_neo4j.integrations.walker import GraphWalker

SVG = "{http://www.w3.org/2000/svg}"


def test_a_real_walk_renders(walker: GraphWalker) -> None:
    outcome = walker.walk(QUESTION)
    root = ET.fromstring(outcome._repr_html_())
    answers = root.find("ol[@class='gw-answers']")
    assert answers is not None
    assert sorted("".join(li.itertext()).split(" (Movie)")[0] for li in answers) == NOLAN_MOVIES
    svg = root.find(f"{SVG}svg")
    assert svg is not None
    assert [g.findtext(f"{SVG}text") for g in svg.findall(f"{SVG}g")] == ["Christopher Nolan", *NOLAN_MOVIES]
    body = root.find("details/table/tbody")
    assert body is not None
    rows = [["".join(td.itertext()) for td in tr] for tr in body]
    chosen = [r for r in rows if r[-1] == "chosen"]
    assert chosen == [
        [
            "1",
            "b0",
            "Christopher Nolan",
            "movies directed by this person (<--directed_by--) — leads to 3 nodes: Inception (Movie), Memento (Movie), "
            "The Prestige (Movie)",
            "1.000",
            "chosen",
        ],
        ["2", "b0", ", ".join(NOLAN_MOVIES), "STOP", "1.000", "chosen"],
    ]
    not_taken = [r[3].split(" (")[0] for r in rows if r[-1] != "chosen"]
    assert not_taken == ["movies written by this person", "has genre", "in language", "release year", "starred actors"]
