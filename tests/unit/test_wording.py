"""Kin words and idioms read as the hops they stand for (learned/wording.py)."""

from __future__ import annotations

import pytest

from graphwalk_neo4j.decide.request import DecisionContext, EntityInfo, HopInfo, OptionInfo
from graphwalk_neo4j.learned.inputs import decision_inputs
from graphwalk_neo4j.learned.wording import idiom_reading, kin_reading, read_outside, written_out

FAMILY = ("parents", "children", "spouse", "place", "birth", "religion", "nationality")


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("where were X's grandparents born", "where were X's parents' parents born"),
        ("what do the grandchildren of X do", "what do the children of children of X do"),
        ("who is the great-grandfather of X", "who is the father of parents of parents of X"),
        ("who is the Grandson of X", "who is the son of children of X"),
        ("where is the grandma of X from", "where is the mother of parents of X from"),
        ("where is X's grandma from", "where is X's parents' mother from"),
        ("who are X's in-laws", "who are X's spouse's parents"),
        ("who is X's son-in-law", "who is X's son's spouse"),
        ("which country are the in-laws of X from", "which country are the parents of spouse of X from"),
        ("who is the mother-in-law of X", "who is the mother of spouse of X"),
        ("who are the sons-in-law of X", "who are the spouses of sons of X"),
        ("what religion do the siblings of X follow", "what religion do the children of parents of X follow"),
        ("who is X's sister", "who is X's parents' daughter"),
        ("who is the sister of X", "who is the daughter of parents of X"),
        ("which faith do the brothers and sisters of X have", "which faith do the children of parents of X have"),
        ("what did X's mother and father do", "what did X's parents do"),
        ("where is the wife or husband of X from", "where is the spouse of X from"),
        ("where are the husbands and wives of X from", "where are the spouses of X from"),
        ("what do natives of X work as", "what do people born in X work as"),
        ("who directed X", "who directed X"),
    ],
)
def test_kin_words_are_written_out_as_the_hops_they_name(question: str, read: str) -> None:
    assert kin_reading(question, FAMILY) == read


def test_a_kin_word_the_graph_names_itself_stays() -> None:
    assert kin_reading("who are the siblings of X", ("sibling", "parents")) == "who are the siblings of X"
    assert kin_reading("who are X's grandparents", ("grandparents", "parents")) == "who are X's grandparents"
    assert kin_reading("the natives of X", ("native",)) == "the natives of X"
    assert kin_reading("the mother-in-law of X", ("mother", "law")) == "the mother-in-law of X"
    # a relation that only shares the first letters is not the word (native, nationality; law, lawyer)
    assert kin_reading("the natives of X", ("nationality",)) == "the people born in X"
    assert kin_reading("the in-laws of X", ("lawyer",)) == "the parents of spouse of X"


def test_names_are_left_as_written() -> None:
    read = read_outside(
        "what did the Warner Brothers siblings make", ["Warner Brothers"], lambda t: kin_reading(t, FAMILY)
    )
    assert read == "what did the Warner Brothers children of parents make"
    # the sentence around a name is read whole: a possessive after it, an idiom across it
    read = read_outside("what do [Ada Dahl]'s grandchildren do", ["Ada Dahl"], lambda t: written_out(t, FAMILY))
    assert read == "what do [Ada Dahl]'s children's children do occupation"
    # names are held out in one pass: a later name ("0") is not found inside an earlier one's mark
    assert read_outside("0 and 12", ["12", "0"], lambda t: t) == "0 and 12"


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("what did X's parents do for a living", "what did X's parents do for occupation"),
        ("what does X do for work", "what does X do for occupation"),
        ("what do natives of X work as", "what do natives of X work as occupation"),
        ("what does the partner of X do?", "what does the partner of X do occupation"),
        ("what does X do with the money", "what does X do with the money"),
        ("what films did X do", "what films did X do"),
        ("who did X marry", "who did X marry"),
    ],
)
def test_an_occupation_idiom_says_what_it_asks_for(question: str, read: str) -> None:
    assert idiom_reading(question, FAMILY) == read


def test_an_idiom_the_graph_names_stays() -> None:
    assert idiom_reading("what does X work as", ("works", "as")) == "what does X work as"


def test_decision_inputs_read_the_kin_words_and_place_them_by_the_written_out_question() -> None:
    context = DecisionContext(
        question="in which cities were [Emil Dahl]'s grandparents born",
        start=(EntityInfo(name="Emil Dahl"),),
        options=(
            OptionInfo(label="parents", relation="parents", direction="out", count=2),
            OptionInfo(label="place of birth", relation="place_of_birth", direction="out", count=1),
            OptionInfo(label="STOP", is_stop=True),
        ),
    )
    inputs = decision_inputs(context)
    assert inputs.question == "in which cities were 's parents' parents born"
    # per content word (cities, the lone s of 's, parents', parents, born): parents is the noun the name's 's owns
    # (1, and the next it owns in turn keeps the nearer place of the same word), born the third word after the
    # name in the written-out question (-1/3), cities two before it (1/2)
    assert inputs.near == (0.5, 0.0, 1.0, 1.0, -1 / 3)


def test_a_hop_taken_does_not_change_the_reading() -> None:
    context = DecisionContext(
        question="what religion do the siblings of [Ada Berg] follow",
        start=(EntityInfo(name="Ada Berg"),),
        path=(HopInfo(relation="parents", direction="out", count=2),),
        options=(
            OptionInfo(label="children", relation="children", direction="out", count=3),
            OptionInfo(label="STOP", is_stop=True),
        ),
    )
    assert decision_inputs(context).question == "what religion do the children of parents of follow"


def test_an_idiom_around_the_name_is_read_before_the_name_is_masked() -> None:
    context = DecisionContext(
        question="what does [Kira Xu] do",
        start=(EntityInfo(name="Kira Xu"),),
        options=(
            OptionInfo(label="profession", relation="profession", direction="out", count=1),
            OptionInfo(label="STOP", is_stop=True),
        ),
    )
    assert decision_inputs(context).question == "what does do occupation"
