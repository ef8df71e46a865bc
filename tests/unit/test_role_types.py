"""Types for a graph without its own (learned/role_types.py) and decisions read with them (inputs.typed_inputs)."""

from __future__ import annotations

import dataclasses

from graphwalk_neo4j.decide.answer_types import kind_of
from graphwalk_neo4j.learned.graph_questions import GraphIndex, present_agent
from graphwalk_neo4j.learned.inputs import (
    STOP_TOKEN,
    DecisionInputs,
    named_as_asked,
    sole_unnamed,
    typed_as_asked,
    typed_inputs,
    unnamed_type_asked,
    unnamed_types,
)
from graphwalk_neo4j.learned.role_types import (
    fill_node_types,
    infer_role_types,
    role_name,
    type_links,
    untyped,
)


def _index(triples: list[tuple[str, str, str]], types: dict[str, str] | None = None) -> GraphIndex:
    index = GraphIndex()
    for s, r, o in triples:
        for node in (s, o):
            index.names[node] = node
            index.types.setdefault(node, (types or {}).get(node))
        index.add(s, r, o)
    return index


def _people_and_places() -> list[tuple[str, str, str]]:
    """Six people, each born in one of three cities and working at one of three firms; the cities in one land;
    each firm founded by one of the people."""
    triples = []
    for i in range(6):
        triples.append((f"p{i}", "born_in", f"c{i % 3}"))
        triples.append((f"p{i}", "works_at", f"f{i % 3}"))
    for i in range(3):
        triples += [(f"c{i}", "city_in", "land"), (f"f{i}", "founded_by", f"p{i + 3}")]
    return triples


def test_relation_ends_that_share_nodes_are_one_type_named_by_the_relations_words() -> None:
    assert infer_role_types(_index(_people_and_places())) == {
        "born_in|object": "city",  # born_in's objects are city_in's subjects: "city in" names them
        "born_in|subject": "person",  # born_in, works_at and founded_by's objects share the people, which
        "city_in|object": "item 2",  # nothing names the land (nor the firms, a larger type, named first)
        "city_in|subject": "city",
        "founded_by|object": "person",  # founded_by names founders and works_at workers: two kinds of agent
        "founded_by|subject": "item",  # the firms: founded_by's and works_at's ends, named by neither
        "works_at|object": "item",
        "works_at|subject": "person",
    }


def test_what_contains_a_place_is_named_by_another_end_or_by_none() -> None:
    """Freebase's ``containedby``: its objects are no "container"; countries nothing else names are the graph's
    one unnamed type, and where people's ``nationality`` shares them, they are nationalities."""
    triples = []
    for i in range(6):
        triples += [(f"p{i}", "/people/person/place_of_birth", f"c{i % 3}")]
    for i in range(3):
        triples.append((f"c{i}", "/location/location/containedby", f"land{i % 3}"))
    alone = infer_role_types(_index(triples))
    assert alone["/location/location/containedby|object"] == "item"
    assert alone["/location/location/containedby|subject"] == "location"  # and place_of_birth's objects
    shared = triples + [(f"p{i}", "/people/person/nationality", f"land{i % 3}") for i in range(6)]
    assert infer_role_types(_index(shared))["/location/location/containedby|object"] == "nationality"


def test_a_type_whose_roles_name_two_kinds_of_agent_is_people() -> None:
    """Directors who also write: directed_by's and written_by's objects share their nodes and name them
    director and writer; the type is ``person``, what both are."""
    triples = []
    for i in range(6):
        triples += [(f"film{i}", "directed_by", f"p{i % 4}"), (f"film{i}", "written_by", f"p{(i + 1) % 4}")]
        triples.append((f"film{i}", "has_genre", f"g{i % 2}"))
    assert infer_role_types(_index(triples)) == {
        "directed_by|object": "person",
        "directed_by|subject": "item",
        "has_genre|object": "genre",
        "has_genre|subject": "item",
        "written_by|object": "person",
        "written_by|subject": "item",
    }


