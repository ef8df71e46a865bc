"""Adopt a user's own graph (the Movies-like fixture, plain Cypher) in the real Neo4j: the proposed profile,
additive writes (checksum before adopt == after undo), idempotence, resume, the walk over it (linking, expansion
with relationship properties and awkward shapes, property answers), embeddings, live writes, traces."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.admission import walk_call
from graphwalk_neo4j.adopt.apply import adopt_graph, undo_graph
from graphwalk_neo4j.adopt.introspect import introspect
from graphwalk_neo4j.adopt.propose import propose
from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.decide.local import LocalDecider
from graphwalk_neo4j.embed import MiniLMEmbedder
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.graph.profile import GraphProfile, graph_counts, graph_schema, load_profile
from graphwalk_neo4j.graph.search import search_entities
from graphwalk_neo4j.ingest.structured import ingest_file
from graphwalk_neo4j.store import GraphStore, template
from graphwalk_neo4j.stored_walks.read import get_walk
from graphwalk_neo4j.walk.config import get_preset
from graphwalk_neo4j.walk.graph_expander import Neo4jExpander
from graphwalk_neo4j.walk.ports import ExpandRequest
from graphwalk_neo4j.walk.service import WalkService
from tests.integration.movies_fixture import MOVIES, MoviesGraph, checksum, create_movies, drop_movies
from tests.standins.progress import RecordingProgress

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from graphwalk_neo4j.decide.base import ChoiceQuestion


@pytest.fixture
async def movies(store: GraphStore, graph_name: str) -> AsyncIterator[MoviesGraph]:
    g = await create_movies(store, graph_name)
    try:
        yield g
    finally:
        await undo_graph(store, graph_name)
        await drop_movies(store, g)


async def proposed(store: GraphStore, graph: str, g: MoviesGraph, **kw: object) -> GraphProfile:
    intro = await introspect(store, labels=g.labels)
    return propose(intro, graph, labels=g.labels, types=g.types, **kw)  # type: ignore[arg-type]


async def namespace_snapshot(store: GraphStore, g: MoviesGraph) -> list[dict[str, Any]]:
    """Every fixture node with all its labels and properties (ours included), for 'nothing changed' checks."""
    return await store.query(
        "MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels) RETURN elementId(n) AS id, "
        "apoc.coll.sort(labels(n)) AS labels, properties(n) AS props ORDER BY id",
        {"labels": g.labels},
        read=True,
    )


async def test_profile_proposal_reads_the_users_schema(store: GraphStore, graph_name: str, movies: MoviesGraph) -> None:
    profile = await proposed(store, graph_name, movies)
    person, movie = profile.label(movies.person), profile.label(movies.movie)
    assert person is not None
    assert movie is not None
    assert [lp.label for lp in profile.labels] == [movies.person, movies.movie, movies.director, movies.studio]
    assert person.count == 17
    assert movie.count == 5
    assert (person.type, person.name_props, person.answer_props) == ("Person", ["name"], ["born"])
    assert (movie.name_props, movie.text_props, movie.answer_props) == (["title"], ["tagline"], ["released", "tagline"])
    moves = {m.type: m for m in profile.moves}
    assert set(moves) == {"ACTED_IN", "DIRECTED", "PRODUCED", "WROTE", "REVIEWED", "FOLLOWS", movies.distributed}
    assert moves["ACTED_IN"].props == ["roles"]
    assert moves["REVIEWED"].props == ["rating", "summary"]
    assert moves["ACTED_IN"].words == "acted in"
    assert moves["ACTED_IN"].count == 13
    excluded = await proposed(store, graph_name, movies, exclude_rels=["FOLLOWS"])
    assert "FOLLOWS" not in {m.type for m in excluded.moves}
    assert [s.name for s in excluded.skipped if s.kind == "relationship"] == ["FOLLOWS"]
    with pytest.raises(ConfigError, match="label 'Nope' has no nodes"):
        propose(await introspect(store, labels=movies.labels), graph_name, labels=["Nope"])


async def test_relationship_properties_are_read_from_the_adopted_labels_only(
    store: GraphStore, graph_name: str, movies: MoviesGraph
) -> None:
    """Another graph in the same database uses the same relationship type with other properties; the sample that
    says which properties a move shows must come from the adopted labels' relationships, not from theirs."""
    other = await create_movies(store, graph_name + "_other")
    try:
        await store.query(f"MATCH (:{other.person})-[r:ACTED_IN]->() SET r.stunt_double = true, r.roles = null", {})
        intro = await introspect(store, labels=movies.labels)
        acted = next(rs for rs in intro.rels if rs.type == "ACTED_IN")
        assert acted.props == {"roles": 1.0}
    finally:
        await drop_movies(store, other)


