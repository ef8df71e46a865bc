"""Questions written from a graph alone: the in-memory index, path sampling and wording (exact values)."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from graphwalk_neo4j.decide.answer_types import kind_of
from graphwalk_neo4j.learned.graph_questions import (
    STAND_IN_NOUNS,
    ActiveVerb,
    GraphIndex,
    Reading,
    SampledPath,
    SamplingOptions,
    _where,
    act_forms,
    active_verb,
    agent_noun,
    base_form,
    converse_role,
    graph_pairs,
    kind_moves,
    participle,
    plural_of,
    question_word,
    read_relation,
    role_noun,
    sample_paths,
    stand_in_nouns,
    subject_agent,
    write_question,
)

TRIPLES = [
    ("inception", "directed_by", "nolan"),
    ("memento", "directed_by", "nolan"),
    ("titanic", "directed_by", "cameron"),
    ("inception", "starred_actors", "dicaprio"),
    ("titanic", "starred_actors", "dicaprio"),
    ("memento", "has_genre", "thriller"),
    ("inception", "/film/film/release_year", "y2010"),
]
NAMES = {
    "inception": ("Inception", "Movie"),
    "memento": ("Memento", "Movie"),
    "titanic": ("Titanic", "Movie"),
    "nolan": ("Christopher Nolan", "Person"),
    "cameron": ("James Cameron", "Person"),
    "dicaprio": ("Leonardo DiCaprio", "Person"),
    "thriller": ("Thriller", "Genre"),
    "y2010": ("2010", "Year"),
}


def index() -> GraphIndex:
    found = GraphIndex()
    for node, (name, type_) in NAMES.items():
        found.names[node], found.types[node] = name, type_
    for source, relation, target in TRIPLES:
        found.add(source, relation, target)
    return found


class First:
    """An rng whose every choice is the first option (so the wording is the first pattern of each list) and
    whose every draw is ``u`` (0.5: a question that names its kind, a path-like name read by its last segment)."""

    def __init__(self, u: float = 0.5) -> None:
        self.u = u

    def choice(self, options: Any) -> Any:
        return options[0]

    def random(self) -> float:
        return self.u


def test_follow_reads_both_directions_and_leaves_the_start_out() -> None:
    g = index()
    assert g.relationships == 7
    assert g.follow(["nolan"], ("directed_by", "in"), "nolan") == ["inception", "memento"]
    assert g.follow(["inception", "memento"], ("directed_by", "out"), "inception") == ["nolan"]
    assert g.follow(["dicaprio"], ("starred_actors", "in"), "inception") == ["titanic"]
    assert g.degree("inception") == 3


def test_each_hop_wraps_the_one_before_and_the_last_asks_for_its_kind() -> None:
    g = index()
    two = SampledPath("inception", (("directed_by", "out"), ("directed_by", "in")), ("memento",))
    raw, text = write_question(g, two, First())  # type: ignore[arg-type]
    assert raw == "which movie is directed by the person [Inception] is directed by"
    assert text == "which movie is directed by the person Inception is directed by"
    # a quarter of the questions name no kind: the noun phrase, framed plainly
    # a move followed by its inverse is read as one phrase half of the time: what shares the neighbour
    assert write_question(g, two, First(0.1))[0] == "name the movies that share directors with [Inception]"  # type: ignore[arg-type]
    genre = SampledPath("memento", (("has_genre", "out"),), ("thriller",))
    assert write_question(g, genre, First())[0] == "which genre is the genre of [Memento]"  # type: ignore[arg-type]
    # a person is asked for with "who" (the first of the agent question words), a year with "when"
    director = SampledPath("inception", (("directed_by", "out"),), ("nolan",))
    assert write_question(g, director, First())[0] == "who was [Inception] directed by"  # type: ignore[arg-type]
    freebase = SampledPath("inception", (("/film/film/release_year", "out"),), ("y2010",))
    assert write_question(g, freebase, First())[0] == "when is the release year of [Inception]"  # type: ignore[arg-type]
    # now and then a path-like name keeps its domain words
    assert write_question(g, freebase, First(0.8))[0] == "when is the film release year of [Inception]"  # type: ignore[arg-type]


class Seq(First):
    """Like :class:`First`, but its draws are ``values`` in turn."""

    def __init__(self, *values: float) -> None:
        super().__init__()
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def test_other_forms_of_a_relations_words() -> None:
    g = index()
    # a move and its inverse asked for as what shares the neighbour (the agent noun of "directed": director)
    two = SampledPath("inception", (("directed_by", "out"), ("directed_by", "in")), ("memento",))
    assert write_question(g, two, First(0.3))[0] == "which movie share directors with [Inception]"  # type: ignore[arg-type]
    # in, then out: the other ends of the near end's things, named by the relation's noun
    g.add("inception", "starred_actors", "hardy")
    g.names["hardy"], g.types["hardy"] = "Tom Hardy", "Person"
    costars = SampledPath("dicaprio", (("starred_actors", "in"), ("starred_actors", "out")), ("hardy",))
    assert write_question(g, costars, Seq(0.3, 0.3, 0.3, 0.6, 0.6))[0] == (  # type: ignore[arg-type]
        "who share movies with [Leonardo DiCaprio] as starred actors"
    )
    # ... or as done jointly, by the co- prefix (a noun's act is done in the things; a verb's takes them)
    assert write_question(g, costars, Seq(0.3, 0.3, 0.3, 0.6, 0.1))[0] == (  # type: ignore[arg-type]
        "who co-acted in movies with [Leonardo DiCaprio]"
    )
    g.add("inception", "written_by", "nolan")
    g.add("inception", "written_by", "jonathan")
    g.names["jonathan"], g.types["jonathan"] = "Jonathan Nolan", "Person"
    cowriters = SampledPath("nolan", (("written_by", "in"), ("written_by", "out")), ("jonathan",))
    assert write_question(g, cowriters, Seq(0.3, 0.3, 0.3, 0.1))[0] == (  # type: ignore[arg-type]
        "who co-wrote movies with [Christopher Nolan]"
    )
    # ... or, for a relation that reads as an act, who did it together with the topic
    assert write_question(g, costars, First(0.3))[0] == "who acted together with [Leonardo DiCaprio]"  # type: ignore[arg-type]
    # a noun whose head is an agent noun, read as the act; a time attribute read as when
    actors = SampledPath("inception", (("starred_actors", "out"),), ("dicaprio",))
    assert write_question(g, actors, First(0.3))[0] == "who acted in [Inception]"  # type: ignore[arg-type]
    year = SampledPath("inception", (("/film/film/release_year", "out"),), ("y2010",))
    assert write_question(g, year, First(0.3))[0] == "when was [Inception] released"  # type: ignore[arg-type]
    # a verb-like relation reaching an agent, by its agent noun (draws: not plain, the last segment, the noun)
    director = SampledPath("inception", (("directed_by", "out"),), ("nolan",))
    assert write_question(g, director, Seq(0.3, 0.3, 0.3))[0] == "who is the director of [Inception]"  # type: ignore[arg-type]
    # a passive verb-like relation going in, in the active voice
    films = SampledPath("nolan", (("directed_by", "in"),), ("inception", "memento"))
    assert write_question(g, films, Seq(0.3, 0.3, 0.3))[0] == "which movie has [Christopher Nolan] directed"  # type: ignore[arg-type]
    # a question word at the end (draws: not plain, the last segment, not the noun, at the end)
    assert write_question(g, director, Seq(0.3, 0.3, 0.6, 0.1))[0] == "[Inception] was directed by who"  # type: ignore[arg-type]


def test_english_forms_by_rule_and_table() -> None:
    assert [
        agent_noun(w) for w in ("directed", "founded", "created", "managed", "written", "coached", "born", "in")
    ] == [
        "director",
        "founder",
        "creator",
        "manager",
        "writer",
        "coach",
        None,
        None,
    ]
    assert act_forms("actors") == ("acted", "acted")
    assert act_forms("producer") == ("produced", "produced")
    assert act_forms("writers") == ("wrote", "written")
    # one table of irregular words, read both ways
    assert (agent_noun("spoken"), act_forms("speakers")) == ("speaker", ("spoke", "spoken"))
    assert act_forms("genre") is None
    assert [participle(w) for w in ("release", "founding", "launch", "birth")] == [
        "released",
        "founded",
        None,
        None,
    ]


def test_relations_read_as_verbs_or_nouns_from_their_own_words() -> None:
    assert read_relation("directed_by") == Reading("directed by", "directed by", "directed by", True)
    assert read_relation("works_at").verb
    assert read_relation("has_genre") == Reading("has genre", "has genre", "genre", False)
    assert read_relation("in_language").noun == "language"
    assert read_relation("/people/person/place_of_birth") == Reading(
        "people person place of birth", "place of birth", "place of birth", False
    )
    assert read_relation("__business__employment__employer").core == "employer"
    assert read_relation("/film/film/directed_by").verb
    assert read_relation("P57") == Reading("p57", "p57", "p57", False)
    assert read_relation("starred_actors").verb is False


def test_a_verb_form_first_reads_in_the_active_voice() -> None:
    assert active_verb("works at") == ActiveVerb("works at", "work at", past=False, only=True)
    assert active_verb("plays in club") == ActiveVerb("plays in", "play in", past=False, only=True, object="club")
    assert active_verb("studies at") == ActiveVerb("studies at", "study at", past=False, only=True)
    # one word in -s may be a verb or a plural noun: one reading among the others
    assert active_verb("manages") == ActiveVerb("manages", "manage", past=False, only=False)
    assert active_verb("genres") == ActiveVerb("genres", "genre", past=False, only=False)
    # but the plural of a word for people is a noun: never "the people who parent [X]"
    assert [active_verb(w) for w in ("parents", "friends", "members", "siblings")] == [None] * 4
    assert read_relation("parents").noun == "parents"
    assert active_verb("status") is None
    assert active_verb("address") is None
    # a past before a preposition other than "by" may be active; alone it is no noun
    assert active_verb("studied at") == ActiveVerb("studied at", None, past=True, only=False)
    assert active_verb("directed") == ActiveVerb("directed", None, past=True, only=True)
    assert active_verb("wrote") == ActiveVerb("wrote", None, past=True, only=True)
    assert active_verb("born") == ActiveVerb("born", None, past=True, only=True)
    assert [active_verb(c) for c in ("directed by", "born in", "place of birth", "has genre", "")] == [None] * 5
    assert read_relation("WORKS_AT").active == ActiveVerb("works at", "work at", past=False, only=True)
    assert [base_form(w) for w in ("works", "watches", "manages", "studies", "passes")] == [
        "work",
        "watch",
        "manage",
        "study",
        "pass",
    ]
    assert [plural_of(t) for t in ("person", "film person", "company", "city")] == [
        "people",
        "film people",
        "companies",
        "cities",
    ]


def test_active_readings_in_written_questions() -> None:
    index = GraphIndex()
    for person, company in (("Ann", "Acme"), ("Bob", "Acme")):
        index.names.update({person: person, company: company})
        index.types.update({person: "Person", company: "Company"})
        index.add(person, "works_at", company)
    questions = {
        write_question(index, SampledPath("Ann", (("works_at", "out"),), ("Acme",)), random.Random(s))[0]
        for s in range(40)
    }
    # a present verb before a preposition is only read actively: never "was [Ann] works at"
    assert not any(" was [Ann] works at" in q or "is works at" in q for q in questions)
    assert {"which company does [Ann] work at", "[Ann] works at which company"} <= questions
    inverse = {
        write_question(index, SampledPath("Acme", (("works_at", "in"),), ("Ann", "Bob")), random.Random(s))[0]
        for s in range(40)
    }
    assert "who works at [Acme]" in inverse
    assert "which people work at [Acme]" in inverse
    # the doer by the verb's agent noun: a worker of [Acme], never "the works at of [Acme]"
    assert "who is the worker of [Acme]" in inverse
    assert not any("works at of" in q for q in inverse)


def test_the_doer_of_an_active_verb_is_named_by_its_agent_noun() -> None:
    cases = {
        "plays for": "player",
        "supplies": "supplier",  # an organisation
        "manages": "manager",
        "directed": "director",
        "acted in": "actor",
        "wrote": "writer",
        "starred in": "star",
        "lives in": None,  # no "liver"
        "released": None,  # no "releaser"
        "knows": None,
    }
    assert {core: subject_agent(active_verb(core)) for core in cases} == cases  # type: ignore[arg-type]
    index = _people_linked("plays_for", "Club", ("Rovers", "Rovers", "United"))
    inverse = _written(index, SampledPath("Rovers", (("plays_for", "in"),), ("Ann", "Bob")), 60)
    assert {"who is the player of [Rovers]", "who are [Rovers]'s player"} <= inverse
    assert "who plays for [Rovers]" in inverse  # the verb's own reading stays
    forward = _written(index, SampledPath("Ann", (("plays_for", "out"),), ("Rovers",)), 60)
    assert not any("player" in q for q in forward)  # going out reaches the club, not the one who plays


def _people_linked(relation: str, kind: str, things: tuple[str, str, str]) -> GraphIndex:
    """Ann, Bob and Cy (``Person``), each linked by ``relation`` to their one of ``things`` (typed ``kind``)."""
    index = GraphIndex()
    for person, thing in zip(("Ann", "Bob", "Cy"), things, strict=True):
        index.names.update({person: person, thing: thing})
        index.types.update({person: "Person", thing: kind})
        index.add(person, relation, thing)
    return index


def _written(index: GraphIndex, path: SampledPath, draws: int) -> set[str]:
    """The questions ``path`` is written as over ``draws`` seeds."""
    return {write_question(index, path, random.Random(s))[0] for s in range(draws)}


def test_the_other_end_of_a_role_is_named_by_its_converse() -> None:
    """Where a relation's own noun names one end (``subsidiary_of``: a subsidiary; ``works_at``: a worker), the
    move to the other end is now and then read by the noun English names that end by (the parent company, the
    employer); never the move the relation's noun names itself, and never for a noun with no converse."""
    cases = {
        # read_as: a noun-of name runs the other way; a singular noun's converse in both numbers
        ("subsidiary_of", "in"): ("parent company", "parent companies", "parent", "parents", "owner", "owners"),
        ("subsidiary_of", "out"): (),
        ("works_at", "out"): ("employer", "employers"),
        ("works_at", "in"): (),
        ("manages", "out"): ("report", "reports", "subordinate", "subordinates"),
        ("parents", "in"): ("children", "subsidiaries"),  # a plural noun's converse in the plural
        ("parents", "out"): (),
        ("__business__employment__employer", "in"): ("employee", "employees", "worker", "workers"),
        ("founded_by", "in"): (),  # a founder has no converse
        ("spouse", "in"): (),
        ("KNOWS", "out"): (),  # no role noun
    }
    assert {key: converse_role(read_relation(key[0]), key[1]) for key in cases} == cases
    assert role_noun(read_relation("manages")) == ("manager", "in")
    assert role_noun(read_relation("founded_by")) == ("founder", "out")
    assert role_noun(read_relation("lives_in")) is None
    index = GraphIndex()
    index.names.update({"a": "Acme Foods", "p": "Acme Group", "w": "Ann"})
    index.types.update({"a": "Company", "p": "Company", "w": "Person"})
    index.add("a", "subsidiary_of", "p")
    index.add("w", "works_at", "a")
    parent = _written(index, SampledPath("a", (("subsidiary_of", "out"),), ("p",)), 80)
    assert {"list the parent companies of [Acme Foods]", "which company are [Acme Foods]'s owner"} <= parent
    assert not any("the subsidiary of [Acme Foods]" in q for q in parent)
    employer = _written(index, SampledPath("w", (("works_at", "out"), ("subsidiary_of", "out")), ("p",)), 80)
    assert any("the employer of [Ann]" in q or "[Ann]'s employer" in q for q in employer)
    subsidiaries = _written(index, SampledPath("p", (("subsidiary_of", "in"),), ("a",)), 80)
    assert not any(c in q for q in subsidiaries for c in ("parent", "owner"))  # the noun names this end itself


