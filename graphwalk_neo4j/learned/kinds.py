"""What kind of thing a node type reads as (a person or other agent, a time, a place), from the type's own words,
and what kind a question asks for by its question word: shared by the questions written from a graph
(:mod:`.graph_questions`, which asks ``who`` for an agent) and the decider's inputs (:mod:`.inputs`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

# Words that make a type an agent, asked for with ``who``: decided from the type's own words, nothing else.
AGENT_WORDS = frozenset(
    "person people human individual actor actress director writer author artist musician singer composer "
    "player athlete employee worker staff user customer client member character politician scientist founder "
    "manager student teacher producer reviewer agent man woman child owner creator leader officer".split()
)
# Types that read as a time, asked for with ``when`` or ``in which``.
TIME_WORDS = frozenset("year date time day month decade century era period".split())
# Types that read as a place, asked for with ``where`` now and then.
PLACE_WORDS = frozenset(
    "place location city town village country nation state province region county district area continent "
    "address site venue island capital".split()
)


def kind_of(type_words: str) -> str:
    """``agent`` when a type reads as a person or other agent (any of its words in :data:`AGENT_WORDS`), ``time``
    when it reads as a time, ``place`` as a place (:data:`PLACE_WORDS`), ``thing`` otherwise."""
    words = set(type_words.lower().split())
    if words & AGENT_WORDS:
        return "agent"
    if words & TIME_WORDS:
        return "time"
    if words & PLACE_WORDS:
        return "place"
    return "thing"


ASKED_KINDS = {"who": "agent", "whom": "agent", "whose": "agent", "when": "time"}

# Types that read as an organisation. ``who`` asks for one as readily as for a person ("who owns [X]", "who
# published [X]"), so the stop rule (:func:`answer_type_verdicts`) counts them as agents; the decider's input
# column (:func:`asks_for`) keeps ``who`` to people, as its training saw it.
ORGANISATION_WORDS = frozenset(
    "company organization organisation firm business corporation enterprise employer team club band group "
    "agency institution institute university college school party government ministry label publisher studio "
    "network brand broadcaster manufacturer airline bank charity foundation union league".split()
)


def _singulars(word: str) -> tuple[str, ...]:
    """``word`` and the singulars it may be the plural of (``directors``: director; ``cities``: city)."""
    forms = [word]
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    elif word.endswith("s"):
        forms.append(word[:-1])
    return tuple(forms)


def asks_for(asked: str, type_words: str) -> bool | None:
    """Whether a question's question-word phrase (:func:`~.inputs.asked_phrase`) asks for a node of a type with
    these words; ``None`` when it says nothing about it. ``who`` asks for an agent and ``when`` for a time
    (:func:`kind_of`); ``which`` / ``what`` with a noun for that noun, read as the type's kind when the noun names
    an agent or a time (``which directors``: a person) and as the noun itself otherwise (``which country``: a
    country, not a city; ``which genres``: a genre). Places are not read as one kind, because they nest: a city is
    where a country question stands before its last hop. ``where`` says nothing (people work where a company is,
    and a city or a country is where things are)."""
    words = asked.split()
    if not words:
        return None
    if words[0] in ASKED_KINDS:
        return kind_of(type_words) == ASKED_KINDS[words[0]]
    if len(words) < 2:
        return None
    noun = [form for word in words[1:] for form in _singulars(word)]
    kind = kind_of(" ".join(noun))
    if kind in ("agent", "time"):
        return kind_of(type_words) == kind
    return bool(set(noun) & set(type_words.lower().split()))


def answer_type_verdicts(asked: str, types: Sequence[str]) -> tuple[bool, ...] | None:
    """Per type (in words, :func:`~.inputs.type_text`), whether the question-word phrase ``asked``
    (:func:`~.inputs.asked_noun_phrase`) names it as the answer's type; ``None`` when the phrase names none of
    ``types`` or is ambiguous. Stricter than :func:`asks_for`, because a walk may be refused its STOP on it:

    * ``who`` / ``whom`` / ``whose``: an agent, a person or an organisation (:data:`ORGANISATION_WORDS`);
      ``when``: a time;
    * ``which`` / ``what`` and the words after them up to a function word (``which countries``, ``what film
      genre``, ``which companies employ people``): each word is tried alone; exactly one word must name some
      of ``types`` (``film genre`` on a graph with ``film`` and ``genre`` types names two and says nothing; so
      does ``companies ... people``);
    * ``where``, ``what`` alone, and a noun no type carries (``which words``): ``None``."""
    words = asked.split()
    if not words or not types:
        return None
    if words[0] in ASKED_KINDS:
        kind = ASKED_KINDS[words[0]]
        verdicts = tuple(
            kind_of(t) == kind or (kind == "agent" and bool(set(t.lower().split()) & ORGANISATION_WORDS)) for t in types
        )
        return verdicts if any(verdicts) else None
    named = []
    for word in words[1:]:
        verdicts = tuple(bool(asks_for(f"{words[0]} {word}", t)) for t in types)
        if any(verdicts):
            named.append(verdicts)
    return named[0] if len(named) == 1 else None