async def test_adopt_is_additive_idempotent_and_undo_restores_everything(
    store: GraphStore, graph_name: str, movies: MoviesGraph
) -> None:
    before = await checksum(store, movies)
    profile = await proposed(store, graph_name, movies)
    plan = await adopt_graph(store, profile, dry_run=True)
    assert plan.scanned == 23
    assert plan.marked == 0
    assert await checksum(store, movies) == before, "--dry-run wrote something"
    first = await adopt_graph(store, profile, batch_size=7)
    assert (first.marked, first.batches, first.unnamed) == (23, 4, 1)
    assert await checksum(store, movies) != before
    snap = await namespace_snapshot(store, movies)
    managed = [r for r in snap if "Entity" in r["labels"]]
    assert len(managed) == 1
    assert "GwAdopted" not in managed[0]["labels"]
    assert not [k for k in managed[0]["props"] if k.startswith("gw_")]
    user_keys = {k for r in snap for k in r["props"] if not k.startswith("gw_")}
    assert user_keys <= {"name", "born", "title", "released", "tagline", "graph", "uid", "id", "name_lc", "type"}
    listed = {r["graph"]: r["entities"] for r in await store.read("graph/list_graphs")}
    assert listed[graph_name] == 23  # the service's graph list shows adopted graphs too
    second = await adopt_graph(store, profile, batch_size=7)
    assert (second.marked, second.unchanged, second.batches, second.released) == (0, 23, 0, 0)
    assert await namespace_snapshot(store, movies) == snap, "adopting twice changed something"
    undone = await undo_graph(store, graph_name)
    assert undone.released == 23
    assert undone.profile_deleted == 1
    assert await checksum(store, movies) == before
    assert (await load_profile(store, graph_name)).kind == "ingested"  # no stored profile left


async def test_interrupted_adopt_resumes_where_it_stopped(
    store: GraphStore, graph_name: str, movies: MoviesGraph
) -> None:
    profile = await proposed(store, graph_name, movies)

    class Interrupt(Exception):
        pass

    class StopAfterTwo(RecordingProgress):
        def advance(self, label: str, done: int, total: int) -> None:
            super().advance(label, done, total)
            if done >= 10:
                raise Interrupt

    stop_after_two = StopAfterTwo()
    with pytest.raises(Interrupt):
        await adopt_graph(store, profile, batch_size=5, progress=stop_after_two)
    assert stop_after_two.updates == [("adopt", 5, 23), ("adopt", 10, 23)]
    resumed = await adopt_graph(store, profile, batch_size=5)
    assert (resumed.unchanged, resumed.marked) == (10, 13)


