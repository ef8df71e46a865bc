"""The type of answer a question asks for, and STOP ruled out on another.

What kind of thing a node type reads as (a person or other agent, a time, a place), from the type's own words;
what a question asks for by its question word and the noun phrase after it; and the one rule every structure-
reading decider applies after its scores (:func:`stop_ruled_out`): where the question names the type of its
answer, the walk stands on another type, and an offered move reaches the named one, STOP is no answer. Shared by
the local decider (:mod:`graphwalk_neo4j.decide.local`), the learned decider's inputs and the questions written
from a graph (:mod:`graphwalk_neo4j.learned.graph_questions`, which asks ``who`` for an agent).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from graphwalk_neo4j.identifiers import relation_words

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from graphwalk_neo4j.decide.request import DecisionContext

# Function words a question's relation words are read without (word-level coverage, option_extras 7-9).
FUNCTION_WORDS = frozenset(
    "a an the of by in on at to for with from and or is are was were be been being do does did what which who "
    "whom whose when where how that this these those there it its their his her also same as can you me tell "
    "give list name".split()
)
WORD_PATTERN = re.compile(r"[a-z][a-z']*")


QUESTION_WORDS = ("who", "whom", "whose", "which", "what", "when", "where")


def asked_phrase(question: str) -> str:
    """What a question asks for by its question word: ``who``, ``when``, ``where``, or ``which`` / ``what`` with
    the word after it (``which genres``); the first question word wherever it stands (``... starred who``);
    empty when there is none."""
    words: list[str] = WORD_PATTERN.findall(question.lower())
    for i, word in enumerate(words):
        if word in QUESTION_WORDS:
            after = words[i + 1] if i + 1 < len(words) else ""
            if word in ("which", "what") and after and after not in FUNCTION_WORDS:
                return f"{word} {after}"
            return word
    return ""


COPULAS = frozenset("is are was were the a an".split())


def asked_noun_phrase(question: str) -> str:
    """:func:`asked_phrase` with the whole noun phrase ``which`` / ``what`` asks about, past a copula and an
    article: ``what was the release date of [X]`` -> ``what release date``, ``what is the genre of [X]`` ->
    ``what genre``; a question word followed by another function word is itself (``what does [X] ...``)."""
    words: list[str] = WORD_PATTERN.findall(question.lower())
    for i, word in enumerate(words):
        if word in QUESTION_WORDS:
            if word not in ("which", "what"):
                return word
            rest = words[i + 1 :]
            while rest and rest[0] in COPULAS:
                rest = rest[1:]
            noun = []
            for w in rest:
                if w in FUNCTION_WORDS:
                    break
                noun.append(w)
            return " ".join([word, *noun])
    return ""


# Words that make a type an agent, asked for with ``who``: decided from the type's own words, nothing else.
AGENT_WORDS = frozenset(
    "person people human individual actor actress director writer author artist musician singer composer "
    "player athlete employee worker staff user customer client member character politician scientist founder "
    "manager student teacher producer reviewer agent man woman child owner creator leader officer star coach "
    "captain referee "
    # the people a person is related to: a family's and a household's roles, and the people met at work or school
    "spouse husband wife partner parent father mother son daughter children sibling brother sister grandparent "
    "grandfather grandmother grandchild grandson granddaughter cousin uncle aunt nephew niece relative ancestor "
    "descendant heir friend colleague classmate teammate neighbour neighbor boss supervisor mentor".split()
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
    "network brand broadcaster manufacturer airline bank charity foundation union league subsidiary conglomerate "
    "startup retailer distributor supplier".split()
)


def _singulars(word: str) -> tuple[str, ...]:
    """``word`` and the singulars it may be the plural of (``directors``: director; ``cities``: city), as the
    learned decider's ``asked_kind`` column was trained to read them (``movies`` -> ``movy``; see
    :func:`_noun_forms`)."""
    forms = [word]
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    elif word.endswith("s"):
        forms.append(word[:-1])
    return tuple(forms)


def _noun_forms(word: str) -> tuple[str, ...]:
    """``word`` and every singular it may be the plural of: ``cities`` city, ``movies`` movie, ``boxes`` box,
    ``directors`` director. The STOP rule reads nouns so (:func:`answer_type_verdicts`)."""
    forms = [word]
    if word.endswith("ies"):
        forms += [word[:-3] + "y", word[:-1]]
    elif word.endswith("es"):
        forms += [word[:-1], word[:-2]]
    elif word.endswith("s"):
        forms.append(word[:-1])
    return tuple(forms)


def asks_for(asked: str, type_words: str, forms: Callable[[str], tuple[str, ...]] = _singulars) -> bool | None:
    """Whether a question's question-word phrase (:func:`asked_phrase`) asks for a node of a type with
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
    noun = [form for word in words[1:] for form in forms(word)]
    kind = kind_of(" ".join(noun))
    if kind in ("agent", "time"):
        return kind_of(type_words) == kind
    return bool(set(noun) & set(type_words.lower().split()))


