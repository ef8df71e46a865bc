"""Pure parts of adopt and graph profiles: the proposal rules, name validation, value options and texts."""

from __future__ import annotations

import pytest

from graphwalk_neo4j.adopt.introspect import Introspection, LabelStats, PropStats, RelStats, labels_by_count
from graphwalk_neo4j.adopt.propose import name_candidates, propose
from graphwalk_neo4j.errors import ConfigError, InvalidIdentifierError
from graphwalk_neo4j.graph.profile import (
    ingested_profile,
    is_value_id,
    node_name,
    parse_name_overrides,
    relation_words,
    value_id,
    value_text,
)
from graphwalk_neo4j.identifiers import data_name
from graphwalk_neo4j.stored_walks.models import StoredWalk
from graphwalk_neo4j.walk.graph_expander import props_text, value_options


def prop(
    key: str,
    filled: int,
    distinct: int,
    types: list[str],
    avg_len: float | None = None,
    sampled: int = 100,
    unique: bool = False,
) -> PropStats:
    return PropStats(
        key=key, filled=filled, sampled=sampled, distinct=distinct, types=types, avg_len=avg_len, unique=unique
    )


def movies_intro() -> Introspection:
    person = LabelStats(
        label="Person",
        count=100,
        sampled=100,
        props={
            "name": prop("name", 98, 98, ["STRING NOT NULL"], 12.0),
            "born": prop("born", 90, 60, ["INTEGER NOT NULL"]),
            "personId": prop("personId", 100, 100, ["INTEGER NOT NULL"], unique=True),
            "nickname": prop("nickname", 2, 2, ["STRING NOT NULL"], 6.0),
        },
    )
    movie = LabelStats(
        label="Movie",
        count=40,
        sampled=40,
        props={
            "title": prop("title", 40, 40, ["STRING NOT NULL"], 14.0, sampled=40),
            "released": prop("released", 40, 20, ["INTEGER NOT NULL"], sampled=40),
            "tagline": prop("tagline", 36, 36, ["STRING NOT NULL"], 45.0, sampled=40),
            "plot": prop("plot", 30, 30, ["STRING NOT NULL"], 900.0, sampled=40),
        },
    )
    odd = LabelStats(label="Bad\nLabel", count=3, sampled=3, props={})
    tag = LabelStats(
        label="Tag", count=5, sampled=5, props={"weight": prop("weight", 5, 3, ["FLOAT NOT NULL"], sampled=5)}
    )
    rels = [
        RelStats(type="ACTED_IN", count=170, pairs=[(["Person"], ["Movie"], 170)], props={"roles": 1.0}),
        RelStats(type="DIRECTED", count=44, pairs=[(["Person"], ["Movie"], 44)]),
        RelStats(type="TAGGED", count=9, pairs=[(["Movie"], ["Tag"], 9)]),
    ]
    return Introspection(labels=[person, movie, odd, tag], rels=rels)


def test_proposal_picks_names_texts_answers_and_moves() -> None:
    profile = propose(movies_intro(), "movies", now="2026-01-01T00:00:00+00:00")
    assert [lp.label for lp in profile.labels] == ["Person", "Movie", "Tag"]
    person, movie, tag = profile.labels
    assert (person.name_props, person.text_props, person.answer_props) == (["name"], [], ["born"])
    assert (movie.name_props, movie.text_props, movie.answer_props) == (
        ["title"],
        ["plot", "tagline"],
        ["released", "tagline"],
    )
    assert (tag.name_props, tag.answer_props) == ([], ["weight"])
    assert [(m.type, m.words, m.props, m.from_labels, m.to_labels) for m in profile.moves] == [
        ("ACTED_IN", "acted in", ["roles"], ["Person"], ["Movie"]),
        ("DIRECTED", "directed", [], ["Person"], ["Movie"]),
        ("TAGGED", "tagged", [], ["Movie"], ["Tag"]),
    ]
    reasons = {s.name: s.reason for s in profile.skipped}
    assert reasons["Person.personId"] == "looks like an identifier"
    assert reasons["Person.nickname"] == "filled on 2% of the sample"
    assert reasons["Movie.plot"].startswith("long text (900 characters")
    assert "control character U+000A" in reasons["Bad\nLabel"]
    assert reasons["Tag.<name>"].startswith("no string property names most nodes")
    assert profile.created_at == "2026-01-01T00:00:00+00:00"
    assert profile.kind == "adopted"