def test_the_one_who_stars_is_also_called_an_actor() -> None:
    """``STARRED_IN`` names its doer ``star`` by the verb; English also calls them an actor or a performer, which
    no form of the verb gives (:data:`~graphwalk_neo4j.learned.graph_questions.AGENT_ALIASES`)."""
    index = _people_linked("STARRED_IN", "Movie", ("Heat", "Heat", "Thief"))
    inverse = _written(index, SampledPath("Heat", (("STARRED_IN", "in"),), ("Ann", "Bob")), 200)
    nouns = {noun for noun in ("star", "actor", "performer") if any(f"the {noun} of [Heat]" in q for q in inverse)}
    assert nouns == {"star", "actor", "performer"}
    assert "who starred in [Heat]" in inverse


def test_a_noun_of_name_reads_as_that_noun_the_other_way_round() -> None:
    # (Person)-[:DIRECTOR_OF]->(Movie): the person is the movie's director
    assert read_relation("DIRECTOR_OF") == Reading("director of", "director of", "director", False, of_noun=True)
    assert read_relation("capital_of").noun == "capital"
    # a verb before "of" keeps its own reading, and so does a name that only ends in "of" as a path
    assert read_relation("consists_of").of_noun is False
    assert read_relation("consists_of").active == ActiveVerb("consists of", "consist of", past=False, only=True)
    assert read_relation("made_of").of_noun is False
    index = GraphIndex()
    index.names.update({"p": "Michael Mann", "m": "Heat", "n": "Thief"})
    index.types.update({"p": "Person", "m": "Movie", "n": "Movie"})
    index.add("p", "DIRECTOR_OF", "m")
    index.add("p", "DIRECTOR_OF", "n")

    def written(path: SampledPath) -> set[str]:
        return {write_question(index, path, random.Random(s))[0] for s in range(40)}

    into = written(SampledPath("m", (("DIRECTOR_OF", "in"),), ("p",)))
    # going in from the movie asks for its director, and the agent noun's act reads as the verb
    assert {"who directed [Heat]", "who is the director of [Heat]", "list [Heat]'s director"} <= into
    assert not any("is director of [Heat]" in q for q in into)
    out = written(SampledPath("p", (("DIRECTOR_OF", "out"),), ("m", "n")))
    assert "what movie has [Michael Mann] as director" in out
    # never the verb reading of the name, which read the person as what is directed
    assert not any("[Michael Mann] is director of" in q for q in out)
    shared = written(SampledPath("m", (("DIRECTOR_OF", "in"), ("DIRECTOR_OF", "out")), ("n",)))
    assert {"which movies share directors with [Heat]", "movies with the same director as [Heat]"} <= shared


