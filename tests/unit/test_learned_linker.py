"""Linking from plain text: punctuation-bearing spans and the learned mention scorer (exact values)."""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np
import pytest

from graphwalk_neo4j.learned.linker import FEATURES, MentionLinker, fit_linker, template_counts
from graphwalk_neo4j.walk.entry import best_candidate, best_per_span, pick_mentions, question_spans

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.store.queries import DegreeRow


def test_spans_keep_names_with_punctuation_whole() -> None:
    spans = question_spans("the film Salaam Bombay! was directed by who")
    assert "salaam bombay!" in spans
    assert "salaam bombay" in spans
    assert "crouching tiger, hidden dragon" in question_spans("the actor in Crouching Tiger, Hidden Dragon also")
    assert "bat*21" in question_spans("the films directed by the Bat*21 director")
    assert "tiger" in question_spans("Tiger, the film")  # a trailing comma is trimmed off a span's end


def test_template_counts_split_question_words_from_topics() -> None:
    outside, inside = template_counts(["who is the director of [Livid]", "the director of [Director] also"])
    assert outside["director"] == 2
    assert inside["director"] == 1
    assert inside["livid"] == 1
    assert outside["the director of"] == 2
    assert "livid" not in outside


def test_features_exact() -> None:
    linker = MentionLinker(weights=np.zeros(len(FEATURES)), outside={"director": 9}, inside={"director": 2, "livid": 3})
    rows = linker.features(
        "who is the director that directed livid",
        [("director", {"degree": 4}), ("livid", {"degree": 0}), ("is the director", {})],
    )
    assert rows[0].tolist() == pytest.approx([9 / 12, math.log(10), 1.0, math.log(9), 1.0, 0.0, math.log(5)])
    assert rows[1][0] == 0.0
    assert rows[1][5] == 1.0
    assert rows[1][4] == 0.0
    assert rows[2][4] == 0.0
    assert rows[2][2] == 3.0


def test_fit_learns_that_question_words_are_not_topics(tmp_path: Path) -> None:
    questions = [f"who is the director that directed [{t}]" for t in ("Livid", "Duel", "Maze", "Heat")]
    questions += [f"what language is [{t}] in" for t in ("Liliom", "Tabu")]
    outside, inside = template_counts(questions)
    examples = []
    for q in questions:
        topic = q[q.index("[") + 1 : q.index("]")].lower()
        plain = q.replace("[", "").replace("]", "")
        word = "director" if "director" in q else "language"
        candidates = [(word, {"degree": 50}), (topic, {"degree": 5})]  # the question word is a bigger entity
        examples.append((plain, candidates, 1))
    linker, report = fit_linker(examples, outside, inside)
    assert report == {"questions": 6.0, "ambiguous": 6.0, "accuracy": 1.0}
    scores = linker("what language is Mystery in", [("language", {"degree": 80}), ("mystery", {"degree": 3})])
    assert scores[1] > scores[0]
    linker.save(tmp_path)
    again = MentionLinker.load(tmp_path)
    assert again is not None
    assert again.weights.tolist() == pytest.approx(linker.weights.tolist())
    assert MentionLinker.load(tmp_path / "nothing") is None
    assert fit_linker([], Counter(), Counter())[1]["ambiguous"] == 0.0


def test_best_per_span_orders_longest_first_with_the_biggest_entity() -> None:
    found: dict[str, list[DegreeRow]] = {
        "paris": [
            {"id": "a", "name": "Paris", "type": None, "degree": 1},
            {"id": "b", "name": "Paris", "type": None, "degree": 9},
        ],
        "is paris burning?": [{"id": "c", "name": "Is Paris Burning?", "type": None, "degree": 2}],
    }
    assert [(s, r["id"]) for s, r in best_per_span(found)] == [("is paris burning?", "c"), ("paris", "b")]


def test_among_same_name_entities_the_one_spelled_as_written_wins() -> None:
    """MetaQA has the tag ``glenn close`` beside the actor ``Glenn Close``: a case-insensitive look-up finds both,
    and the one the text spells as it is comes first, then the one of highest degree."""
    rows: list[DegreeRow] = [
        {"id": "p", "name": "Glenn Close", "type": None, "degree": 40},
        {"id": "t", "name": "glenn close", "type": None, "degree": 14},
    ]
    assert best_candidate("what movies can be described with [glenn close]", rows)["id"] == "t"
    assert best_candidate("what films did Glenn Close act in", rows)["id"] == "p"
    assert best_candidate("what films did GLENN CLOSE act in", rows)["id"] == "p"  # neither spelled: degree
    assert best_candidate("glenn close", rows)["id"] == "t"  # a --start name
    assert best_candidate("glenn closer", rows)["id"] == "p"  # only whole words count
    found: dict[str, list[DegreeRow]] = {
        "heat": [
            {"id": "m", "name": "Heat", "type": None, "degree": 9},
            {"id": "k", "name": "heat", "type": None, "degree": 3},
        ]
    }
    assert [r["id"] for _, r in pick_mentions("movies about heat", found)] == ["k"]
    assert [r["id"] for _, r in best_per_span(found, "who directed Heat")] == ["m"]
    assert [r["id"] for _, r in best_per_span(found)] == ["m"]  # without the text: degree
