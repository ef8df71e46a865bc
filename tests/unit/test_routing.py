"""Routing without Neo4j: option cards and requests, exact matching, decisions, escalation and fallbacks."""

from __future__ import annotations

from typing import Any

import pytest

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.errors import DecisionError
from graphwalk_neo4j.ingest.extraction import Mention
from graphwalk_neo4j.ingest.routing import NEW, Candidate, Router, build_request, exact_match
from tests.helpers import json_object

LIGHT = Candidate(
    uid="g:e1",
    name="Harrow Point Lighthouse",
    type="Lighthouse",
    aliases=["the Harrow light"],
    summary="A white tower.",
    relations=["-located_in-> Saltmere"],
)
TOWN = Candidate(uid="g:e2", name="Saltmere", type="Town")
TOWN_ORG = Candidate(uid="g:e3", name="saltmere", type="Organization")


def test_cards_and_request() -> None:
    mention = Mention(name="Harrow Point Light", type="Lighthouse", description="A granite tower.")
    request = build_request("The passage.", [(2, mention, [LIGHT, TOWN])])
    assert request.state == {"passage": "The passage."}
    [question] = request.questions
    assert question.key == "m2"
    assert json_object(question.instructions)["mention"] == {
        "name": "Harrow Point Light",
        "type": "Lighthouse",
        "description": "A granite tower.",
    }
    assert list(question.options) == ["c1", "c2", NEW]
    assert question.options["c1"] == {
        "name": "Harrow Point Lighthouse",
        "type": "Lighthouse",
        "aliases": ["the Harrow light"],
        "summary": "A white tower.",
        "relations": ["-located_in-> Saltmere"],
    }
    assert question.options["c2"] == {"name": "Saltmere", "type": "Town"}


def test_exact_match_prefers_same_type_then_name() -> None:
    assert exact_match(Mention(name="SALTMERE", type="Town"), [TOWN_ORG, TOWN]) is TOWN
    assert exact_match(Mention(name="Saltmere", type="Organization"), [TOWN, TOWN_ORG]) is TOWN_ORG
    assert exact_match(Mention(name="the harrow  light"), [TOWN, LIGHT]) is LIGHT
    assert exact_match(Mention(name="Harrow"), [TOWN, LIGHT]) is None


class Offline(Router):
    """A router whose candidates come from a table instead of Neo4j."""

    def __init__(self, table: dict[str, list[Candidate]], **kwargs: Any) -> None:
        super().__init__(store=None, graph="g", **kwargs)  # type: ignore[arg-type]
        self.table = table

    async def candidates(self, mentions: Any) -> list[list[Candidate]]:
        return [list(self.table.get(m.name, [])) for m in mentions]


MENTIONS = [
    Mention(name="Harrow Point Light", type="Lighthouse"),
    Mention(name="Saltmere", type="Town"),
    Mention(name="Kestle Quarry", type="Quarry"),
]
TABLE = {"Harrow Point Light": [LIGHT], "Saltmere": [TOWN, TOWN_ORG]}


async def test_one_request_per_chunk_and_no_call_without_candidates() -> None:
    decider = FakeBackend(script={"m0": "c1", "m1": {"c1": 0.9, "c2": 0.05, NEW: 0.05}})
    router = Offline(TABLE, decider=decider)
    routes = await router.route("passage", MENTIONS)
    assert [(r.target, r.method, r.confidence) for r in routes] == [
        ("g:e1", "decided", 1.0),
        ("g:e2", "decided", 0.9),
        (None, "no-candidates", 1.0),
    ]
    assert len(decider.requests) == 1
    assert [q.key for q in decider.requests[0].questions] == ["m0", "m1"]
    assert (router.stats.questions, router.stats.decision_calls, router.stats.merged, router.stats.new) == (2, 1, 2, 1)


async def test_low_confidence_goes_to_the_adjudicator() -> None:
    decider = FakeBackend(script={"m0": {"c1": 0.5, NEW: 0.5}, "m1": "c1"})
    adjudicator = FakeBackend(script={"m0": NEW})
    router = Offline(TABLE, decider=decider, adjudicator=adjudicator)
    routes = await router.route("passage", MENTIONS)
    assert [(r.target, r.method) for r in routes[:2]] == [(None, "adjudicated"), ("g:e2", "decided")]
    assert [q.key for q in adjudicator.requests[0].questions] == ["m0"]
    assert router.stats.escalations == 1


async def test_failed_adjudicator_keeps_the_decision() -> None:
    decider = FakeBackend(script={"m0": {"c1": 0.55, NEW: 0.45}, "m1": "c1"})
    adjudicator = FakeBackend()
    adjudicator.fail_with(DecisionError("LLM down"))
    router = Offline(TABLE, decider=decider, adjudicator=adjudicator)
    routes = await router.route("passage", MENTIONS)
    assert (routes[0].target, routes[0].method, routes[0].confidence) == ("g:e1", "decided", 0.55)
    assert router.stats.warnings == ["adjudicator failed (LLM down); kept the decider's low-confidence choices"]


@pytest.mark.parametrize("setup", ["no-decider", "exact-mode", "decider-down"])
async def test_exact_names_only_without_a_working_decider(setup: str) -> None:
    decider = FakeBackend(script={"m0": "c1", "m1": "c1"})
    if setup == "decider-down":
        decider.fail_with(DecisionError("Jev unreachable"))
    router = Offline(
        TABLE, decider=None if setup == "no-decider" else decider, mode="exact" if setup == "exact-mode" else "decide"
    )
    routes = await router.route("passage", MENTIONS)
    assert [r.target for r in routes] == [None, "g:e2", None]
    if setup == "decider-down":
        assert [r.method for r in routes] == ["fallback-exact", "fallback-exact", "no-candidates"]
        assert router.stats.warnings == ["decision backend failed (Jev unreachable); merged on exact names only"]
        assert router.stats.fallbacks == 2
    else:
        assert decider.requests == []
        assert router.stats.decision_calls == 0
