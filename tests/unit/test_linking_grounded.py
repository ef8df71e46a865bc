"""When a search hit may start a walk (walk/entry.grounded): exact values for the word, typo and similarity
rules, and the edit check they use."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.graph.search import Hit, merge_hits
from graphwalk_neo4j.walk.entry import LINK_VECTOR_FLOOR, grounded, one_edit

if TYPE_CHECKING:
    from graphwalk_neo4j.store.queries import ScoredSearchRow


def hit(name: str, *reasons: str, similarity: float | None = None, aliases: tuple[str, ...] = ()) -> Hit:
    return Hit(uid=name, id=name, name=name, type=None, score=0.5, reasons=list(reasons), aliases=list(aliases),
               similarity=similarity)  # fmt: skip


@pytest.mark.parametrize(
    ("a", "b", "near"),
    [
        ("matrix", "matrix", True),
        ("matrx", "matrix", True),  # a letter left out
        ("matrixx", "matrix", True),  # one too many
        ("matrox", "matrix", True),  # one replaced
        ("mtarix", "matrix", True),  # two swapped
        ("mtrx", "matrix", False),  # two left out
        ("xirtam", "matrix", False),
        ("", "a", True),
    ],
)
def testone_edit(a: str, b: str, near: bool) -> None:
    assert one_edit(a, b) is near
    assert one_edit(b, a) is near


def test_a_question_naming_nothing_does_not_start_at_a_name_that_shares_its_function_words() -> None:
    swallow = "what is the airspeed of an unladen swallow"
    assert not grounded(swallow, hit("The Prestige", "fulltext 0.41"))
    assert not grounded(swallow, hit("The Prestige", "fulltext 0.41", "vector 0.526", similarity=0.526))
    assert not grounded("the", hit("The Competition", "vector 0.670", similarity=0.670))


def test_a_shared_word_a_typo_an_exact_match_or_a_close_vector_links() -> None:
    assert grounded("who directed the matrx", hit("The Matrix", "fulltext 0.80"))
    assert grounded("who directed Kismet", hit("Kismet", "fulltext 2.10"))
    assert grounded("films by nolan", hit("Christopher Nolan", "fulltext 1.20"))
    assert grounded("anything at all", hit("Q", "exact alias 'anything at all'"))
    assert grounded("films of the wachowskis", hit("Lana", "fulltext 0.2", aliases=("the wachowskis",)))
    assert grounded("who is the president of france", hit("Emmanuel Macron", "vector 0.739", similarity=0.739))
    assert grounded("q", hit("X", similarity=LINK_VECTOR_FLOOR))
    assert not grounded("q", hit("X", similarity=LINK_VECTOR_FLOOR - 0.001))
    # short words need the whole word: 'cat' is not 'car'
    assert not grounded("a car", hit("Cat", "fulltext 0.5"))


def test_merge_keeps_the_vector_similarity_of_each_hit() -> None:
    def row(score: float) -> ScoredSearchRow:
        return {"uid": "u1", "id": "e1", "name": "The Matrix", "type": "Movie", "aliases": [], "score": score}

    merged = merge_hits([], [row(1.0)], [row(0.61)], "matrix", 5)
    assert [(h.name, h.similarity, h.reasons) for h in merged] == [
        ("The Matrix", 0.61, ["fulltext 1.00", "vector 0.610"])
    ]
    only_text = merge_hits([], [row(1.0)], [], "matrix", 5)
    assert only_text[0].similarity is None
