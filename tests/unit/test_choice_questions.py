"""Prompt building: relation glosses, label schemes, option/STOP descriptions, per-beam instructions, the
answer-type question, and the request (state = the question only)."""

from __future__ import annotations

from graphwalk_neo4j.identifiers import property_words
from graphwalk_neo4j.walk.choice_questions import (
    ANSWER_TYPE_KEY,
    STOP,
    answer_type_question,
    build_question,
    build_request,
    common_type,
    count_text,
    hop_text,
    names_text,
    option_labels,
    path_hops,
    path_lines,
    plural,
    relation_gloss,
    relation_words,
    start_names,
)
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.ports import NodeRef, Option
from graphwalk_neo4j.walk.result import PathStep

MEMENTO = NodeRef(id="m", name="Memento", type="film")
INCEPTION = NodeRef(id="i", name="Inception", type="film")
NOLAN = NodeRef(id="n", name="Christopher Nolan", type="person", summary="British-American director")
LONDON = NodeRef(id="l", name="London", type="city")


def test_relation_words_handles_snake_camel_upper_and_kebab() -> None:
    assert relation_words("directed_by") == "directed by"
    assert relation_words("DIRECTED_BY") == "directed by"
    assert relation_words("directedBy") == "directed by"
    assert relation_words("directed-by") == "directed by"
    assert relation_words("has_imdb_rating") == "has imdb rating"


def test_property_words_read_a_path_like_name_by_its_property_and_its_type_where_it_repeats_the_domain() -> None:
    assert property_words("/film/film/directed_by") == "directed by"
    assert property_words("__business__employment__employer") == "employer"
    assert property_words("__film__director__film") == "director film"  # a director's films
    assert property_words("/film/cinematographer/film") == "cinematographer film"
    assert property_words("/location/location/containedby") == "contained by"
    assert [property_words(r) for r in ("directed_by", "P57", "/film/film")] == ["directed by", "p57", "film"]


def test_relation_words_reads_freebases_set_apart_plural_and_glued_by() -> None:
    assert relation_words("__people__person__spouse_s") == "people person spouse"
    assert relation_words("/people/person/sibling_s") == "people person sibling"
    assert relation_words("/location/location/containedby") == "location contained by"
    assert relation_words("writtenby") == "written by"
    # words that end in "by" without a participle before it stay whole
    assert [relation_words(w) for w in ("nearby", "hobby", "standby", "/location/location/nearby_airports")] == [
        "nearby",
        "hobby",
        "standby",
        "location nearby airports",
    ]


def test_plural() -> None:
    assert [plural(w) for w in ["film", "city", "day", "genus", "box", "match", ""]] == [
        "films",
        "cities",
        "days",
        "genuses",
        "boxes",
        "matches",
        "",
    ]


def test_relation_gloss_out_reads_forward() -> None:
    assert relation_gloss("directed_by", "out") == "directed by"
    assert relation_gloss("release_year", "out", source_type="film", target_type="year") == "release year"


def test_relation_gloss_in_reads_inverse() -> None:
    assert relation_gloss("directed_by", "in", source_type="person", target_type="film") == (
        "films directed by this person"
    )
    assert relation_gloss("starred_actors", "in", source_type="Person", target_type="Film") == (
        "films starred actors this person"
    )
    assert relation_gloss("directed_by", "in") == "nodes directed by this node"
    assert relation_gloss("LOCATED_IN", "in", source_type="country", target_type="city") == (
        "cities located in this country"
    )


def test_short_labels_follow_offer_order() -> None:
    options = [Option(relation="r", direction="out", targets=(n,)) for n in (MEMENTO, INCEPTION, LONDON)]
    assert option_labels(options, WalkConfig(hop_mode="entity")) == ["o1", "o2", "o3"]


def test_readable_labels_are_unique_and_never_stop() -> None:
    stop_node = NodeRef(id="s", name="x")
    options = [
        Option(relation="directed_by", direction="in", targets=(MEMENTO,)),
        Option(relation="directed_by", direction="in", targets=(MEMENTO,)),
        Option(relation="born_in", direction="out", targets=(LONDON,)),
        Option(relation="STOP", direction="out", targets=(stop_node,)),
    ]
    entity = WalkConfig(hop_mode="entity", labels="readable")
    assert option_labels(options, entity) == [
        "directed_by (inverse): Memento",
        "directed_by (inverse): Memento #2",
        "born_in: London",
        "STOP: x",
    ]
    relation = WalkConfig(labels="readable", hop_mode="relation")
    assert option_labels(options, relation) == [
        "directed_by (inverse)",
        "directed_by (inverse) #2",
        "born_in",
        "STOP #2",
    ]