def test_one_past_word_from_a_thing_reads_as_a_passive() -> None:
    index = GraphIndex()
    index.names.update({"p": "Michael Mann", "m": "Heat", "t": "noir"})
    index.types.update({"p": "Person", "m": "Movie", "t": "Tag"})
    index.add("m", "TAGGED", "t")
    index.add("p", "DIRECTED", "m")
    tagged = {
        write_question(index, SampledPath("m", (("TAGGED", "out"),), ("t",)), random.Random(s))[0] for s in range(30)
    }
    assert {"what is [Heat] tagged", "the tags that [Heat] was tagged"} <= tagged
    assert not any("has [Heat] tagged" in q for q in tagged)  # a film does not tag
    back = {
        write_question(index, SampledPath("t", (("TAGGED", "in"),), ("m",)), random.Random(s))[0] for s in range(30)
    }
    assert "list movies tagged [noir]" in back
    # a person's act keeps the active voice
    directed = {
        write_question(index, SampledPath("p", (("DIRECTED", "out"),), ("m",)), random.Random(s))[0] for s in range(30)
    }
    assert "what movie has [Michael Mann] directed" in directed
    # a graph without types says nothing of who did it: the active voice stays
    untyped = GraphIndex()
    untyped.names.update({"p": "Michael Mann", "m": "Heat"})
    untyped.add("p", "DIRECTED", "m")
    plain = {
        write_question(untyped, SampledPath("p", (("DIRECTED", "out"),), ("m",)), random.Random(s))[0]
        for s in range(30)
    }
    assert "what has [Michael Mann] directed" in plain
    assert not any("[Michael Mann] was directed" in q or "[Michael Mann] is directed" in q for q in plain)