async def test_expansion_over_the_users_graph(store: GraphStore, graph_name: str, movies: MoviesGraph) -> None:
    profile = await proposed(store, graph_name, movies)
    await adopt_graph(store, profile)
    ex = Neo4jExpander(store, graph_name, profile=profile)
    matrix = (await search_entities(store, graph_name, "The Matrix", k=1, profile=profile))[0]
    assert matrix.name == "The Matrix"
    assert matrix.reasons[0] == "exact name"
    [exp] = await ex.expand([ExpandRequest(beam_key="b", node_ids=(matrix.id,))])
    rows = {(o.relation, o.direction, o.target.name): o for o in exp.options}
    assert rows[("ACTED_IN", "in", "Keanu Reeves")].description == "roles: Neo"
    # multi-label (Person and Director): of the kind DIRECTED most often starts from
    assert rows[("DIRECTED", "in", "Lana Wachowski")].target.type == "Person"
    assert rows[(movies.distributed, "out", "Warner Bros.")].target.type == "Studio"
    assert rows[("released", "out", "1999")].target.value == 1999
    reviews = sorted(o.description or "" for o in exp.options if o.relation == "REVIEWED")
    assert reviews == [
        "rating: 88, summary: A second look: the action holds up",
        "rating: 92, summary: Still sharp after many viewings",
    ]  # parallel relationships
    # A value has no moves; a self-loop and a node without a name expand without trouble.
    [val] = await ex.expand([ExpandRequest(beam_key="v", node_ids=(rows[("released", "out", "1999")].target.id,))])
    assert val.options == ()
    james = (await search_entities(store, graph_name, "James Thompson", k=1, profile=profile))[0]
    [loop] = await ex.expand([ExpandRequest(beam_key="j", node_ids=(james.id,), exclude_ids=())])
    assert ("FOLLOWS", "out", "James Thompson") in {(o.relation, o.direction, o.target.name) for o in loop.options}
    few = (await search_entities(store, graph_name, "A Few Good Men", k=1, profile=profile))[0]
    [rel] = await ex.expand([ExpandRequest(beam_key="f", hop_mode="relation", node_ids=(few.id,))])
    acted = next(o for o in rel.options if o.relation == "ACTED_IN")
    assert any(t.name.startswith("<Person without name #") for t in acted.targets)
    assert acted.description is not None
    assert acted.description.startswith("e.g. roles: ")
    # graphwalk's own :Entity:Person 'Keanu Reeves' is never a neighbour or a search hit
    keanus = await search_entities(store, graph_name, "Keanu Reeves", k=5, profile=profile)
    assert [h.name for h in keanus] == ["Keanu Reeves"]
    assert ":" in keanus[0].id


async def test_acceptance_walks_with_the_local_decider(store: GraphStore, graph_name: str, movies: MoviesGraph) -> None:
    await adopt_graph(store, await proposed(store, graph_name, movies))
    embedder = MiniLMEmbedder()
    report = await embed_graph(store, embedder, graph_name)
    assert (report.scanned, report.embedded) == (23, 23)
    again = await embed_graph(store, embedder, graph_name)
    assert (again.embedded, again.skipped) == (0, 23)
    service = WalkService(store, graph_name, LocalDecider(embedder), embedder=embedder)
    directed = await service.walk("who directed The Matrix", get_preset("relation"))
    assert directed.result.status == "ok"
    assert sorted(directed.result.answer_names) == ["Lana Wachowski", "Lilly Wachowski"]
    # the default walk (what every door runs with no options) answers both as well
    asked = walk_call("who directed The Matrix", graph=graph_name)
    default = await service.walk(asked.question, asked.config)
    assert sorted(default.result.answer_names) == ["Lana Wachowski", "Lilly Wachowski"]
    for preset in ("greedy", "relation"):
        born = await service.walk("when was Keanu Reeves born", get_preset(preset))
        top = born.result.answers[0]
        assert (top.name, top.value) == ("1964", 1964), preset
        assert born.bundle()["answers"][0]["value"] == 1964
    stored = await get_walk(store, graph_name, born.result.walk_id)
    assert [(a.name, a.value, a.rank) for a in stored.answers][:1] == [("1964", 1964, 1)]
    assert stored.steps[0].chosen_relation == "born"
    released = await service.walk("what year was The Matrix released", get_preset("greedy"))
    assert released.result.answers[0].value == 1999
    # a vector index over every adopted label: a paraphrase finds the tagline's movie
    hits = await search_entities(store, graph_name, "hacker finds out the world is simulated", k=3, embedder=embedder)
    assert "The Matrix" in [h.name for h in hits]