def test_people_named_by_their_family_roles_are_people() -> None:
    """A biographical graph's people are the ends of spouse, children and parents, each a noun-like relation whose
    objects it names (spouse, child, parent): a family's roles are agents, so the type is ``person`` and its
    questions ask ``who``, not ``which spouse``."""
    triples = []
    for i in range(0, 8, 2):
        triples += [(f"p{i}", "spouse", f"p{i + 1}"), (f"p{i + 1}", "spouse", f"p{i}")]
        triples += [(f"p{i}", "children", f"p{(i + 2) % 8}"), (f"p{(i + 2) % 8}", "parents", f"p{i}")]
        triples += [(f"p{i}", "place_of_birth", f"c{i % 3}"), (f"p{i + 1}", "place_of_birth", f"c{(i + 1) % 3}")]
    found = infer_role_types(_index(triples))
    assert {found[f"{r}|{end}"] for r in ("spouse", "children", "parents") for end in ("subject", "object")} == {
        "person"
    }
    assert found["place_of_birth|object"] == "place"
    assert [kind_of(w) for w in ("spouse", "parent", "sibling", "colleague", "grandchild")] == ["agent"] * 5


def test_a_graph_with_its_own_types_keeps_them() -> None:
    triples = _people_and_places()
    typed = _index(triples, {n: "Person" for s, _, o in triples for n in (s, o)})
    assert not untyped(typed)
    assert infer_role_types(typed) == {}
    assert untyped(_index(triples))


def test_what_a_relation_says_its_ends_are() -> None:
    cases = [
        ("has_genre", "object", (0, "genre")),
        ("release_year", "object", (0, "year")),
        ("starred_actors", "object", (0, "actor")),
        ("/people/person/place_of_birth", "object", (0, "place")),
        ("/people/person/place_of_birth", "subject", (0, "person")),  # a type under its own domain
        ("/location/location/containedby", "subject", (0, "location")),
        ("/location/location/containedby", "object", None),  # Freebase's glued "containedby": no "container"
        ("followed_by", "object", None),  # nor "follower": a sequel is a film
        ("replaced_by", "object", None),
        ("__people__person__spouse_s", "object", (0, "spouse")),  # Freebase's plural "_s"
        ("/film/film/starring", "object", (0, "star")),  # a one-word -ing relation: its verb, where an agent
        ("featuring", "object", (0, "featuring")),  # "feature" names no agent
        ("/people/deceased_person/cause_of_death", "object", (0, "cause")),
        ("__business__employment__employer", "subject", (3, "employment")),  # a link type: named last
        ("director_of", "subject", (0, "director")),
        ("directed_by", "object", (1, "director")),
        ("written_by", "object", (1, "writer")),
        ("INVESTIGATED_BY", "object", (1, "investigator")),
        ("manages", "subject", (1, "manager")),
        ("city_in", "subject", (2, "city")),
        ("campus_in", "subject", (2, "campus")),
        ("DIRECTED", "subject", (1, "director")),  # a verb in the past: its agent noun, when that names an agent
        ("WROTE", "subject", (1, "writer")),
        ("ACTED_IN", "subject", (1, "actor")),
        ("DIRECTED", "object", None),
        ("released", "subject", None),  # "releaser" names no agent
        ("studied_at", "subject", None),
        ("born_in", "subject", None),  # a participle names no one
        ("works_at", "subject", (1, "worker")),  # a present verb before a preposition: its agent, where one
        ("plays_for", "subject", (1, "player")),
        ("plays_position", "subject", (1, "player")),  # a present verb before its object's noun
        ("plays_position", "object", (0, "position")),
        ("lives_in", "subject", None),  # "liver" names no agent
        ("KNOWS_SN", "subject", None),
        ("coached_by", "object", (1, "coach")),  # the participle's stem already names the agent
        ("is_in", "subject", None),  # a copula is no noun before the preposition (city_in's city)
        ("works_at", "object", None),
        ("plays_in_club", "object", (0, "club")),  # the words after an active verb phrase name its object
        ("plays_for_country", "object", (0, "country")),
        ("studied_at_university", "object", (0, "university")),
        ("directed_by", "subject", None),
        ("has_genre", "subject", None),
        ("born_in", "object", (4, "place")),  # a verb of being somewhere: where, named last
        ("based_in", "object", (4, "place")),
        ("OCCURRED_AT", "object", (4, "place")),
        ("lives_in", "object", (4, "place")),
        ("was_born_in", "object", (4, "place")),
        ("held_in", "object", (4, "place")),
        ("competes_in", "object", None),  # competing is done in a league, not a place
        ("plays_in", "object", None),
        ("studied_at", "object", None),
    ]
    assert [role_name(relation, end) for relation, end, _ in cases] == [want for _, _, want in cases]