def test_the_kind_asked_for_comes_from_the_types_words() -> None:
    assert [kind_of(t) for t in ("person", "film director", "year", "release date", "movie", "city")] == [
        "agent",
        "agent",
        "time",
        "time",
        "thing",
        "place",
    ]
    assert question_word("agent", "person", "persons", First()) == "who"  # type: ignore[arg-type]
    assert question_word("time", "year", "years", First()) == "when"  # type: ignore[arg-type]
    assert question_word("thing", "film", "films", First()) == "which film"  # type: ignore[arg-type]
    assert question_word("place", "city", "cities", First()) == "where"  # type: ignore[arg-type]
    # asked with where, a question leaves out the preposition its relation ends in
    assert _where("where was [X] born in") == "where was [X] born"
    assert _where("[X] works at where") == "[X] works where"
    assert _where("where is the capital of [X]") == "where is the capital of [X]"


def test_sampled_paths_are_distinct_seeded_and_answer_what_following_them_reaches() -> None:
    g = index()
    options = SamplingOptions(questions=30, max_hops=3, seed=4)
    paths = sample_paths(g, options)
    assert paths == sample_paths(g, options)
    assert paths != sample_paths(g, SamplingOptions(questions=30, max_hops=3, seed=5))
    assert len({(p.start, p.moves) for p in paths}) == len(paths)
    for p in paths:
        nodes = [p.start]
        for move in p.moves:
            nodes = g.follow(nodes, move, p.start)
        assert p.answers == tuple(nodes)
        assert p.answers
    lengths = Counter(len(p.moves) for p in paths)
    assert set(lengths) == {1, 2, 3}
    # the rare relations are drawn too, not only the frequent ones
    assert {m[0] for p in paths for m in p.moves} == {
        "directed_by",
        "starred_actors",
        "has_genre",
        "/film/film/release_year",
    }