async def test_live_writes_after_adoption_are_walkable(store: GraphStore, graph_name: str, movies: MoviesGraph) -> None:
    profile = await proposed(store, graph_name, movies)
    await adopt_graph(store, profile)
    embedder = FakeEmbedder()
    service = WalkService(store, graph_name, _Scripted(), embedder=embedder)
    await store.query(
        f"MATCH (p:`{movies.person}` {{name: 'Lana Wachowski'}}) "
        f"CREATE (p)-[:DIRECTED]->(:`{movies.movie}` {{title: 'Sense8 Pilot', released: 2015}})",
        {},
    )
    outcome = await service.walk(
        "which movies did Lana Wachowski direct", get_preset("relation"), start=["Lana Wachowski"]
    )
    assert "Sense8 Pilot" in outcome.result.answer_names  # expansion reads the live graph, no refresh needed
    assert not await search_entities(store, graph_name, "Sense8 Pilot", profile=profile)
    refreshed = await adopt_graph(store, profile)  # `adopt --refresh`: the new node becomes linkable too
    assert (refreshed.marked, refreshed.unchanged) == (1, 23)
    assert [h.name for h in await search_entities(store, graph_name, "Sense8 Pilot", profile=profile)] == [
        "Sense8 Pilot"
    ]
    await store.query(f"MATCH (m:`{movies.movie}` {{title: 'Sense8 Pilot'}}) DETACH DELETE m", {})
    gone = await service.walk(
        "which movies did Lana Wachowski direct", get_preset("relation"), start=["Lana Wachowski"]
    )
    assert "Sense8 Pilot" not in gone.result.answer_names
    assert "The Matrix" in gone.result.answer_names


def _directed_then_stop(question: ChoiceQuestion, _state: object) -> str:
    """Follow DIRECTED out of the start, then stop (a deterministic decider for the live-graph test)."""
    if isinstance(question.instructions, dict) and question.instructions.get("path"):
        return "STOP"
    return next(label for label, text in question.options.items() if "--DIRECTED-->" in str(text))


def _Scripted() -> FakeBackend:
    return FakeBackend(answer=_directed_then_stop)


async def test_ingested_attributes_are_answers_too(store: GraphStore, graph_name: str, tmp_path) -> None:
    kb = tmp_path / "kb.jsonl"
    kb.write_text(
        '{"subject": "Keanu Reeves", "relation": "starred_in", "object": "The Matrix", "attributes": {"born": 1964}}\n'
    )
    await ingest_file(store, kb, graph=graph_name)
    ex = Neo4jExpander(store, graph_name)
    keanu = (await search_entities(store, graph_name, "Keanu Reeves", k=1))[0]
    [exp] = await ex.expand([ExpandRequest(beam_key="k", node_ids=(keanu.id,))])
    assert [(o.relation, o.target.name, o.target.value) for o in exp.options] == [
        ("starred_in", "The Matrix", None),
        ("born", "1964", 1964),
    ]
    backend = FakeBackend(by_instruction={"Keanu Reeves": {"o2": 1.0}, "born": "STOP"})
    outcome = await WalkService(store, graph_name, backend).walk("when was Keanu Reeves born", get_preset("greedy"))
    assert [(a.name, a.value) for a in outcome.result.answers] == [("1964", 1964)]


async def _recipe(store: GraphStore, name: str, **params: object) -> list[dict[str, Any]]:
    tmpl = template(f"recipes/{name}")
    rows = await store.query(tmpl.body, dict(params), read=True)
    assert all(tuple(r) == tmpl.returns for r in rows), f"{name}: columns differ from its header"
    return rows