def test_proposal_options() -> None:
    intro = movies_intro()
    only = propose(
        intro,
        "g",
        labels=["Person", "Movie"],
        exclude_rels=["ACTED_IN"],
        names={"Movie": ["tagline", "title"]},
        types={"Person": "actor"},
    )
    assert [m.type for m in only.moves] == ["DIRECTED"]
    assert only.label("Movie").name_props == ["tagline", "title"]  # type: ignore[union-attr]
    assert only.label("Person").type == "actor"  # type: ignore[union-attr]
    dropped = propose(intro, "g", exclude_labels=["Tag"])
    assert "TAGGED" not in [m.type for m in dropped.moves]
    with pytest.raises(ConfigError, match="label 'Film' has no nodes"):
        propose(intro, "g", labels=["Film"])
    with pytest.raises(ConfigError, match="no sampled Movie node has a 'name' property"):
        propose(intro, "g", names={"Movie": ["name"]})
    with pytest.raises(ConfigError, match="relationship type 'LIKES' does not join"):
        propose(intro, "g", exclude_rels=["LIKES"])
    with pytest.raises(ConfigError, match="nothing to adopt"):
        propose(intro, "g", labels=["Person"], exclude_labels=["Person"])


def test_name_candidates_prefer_known_keys_then_unique_then_fill() -> None:
    ls = LabelStats(
        label="X",
        count=10,
        props={
            "code": prop("code", 100, 100, ["STRING"]),
            "title": prop("title", 60, 50, ["STRING"]),
            "slug": prop("slug", 100, 100, ["STRING"], unique=True),
            "sparse": prop("sparse", 10, 10, ["STRING"]),
            "tags": prop("tags", 100, 80, ["LIST<STRING NOT NULL>"]),
            "n": prop("n", 100, 100, ["INTEGER"]),
        },
    )
    assert [p.key for p in name_candidates(ls)] == ["title", "code", "slug"]


def test_data_name_allows_user_names_and_refuses_control_characters() -> None:
    assert data_name("Stüdio Ω 1", "label") == "Stüdio Ω 1"
    assert data_name("DISTRIBUTED BY", "relationship type") == "DISTRIBUTED BY"
    assert data_name("has`tick", "label") == "has`tick"  # travels as a parameter only
    with pytest.raises(InvalidIdentifierError, match="label '' is empty"):
        data_name("", "label")
    with pytest.raises(InvalidIdentifierError, match="control character U\\+0000"):
        data_name("a\x00b", "label")
    with pytest.raises(InvalidIdentifierError, match="1001 characters long"):
        data_name("x" * 1001, "property key")


def test_name_overrides_and_words() -> None:
    assert parse_name_overrides(["Person=name, fullName", "Movie=title"]) == {
        "Person": ["name", "fullName"],
        "Movie": ["title"],
    }
    with pytest.raises(ConfigError, match="is not LABEL=prop"):
        parse_name_overrides(["Movie"])
    assert relation_words("ACTED_IN") == "acted in"
    assert relation_words("directedBy") == "directed by"


def test_values_are_nodes_of_their_own() -> None:
    assert value_id("born", 1964) == "val:born:1964"
    assert is_value_id("val:born:1964")
    assert value_id("roles", ["Neo"]) == 'val:roles:["Neo"]'
    assert (value_text(1999.0), value_text(["a", "b"]), value_text(True)) == ("1999", "a, b", "true")
    assert node_name(None, "Person", "4:abc:17") == "<Person without name #17>"
    assert node_name("  ", None, "x") == "<node without name #x>"
    assert node_name(7, "T", "x") == "7"
    entity = value_options([["born", 1964], ["released", 1999], ["born", 1964]], set(), relation_mode=False)
    assert [(o.relation, o.target.name, o.target.value) for o in entity] == [
        ("born", "1964", 1964),
        ("released", "1999", 1999),
    ]
    frontier = value_options([["released", 2003], ["released", 1999], ["released", 2003]], set(), relation_mode=True)
    assert [[t.name for t in o.targets] for o in frontier] == [["1999", "2003"]]
    assert value_options([["born", 1964]], {"val:born:1964"}, relation_mode=False) == []
    listed = value_options([["released", [2003, 1999]], ["released", 1999]], set(), relation_mode=True)
    assert [[(t.id, t.value) for t in o.targets] for o in listed] == [
        [("val:released:1999", 1999), ("val:released:2003", 2003)]
    ]
    assert props_text([["roles", ["Neo", "Thomas Anderson"]], ["rating", 92]]) == (
        "roles: Neo, Thomas Anderson, rating: 92"
    )


def test_ingested_profile_and_cypher_map() -> None:
    p = ingested_profile("movies")
    params = p.cypher()
    assert params["native"] is True
    assert "Entity" in params["managed"]
    assert "embedding" in params["skip_props"]
    assert p.kind == "ingested"
    assert not p.adopted