def test_pairs_keep_the_start_id_and_the_answers_by_name() -> None:
    g = index()
    pairs = graph_pairs(g, SamplingOptions(questions=12, seed=1))
    paths = sample_paths(g, SamplingOptions(questions=12, seed=1))
    assert [q.topic_id for q in pairs] == [p.start for p in paths]
    assert [q.hops for q in pairs] == [len(p.moves) for p in paths]
    assert [q.answers for q in pairs] == [tuple(g.names[a] for a in p.answers) for p in paths]
    for q in pairs:
        assert q.raw.count("[") == 1
        assert f"[{q.topic}]" in q.raw
        assert q.text == q.raw.replace(f"[{q.topic}]", q.topic)
    asks = [q.raw for q in pairs if q.raw.startswith(("who ", "which ", "what ", "when ", "in which "))]
    assert len(asks) == 8  # most questions say what they ask for
    assert pairs == graph_pairs(g, SamplingOptions(questions=12, seed=1))


def test_the_one_unnamed_type_is_called_by_a_stand_in_noun() -> None:
    g = index()
    for node, (_, type_) in NAMES.items():  # as role types name a graph loaded without types: films unnamed
        g.types[node] = "item" if type_ == "Movie" else type_.lower()
    path = SampledPath("nolan", (("directed_by", "in"),), ("inception", "memento"))
    first: Any = First()
    assert write_question(g, path, first, {"item": "album"})[0] == "which album is directed by [Christopher Nolan]"
    assert write_question(g, path, first)[0] == "which item is directed by [Christopher Nolan]"
    options = SamplingOptions(questions=12, seed=1)
    plain = graph_pairs(g, options)
    named = graph_pairs(g, options, unnamed=("item",))
    assert named == graph_pairs(g, options, unnamed=("item",))
    # the noun is drawn apart: the paths, the answers and every question not about films are as they were
    assert [(q.topic_id, q.answers) for q in named] == [(q.topic_id, q.answers) for q in plain]
    changed = [(p.raw, q.raw) for p, q in zip(plain, named, strict=True) if p.raw != q.raw]
    assert changed
    assert all("item" in old and "item" not in new for old, new in changed)
    assert sum(1 for q in named if " item" in q.raw) == 0
    for node, (_, type_) in NAMES.items():  # two unnamed types: the films and the people, a noun each
        g.types[node] = {"Movie": "item", "Person": "item 2"}.get(type_, type_.lower())
    two = SampledPath("inception", (("directed_by", "out"), ("directed_by", "in")), ("memento",))
    assert write_question(g, two, first, {"item": "album", "item 2": "recipe"})[0] == (
        "which album is directed by the recipe [Inception] is directed by"
    )
    both = graph_pairs(g, options, unnamed=("item", "item 2"))
    assert [q.answers for q in both] == [q.answers for q in plain]
    assert not [q.raw for q in both if re.search(r"\bitems?\b", q.raw)]


