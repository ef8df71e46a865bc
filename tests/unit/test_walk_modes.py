"""Relation hops (frontier answers, a beam's best path's set, frontier cap), sampled walks with votes, temperature and
top-p, the answer-type hint, and the context bundle."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.decide.base import ChoiceResult, DecisionRequest, DecisionResponse, Usage
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.engine import WalkEngine
from graphwalk_neo4j.walk.memory import InMemoryExpander
from graphwalk_neo4j.walk.ports import NodeRef
from graphwalk_neo4j.walk.sampling import walk_rng
from graphwalk_neo4j.walk.trace_sinks import RecordingTraceSink
from tests import helpers
from tests.helpers import FILM_EDGES, FILM_NODES, json_object

if TYPE_CHECKING:
    from collections.abc import Mapping

    from graphwalk_neo4j.walk.result import WalkResult

L = math.log

NOLAN = NodeRef(id="nolan", name="Christopher Nolan", type="person", summary="director", properties={"born": 1970})
NODES = [
    *(NOLAN if n.id == "nolan" else n for n in FILM_NODES),
    NodeRef(id="q1", name="Q", type="t"),
    NodeRef(id="x", name="X", type="t"),
    NodeRef(id="y", name="Y", type="t"),
    NodeRef(id="z", name="Z", type="t"),
]
BY_ID = {n.id: n for n in NODES}
EDGES = [
    *FILM_EDGES,
    ("q1", "r1", "x"),
    ("q1", "r1", "y"),
    ("q1", "r2", "y"),
    ("q1", "r2", "z"),
]


class ScriptedBackend(helpers.ScriptedBackend):
    """The shared scripted backend with a flat usage per request: 50 input / 5 output tokens, 0.1 s."""

    def response(self, results: dict[str, ChoiceResult], request: DecisionRequest) -> DecisionResponse:
        return DecisionResponse(results=results, usage=Usage(input_tokens=50, output_tokens=5), latency_s=0.1)


def engine(
    script: Mapping[str, Mapping[str, float]], config: WalkConfig
) -> tuple[WalkEngine, InMemoryExpander, ScriptedBackend, RecordingTraceSink]:
    expander, backend, sink = InMemoryExpander(NODES, EDGES), ScriptedBackend(script), RecordingTraceSink()
    return WalkEngine(expander, backend, sink, config), expander, backend, sink


FILMS = "2 nodes: Memento (film), Inception (film)"

# --- relation hops -----------------------------------------------------------------------------------------


async def test_relation_mode_forced_move_then_frontier_answer() -> None:
    script = {FILMS: {"--release_year-->": 0.9, "--starred_actors-->": 0.05, "--written_by-->": 0.05}}
    walker, expander, backend, sink = engine(script, WalkConfig(hop_mode="relation"))
    result = await walker.run("When were Nolan's films released?", [NOLAN], walk_id="w")
    assert result.status == "ok"
    # depth 1: one relation (directed_by, inverse) and no STOP at the start -> forced move to both films
    # depth 2: release_year chosen at 0.9; depth 3: the years are dead ends -> forced STOP
    assert [(a.node_id, a.rank, a.score) for a in result.answers] == [
        ("y2000", 1, L(0.9) / 2),
        ("y2010", 2, L(0.9) / 2),
    ]
    assert result.totals.decision_calls == 1
    assert expander.calls == 3
    request = expander.requests[1][0]
    assert (request.hop_mode, request.node_ids) == ("relation", ("memento", "inception"))
    assert request.exclude_ids == ("inception", "memento", "nolan")
    assert list(backend.requests[0].questions[0].options) == ["o1", "o2", "o3", "STOP"]
    d1, d2, d3 = sink.depths
    assert (d1.steps[0].kind, d1.steps[0].chosen_relation, d1.steps[0].chosen_direction) == (
        "forced_move",
        "directed_by",
        "in",
    )
    assert d1.steps[0].chosen_target_ids == ["memento", "inception"]
    years = d2.steps[0].options[2]
    assert (years.relation, years.target_ids, years.count) == ("release_year", ["y2000", "y2010"], 2)
    assert d3.steps[0].kind == "forced_stop"
    assert d3.steps[0].node_ids == ["y2000", "y2010"]
    assert result.best_path is not None
    assert result.best_path.describe() == (
        "Christopher Nolan <--directed_by-- Memento, Inception --release_year--> 2000, 2010 -> STOP"
    )


async def test_relation_beam_answers_with_the_best_paths_set_and_keeps_the_others_as_paths() -> None:
    script = {FILMS: {"--release_year-->": 0.6, "--starred_actors-->": 0.4}}
    walker, *_ = engine(script, WalkConfig(hop_mode="relation", strategy="beam", beam_width=2))
    result = await walker.run("q", [NOLAN])
    # one relation path ends on one answer set: the best one's, as eval scores it
    assert [(a.node_id, a.score) for a in result.answers] == [("y2000", L(0.6) / 2), ("y2010", L(0.6) / 2)]
    assert [a.rank for a in result.answers] == [1, 2]
    assert [[n.id for n in p.end] for p in result.paths] == [["y2000", "y2010"], ["pearce", "dicaprio"]]
    assert [p.score for p in result.paths] == [L(0.6) / 2, L(0.4) / 2]


async def test_a_relation_beam_with_a_stopped_walk_is_answered_though_others_are_cut_at_max_depth() -> None:
    script = {FILMS: {"--release_year-->": 0.6, "STOP": 0.4}}
    config = WalkConfig.model_validate({"hop_mode": "relation", "strategy": "beam", "beam_width": 2, "max_depth": 2})
    walker, *_ = engine(script, config)
    result = await walker.run("q", [NOLAN])
    assert result.status == "ok"
    assert result.stop_reason == "stop: a kept walk stopped; 1 other walk(s) still open at max_depth 2 were cut"
    assert [a.node_id for a in result.answers] == ["memento", "inception"]  # the stopped walk's set
    assert [(p.finished, [n.id for n in p.end]) for p in result.paths] == [
        (True, ["memento", "inception"]),
        (False, ["y2000", "y2010"]),
    ]
    # a greedy walk the limit cut is still a budget stop (an entity beam's too: test_walk_engine)
    greedy, *_ = engine(script, config.with_overrides(strategy="greedy"))
    assert (await greedy.run("q", [NOLAN])).status == "budget"


async def test_relation_beam_answers_a_node_two_paths_share_once_from_the_best_path() -> None:
    script = {"1 node: Q (t)": {"--r1-->": 0.7, "--r2-->": 0.3}}
    walker, *_ = engine(script, WalkConfig(hop_mode="relation", strategy="beam", beam_width=2))
    result = await walker.run("q", [BY_ID["q1"]])
    assert [(a.node_id, a.score, a.votes) for a in result.answers] == [("x", L(0.7) / 2, 1), ("y", L(0.7) / 2, 1)]
    assert [[n.id for n in p.end] for p in result.paths] == [["x", "y"], ["y", "z"]]


@pytest.mark.parametrize("strategy", ["greedy", "beam"])
async def test_a_relation_walk_does_not_make_a_move_again_onto_the_frontier_it_reached(strategy: str) -> None:
    # ana and bo were born in the city bo works in. Under exclude_scope="start" only ana is excluded, so from bo
    # --born_in--> reaches the city again, by the move the walk made first: offered, never taken. --works_in-->
    # lands on the same city by another relation, which may be the answer (who works where [X] was born)
    people = [NodeRef(id=i, name=n, type="person") for i, n in (("ana", "Ana"), ("bo", "Bo"))]
    nodes = [*people, NodeRef(id="city", name="Oslo", type="city"), NodeRef(id="town", name="Moss", type="town")]
    edges = [("ana", "born_in", "city"), ("bo", "born_in", "city"), ("bo", "works_in", "city")]
    edges += [("bo", "lives_in", "town")]
    there = {"--born_in-->": 0.5, "--works_in-->": 0.3, "--lives_in-->": 0.05, "STOP": 0.15}
    script = {"1 node: Oslo (city)": {"<--born_in--": 0.9, "<--works_in--": 0.0, "STOP": 0.1}}
    script |= {"1 node: Bo (person)": there, "2 nodes: Ana (person), Bo (person)": there}
    script |= {"1 node: Moss (town)": {"STOP": 1.0}}

    async def walk(config: WalkConfig) -> tuple[WalkResult, list[list[str | None]]]:
        walker = WalkEngine(InMemoryExpander(nodes, edges), ScriptedBackend(script), RecordingTraceSink(), config)
        result = await walker.run("q", [people[0]])
        return result, [[s.relation for s in p.steps if not s.is_stop] for p in result.paths]

    config = WalkConfig.model_validate(
        {"hop_mode": "relation", "strategy": strategy, "beam_width": 2, "exclude_scope": "start", "max_depth": 4}
    )
    result, hops = await walk(config)
    assert ["born_in", "born_in", "born_in"] not in hops
    if strategy == "greedy":  # works_in at 0.3, then the way back to bo (<--born_in-- again) refused: STOP
        assert (hops, [a.node_id for a in result.answers]) == ([["born_in", "born_in", "works_in"]], ["city"])
    # exclude_visited off: the walk makes the move again
    _, unruled = await walk(config.with_overrides(exclude_visited=False))
    assert ["born_in", "born_in", "born_in"] in [h[:3] for h in unruled]


async def test_a_relation_walk_does_not_undo_a_move_back_onto_the_frontier_it_left() -> None:
    # the suppliers from a country, the products they supply, and back along SUPPLIES to the same suppliers: an
    # undo, offered, never taken; the products' category is the next best
    nodes = [NodeRef(id="au", name="Australia", type="country"), NodeRef(id="s", name="Pavlova", type="supplier")]
    nodes += [NodeRef(id="p", name="Filo Mix", type="product"), NodeRef(id="c", name="Grains", type="category")]
    edges = [("s", "country", "au"), ("s", "SUPPLIES", "p"), ("p", "PART_OF", "c")]
    script = {"1 node: Pavlova (supplier)": {"--SUPPLIES-->": 1.0, "STOP": 0.0}}
    script |= {"1 node: Filo Mix (product)": {"<--SUPPLIES--": 0.6, "--PART_OF-->": 0.3, "STOP": 0.1}}
    script |= {"1 node: Grains (category)": {"STOP": 1.0}}
    walker = WalkEngine(
        InMemoryExpander(nodes, edges),
        ScriptedBackend(script),
        RecordingTraceSink(),
        WalkConfig(hop_mode="relation", exclude_scope="start"),
    )
    result = await walker.run("q", [nodes[0]])
    assert [s.relation for s in result.paths[0].steps if not s.is_stop] == ["country", "SUPPLIES", "PART_OF"]
    assert [a.node_id for a in result.answers] == ["c"]


async def test_relation_frontier_cap_limits_answers_and_is_traced() -> None:
    script = {"1 node: Memento (film)": {"--release_year-->": 1.0}}
    walker, _, _, sink = engine(script, WalkConfig(hop_mode="relation", max_frontier=1))
    result = await walker.run("q", [NOLAN])
    # the forced first hop is capped too: only Memento is kept, so release_year leads to 2000 only
    assert [a.node_id for a in result.answers] == ["y2000"]
    first = sink.depths[0].steps[0]
    assert first.chosen_target_ids == ["memento"]
    assert first.options[0].count == 2


# --- sampling ----------------------------------------------------------------------------------------------

WROTE_OR_DIRECTED = {
    "Memento (film)": {"Christopher Nolan": 0.5, "Jonathan Nolan": 0.5},
    "Christopher Nolan (person)": {"STOP": 1.0},
}
QUESTION = "Who wrote or directed Memento?"


async def test_sampled_walks_vote_with_their_own_seeded_generators() -> None:
    config = WalkConfig(hop_mode="entity", strategy="sample", n_samples=5, seed=0)
    walker, _, backend, _ = engine(WROTE_OR_DIRECTED, config)
    result = await walker.run(QUESTION, [BY_ID["memento"]])
    draws = ["nolan" if walk_rng(0, QUESTION, i).random() < 0.5 else "jnolan" for i in range(5)]
    assert draws == ["nolan", "jnolan", "nolan", "jnolan", "jnolan"]
    assert result.status == "ok"
    assert [(a.node_id, a.votes, a.rank, a.score) for a in result.answers] == [
        ("jnolan", 3, 1, L(0.5) / 2),
        ("nolan", 2, 2, L(0.5) / 2),
    ]
    # all five walks share one request per depth
    assert [len(r.questions) for r in backend.requests] == [5, 2]
    assert [q.key for q in backend.requests[0].questions] == ["s0", "s1", "s2", "s3", "s4"]
    assert sorted(p.sample for p in result.paths if p.sample is not None) == [0, 1, 2, 3, 4]

    again, *_ = engine(WROTE_OR_DIRECTED, config)
    assert (await again.run(QUESTION, [BY_ID["memento"]])).answers == result.answers


async def test_sampling_with_top_p_and_temperature_records_used_distribution() -> None:
    script = {
        "Memento (film)": {"Christopher Nolan": 0.6, "Jonathan Nolan": 0.4},
        "Christopher Nolan (person)": {"STOP": 1.0},
    }
    walker, _, _, sink = engine(script, WalkConfig(hop_mode="entity", strategy="sample", n_samples=3, top_p=0.5))
    result = await walker.run(QUESTION, [BY_ID["memento"]])
    assert [(a.node_id, a.votes) for a in result.answers] == [("nolan", 3)]
    step = sink.depths[0].steps[0]
    assert step.distribution == {"o1": 0.6, "o2": 0.4, "o3": 0.0, "o4": 0.0}
    assert step.used_distribution == {"o1": 1.0, "o2": 0.0, "o3": 0.0, "o4": 0.0}
    assert step.p == 0.6
    assert step.step_logp == L(0.6)

    walker, _, _, sink = engine(script, WalkConfig(hop_mode="entity", strategy="sample", n_samples=1, temperature=0.5))
    await walker.run(QUESTION, [BY_ID["memento"]])
    used = sink.depths[0].steps[0].used_distribution
    assert used == pytest.approx({"o1": 0.36 / 0.52, "o2": 0.16 / 0.52, "o3": 0.0, "o4": 0.0}, rel=1e-12)


async def test_sampling_at_temperature_zero_is_greedy_for_every_walk() -> None:
    script = {
        "Memento (film)": {"Christopher Nolan": 0.4, "Jonathan Nolan": 0.6},
        "Christopher Nolan (person)": {"STOP": 1.0},
    }
    walker, *_ = engine(script, WalkConfig(hop_mode="entity", strategy="sample", n_samples=4, temperature=0.0))
    result = await walker.run(QUESTION, [BY_ID["memento"]])
    assert [(a.node_id, a.votes) for a in result.answers] == [("jnolan", 4)]


# --- answer-type hint --------------------------------------------------------------------------------------


async def test_answer_type_question_rides_in_the_first_call_and_hints_later_questions() -> None:
    script = {
        "answer_type": {"person": 0.7, "film": 0.2, "year": 0.1},
        "Memento (film)": {"Christopher Nolan": 1.0},
        "Christopher Nolan (person)": {"STOP": 1.0},
    }
    walker, _, backend, sink = engine(script, WalkConfig(hop_mode="entity", answer_type="hint"))
    result = await walker.run("Who directed Memento?", [BY_ID["memento"]], answer_types=["film", "person", "year"])
    first, second = backend.requests
    assert [q.key for q in first.questions] == ["answer_type", "b0"]
    assert [q.key for q in second.questions] == ["b0"]
    assert "expected_answer_type" not in json_object(first.questions[1].instructions)
    assert json_object(second.questions[0].instructions)["expected_answer_type"] == ("The answer is probably a person.")
    assert result.answer_type == {"person": 0.7, "film": 0.2, "year": 0.1}
    assert [d.answer_type for d in sink.depths] == [result.answer_type, None]
    assert result.totals.decision_calls == 2
    assert result.totals.questions == 3


async def test_answer_type_hint_is_off_by_default_and_needs_two_types() -> None:
    script = {"Memento (film)": {"Christopher Nolan": 1.0}, "Christopher Nolan (person)": {"STOP": 1.0}}
    walker, _, backend, _ = engine(script, WalkConfig(hop_mode="entity"))
    await walker.run("q", [BY_ID["memento"]], answer_types=["film", "person"])
    walker2, _, backend2, _ = engine(script, WalkConfig(hop_mode="entity", answer_type="hint"))
    await walker2.run("q", [BY_ID["memento"]], answer_types=["film"])
    assert [q.key for r in backend.requests + backend2.requests for q in r.questions] == ["b0"] * 4


# --- context bundle ----------------------------------------------------------------------------------------


async def test_context_bundle_entity_walk() -> None:
    script = {
        "Memento (film)": {"Christopher Nolan": 0.9, "Jonathan Nolan": 0.1},
        "Christopher Nolan (person)": {"STOP": 0.8, "Inception": 0.2},
    }
    walker, *_ = engine(script, WalkConfig(hop_mode="entity"))
    result = await walker.run("Who directed Memento?", [BY_ID["memento"]], walk_id="w")
    score = (L(0.9) + L(0.8)) / 2
    bundle = result.context_bundle()
    assert bundle["walk_id"] == "w"
    assert bundle["goal"] == "Who directed Memento?"
    assert bundle["answers"] == [
        {
            "id": "nolan",
            "name": "Christopher Nolan",
            "type": "person",
            "value": None,
            "score": score,
            "rank": 1,
            "votes": 1,
        }
    ]
    assert bundle["nodes"] == [
        {
            "id": "nolan",
            "name": "Christopher Nolan",
            "type": "person",
            "relevance": math.exp(score),
            "hop": 1,
            "via": "Memento --directed_by--> Christopher Nolan",
            "properties": {"born": 1970, "summary": "director"},
        },
        {
            "id": "memento",
            "name": "Memento",
            "type": "film",
            "relevance": math.exp(score),
            "hop": 0,
            "via": None,
            "properties": {},
        },
    ]
    assert bundle["hops"] == 2
    assert bundle["stopped"] == "ok: stop: every kept walk stopped"
    assert bundle["usage"]["decision_calls"] == 2
    assert bundle["usage"]["input_tokens"] == 100
    assert (bundle["truncated"], bundle["truncated_moves"]) == (False, [])


async def test_context_bundle_relation_walk_reads_inverse_edges_and_caps_nodes() -> None:
    script = {FILMS: {"--release_year-->": 1.0}}
    walker, *_ = engine(script, WalkConfig(hop_mode="relation"))
    result = await walker.run("q", [NOLAN])
    bundle = result.context_bundle(max_nodes=3)
    assert [(n["id"], n["hop"], n["via"]) for n in bundle["nodes"]] == [
        ("y2000", 2, "Memento, Inception --release_year--> 2000"),
        ("y2010", 2, "Memento, Inception --release_year--> 2010"),
        ("nolan", 0, None),
    ]
    films = result.context_bundle()["nodes"][3:]
    assert [(n["id"], n["via"]) for n in films] == [
        ("memento", "Memento --directed_by--> Christopher Nolan"),
        ("inception", "Inception --directed_by--> Christopher Nolan"),
    ]