async def test_browser_recipes_draw_the_users_own_nodes(
    store: GraphStore, graph_name: str, movies: MoviesGraph
) -> None:
    """The trace of a walk over an adopted graph has no relationships to the user's nodes; draw_walk,
    replay_walk and walk_options find them by the element ids the trace keeps and draw virtual links."""
    profile = await proposed(store, graph_name, movies)
    await adopt_graph(store, profile)
    service = WalkService(store, graph_name, _Scripted(), embedder=FakeEmbedder())
    outcome = await service.walk(
        "which movies did Lana Wachowski direct", get_preset("relation"), start=["Lana Wachowski"]
    )
    result = outcome.result
    assert sorted(result.answer_names) == ["The Matrix", "The Matrix Reloaded", "The Matrix Revolutions"]
    ids = {
        r["title"] or r["name"]: r["id"]
        for r in await store.query(
            "MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels) AND NOT n:Entity "
            "RETURN elementId(n) AS id, n.name AS name, n.title AS title",
            {"labels": movies.labels},
            read=True,
        )
        if r["title"] or r["name"]
    }
    matrices = sorted(ids[t] for t in ("The Matrix", "The Matrix Reloaded", "The Matrix Revolutions"))
    lana = ids["Lana Wachowski"]

    [drawn] = await _recipe(store, "draw_walk", walkId=result.walk_id)
    assert [p.end_node.element_id for p in drawn["start"]] == [lana]
    assert movies.person in drawn["start"][0].end_node.labels
    assert "Entity" not in drawn["start"][0].end_node.labels
    hops = [(p.start_node.element_id, p.relationships[0]["relation"], p.end_node.element_id) for p in drawn["hops"]]
    assert sorted(hops) == [(lana, "DIRECTED", m) for m in matrices]
    assert sorted(p.end_node.element_id for p in drawn["answered"]) == matrices
    assert [p.relationships[0]["rank"] for p in drawn["answered"]] == [1, 2, 3]
    assert {p.end_node["title"] for p in drawn["answered"]} == set(result.answer_names)

    replay = await _recipe(store, "replay_walk", walkId=result.walk_id)
    assert [p.end_node.element_id for p in replay[0]["stood_on"]] == [lana]
    assert sorted(p.end_node.element_id for p in replay[0]["chose"]) == matrices
    assert all(sorted(p.end_node.element_id for p in r["answers"]) == matrices for r in replay)

    # a property answer has no node: the picture shows where the walk went, the answer stays a value
    born = await WalkService(store, graph_name, _born_then_stop(), embedder=FakeEmbedder()).walk(
        "when was Keanu Reeves born", get_preset("greedy"), start=["Keanu Reeves"]
    )
    assert born.result.answer_names == ["1964"]
    [value] = await _recipe(store, "draw_walk", walkId=born.result.walk_id)
    assert [p.end_node.element_id for p in value["start"]] == [ids["Keanu Reeves"]]
    assert (value["hops"], value["answered"], value["answers"]) == ([], [], ["1964"])
    options = await _recipe(store, "walk_options", walkId=born.result.walk_id)
    assert [p.end_node.element_id for p in options[0]["stood_on"]] == [ids["Keanu Reeves"]]
    offered = sorted((p.relationships[0]["relation"], p.end_node["title"]) for p in options[0]["offered"])
    assert offered == [("ACTED_IN", t) for t in sorted(m for m, _, _ in MOVIES if m != "A Few Good Men")]


def _born_then_stop() -> FakeBackend:
    """Take Keanu Reeves' ``born`` value, then stop."""

    def pick(question: ChoiceQuestion, _state: object) -> str:
        return next((label for label, text in question.options.items() if "born" in str(text)), "STOP")

    return FakeBackend(answer=pick)