def test_stand_in_nouns_leave_out_the_graphs_named_types_and_ask_for_things() -> None:
    assert len(STAND_IN_NOUNS) == len(set(STAND_IN_NOUNS))
    assert {kind_of(noun) for noun in STAND_IN_NOUNS} == {"thing"}  # no who / when / where questions
    assert {plural_of(noun)[:-1] for noun in STAND_IN_NOUNS if not noun.endswith(("sh", "ch"))} == {
        noun for noun in STAND_IN_NOUNS if not noun.endswith(("sh", "ch"))
    }
    assert {"film", "movie", "country", "university"}.isdisjoint(STAND_IN_NOUNS)  # the dev questions' nouns
    assert stand_in_nouns(["song", "RECORD_LABEL", "vehicle type"]) == tuple(
        n for n in STAND_IN_NOUNS if n not in ("song", "vehicle")
    )


def test_no_path_ends_on_a_move_that_stays_where_the_walk_stands() -> None:
    """The walk offers no move whose far ends are all in its frontier (a self-loop: one critic `follows`
    themself), so no question is written along one: it could not be mined."""
    g = GraphIndex()
    for node, (name, type_) in {
        "m": ("Memento", "Movie"),
        "c": ("A Critic", "Person"),
        "d": ("B Critic", "Person"),
    }.items():
        g.names[node], g.types[node] = name, type_
    g.add("c", "reviewed", "m")
    g.add("d", "reviewed", "m")
    g.add("c", "follows", "c")
    paths = sample_paths(g, SamplingOptions(questions=20, max_hops=2, seed=0))
    reviewed_in, reviewed_out = ("reviewed", "in"), ("reviewed", "out")
    # from Memento, the critics' `follows` reaches only the critic already in the frontier: not a path
    assert {(p.start, p.moves) for p in paths} == {
        ("m", (reviewed_in,)),
        ("c", (reviewed_out,)),
        ("d", (reviewed_out,)),
        ("c", (reviewed_out, reviewed_in)),
        ("d", (reviewed_out, reviewed_in)),
    }