def test_entity_question_exact() -> None:
    step = PathStep(
        step_id="w/d1/0",
        depth=1,
        kind="decision",
        label="o1",
        relation="directed_by",
        direction="out",
        from_ids=["m"],
        from_names=["Memento"],
        nodes=[NOLAN],
    )
    options = [
        Option(relation="directed_by", direction="in", targets=(INCEPTION,)),
        Option(relation="born_in", direction="out", targets=(LONDON,)),
    ]
    question, mapping = build_question(
        "b0",
        current=[NOLAN],
        start=[MEMENTO],
        steps=[step],
        options=options,
        stop_allowed=True,
        config=WalkConfig(hop_mode="entity"),
    )
    assert question.key == "b0"
    assert question.instructions == {
        "task": (
            "You are walking a knowledge graph one edge at a time and are standing at the current node. "
            "Each option is one edge from the current node to a neighbouring node. "
            "Pick the single option that is the right next step toward the answer to the question. "
            "Judge only this one step from the current node."
        ),
        "stop": "Choose STOP only if the current node itself is the answer to the question.",
        "path": ["Memento --directed_by--> Christopher Nolan"],
        "current": "Christopher Nolan (person)",
    }
    assert question.options == {
        "o1": "Inception (film) — films directed by this person; edge: Inception --directed_by--> Christopher Nolan",
        "o2": "London (city) — born in; edge: Christopher Nolan --born_in--> London",
        "STOP": "Stop here: the current node, Christopher Nolan (person), is itself the answer.",
    }
    assert mapping == {"o1": options[0], "o2": options[1], "STOP": None}
    context = question.context
    assert context is not None
    assert context.hop_mode == "entity"
    assert context.stop_allowed
    assert [(e.name, e.type) for e in context.start] == [("Memento", "film")]
    assert [(h.relation, h.direction, h.source_type, h.target_type, h.count, h.names) for h in context.path] == [
        ("directed_by", "out", "film", "person", 1, ("Christopher Nolan",))
    ]
    rows = [(o.label, o.is_stop, o.relation, o.direction, o.target_type, o.count, o.names) for o in context.options]
    assert rows == [
        ("o1", False, "directed_by", "in", "film", 1, ("Inception",)),
        ("o2", False, "born_in", "out", "city", 1, ("London",)),
        ("STOP", True, None, None, None, 1, ()),
    ]
    assert "context" not in question.model_dump()  # never sent, never dumped


def test_entity_option_shows_target_summary_and_can_hide_types_and_glosses() -> None:
    options = [Option(relation="directed_by", direction="out", targets=(NOLAN,), description="credited")]
    question, _ = build_question(
        "b1",
        current=[MEMENTO],
        start=[MEMENTO],
        steps=[],
        options=options,
        stop_allowed=False,
        config=WalkConfig(hop_mode="entity", show_types=False, relation_glosses=False),
    )
    assert question.options == {
        "o1": "Christopher Nolan — edge: Memento --directed_by--> Christopher Nolan; British-American director; "
        "credited",
    }
    assert "stop" not in question.instructions  # type: ignore[operator]
    assert STOP not in question.options


def test_relation_question_exact() -> None:
    config = WalkConfig(hop_mode="relation", sample_names=2)
    years = tuple(NodeRef(id=f"y{i}", name=str(2000 + i), type="year") for i in range(3))
    options = [
        Option(relation="release_year", direction="out", targets=years, total_targets=5),
        Option(relation="directed_by", direction="out", targets=(NOLAN,)),
    ]
    question, mapping = build_question(
        "b2",
        current=[MEMENTO, INCEPTION],
        start=[NOLAN],
        steps=[],
        options=options,
        stop_allowed=True,
        config=config,
        answer_type_hint="year",
    )
    instructions = question.instructions
    assert isinstance(instructions, dict)
    assert instructions["stop"] == "Choose STOP only if the current nodes themselves are the answer to the question."
    assert "start" not in instructions  # the seed layout: task, stop, path, current
    assert instructions["path"] == []
    assert instructions["current"] == "2 nodes: Memento (film), Inception (film)"
    assert instructions["expected_answer_type"] == "The answer is probably a year."
    assert question.options == {
        "o1": "release year (--release_year-->) — leads to 3 nodes, e.g. 2000 (year), 2001 (year) (of 5 in all)",
        "o2": "directed by (--directed_by-->) — leads to 1 node: Christopher Nolan (person)",
        "STOP": "Stop here: the current 2 nodes: Memento (film), Inception (film) are themselves the answer.",
    }
    assert list(mapping) == ["o1", "o2", "STOP"]
    context = question.context
    assert context is not None
    assert context.answer_type_hint == "year"
    assert context.current_count == 2
    years_info = context.options[0]
    assert (years_info.relation, years_info.source_type, years_info.target_type) == ("release_year", "film", "year")
    assert (years_info.count, years_info.reached, years_info.names) == (5, 3, ("2000", "2001", "2002"))