async def test_graph_counts_of_an_adopted_graph(store: GraphStore, graph_name: str, movies: MoviesGraph) -> None:
    profile = await proposed(store, graph_name, movies)
    await adopt_graph(store, profile)
    # 17 people (one without a name) + 5 movies + 1 studio; graphwalk's own :Entity:Person is not one of them
    # 13 ACTED_IN + 8 DIRECTED + 3 PRODUCED + 1 WROTE + 3 REVIEWED + 2 FOLLOWS + 3 DISTRIBUTED BY
    assert await graph_counts(store, graph_name) == {"entities": 23, "relationships": 33}
    assert await graph_schema(store, graph_name) == {  # the MCP graph_schema tool and GET /v1/graphs read these
        # Lana and Lilly are Person and Director: counted once, under their first profile label
        "entity_types": [
            {"type": "Person", "count": 17},
            {"type": "Movie", "count": 5},
            {"type": "Studio", "count": 1},
        ],
        "relation_types": [
            {"relation": r, "count": n}
            for r, n in [
                ("ACTED_IN", 13),
                ("DIRECTED", 8),
                (movies.distributed, 3),
                ("PRODUCED", 3),
                ("REVIEWED", 3),
                ("FOLLOWS", 2),
                ("WROTE", 1),
            ]
        ],
    }
    await store.query(
        f"MATCH (p:`{movies.person}` {{name: 'Rob Reiner'}}) "
        f"CREATE (p)-[:DIRECTED]->(:`{movies.movie}` {{title: 'Misery'}})",
        {},
    )
    assert await graph_counts(store, graph_name) == {"entities": 24, "relationships": 34}  # live, before a refresh
    await undo_graph(store, graph_name)
    assert await graph_counts(store, graph_name) == {"entities": 0, "relationships": 0}  # no profile: ingested


async def test_a_multi_label_node_is_of_the_kind_its_move_reaches(store: GraphStore, graph_name: str) -> None:
    """A film titled '1984' that is also the year 1984 (one node, two labels, as a user's load by name makes
    it): reached along RELEASED_IN it is a Year, along SEQUEL_OF a Film, in both entity and relation hops."""
    sfx = uuid.uuid4().hex[:8]
    film, year = f"Film_{sfx}", f"Year_{sfx}"
    await store.query(
        f"CREATE (a:`{film}` {{title: 'Nineteen'}}), (b:`{film}` {{title: 'Sequel'}}), "
        f"(c:`{film}` {{title: 'Other'}}), (y:`{film}`:`{year}` {{title: '1984', name: '1984'}}), "
        f"(z:`{year}` {{name: '1985'}}), "
        "(a)-[:RELEASED_IN]->(y), (c)-[:RELEASED_IN]->(z), (b)-[:RELEASED_IN]->(z), (y)-[:RELEASED_IN]->(z), "
        "(b)-[:SEQUEL_OF]->(y)",
        {},
    )
    try:
        intro = await introspect(store, labels=[film, year])
        profile = propose(intro, graph_name, labels=[film, year], types={film: "Film", year: "Year"})
        assert [lp.label for lp in profile.labels] == [film, year]  # 4 films, 2 years: Film is the first label
        assert profile.move("RELEASED_IN").to_labels == [year, film]  # type: ignore[union-attr]
        await adopt_graph(store, profile)
        ex = Neo4jExpander(store, graph_name, profile=profile)
        hits = {h.name: h for h in await search_entities(store, graph_name, "Nineteen", k=1, profile=profile)}
        sequel = (await search_entities(store, graph_name, "Sequel", k=1, profile=profile))[0]
        [one] = await ex.expand([ExpandRequest(beam_key="a", node_ids=(hits["Nineteen"].id,))])
        assert [(o.relation, o.target.name, o.target.type) for o in one.options] == [("RELEASED_IN", "1984", "Year")]
        [two] = await ex.expand([ExpandRequest(beam_key="b", node_ids=(sequel.id,))])
        kinds = sorted((o.relation, o.target.name, o.target.type) for o in two.options)
        assert kinds == [("RELEASED_IN", "1985", "Year"), ("SEQUEL_OF", "1984", "Film")]
        [rel] = await ex.expand([ExpandRequest(beam_key="r", hop_mode="relation", node_ids=(sequel.id,))])
        moves = sorted((o.relation, [(t.name, t.type) for t in o.targets]) for o in rel.options)
        assert moves == [("RELEASED_IN", [("1985", "Year")]), ("SEQUEL_OF", [("1984", "Film")])]
    finally:
        await undo_graph(store, graph_name)
        await store.query(f"MATCH (n) WHERE n:`{film}` OR n:`{year}` DETACH DELETE n", {})