def test_where_things_are_born_or_based_is_a_place_unless_another_role_names_it_or_it_is_a_number() -> None:
    """A football graph as it comes: players born in cities, clubs based in them, the cities in countries. No
    relation names the cities by a noun, so ``born_in`` and ``based_in`` name them ``place``; the countries keep
    ``in_country``'s noun (rank 0 beats the place's 4), and years a player was born in are no place."""
    triples = []
    for i in range(6):
        triples += [(f"p{i}", "born_in", f"c{i % 3}"), (f"p{i}", "plays_for", f"club{i % 3}")]
    for i in range(3):
        triples += [(f"c{i}", "in_country", f"k{i % 2}"), (f"club{i}", "based_in", f"c{(i + 1) % 3}")]
    assert infer_role_types(_index(triples)) == {
        "based_in|object": "place",
        "based_in|subject": "item",  # the clubs: plays_for names no club
        "born_in|object": "place",
        "born_in|subject": "player",
        "in_country|object": "country",
        "in_country|subject": "place",
        "plays_for|object": "item",
        "plays_for|subject": "player",
    }
    years = [(f"p{i}", "born_in", str(1970 + i % 3)) for i in range(6)]
    years += [(f"p{i}", "plays_for", f"club{i % 3}") for i in range(6)]
    assert infer_role_types(_index(years))["born_in|object"] == "item"  # born in 1970: a time, not a place


def test_untyped_nodes_take_the_type_of_the_role_they_have_most() -> None:
    index = _index(_people_and_places())
    role_types = infer_role_types(index)
    fill_node_types(index, role_types)
    assert [index.types[n] for n in ("p0", "p3", "c0", "land", "f0")] == [
        "person",
        "person",
        "city",
        "item 2",
        "item",
    ]


def test_a_decision_on_an_untyped_graph_reads_the_inferred_types() -> None:
    role_types = {"born_in|subject": "person", "born_in|object": "city", "city_in|subject": "city"}
    inputs = DecisionInputs(
        question="in which land was born",
        path=("born_in|out",),
        tokens=("city_in|out", "born_in|in", STOP_TOKEN),
        types=("node", "node", "node"),
        counts=(1, 3, 1),
        moves=("city in", "born in", "the answer is these 1 node"),
        path_moves=("born in",),
    )
    typed = typed_inputs(inputs, role_types)
    # city_in's objects have no type: the option stays untyped; STOP stands where the moves leave from (cities)
    assert typed.types == ("node", "person", "city")
    assert typed.moves == (
        "city in",
        "persons born in this city",  # in along a relation: its inverse in words
        "the answer is these 1 city",
    )
    assert typed.path_moves == ("born in (person to city)",)
    assert typed_inputs(inputs, {}) is inputs
    assert typed_inputs(typed, role_types) == typed  # typed already: the same inputs again