def test_stored_walk_answers_without_entity_links() -> None:
    walk = StoredWalk.from_props(
        {
            "id": "w",
            "graph": "g",
            "status": "ok",
            "answer_ids": ["val:born:1964", "e1"],
            "answer_names": ["1964", "X"],
            "answer_scores": [-0.1, -0.5],
            "answer_types": ["born", ""],
            "answer_values": "[1964, null]",
        }
    )
    assert [(a.id, a.name, a.rank, a.score, a.type, a.value) for a in walk.unlinked_answers()] == [
        ("val:born:1964", "1964", 1, -0.1, "born", 1964),
        ("e1", "X", 2, -0.5, None, None),
    ]


def test_move_ends_are_ordered_by_how_many_relationships_reach_each_label() -> None:
    # "1984" is a film and a year (one node, both labels): RELEASED_IN still mostly reaches years
    rs = RelStats(
        type="RELEASED_IN",
        count=12,
        pairs=[(["Film"], ["Year"], 9), (["Film"], ["Film", "Year"], 2), (["Film", "Year"], ["Year"], 1)],
    )
    assert (rs.from_labels, rs.to_labels) == (["Film", "Year"], ["Year", "Film"])
    assert labels_by_count([(["B", "A"], 2), (["C"], 2), (["A"], 1)]) == ["A", "B", "C"]  # ties by name
    assert labels_by_count([(["B", "A"], 2), (["C"], 5)], keep={"A", "B"}) == ["A", "B"]
    film = LabelStats(
        label="Film", count=12, sampled=12, props={"title": prop("title", 12, 12, ["STRING"], sampled=12)}
    )
    year = LabelStats(label="Year", count=3, sampled=3, props={"name": prop("name", 3, 3, ["STRING"], sampled=3)})
    profile = propose(Introspection(labels=[film, year], rels=[rs]), "g")
    [move] = profile.moves
    assert (move.from_labels, move.to_labels) == (["Film", "Year"], ["Year", "Film"])
    assert profile.cypher()["ends"] == {"RELEASED_IN": {"out": ["Year", "Film"], "in": ["Film", "Year"]}}
    assert ingested_profile("g").cypher()["ends"] == {}


def test_constant_and_provenance_properties_are_left_out_and_listed_why() -> None:
    intro = movies_intro()
    person = intro.labels[0]
    person.props["dataset"] = prop("dataset", 100, 1, ["STRING NOT NULL"], 11.0)  # 'metaqa-user' everywhere
    person.props["kind"] = prop("kind", 100, 1, ["STRING NOT NULL"], 6.0)  # constant, whatever its name
    person.props["imported_at"] = prop("imported_at", 100, 7, ["STRING NOT NULL"], 25.0)
    person.props["origin"] = prop("origin", 50, 2, ["STRING NOT NULL"], 30.0)
    tag = intro.labels[3]
    tag.props["level"] = prop("level", 5, 1, ["INTEGER NOT NULL"], sampled=5)  # too few nodes to tell
    profile = propose(intro, "movies")
    person_profile, _movie, tag_profile = profile.labels
    assert (person_profile.text_props, person_profile.answer_props) == ([], ["born"])
    assert tag_profile.answer_props == ["level", "weight"]
    reasons = {s.name: s.reason for s in profile.skipped}
    assert reasons["Person.dataset"] == "provenance (where the data came from), not a fact about the node"
    assert reasons["Person.imported_at"] == reasons["Person.dataset"]
    assert reasons["Person.origin"] == reasons["Person.dataset"]
    assert reasons["Person.kind"] == "one value on every sampled node (100); it tells no node from another"


def test_a_label_with_only_a_distinct_number_is_named_by_it() -> None:
    intro = movies_intro()
    year = LabelStats(
        label="Year",
        count=60,
        sampled=60,
        props={
            "value": prop("value", 60, 60, ["INTEGER NOT NULL"], sampled=60),
            "yearId": prop("yearId", 60, 60, ["INTEGER NOT NULL"], sampled=60),
            "decade": prop("decade", 60, 7, ["INTEGER NOT NULL"], sampled=60),
            "dataset": prop("dataset", 60, 1, ["STRING NOT NULL"], 11.0, sampled=60),  # a string, but no name
        },
    )
    intro.labels.append(year)
    profile = propose(intro, "movies")
    year_profile = profile.label("Year")
    assert year_profile is not None
    assert (year_profile.name_props, year_profile.answer_props) == (["value"], ["decade"])
    tag = profile.label("Tag")
    assert tag is not None
    assert tag.name_props == []  # weight repeats (3 values on 5 nodes): no name