def test_path_lines_in_relation_mode_count_nodes() -> None:
    step = PathStep(
        step_id="s",
        depth=1,
        kind="forced_move",
        label="o1",
        relation="directed_by",
        direction="in",
        from_ids=["n"],
        from_names=["Christopher Nolan"],
        nodes=[MEMENTO, INCEPTION],
    )
    stop = PathStep(step_id="t", depth=2, kind="decision", label="STOP", is_stop=True)
    # the stored edge, whatever the text knobs (the seed layout); a set of nodes reads as its count
    assert path_lines([NOLAN], [step, stop], WalkConfig(hop_mode="relation")) == [
        "2 nodes --directed_by--> Christopher Nolan",
    ]
    assert path_lines([NOLAN], [step], WalkConfig(hop_mode="relation", relation_glosses=False)) == [
        "2 nodes --directed_by--> Christopher Nolan",
    ]
    assert path_lines(
        [MEMENTO],
        [step.model_copy(update={"direction": "out", "nodes": [NOLAN], "from_names": ["Memento"]})],
        WalkConfig(hop_mode="entity"),
    ) == ["Memento --directed_by--> Christopher Nolan"]
    hops = path_hops([NOLAN], [step, stop])
    assert [(h.relation, h.direction, h.source_type, h.target_type, h.count, h.from_count) for h in hops] == [
        ("directed_by", "in", "person", "film", 2, 1)
    ]


def test_hop_text_and_count_text() -> None:
    assert hop_text("release_year", "out", "Film", "Year") == "release year (film to year)"
    assert hop_text("release_year", "out", "Film", "Year", show_types=False) == "release year"
    assert hop_text("release_year", "out", None, "Year") == "release year"
    assert hop_text("directed_by", "in", "person", "film") == "films directed by this person"
    assert count_text([MEMENTO, INCEPTION]) == "2 films"
    assert count_text([NOLAN]) == "1 person"
    assert count_text([NodeRef(id="x", name="x"), NodeRef(id="y", name="y")]) == "2 nodes"
    assert count_text([MEMENTO], show_types=False) == "1 node"
    assert start_names([MEMENTO, NOLAN], WalkConfig(hop_mode="entity")) == [
        "Memento (film)",
        "Christopher Nolan (person)",
    ]
    many = [NodeRef(id=str(i), name=f"n{i}") for i in range(12)]
    assert start_names(many, WalkConfig(hop_mode="entity"), limit=2) == ["n0", "n1", "(+10 more)"]


def test_names_text_and_common_type() -> None:
    assert names_text([MEMENTO], 3) == "1 node: Memento (film)"
    assert names_text([MEMENTO, INCEPTION, NOLAN], 2, show_types=False) == "3 nodes, e.g. Memento, Inception"
    assert names_text([MEMENTO, INCEPTION], 0) == "2 nodes"
    assert common_type([NOLAN, MEMENTO, INCEPTION]) == "film"
    assert common_type([NOLAN, MEMENTO]) == "person"
    assert common_type([NodeRef(id="x", name="x")]) is None


def test_answer_type_question() -> None:
    question = answer_type_question(["film", "person", "film", "", "year"], limit=255)
    assert question is not None
    assert question.key == ANSWER_TYPE_KEY == "answer_type"
    assert question.options == {
        "film": "the answer is a film",
        "person": "the answer is a person",
        "year": "the answer is a year",
    }
    assert answer_type_question(["film", "film"], limit=255) is None
    limited = answer_type_question(["a", "b", "c"], limit=2)
    assert limited is not None
    assert list(limited.options) == ["a", "b"]


def test_request_state_is_the_question_only() -> None:
    question, _ = build_question(
        "b0",
        current=[MEMENTO],
        start=[MEMENTO],
        steps=[],
        options=[Option(relation="directed_by", direction="out", targets=(NOLAN,))],
        stop_allowed=True,
        config=WalkConfig(hop_mode="entity"),
    )
    request = build_request("Who directed Memento?", [question])
    assert request.state == {"query": "Who directed Memento?"}
    assert [q.key for q in request.questions] == ["b0"]