def test_stop_stands_on_the_type_the_moves_with_most_targets_leave_from() -> None:
    """A node of two kinds (MetaQA's `Western`: a genre of many films, a film of one director) stands on the type
    whose moves reach most nodes, not the type with most kinds of move."""
    role_types = {
        "has_genre|object": "genre",
        "has_genre|subject": "item",
        "directed_by|subject": "item",
        "directed_by|object": "writer",
        "in_language|subject": "item",
        "in_language|object": "language",
    }
    inputs = DecisionInputs(
        question="what is the genre of the movie",
        path=("has_genre|out",),
        tokens=("has_genre|in", "directed_by|out", "in_language|out", STOP_TOKEN),
        types=("node", "node", "node", "node"),
        counts=(300, 1, 1, 1),
        moves=("has genre", "directed by", "in language", "the answer is these 1 node"),
    )
    assert typed_inputs(inputs, role_types).types == ("item", "writer", "language", "genre")
    fewer = dataclasses.replace(inputs, counts=(1, 1, 1, 1))  # one target each: the type most moves leave from
    assert typed_inputs(fewer, role_types).types[-1] == "item"


def test_the_types_one_move_apart_from_role_types_and_from_the_graphs_own() -> None:
    index = _index(_people_and_places())
    assert type_links(index, infer_role_types(index)) == {
        "city": ["item 2", "person"],
        "item": ["person"],
        "item 2": ["city"],
        "person": ["city", "item"],
    }
    # a graph with its own types: each relation links the types most of its ends' nodes have, so one odd node
    # (a firm typed City) links nothing
    types = {f"p{i}": "Person" for i in range(6)} | {f"c{i}": "City" for i in range(3)} | {"land": "Country"}
    types |= {"f0": "Company", "f1": "Company", "f2": "City"}
    assert type_links(_index(_people_and_places(), types), {}) == {
        "City": ["Country", "Person"],
        "Company": ["Person"],
        "Country": ["City"],
        "Person": ["City", "Company"],
    }


FILMS = {
    "directed_by|subject": "item",
    "directed_by|object": "person",
    "has_tags|subject": "item",
    "has_tags|object": "tag",
    "release_year|subject": "item",
    "release_year|object": "year",
}


def test_the_one_unnamed_type_is_what_a_question_asks_for_when_it_names_no_other() -> None:
    assert unnamed_type_asked("what films did direct", FILMS) == ("item", "film")
    assert unnamed_type_asked("directed which movies", FILMS) == ("item", "movie")
    assert unnamed_type_asked("which cities", FILMS) == ("item", "city")
    assert unnamed_type_asked("which films share", FILMS) == ("item", "film")  # the plural is the head
    assert unnamed_type_asked("which film share", FILMS) == ("item", "share")  # none: the last word
    assert unnamed_type_asked("which person directed", FILMS) is None  # a named type
    assert unnamed_type_asked("which directors made", FILMS) is None  # an agent: the people
    assert unnamed_type_asked("what year was it released", FILMS) is None
    assert unnamed_type_asked("what tags does it have", FILMS) is None
    assert unnamed_type_asked("who directed", FILMS) is None  # a question word, no noun
    assert unnamed_type_asked("what did direct", FILMS) is None
    assert unnamed_type_asked("what kind of films", FILMS) is None  # a generic noun
    # what is said about a thing, not a kind of thing, anywhere in the phrase (its last word here a verb)
    assert unnamed_type_asked("which words describe", FILMS) is None
    assert unnamed_type_asked("what topics is about", FILMS) is None
    two = {**FILMS, "has_tags|object": "item 2"}
    assert unnamed_type_asked("what films did direct", two) is None  # two unnamed types: which one is unknown
    assert unnamed_type_asked("what films did direct", {"born_in|object": "city"}) is None  # none unnamed
    # a graph whose cities are ``location`` (Freebase's) and its countries unnamed: a city is a location, a country
    # the unnamed type
    places = {"place_of_birth|object": "location", "containedby|subject": "location", "containedby|object": "item"}
    assert unnamed_type_asked("in which city", places) is None
    assert unnamed_type_asked("which towns", places) is None
    assert unnamed_type_asked("which country", places) == ("item", "country")
    regions = {key: "region" if name == "location" else name for key, name in places.items()}
    assert unnamed_type_asked("which city", regions) == ("item", "city")  # a place named more than somewhere