# ``where`` asked of an organisation ("where is [X]'s club based"): a place, and no organisation, answers it
WHERE_OF_ORGANISATION = "where-of-organisation"
# What a question word asks for, to the STOP rule (:func:`answer_type_verdicts`): the trained column's kinds
# (:data:`ASKED_KINDS`), ``where``, which that column reads as saying nothing, and :data:`WHERE_OF_ORGANISATION`.
STOP_RULE_KINDS = {**ASKED_KINDS, "where": "place", WHERE_OF_ORGANISATION: "place"}


def _organisation(type_words: str) -> bool:
    return bool(set(type_words.lower().split()) & ORGANISATION_WORDS)


# Attribute nouns whose values are things of another kind, which English names too: a person's nationality or
# citizenship is a country. A type so named (``nationality``, what a graph loaded without types calls the objects
# of its ``nationality`` relation) is also that kind, to the answer's type (:func:`answer_type_verdicts`).
VALUE_KINDS = {"nationality": "country", "citizenship": "country"}


def with_value_kinds(type_words: str) -> str:
    """A type's words with the kind its head's values are (:data:`VALUE_KINDS`): ``nationality`` -> ``nationality
    country``; other types as they are."""
    words = type_words.split()
    kind = VALUE_KINDS.get(singular(words[-1].lower())) if words else None
    return f"{type_words} {kind}" if kind and kind not in words else type_words


def answer_type_verdicts(asked: str, types: Sequence[str]) -> tuple[bool, ...] | None:
    """Per type (in words: ``FilmGenre`` as ``film genre``), whether the question-word phrase ``asked``
    (:func:`asked_noun_phrase`) names it as the answer's type; ``None`` when the phrase names none of
    ``types``. Stricter than :func:`asks_for`, because a walk may be refused its STOP on it:

    * ``who`` / ``whom`` / ``whose``: an agent, a person or an organisation (:data:`ORGANISATION_WORDS`);
      ``when``: a time; ``where``: a place or an organisation (people are from a city, work where a company
      is, study where a university is), never a person, a time or a thing; :data:`WHERE_OF_ORGANISATION`
      (``where`` asked of an organisation): a place only;
    * ``which`` / ``what`` and the words after them up to a function word: the first run of words that name
      some of ``types``, read by its last word, since an English noun compound ends in its head (``which
      countries``; ``which european countries``; ``what film genre``: genre; ``which companies employ people``:
      companies, the run ending at ``employ``); a noun that names an organisation (:data:`ORGANISATION_WORDS`)
      and no type, any organisation type (``which companies`` on a graph whose firms are ``employer``);
    * ``what`` alone, and a noun no type carries (``which words``): ``None``; so too a phrase whose first plural
      names no type, since an English plural is a noun and the words before the type's word are then no
      modifiers of it (``which words describe movie``: ``words``, the movie being what they describe; ``which
      european countries`` still reads ``countries``, an adjective taking no plural); a possessive ends the
      phrase, its owner being what is asked (``which country's league``: a country);
    * a type is also the kind its values are (:func:`with_value_kinds`): ``which country`` names ``nationality``."""
    words = asked.split()
    if not words or not types:
        return None
    types = [with_value_kinds(t) for t in types]
    if words[0] in STOP_RULE_KINDS:
        kind = STOP_RULE_KINDS[words[0]]
        organisations = kind != "time" and words[0] != WHERE_OF_ORGANISATION
        verdicts = tuple(kind_of(t) == kind or (organisations and _organisation(t)) for t in types)
        return verdicts if any(verdicts) else None
    head: tuple[bool, ...] | None = None
    for token in words[1:]:
        possessive = token.endswith(("'s", "\u2019s"))
        word = token[:-2] if possessive else token
        verdicts = tuple(bool(asks_for(f"{words[0]} {word}", t, _noun_forms)) for t in types)
        if not any(verdicts) and _organisation(" ".join(_noun_forms(word))):
            verdicts = tuple(_organisation(t) for t in types)  # no type carries the noun: any organisation
        if any(verdicts):
            head = verdicts
        elif head is not None or reads_as_plural(word):
            break
        if possessive:  # the owner is what is asked: "which country's league": a country
            break
    return head