class Heard:
    def __init__(self) -> None:
        self.reports: list[tuple[str, int, int]] = []

    def stage(self, message: str) -> None:
        pass

    def advance(self, label: str, done: int, total: int) -> None:
        self.reports.append((label, done, total))


def hub_graph() -> GraphIndex:
    """60 films, each with one director of its own and all of one genre: `Drama` is a hub of 60 films."""
    g = GraphIndex()
    g.names["g"], g.types["g"] = "Drama", "Genre"
    for i in range(60):
        film, person = f"f{i}", f"p{i}"
        g.names[film], g.types[film] = f"Film {i}", "Movie"
        g.names[person], g.types[person] = f"Person {i}", "Person"
        g.add(film, "directed_by", person)
        g.add(film, "has_genre", "g")
    return g


def test_follow_stops_reading_past_its_limit() -> None:
    g = hub_graph()
    films = g.follow(["g"], ("has_genre", "in"), "")
    assert films == [f"f{i}" for i in range(60)]
    assert g.follow(["g"], ("has_genre", "in"), "", limit=5) == ["f0", "f1", "f2", "f3", "f4", "f5"]
    assert g.follow(["g"], ("has_genre", "in"), "f0", limit=2) == ["f1", "f2", "f3"]
    assert g.follow(["g"], ("has_genre", "in"), "", limit=60) == films  # never more than there are
    # the limit counts distinct ends: two films' one genre is one end
    assert g.follow(["f0", "f1"], ("has_genre", "out"), "", limit=1) == ["g"]