def _directed_films() -> DecisionInputs:
    """A decision standing on a person, asked "what films did direct": one move to the films, and STOP."""
    return DecisionInputs(
        question="what films did direct",
        path=(),
        tokens=("directed_by|in", STOP_TOKEN),
        types=("node", "node"),
        counts=(3, 1),
        moves=("directed by", "the answer is these 1 node"),
    )


def test_a_model_on_a_graph_it_never_saw_reads_the_unnamed_type_as_the_asked_noun() -> None:
    inputs = _directed_films()
    assert typed_inputs(inputs, FILMS).types == ("item", "person")  # as the graph's own model was trained
    links = {"item": ["person", "tag", "year"], "person": ["item"]}
    role_types, named_links = named_as_asked("what films did direct", FILMS, links)
    named = typed_inputs(inputs, role_types)
    assert named.types == ("film", "person")
    assert named.moves[0] == "films directed by this person"
    assert named_links == {
        "film": ["person", "tag", "year"],
        "person": ["film"],
    }
    unchanged_types, unchanged_links = named_as_asked("who directed", FILMS, links)
    assert unchanged_types is FILMS
    assert unchanged_links is links


def test_the_unnamed_type_named_as_asked_keeps_the_learned_embedding_of_item() -> None:
    inputs = _directed_films()
    links = {"item": ["person", "tag", "year"], "person": ["item"]}
    named, named_links = typed_as_asked(inputs, FILMS, links)
    assert named.types == ("film", "person")  # what every column of words reads, and the STOP rule
    assert named.moves[0] == "films directed by this person"
    assert named.type_ids == ("item", "person")  # the type's learned embedding: the one its training read
    assert named.embedded_types == ("item", "person")
    assert named_links == {"film": ["person", "tag", "year"], "person": ["film"]}
    assert DecisionInputs.from_json(named.to_json()) == named
    plain, plain_links = typed_as_asked(dataclasses.replace(inputs, question="who directed"), FILMS, links)
    assert plain.types == ("item", "person")
    assert plain.type_ids == ()  # nothing named: the types are the ids
    assert plain.embedded_types == ("item", "person")
    assert plain_links is links
    assert "type_ids" not in plain.to_json()  # the training data of every other decision hashes as before


def test_the_unnamed_types_in_order() -> None:
    assert unnamed_types(FILMS) == ("item",)
    assert unnamed_types({**FILMS, "a|object": "item 10", "has_tags|object": "item 2"}) == ("item", "item 2", "item 10")
    assert unnamed_types({"born_in|object": "city"}) == ()


def test_the_sole_unnamed_type() -> None:
    assert sole_unnamed(FILMS) == "item"
    assert sole_unnamed({**FILMS, "has_tags|object": "item 2"}) is None
    assert sole_unnamed({"born_in|object": "city"}) is None
    assert sole_unnamed({}) is None


def test_the_agent_of_a_present_verb_is_spelled_as_english_spells_it() -> None:
    pairs = {
        "manage": "manager",
        "supply": "supplier",
        "ship": "shipper",
        "run": "runner",
        "play": "player",
        "employ": "employer",
        "work": "worker",
        "own": "owner",
        "order": "orderer",
        "know": "knower",
    }
    assert {base: present_agent(base) for base in pairs} == pairs
    assert role_name("SUPPLIES", "subject") == (1, "supplier")
    assert role_name("SHIPS", "subject") == (1, "shipper")