# Nouns whose plural ends in -ies from a singular in -ie, not -y (``movies``: movie, not "movy").
IE_NOUNS = frozenset("movie cookie zombie rookie pie tie lie hippie calorie prairie selfie brownie goalie".split())


def singular(word: str) -> str:
    """An English noun's singular by its ending (``cities``: city, ``boxes``: box, ``films``: film), itself when
    it reads as no plural (``genus``, ``class``); ``spouses``, ``causes``, ``houses`` are of nouns in -se."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-1] if word[:-1] in IE_NOUNS else word[:-3] + "y"
    if word.endswith(("ouses", "auses")):
        return word[:-1]
    if word.endswith(("sses", "xes", "ches", "shes", "uses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def reads_as_plural(word: str) -> bool:
    """Whether ``word`` reads as an English plural by its ending (``words``, ``cities``): :func:`singular` makes
    something else of it, where the words that end in ``s`` in the singular (``famous``, ``class``, ``this``,
    ``genus``) stay as they are."""
    return len(word) > 3 and singular(word) != word


def names_replaced(question: str, names: Sequence[str], by: str) -> str:
    """``question`` with each of ``names`` (case-insensitive, on word boundaries) replaced by ``by``."""
    for name in names:
        if name.strip():
            question = re.sub(rf"(?<!\w){re.escape(name.strip())}(?!\w)", by, question, flags=re.IGNORECASE)
    return question


def asked_about(question: str, names: Sequence[str]) -> str:
    """:func:`asked_noun_phrase` of ``question`` with each start entity's name read as ``it``, so the noun phrase
    ends where the topic stands: "what was [X] the director of" asks ``what`` (a film), not ``what director``,
    which the question with the topic taken out ("what was the director of") would read."""
    return asked_noun_phrase(names_replaced(question, names, " it "))


def stop_ruled_out(
    asked: str,
    types: Sequence[str],
    is_stop: Sequence[bool],
    onward: Sequence[Sequence[str]] = (),
    others: Sequence[str] = (),
) -> bool:
    """Whether STOP is no answer to a decision whose options reach ``types`` (in words; STOP's: the type the walk
    stands on): the question names the type of its answer (``asked``, from :func:`asked_about`, read by
    :func:`answer_type_verdicts`: ``in which countries ...``, ``... starred who``), the walk does not stand on that
    type, and a move offered reaches it. Standing on cities when a country is asked, the answer is one hop further,
    however sure a decider is that the question's words are all taken; a question that names no type rules
    nothing out.

    ``onward`` (per option, the types one move past the type it reaches, in words: a graph's type links) looks a
    move further: standing on people when an industry is asked and a move reaches companies, which lead on to
    industries, STOP is ruled out too. ``others`` (the graph's other types) are read only to find the word that
    names the answer's type, so that "which industries employ people" reads ``industries`` wherever the walk
    stands, and rule nothing out."""
    stops = [i for i, stop in enumerate(is_stop) if stop]
    if not stops:
        return False
    near = [*types, *sorted({t for links, stop in zip(onward, is_stop, strict=False) if not stop for t in links})]
    verdicts = answer_type_verdicts(asked, [*near, *sorted(set(others) - set(near))])
    return verdicts is not None and not verdicts[stops[0]] and any(verdicts[: len(near)])


def without_stop(probs: np.ndarray, is_stop: Sequence[bool]) -> np.ndarray:
    """``probs`` with STOP's share given to the moves in proportion (STOP 0); unchanged when every option is
    STOP."""
    return without_options(probs, is_stop)


def without_options(probs: np.ndarray, removed: Sequence[bool]) -> np.ndarray:
    """``probs`` with the ``removed`` options' share given to the others in proportion (those 0); unchanged when
    every option is removed."""
    kept = ~np.asarray(removed, dtype=bool)
    if not kept.any():
        return probs
    total = float(probs[kept].sum())
    if total <= 0:  # everything was on the removed: the others share alike
        return np.asarray(kept / kept.sum(), dtype=np.float64)
    return np.asarray(np.where(kept, probs, 0.0) / total)


def context_stop_ruled_out(context: DecisionContext) -> bool:
    """:func:`stop_ruled_out` for a walk's choice question: the options' target types, STOP's the type the walk
    stands on (an untyped node reads ``node``)."""
    types = [relation_words((context.current_type if o.is_stop else o.target_type) or "node") for o in context.options]
    asked = asked_about(context.question, [s.name for s in context.start])
    return stop_ruled_out(asked, types, [o.is_stop for o in context.options])