def test_paths_through_a_hub_are_the_ones_reading_it_whole_would_draw() -> None:
    """Sampling reads a frontier only up to the larger cap; the paths and their answers are exactly those drawn
    when every frontier was read whole (the caps reject an oversized frontier either way)."""
    g = hub_graph()
    options = SamplingOptions(questions=40, max_hops=3, max_answers=10, max_frontier=20, seed=2)
    calls: list[int | None] = []
    follow = g.follow

    def whole(nodes: Any, move: Any, exclude: str, limit: int | None = None) -> list[str]:
        calls.append(limit)
        return follow(nodes, move, exclude)

    capped = sample_paths(g, options)
    g.follow = whole  # type: ignore[method-assign]
    assert sample_paths(g, options) == capped
    assert set(calls) == {20}  # the larger of max_frontier and max_answers
    assert capped
    assert all(len(p.answers) <= 10 for p in capped)
    # the hub is a start (by degree) on 1-hop paths only when its move stays under the answer cap: never here
    assert not any(p.start == "g" and p.moves[0] == ("has_genre", "in") for p in capped)


def test_writing_questions_reports_progress() -> None:
    heard = Heard()
    pairs = graph_pairs(hub_graph(), SamplingOptions(questions=210, seed=1), heard)
    assert len(pairs) == 210
    assert heard.reports == [("write questions", 100, 210), ("write questions", 200, 210)]


def test_an_inner_hop_that_is_the_main_move_between_two_kinds_is_named_by_the_kind_it_reaches() -> None:
    g = index()
    # movies reach people by two relations, neither with twice the other's links (3 directed_by, 2 starred): no
    # main move; a genre or a year is reached one way only
    assert kind_moves(g) == {
        ("Genre", "Movie"): ("has_genre", "in"),
        ("Movie", "Genre"): ("has_genre", "out"),
        ("Movie", "Year"): ("/film/film/release_year", "out"),
        ("Year", "Movie"): ("/film/film/release_year", "in"),
    }
    co = index()
    co.add("titanic", "directed_by", "nolan")  # 4 directed_by links to 2 starred_actors: twice, the main move
    assert kind_moves(co)[("Movie", "Person")] == ("directed_by", "out")
    assert kind_moves(co)[("Person", "Movie")] == ("directed_by", "in")
    path = SampledPath("thriller", (("has_genre", "in"), ("directed_by", "out")), ("nolan",))
    main = kind_moves(g)
    # a quarter of such hops (a draw below 0.25) are read by the kind alone; the last hop never is
    assert write_question(g, path, First(0.1), None, main)[0] == "name the director of the movie of [Thriller]"  # type: ignore[arg-type]
    assert write_question(g, path, First(0.1))[0] == "name the director of the movies whose genre is [Thriller]"  # type: ignore[arg-type]
    assert write_question(g, path, First(0.5), None, main) == write_question(g, path, First(0.5))  # type: ignore[arg-type]
    one = SampledPath("memento", (("has_genre", "out"),), ("thriller",))
    assert write_question(g, one, First(0.1), None, main) == write_question(g, one, First(0.1))  # type: ignore[arg-type]
