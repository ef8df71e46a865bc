"""What the learned decider reads of a decision, and the numbers it computes from it.

:class:`DecisionInputs` is one decision as strings only (the masked question, the path's moves, each option's
move, type, count and words), so mined training data is plain JSON; :func:`decision_inputs` takes it from a
walk's :class:`~graphwalk_neo4j.decide.request.DecisionContext`. :func:`option_extras` turns it, with the
embeddings of its texts, into the per-option numbers that name no relation or wording (sentence- and word-level
coverage), which carry the model (:mod:`graphwalk_neo4j.learned.model`) across relations and phrasings it
never saw.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from graphwalk_neo4j.decide.answer_types import (
    FUNCTION_WORDS,
    ORGANISATION_WORDS,
    QUESTION_WORDS,
    WORD_PATTERN,
    answer_type_verdicts,
    asked_noun_phrase,
    asked_phrase,
    asks_for,
    names_replaced,
    reads_as_plural,
    singular,
)
from graphwalk_neo4j.decide.answer_types import stop_ruled_out as answer_stop_ruled_out
from graphwalk_neo4j.decide.render import hop_move, kind_count
from graphwalk_neo4j.identifiers import property_words, relation_words
from graphwalk_neo4j.learned.graph_questions import IRREGULAR_PAST, PARTICIPLES, read_relation
from graphwalk_neo4j.learned.wording import read_outside, written_out

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from graphwalk_neo4j.decide.request import DecisionContext

STOP_TOKEN = "STOP"
# per option: see option_extras (format 3 artifacts read the first 10, format 4 12, format 5 14, format 6 18,
# format 7 20, format 8 22, format 9 23, format 10 24)
EXTRA = 25
# Two words with no stem in common are one word in two forms when their MiniLM cosine is at least this (wrote,
# written: 0.89; wife, spouse: 0.86), not two words of one field (parents, children: 0.62; wrote, writer: 0.68)
SAME_WORD = 0.8


@functools.lru_cache(maxsize=65536)  # the same texts recur in every decision of a walk or a training set
def content_words(text: str) -> tuple[str, ...]:
    """The words of ``text`` that can carry a relation (lower case, function words out, each once)."""
    return tuple(dict.fromkeys(w for w in WORD_PATTERN.findall(text.lower()) if w not in FUNCTION_WORDS))


def relation_name_words(token: str) -> str:
    """The relation a move token names, in words, read by its property when it is path-like
    (``/film/film/directed_by|out`` -> ``directed by``; :func:`~graphwalk_neo4j.identifiers.property_words`)."""
    return property_words(token.rsplit("|", 1)[0])


def relation_core_words(token: str) -> tuple[str, ...]:
    """The content words of :func:`relation_name_words` (``directed``): the words that say what the relation is,
    not its ends' kinds."""
    return content_words(relation_name_words(token))


UNTYPED_KIND = "node"  # what decision_inputs calls an option or a frontier with no type


@functools.lru_cache(maxsize=4096)
def type_text(kind: str) -> str:
    """A node type in words (``Person`` -> ``person``, ``FilmGenre`` -> ``film genre``): what the model compares
    with the kind of thing a question asks for."""
    return relation_words(kind) if kind.strip() else "node"


def move_token(relation: str | None, direction: str | None) -> str:
    return STOP_TOKEN if relation is None else f"{relation}|{direction or 'out'}"


def masked_question(context: DecisionContext) -> str:
    """The question without the start entities' names (case-insensitive, on word boundaries)."""
    text = names_replaced(context.question, [start.name for start in context.start], " ")
    return " ".join(text.replace("[", " ").replace("]", " ").split()) or context.question


def possessives(words: Sequence[str]) -> tuple[list[str], list[bool]]:
    """``words`` without their possessive endings, and per word whether it had one (``esposito's``,
    ``parents'``; a lone ``s`` after a word, what ``[X]'s`` leaves, marks that word and is dropped)."""
    stems: list[str] = []
    marks: list[bool] = []
    for word in words:
        if word == "s" and stems:
            marks[-1] = True
        else:
            stems.append(without_possessive(word))
            marks.append(stems[-1] != word)
    return stems, marks


def without_possessive(word: str) -> str:
    """``word`` without a possessive ending (``esposito's`` -> ``esposito``, ``parents'`` -> ``parents``)."""
    return word[:-2] if word.endswith("'s") else word[:-1] if word.endswith("'") else word


ARTICLES = frozenset({"the", "a", "an"})


def nearness(question: str, masked: str, names: Sequence[str]) -> tuple[float, ...]:
    """Per content word of the ``masked`` question (:func:`content_words`), how near it stands to a start
    entity's name in ``question``: ``1 / d`` for a word ``d`` words before the name (the word right before:
    1), ``-1 / d`` for one ``d`` words after it (the side its nearest place is on). English names the first hop
    next to its topic (``the director of the films starring [X]``: ``starring`` first), and a predicate after
    the topic's phrase often names the last (``the films starring [X] were directed by who``), so the model
    reads the two sides apart. A possessive is the exception: the noun a name's ``'s`` owns names the first
    hop, as ``the ... of`` before it would (``the parents of [X]'s spouse``: ``spouse`` first, ``parents``
    second), so it counts as the word right before the name, and a noun owned by that noun in turn
    (``[X]'s spouse's parents``) as the next. A word between an article and the name (``the films that share
    actors with the movie [X]``) is read as part of the name: it says what the topic is, not a hop (``movie`` is
    as near ``directed`` as the words of any film relation), so it has no nearness and the words before it count
    from the article. Empty when no name is found."""
    words, marks = possessives(WORD_PATTERN.findall(question.lower()))
    spans: list[tuple[int, int]] = []
    for name in names:
        part, _ = possessives(WORD_PATTERN.findall(name.lower()))
        if not part:
            continue
        spans += [(i, i + len(part)) for i in range(len(words) - len(part) + 1) if words[i : i + len(part)] == part]
    if not spans:
        return ()
    # an article and one word before a name ("the movie [X]", "with the film [X]") are the name's own noun phrase:
    # that word names what the topic is (or, "the person [X] married", the answer), never a hop next to it
    spans = [
        (a - 2, b) if a >= 2 and words[a - 2] in ARTICLES and words[a - 1] not in FUNCTION_WORDS else (a, b)
        for a, b in spans
    ]
    distance: dict[str, int] = {}  # signed: before the name positive, after it negative
    for i, word in enumerate(words):
        if any(a <= i < b for a, b in spans):
            continue
        # the nearest name: d words before it (positive) or after it (negative)
        side = min((a - i if i < a else -(i - b + 1) for a, b in spans), key=abs)
        if word not in distance or abs(side) < abs(distance[word]):
            distance[word] = side
    chained: set[str] = set()  # a word owned twice in one chain ("[X]'s parents' parents") keeps its nearer place
    for _, end in spans:
        step, owned = 1, marks[end - 1]
        for word, mark in zip(words[end:], marks[end:], strict=True):
            if not owned:
                break
            if word in FUNCTION_WORDS:
                continue
            if word not in chained:
                distance[word] = step
                chained.add(word)
            step, owned = step + 1, mark
    stems = [without_possessive(w) for w in content_words(masked)]  # one to one: a lone ``s`` stays itself
    return tuple(1.0 / distance[w] if w in distance else 0.0 for w in stems)


@dataclass(frozen=True)
class DecisionInputs:
    """One decision as the model reads it: strings only, so training data is plain JSON."""

    question: str  # masked
    path: tuple[str, ...]  # move tokens so far
    tokens: tuple[str, ...]  # per option
    types: tuple[str, ...]  # per option: the type it reaches (STOP: where the walk stands)
    counts: tuple[int, ...]
    moves: tuple[str, ...]  # per option, in words
    path_moves: tuple[str, ...] = ()  # the hops taken so far, in words
    near: tuple[float, ...] = ()  # per content word of the question: nearness to the topic (:func:`nearness`)
    # per option, the type whose learned embedding it reads, where that is not ``types`` (empty: ``types``): the
    # graph's unnamed type named as the question asks for it keeps ``item``'s (:func:`typed_as_asked`)
    type_ids: tuple[str, ...] = ()

    @property
    def embedded_types(self) -> tuple[str, ...]:
        """Per option, the type whose learned embedding it reads (``type_ids``, else ``types``)."""
        return self.type_ids or self.types

    def to_json(self) -> dict[str, Any]:
        data = {
            "question": self.question,
            "path": list(self.path),
            "tokens": list(self.tokens),
            "types": list(self.types),
            "counts": list(self.counts),
            "moves": list(self.moves),
            "path_moves": list(self.path_moves),
            "near": list(self.near),
        }
        return data | ({"type_ids": list(self.type_ids)} if self.type_ids else {})

    def texts(self) -> tuple[str, ...]:
        """Every text the model embeds for this decision: the question, the moves, their words, and the types
        the options reach in words."""
        words = {w: None for text in (self.question, *self.moves, *self.path_moves) for w in content_words(text)}
        words.update((w, None) for t in (*self.path, *self.tokens) if t != STOP_TOKEN for w in relation_core_words(t))
        kinds = {type_text(k): None for k in self.types}
        asked = asked_phrase(self.question)
        texts = (self.question, *self.moves, *self.path_moves, *words, *kinds, *((asked,) if asked else ()))
        return tuple(dict.fromkeys(texts))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DecisionInputs:
        return cls(
            question=str(data["question"]),
            path=tuple(data["path"]),
            tokens=tuple(data["tokens"]),
            types=tuple(data["types"]),
            counts=tuple(int(c) for c in data["counts"]),
            moves=tuple(data["moves"]),
            path_moves=tuple(data.get("path_moves") or ()),
            near=tuple(float(x) for x in data.get("near") or ()),
            type_ids=tuple(data.get("type_ids") or ()),
        )


def decision_inputs(context: DecisionContext) -> DecisionInputs:
    tokens, types, counts, moves = [], [], [], []
    for option in context.options:
        if option.is_stop:
            tokens.append(STOP_TOKEN)
            kind = context.current_type or UNTYPED_KIND
            types.append(kind)
            counts.append(context.current_count)
            moves.append(f"the answer is these {kind_count(context.current_count, context.current_type)}")
            continue
        tokens.append(move_token(option.relation, option.direction))
        types.append(option.target_type or UNTYPED_KIND)
        counts.append(option.count)
        moves.append(hop_move(option.relation or "", option.direction or "out", option.source_type, option.target_type))
    path = tuple(move_token(h.relation, h.direction) for h in context.path)
    # kin words and idioms that stand for hops, written out as them where the graph has no relation of their own:
    # read once, with the names held out, and masked after (reading the masked text lost what spans a name:
    # "what does [X] do" masked is "what does do")
    own = [w for t in (*tokens, *path) if t != STOP_TOKEN for w in relation_core_words(t)]
    names = [s.name for s in context.start]
    question = read_outside(context.question, names, lambda text: written_out(text, own))
    masked = masked_question(context.model_copy(update={"question": question}))
    return DecisionInputs(
        question=masked,
        path=path,
        tokens=tuple(tokens),
        types=tuple(types),
        counts=tuple(counts),
        moves=tuple(moves),
        path_moves=tuple(hop_move(h.relation, h.direction, h.source_type, h.target_type) for h in context.path),
        near=nearness(question, masked, names),
    )


def role_key(relation: str, direction: str, reached: bool) -> str:
    """The key of :mod:`.role_types` for the nodes a move along ``relation`` in ``direction`` reaches
    (``reached``) or leaves from: out along a relation reaches its objects and leaves its subjects, in the other
    way round (``born_in|object``, ``born_in|subject``)."""
    subject_end = (direction == "out") != reached
    return f"{relation}|{'subject' if subject_end else 'object'}"


def _role_type(role_types: Mapping[str, str], token: str, reached: bool) -> str | None:
    """The inferred type (:mod:`.role_types`) of the nodes a move ``token`` reaches or leaves from."""
    relation, _, direction = token.rpartition("|")
    return role_types.get(role_key(relation, direction, reached))


UNNAMED_TYPE = "item"  # what role_types calls a type no relation names (``item 2``, ... when there are several)
PLACE_TYPE = "place"  # what role_types calls the objects of ``born_in``, ``based_in``, ... that nothing else names
# Type words that say no more than "somewhere": a type so named may hold the graph's cities, towns or countries
GENERAL_PLACE_WORDS = frozenset({PLACE_TYPE, "location"})
# Places where people are born and live and companies are based: what a graph's general place type holds, where a
# bigger place (a country, a region) it lies in may be unnamed
SETTLEMENT_WORDS = frozenset("city cities town towns village villages municipality municipalities".split())
# Nouns that ask for no type: "what kind of ...", "which one"; and the nouns for what is said about a thing, not for
# a kind of thing ("which words describe [X]", "what topics is [X] about": its tags or keywords, whatever the graph
# calls them, never the films the graph leaves unnamed).
GENERIC_NOUNS = frozenset(
    "kind kinds sort sorts type types one ones thing things "
    "word words term terms keyword keywords topic topics subject subjects theme themes label labels".split()
)


def is_unnamed(type_name: str) -> bool:
    """Whether a type of :mod:`.role_types` is one no relation names (:data:`UNNAMED_TYPE`, ``item 2``, ...)."""
    return type_name == UNNAMED_TYPE or type_name.startswith(f"{UNNAMED_TYPE} ")


def unnamed_types(role_types: Mapping[str, str]) -> tuple[str, ...]:
    """The types of ``role_types`` that no relation names (:func:`is_unnamed`): ``item``, ``item 2``, ..."""
    return tuple(sorted({t for t in role_types.values() if is_unnamed(t)}, key=lambda t: (len(t), t)))


def sole_unnamed(role_types: Mapping[str, str]) -> str | None:
    """The one type of ``role_types`` that no relation names (:func:`is_unnamed`); ``None`` when there are none or
    several."""
    unnamed = unnamed_types(role_types)
    return unnamed[0] if len(unnamed) == 1 else None


def head_index(nouns: Sequence[str]) -> int:
    """Where the head stands among the words after a ``which`` / ``what``: the first that reads as a plural, else
    the last (``which films share``: films; ``which national team``: team)."""
    return next((i for i, w in enumerate(nouns) if reads_as_plural(w)), len(nouns) - 1)


def unnamed_type_asked(question: str, role_types: Mapping[str, str]) -> tuple[str, str] | None:
    """``(the graph's one unnamed type, the noun the question asks for)`` when the question asks ``which`` /
    ``what`` of a noun (:func:`~graphwalk_neo4j.decide.answer_types.asked_noun_phrase`, its head in the singular:
    the first word that reads as a plural, else the last; "which films share": film) that names none of the
    graph's named types, and exactly one of the graph's types is unnamed (:data:`UNNAMED_TYPE`): what the
    question asks for is then that type, the one the graph could not name. MetaQA loaded as it comes calls its
    films ``item``, since every relation names what a film has, not what it is; "what films did [X] direct" names
    no type of the graph's, so its films read as ``film``. ``None`` otherwise (a question word, a named type, a
    generic noun anywhere in the phrase, no unnamed type or several)."""
    unnamed = sole_unnamed(role_types)
    if unnamed is None:
        return None
    words = asked_noun_phrase(question).split()
    if len(words) < 2 or words[0] not in ("which", "what") or GENERIC_NOUNS.intersection(words[1:]):
        return None
    named = sorted(type_text(n) for n in set(role_types.values()) - {unnamed})
    if answer_type_verdicts(" ".join(words), named) is not None or held_by_general_place(words[1:], named):
        return None
    return unnamed, singular(words[1 + head_index(words[1:])])


def held_by_general_place(nouns: Sequence[str], named: Iterable[str]) -> bool:
    """Whether asked ``nouns`` name a city or town (:data:`SETTLEMENT_WORDS`) on a graph with a named type whose
    words say no more than somewhere (:data:`GENERAL_PLACE_WORDS`): the cities may be what that type holds
    (Freebase's ``location``; ``role_types``'s :data:`PLACE_TYPE`), so the question asks for no unnamed type. A
    country is not read so: where the places things are born or based in are named, the unnamed type reached
    from them is more often the bigger place they lie in."""
    general = any(GENERAL_PLACE_WORDS.intersection(t.split()) for t in named)
    return general and bool(SETTLEMENT_WORDS.intersection(nouns))


def named_as_asked(
    question: str, role_types: Mapping[str, str], links: Mapping[str, Sequence[str]]
) -> tuple[Mapping[str, str], Mapping[str, Sequence[str]]]:
    """``role_types`` and type links (:func:`~.role_types.type_links`) with the graph's one unnamed type named as
    ``question`` asks for it (:func:`unnamed_type_asked`); both as they are when it asks for none."""
    asked = unnamed_type_asked(question, role_types)
    if asked is None:
        return role_types, links
    old, new = asked

    def name(type_name: str) -> str:
        return new if type_name == old else type_name

    return (
        {key: name(t) for key, t in role_types.items()},
        {name(t): [name(u) for u in linked] for t, linked in links.items()},
    )


def typed_as_asked(
    inputs: DecisionInputs, role_types: Mapping[str, str], links: Mapping[str, Sequence[str]]
) -> tuple[DecisionInputs, Mapping[str, Sequence[str]]]:
    """:func:`typed_inputs` and the type links with the graph's one unnamed type named as the question asks for
    it (:func:`named_as_asked`): in words (the moves, the types' words every type column reads, the STOP rule)
    the asked noun, by its learned embedding still ``item`` (``type_ids``), the type it was in training, where
    its questions called it by a stand-in noun (:data:`~.graph_questions.STAND_IN_NOUNS`)."""
    typed = typed_inputs(inputs, role_types)
    named_types, named_links = named_as_asked(inputs.question, role_types, links)
    if named_types is role_types:
        return typed, links
    return replace(typed_inputs(inputs, named_types), type_ids=typed.types), named_links


def typed_for(
    inputs: DecisionInputs,
    role_types: Mapping[str, str],
    links: Mapping[str, Sequence[str]],
    *,
    name_unnamed: bool,
) -> tuple[DecisionInputs, Mapping[str, Sequence[str]]]:
    """One decision typed as a learned model reads it, in training and in walks, and the type links its STOP rule
    reads: :func:`typed_as_asked` for a model that reads the unnamed type as the asked noun, else
    :func:`typed_inputs` and the links as they are."""
    if name_unnamed:
        return typed_as_asked(inputs, role_types, links)
    return typed_inputs(inputs, role_types), links


def typed_inputs(inputs: DecisionInputs, role_types: Mapping[str, str]) -> DecisionInputs:
    """``inputs`` with the types a graph without its own was given (:mod:`.role_types`, an artifact's
    ``role_types``): each untyped option the type of the relation end it reaches, STOP the type the offered
    moves leave from with most targets (MetaQA's `Western` is a genre of hundreds of films and a film of one
    director: a genre), and the moves, STOP and the path in words again with those types. Unchanged when
    ``role_types`` is empty (a graph with types). A model that never saw the graph's ``item`` passes them
    :func:`named_as_asked` first."""
    if not role_types:
        return inputs
    leaving: Counter[str] = Counter()
    for token, count in zip(inputs.tokens, inputs.counts, strict=True):
        if token != STOP_TOKEN and (left := _role_type(role_types, token, False)):
            leaving[left] += count
    here = leaving.most_common(1)[0][0] if leaving else None
    types, moves = list(inputs.types), list(inputs.moves)
    for i, token in enumerate(inputs.tokens):
        if types[i] != UNTYPED_KIND:
            continue
        if token == STOP_TOKEN:
            if here:
                types[i], moves[i] = here, f"the answer is these {kind_count(inputs.counts[i], here)}"
            continue
        reached = _role_type(role_types, token, True)
        if reached:
            relation, _, direction = token.rpartition("|")
            types[i], moves[i] = reached, hop_move(relation, direction, here, reached)
    path_moves = list(inputs.path_moves)
    if len(path_moves) == len(inputs.path):
        for i, token in enumerate(inputs.path):
            relation, _, direction = token.rpartition("|")
            path_moves[i] = hop_move(
                relation,
                direction,
                _role_type(role_types, token, False),
                _role_type(role_types, token, True),
            )
    return replace(inputs, types=tuple(types), moves=tuple(moves), path_moves=tuple(path_moves))


def stop_ruled_out(inputs: DecisionInputs, asked: str, type_links: Mapping[str, Sequence[str]] | None = None) -> bool:
    """:func:`~graphwalk_neo4j.decide.answer_types.stop_ruled_out` for a decision's inputs (``asked``: from
    :func:`~graphwalk_neo4j.decide.answer_types.asked_about`): its options' types in words, STOP among them, and
    with ``type_links`` (an artifact's, :func:`~.role_types.type_links`) the types one move past each and the
    graph's types to read the question's answer type among."""
    links = type_links or {}
    return answer_stop_ruled_out(
        asked,
        [type_text(t) for t in inputs.types],
        [token == STOP_TOKEN for token in inputs.tokens],
        [[type_text(u) for u in links.get(t, ())] for t in inputs.types],
        [type_text(t) for t in links],
    )


def _unit(v: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def option_extras(qvec: np.ndarray, vectors: Mapping[str, np.ndarray], inputs: DecisionInputs) -> np.ndarray:
    """The per-option numbers beside the learned embeddings, ``(n, EXTRA)``; none names a relation or a
    wording, so they carry over to relations and phrasings the model never saw:

    0. ``log1p(count)`` of the option's targets;
    1. ``sim``: cos(question, the move in words) (STOP: "the answer is these N films");
    2. ``is_stop``;
    3. ``cover``: cos(question, the path so far plus this move), the moves' vectors summed (STOP: the path);
    4. ``gain``: how much this move adds to the path's cover (STOP: 0);
    5. ``repeat``: the move's highest cosine with a hop already taken (a way back, or the same words again);
    6. ``left``: on STOP only, the best gain any move still offers (what the question has not had yet);
    7. ``wgain``: the same word by word: summed over the question's content words, how much closer the
       move's words come to each than the path's words did (STOP: 0). A reworded question keeps most of its
       words' meaning even where its sentence embedding moves. Here and in every word-level column a form of
       the same word (:func:`same_form`: ``director`` and ``directed``, ``screenwriter`` and ``written``)
       matches as the word itself, 1, whatever MiniLM's cosine;
    8. ``wleft``: on STOP only, the best ``wgain`` any move still offers;
    9. ``wcover``: the mean over the question's content words of their best cosine with the path's words
       and this move's (STOP: the path's);
    10. ``kind``: cos(question, the type the option reaches in words, :func:`type_text`): does the question ask
        for the kind of thing this move reaches (STOP: the kind the walk stands on)?
    11. ``kind_gain``: the same minus STOP's (does moving bring the walk closer to the kind asked for?);
    12. ``ngain``: ``wgain`` over the words before the topic, each weighted by its nearness to it
        (:func:`nearness`), over the weights summed: of the relations the question still names before its
        topic, does this move take the one named nearest, which English names first (STOP: the best any move
        offers);
    13. ``ngain_after``: the same over the words after the topic (STOP: the best any move offers);
    14. ``claim``: the question's words this move's relation claims, that no hop taken claims
        (:func:`claims`), each by its margin (STOP: 0). Unlike ``wgain`` it is relative: a word goes to the
        relation that matches it best among the decision's, so ``campus`` is left for ``campus_in`` even when
        the path already reached a university, and words of one domain that all resemble each other (films:
        directed, starred, written) are told apart;
    15. ``claim_left``: on STOP only, the best ``claim`` any move offers;
    16. ``asked``: cos(the question's question word phrase, :func:`asked_phrase`, the type the option reaches in
        words): ``who`` is nearer a person than a film however many film words the question has (0 without a
        question word);
    17. ``asked_gain``: the same minus STOP's;
    18. ``wmin``: the least any question content word is matched by the path's words and this move's (STOP:
        the path's): a word nothing taken explains yet (``started`` in "who started the firm [X] works for",
        once ``works at`` is taken) says the walk is not done, however weakly any one move matches it;
    19. ``wmin_gain``: the same minus STOP's.
    20. ``asked_kind``: 1 when the question word asks for the type the option reaches (``decide.answer_types.asks_for``:
        ``who`` an agent, ``when`` a time, ``which country`` a country, by the type's words), else 0 (0 for every
        option when it says nothing: ``where``, ``what``). Column 16's cosine says little here: "who" is about as
        near "movie" as "person";
    21. ``asked_kind_gain``: the same minus STOP's (does moving reach the kind asked for, where standing does not?);
    22. ``back``: 1 when the option is the last hop taken, in the other direction (the way back to the kind the
        walk came from, not to the nodes: ``the films that share actors with [X]`` goes out to the actors and back
        in to their other films), else 0. Column 5's cosine cannot tell the way back from a move of similar
        words.
    23. ``again``: 1 when the option's relation, either way, is one the path has taken and the question names
        more often than that (``the parents of the parents of [X]``, ``the films directed by the director of
        [X]``: named twice, taken once), else 0 (:func:`named_again`); on STOP, 1 when any relation taken is
        so. Every word-level column reads a word once, and a hop taken has spent it, so without this a relation
        asked for twice reads as done.
    24. ``owner``: which way the question's grammar says the option's relation runs, where it names the
        relation as something owned (:func:`owner_reading`): 1 for an option in that direction, -1 for one in
        the other, 0 where the question does not say (STOP: 0). ``the parents of [X]`` and ``[X]'s parents`` are
        ``parents`` out of [X], never into it; the words alone cannot tell a relation between two people of
        one type from its inverse.
    """
    n = len(inputs.tokens)
    out = np.zeros((n, EXTRA), dtype=np.float32)
    path = [vectors[m] for m in inputs.path_moves]
    path_sum = np.sum(path, axis=0) if path else np.zeros_like(qvec)
    path_cover = float(qvec @ _unit(path_sum)) if path else 0.0
    best_gain = 0.0
    stops = []
    for i, (token, move) in enumerate(zip(inputs.tokens, inputs.moves, strict=True)):
        mvec = vectors[move]
        out[i, 0] = math.log1p(inputs.counts[i])
        out[i, 1] = float(qvec @ mvec)
        if token == STOP_TOKEN:
            out[i, 2] = 1.0
            out[i, 3] = path_cover
            stops.append(i)
            continue
        cover = float(qvec @ _unit(path_sum + mvec))
        out[i, 3] = cover
        out[i, 4] = cover - path_cover
        out[i, 5] = max((float(mvec @ p) for p in path), default=0.0)
        best_gain = max(best_gain, cover - path_cover)
    for i in stops:
        out[i, 6] = best_gain
    if inputs.path:
        relation, _, direction = inputs.path[-1].rpartition("|")
        back = move_token(relation, "in" if direction == "out" else "out")
        for i, token in enumerate(inputs.tokens):
            out[i, 22] = float(token == back)
    _word_extras(out, vectors, inputs)
    again = named_again(inputs, vectors)
    for i, token in enumerate(inputs.tokens):
        out[i, 23] = float(bool(again)) if token == STOP_TOKEN else float(token.rsplit("|", 1)[0] in again)
    out[:, 24] = owner_reading(inputs, vectors)
    kinds = [float(qvec @ vectors[type_text(k)]) for k in inputs.types]
    here = kinds[stops[0]] if stops else 0.0
    for i, kind in enumerate(kinds):
        out[i, 10] = kind
        out[i, 11] = kind - here
    asked = asked_phrase(inputs.question)
    if asked:
        wants = [float(vectors[asked] @ vectors[type_text(k)]) for k in inputs.types]
        here = wants[stops[0]] if stops else 0.0
        for i, want in enumerate(wants):
            out[i, 16] = want
            out[i, 17] = want - here
        asks = [asks_for(asked_noun_phrase(inputs.question), type_text(k)) for k in inputs.types]
        if any(a is not None for a in asks):
            hits = [1.0 if a else 0.0 for a in asks]
            here = hits[stops[0]] if stops else 0.0
            for i, hit in enumerate(hits):
                out[i, 20] = hit
                out[i, 21] = hit - here
    return out


# What English adds to a three-letter stem to make its other forms (act: acts, acted, acting, actor, actress).
SHORT_STEM_ENDINGS = frozenset({"", "s", "ed", "er", "ers", "or", "ors", "ing", "ress"})


def _common_start(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def same_stem(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` share a stem: a common start of at least 4 letters and half the shorter word
    (director and directed, writers and written, parent and parents; not release and related)."""
    k = _common_start(a, b)
    return a == b or (k >= 4 and k >= 0.5 * min(len(a), len(b)))


def short_stem(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one stem of 3 letters, each with one of :data:`SHORT_STEM_ENDINGS` (acted and
    actors; not act and actual). Whole words only: inside a longer word three letters are chance (purc-hased)."""
    return _common_start(a, b) == 3 and a[3:] in SHORT_STEM_ENDINGS and b[3:] in SHORT_STEM_ENDINGS


@functools.lru_cache(maxsize=262144)  # the same word pairs recur in every decision of a walk or a training set
def same_form(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are forms of one word by their letters: they share a stem (:func:`same_stem`,
    :func:`short_stem`), or the longer is a compound whose last part shares the shorter's stem (``screenwriter``
    and ``written``: its head ``writer``; ``birthplace`` and ``place``). English puts a compound's head last; the
    part before it is at least 3 letters and the head at least 5."""
    if same_stem(a, b) or short_stem(a, b):
        return True
    long, short = (a, b) if len(a) >= len(b) else (b, a)
    return any(same_stem(long[i:], short) for i in range(3, len(long) - 4))


def same_word(a: str, b: str, vectors: Mapping[str, np.ndarray]) -> bool:
    """Whether ``a`` and ``b`` are one word in two forms: by their letters (:func:`same_form`), or their cosine is
    at least :data:`SAME_WORD` (wrote and written, wife and spouse). MiniLM alone puts a word's own forms no nearer
    than its field's other words (director and directed 0.57, films and directed 0.55)."""
    return same_form(a, b) or float(vectors[a] @ vectors[b]) >= SAME_WORD


def _topic_noun_pattern(name: str) -> re.Pattern[str]:
    """A word right before ``name`` (bracketed or not), with the article before it: ``the movie [X]``."""
    return re.compile(
        rf"(?:\b(?:the|a|an)\s+)?\b([a-z][a-z'-]*)\s+(?=\[?{re.escape(name.strip())}\]?(?!\w))", re.IGNORECASE
    )


def nouns_before_topic(question: str, names: Sequence[str]) -> tuple[str, ...]:
    """The words standing right before a start entity's name in ``question`` (lower case, each once): where one
    names the topic's type (``describe movie [X]``), :func:`without_topic_nouns` takes it out."""
    found = (m.group(1).lower() for name in names if name.strip() for m in _topic_noun_pattern(name).finditer(question))
    return tuple(dict.fromkeys(w for w in found if w not in FUNCTION_WORDS))


def without_topic_nouns(question: str, names: Sequence[str], names_topic_type: Callable[[str], bool]) -> str:
    """``question`` without the noun (and its article) that stands right before a start entity's name and names
    that entity's own type (``names_topic_type``): ``which words describe movie [X]`` reads ``which words describe
    [X]``. The noun says what the topic is, as the name does, not a hop nor the answer's kind; a question written
    from a graph never has it (:mod:`.graph_questions` writes the topic alone), and left in, it drew walks on to
    the topic's kind (the films that share the tags of [X], not its tags). Other words before a name stay
    (``the films starring [X]``)."""

    def drop(match: re.Match[str]) -> str:
        word = match.group(1).lower()
        return "" if word not in FUNCTION_WORDS and names_topic_type(word) else match.group(0)

    for name in names:
        if name.strip():
            question = _topic_noun_pattern(name).sub(drop, question)
    return question


def asked_nouns(asked: str) -> tuple[str, ...]:
    """The nouns of a ``which`` / ``what`` phrase (:func:`~graphwalk_neo4j.decide.answer_types.asked_about`), each
    in the singular; none for another question word."""
    words = asked.split()
    if len(words) < 2 or words[0] not in ("which", "what"):
        return ()
    return tuple(singular(w) for w in words[1:])


def type_heads(type_names: Iterable[str]) -> list[str]:
    """The words of named types a question's noun can be read as (:func:`asked_by_meaning`): each type's head, the
    last word of its name, the unnamed types (:func:`is_unnamed`) and untyped nodes left out."""
    return sorted({type_text(t).split()[-1] for t in type_names if t and not is_unnamed(t)} - {UNTYPED_KIND})


def _compound(words: Sequence[str]) -> tuple[int, str] | None:
    """``(where the head stands in a which / what phrase's words, the head in the singular with the word before
    it)`` (:func:`asked_compound`)."""
    if len(words) < 3 or words[0] not in ("which", "what"):
        return None
    head = 1 + head_index(words[1:])
    if head == 1 or words[head - 1] in FUNCTION_WORDS:
        return None
    return head, f"{words[head - 1]} {singular(words[head])}"


def asked_compound(asked: str) -> str | None:
    """The compound a ``which`` / ``what`` phrase asks for: its head (:func:`head_index`) in the singular with the
    word before it (``which ethnic groups`` -> ``ethnic group``); ``None`` where the head has no word of the phrase
    before it or the phrase asks with another question word."""
    found = _compound(asked.split())
    return None if found is None else found[1]


def _nearest_head(text: str, heads: Sequence[str], vectors: Mapping[str, np.ndarray]) -> str | None:
    """The type word of ``heads`` nearest ``text`` by meaning when at least :data:`SAME_WORD` near, else ``None``."""
    near = [(float(vectors[text] @ vectors[h]), h) for h in heads if h in vectors and text in vectors]
    best = max(near, default=(0.0, ""))
    return best[1] if best[0] >= SAME_WORD else None


def asked_by_meaning(asked: str, type_names: Iterable[str], vectors: Mapping[str, np.ndarray]) -> str:
    """``asked`` (a ``which`` / ``what`` phrase) with each noun that is no form of a type's word but is one by
    meaning (:func:`same_word`; the nearest where several are) written as that type's word: ``which movies`` on a
    graph whose films are ``film`` (cosine 0.84) reads ``which film``, so the STOP rule finds the type asked for
    and the graph's unnamed type is not read as the movies (:func:`unnamed_type_asked`). A head that is no type's
    word with the word before it (:func:`asked_compound`) is read the same way as one noun first: ``which ethnic
    groups`` (``ethnic group``: 0.84 from ``ethnicity``) reads ``which ethnicity``, where ``groups`` alone would
    read as any organisation. A type's word is the head of its name (:func:`type_heads`). ``vectors`` holds the
    nouns (:func:`asked_nouns`), the compound and the heads."""
    nouns = asked_nouns(asked)
    heads = type_heads(type_names)
    if not nouns or not heads:
        return asked
    words = asked.split()
    compound = _compound(words)
    if compound is not None:
        head, text = compound  # nouns[head - 1]: the head in the singular
        found = None if any(same_form(nouns[head - 1], h) for h in heads) else _nearest_head(text, heads, vectors)
        if found is not None:
            return " ".join([*words[: head - 1], found, *words[head + 1 :]])
    read = []
    for word, noun in zip(words[1:], nouns, strict=True):
        if not any(same_form(noun, h) for h in heads):
            read.append(_nearest_head(noun, heads, vectors) or word)
        else:
            read.append(word)  # as asked: a plural stays one (answer_type_verdicts reads it)
    return " ".join([words[0], *read])


# A noun this near a named type's word by meaning may be asking for that type (``nation`` and ``country``: 0.77), so
# :func:`asked_unnamed` does not read it as one the graph could not name (``city`` and ``country``: 0.54).
NEAR_TYPE = 0.7


def asked_unnamed(asked: str, type_names: Iterable[str], vectors: Mapping[str, np.ndarray]) -> str:
    """``asked`` (a ``which`` / ``what`` phrase, read by meaning already: :func:`asked_by_meaning`) read as asking
    for the graph's unnamed types (``which item``) when its nouns name none of its named types, by their words
    (:func:`~graphwalk_neo4j.decide.answer_types.answer_type_verdicts`) or near them by meaning (:data:`NEAR_TYPE`),
    and some of ``type_names`` are unnamed (:func:`is_unnamed`): a graph that calls its countries ``country`` and
    leaves its cities unnamed answers "in which city is the club of [X] based" among the unnamed, never with
    countries, however near ``city`` is to ``country``. Read by the STOP rule (:func:`stop_ruled_out`) only;
    ``asked`` as it is otherwise (another question word, a generic noun, no unnamed type, and a head noun with a
    modifier before it: "what national teams" asks for countries, which neither word says; a city or town on a
    graph with a general place type, which may hold it: :func:`held_by_general_place`). ``vectors`` holds the
    nouns (:func:`asked_nouns`) and the named types' heads (:func:`type_heads`)."""
    nouns = asked_nouns(asked)
    names = set(type_names)
    if not nouns or GENERIC_NOUNS.intersection(nouns) or not any(is_unnamed(t) for t in names):
        return asked
    first, *words = asked.split()
    if any(w not in FUNCTION_WORDS for w in words[: head_index(words)]):
        return asked  # a head with a modifier of its own: "what national teams" may be what a type's word is not
    named = sorted({type_text(t) for t in names if t and not is_unnamed(t) and t != UNTYPED_KIND})
    if answer_type_verdicts(asked, named) is not None:
        return asked
    if held_by_general_place(nouns, named):
        return asked  # a city, a town: the graph's places may be what its ``place`` or ``location`` holds
    heads = [h for h in type_heads(names) if h in vectors]
    if any(float(vectors[n] @ vectors[h]) >= NEAR_TYPE for n in nouns if n in vectors for h in heads):
        return asked
    return f"{first} {UNNAMED_TYPE}"


BE_FORMS = frozenset("is are was were".split())
DO_FORMS = frozenset("do does did".split())  # "where did the spouse of [X] study": a verb in its base form ends it
TOPIC_WORD = "gwtopic"  # what :func:`predicate_of_another` reads the start entities' names as
RELATION_PREPOSITIONS = frozenset("in at from on by for to with into".split())
# what may follow the verb that ends a question, and stand before a topic that is not the subject ("the coach of")
LINKING_WORDS = RELATION_PREPOSITIONS | {"of"}
WHERE_PREPOSITIONS = frozenset({"in", "at", "from", "on"})  # "where was [X] born": born in
# Words that may open a question before its verb ``be``: "where was", "in which city were", "what country is".
OPENING_WORDS = frozenset(QUESTION_WORDS) | WHERE_PREPOSITIONS


@dataclass(frozen=True)
class Predicate:
    """What :func:`predicate_of_another` reads: the verb that ends the question (a participle after ``be``, a base
    form after ``do``), the prepositions the question puts to it (after it, before its question word, or those
    ``where`` stands for), and the content words of the subject it is said of, the topic's name left out."""

    verb: str
    prepositions: frozenset[str]
    subject: tuple[str, ...] = ()

    def names(self, token: str) -> bool:
        """Whether the move ``token`` is the verb's relation: one of its content words a form of the verb
        (``born`` and ``born_in``), its closing preposition, if any, one the question puts to it ("in which country
        is the league of [X]'s club played" names no ``plays_for``), and none of its words one the subject says too
        ("what else did the actors of [X] star in": ``starred_actors`` reaches the actors from [X] before it leads
        back)."""
        words = relation_name_words(token).lower().split()
        core = content_words(" ".join(words))
        if not any(same_form(self.verb, w) for w in core):
            return False
        if self.reached_by(token):
            return False
        return not words or words[-1] not in RELATION_PREPOSITIONS or words[-1] in self.prepositions

    def reached_by(self, token: str) -> bool:
        """Whether the move ``token`` is one the subject's words name ("where is the headquarters of [X]
        located": ``headquarters``), so that the subject is where it leads and what the verb says may be no
        further move."""
        core = content_words(relation_name_words(token).lower())
        return any(same_form(s, w) for s in self.subject for w in core)


def _topic_words(question: str, names: Sequence[str]) -> tuple[list[str], list[bool]]:
    """``question``'s words in lower case, the start entities' names each read as :data:`TOPIC_WORD`, without
    their possessive endings, and per word whether it had one (:func:`possessives`)."""
    text = names_replaced(question.lower().replace("[", " ").replace("]", " "), names, f" {TOPIC_WORD} ")
    return possessives(WORD_PATTERN.findall(text))


def _participle(word: str) -> bool:
    return word.endswith("ed") or word in PARTICIPLES or word in IRREGULAR_PAST


def reached_at(path: Sequence[str]) -> bool:
    """Whether the path's last hop went out along a relation whose name ends in a preposition of place
    (:data:`WHERE_PREPOSITIONS`: ``studied_at``, ``works_at``, ``born_in``): what it reached is where the thing it
    left from did so, whatever its type (``where did [X] study``: the university [X] studied at)."""
    if not path:
        return False
    direction = path[-1].rpartition("|")[2]
    words = relation_name_words(path[-1]).lower().split()
    return direction == "out" and bool(words) and words[-1] in WHERE_PREPOSITIONS


def asked_where_of_organisation(question: str, names: Sequence[str]) -> bool:
    """Whether ``question`` asks ``where`` of an organisation the topic leads to: a noun of
    :data:`~graphwalk_neo4j.decide.answer_types.ORGANISATION_WORDS` among the words after ``be`` / ``do`` and
    before the topic, or the first after it where the topic owns it ("where is the parent company of [X]
    headquartered", "where are the teams [X] used to play for", "where does [X]'s team play its home games").
    Such a question asks for a place; the organisation, which the walk reaches on the way, is not its answer.
    "Where do graduates of [U] work" asks it of people, and a company answers it."""
    words, marks = _topic_words(question, names)
    if len(words) < 3 or words[0] != "where" or words[1] not in BE_FORMS | DO_FORMS or TOPIC_WORD not in words:
        return False
    topic = words.index(TOPIC_WORD)
    subject = [w for w in words[2:topic] if w not in FUNCTION_WORDS]  # the parent company of, the teams
    if marks[topic]:  # [X]'s team: the first word after the owner
        subject += [w for w in words[topic + 1 :] if w not in FUNCTION_WORDS][:1]
    return any(singular(w) in ORGANISATION_WORDS for w in subject)


def predicate_of_another(question: str, names: Sequence[str]) -> Predicate | None:
    """The verb a question ends in when the subject it is said of is reached from the topic, not the topic itself:
    "where was the coach of [X]'s club born" says ``born`` of the coach, "where were the teammates of [X] born" of
    the teammates, "where did the parents of [X] die" ``die`` of the parents. ``None`` where the topic is the
    subject ("where was [X] born", "when was the film [X] released": a noun before the name says what it is, not
    whose), the question opens otherwise, or ends in no verb (a participle after ``be``; after ``do``, a word with
    nothing but prepositions after it).

    The subject is the words between ``be`` / ``do`` and the verb; it is said of another when the topic stands in
    it behind a preposition (``of``, ``by``, "the players who share a club with [X]"), before a possessive, or,
    after ``be``, before more words of the phrase ("the managers of the teams [X] used to play for"; after ``do``
    the subject's end is not known: "what genre does [X] fall under"). Read by
    :meth:`~graphwalk_neo4j.learned.model.LearnedDecider` at the walk's first decision: a move that the verb names
    (:meth:`Predicate.names`: ``born_in`` by ``born``) is not the topic's, so the walk does not take it first."""
    words, marks = _topic_words(question, names)
    be = next((i for i, w in enumerate(words) if w in BE_FORMS | DO_FORMS), None)
    if be is None or be == 0 or words[0] not in OPENING_WORDS or TOPIC_WORD not in words[be + 1 :]:
        return None
    content = [i for i in range(be + 1, len(words)) if words[i] not in FUNCTION_WORDS]
    end = content[-1] if content else None
    if end is None or words[end] == TOPIC_WORD:
        return None
    if any(w not in LINKING_WORDS for w in words[end + 1 :]):
        return None  # the question ends in no verb: "what do the spouses of [X]'s children do"
    if words[be] in BE_FORMS and not _participle(words[end]):
        return None
    # the topic is after be and is no function word, so it stands before the last content word, in the subject
    subject = words[be + 1 : end]
    topic = be + 1 + subject.index(TOPIC_WORD)
    behind = LINKING_WORDS & set(words[be + 1 : topic])
    more = words[be] in BE_FORMS and any(w not in FUNCTION_WORDS for w in words[topic + 1 : end])
    if not (behind or marks[topic] or more):
        return None
    put = {w for w in (*words[end + 1 :], words[0]) if w in RELATION_PREPOSITIONS}
    if "where" in words[:be]:
        put |= WHERE_PREPOSITIONS
    said = tuple(w for w in subject if w not in FUNCTION_WORDS and w != TOPIC_WORD)
    return Predicate(words[end], frozenset(put), said)


def _before_of(words: Sequence[str], end: int) -> bool:
    """Whether the words from ``end`` on are ``of``, or one more noun and ``of``: the relation's words are then
    the owned noun of ``the <relation> of``, or its modifier in a compound whose head follows (``the parent
    company of [X]``: ``parent`` owned by [X], as in ``[X]'s parent company``)."""
    if end < len(words) and words[end] == "of":
        return True
    return end + 1 < len(words) and words[end] not in FUNCTION_WORDS and words[end + 1] == "of"


def owner_reading(inputs: DecisionInputs, vectors: Mapping[str, np.ndarray] | None = None) -> list[float]:
    """Column 24 of :func:`option_extras`: per option, 1 when the question names its relation as owned by
    what the move leaves from (``the <relation> of ...``, ``...'s <relation>``, and the relation as the modifier of
    a compound, ``the parent company of ...``, :func:`_before_of`; the words by :func:`same_form`, so ``the
    director of`` names ``directed_by``) and the option runs out of it, -1 when it runs in, else 0.
    A name ending in ``of`` (``capital_of``) says the other way round: ``the capital of [X]`` runs into [X]. A
    relation named by one active verb is named so too where its passive is said of the topic (``the people managed
    by [X]``, :func:`done_by_topic`): [X] does it, out of [X].
    Each such naming is spent by a hop the path has taken along the relation in that direction, as a word is
    by the hop that took it: in ``who wrote the films directed by the director of [X]`` the walk takes
    ``directed_by`` out of [X] first, and the third hop is not asked to take it out again. With ``vectors`` (the
    decision's embeddings) a word is also the relation's when it is one word in another form by meaning
    (:func:`same_word`: ``[X]'s kids`` names ``children``, ``the wife of [X]`` names ``spouse``)."""

    def names(word: str, core: str) -> bool:
        if same_form(word, core):
            return True
        return vectors is not None and word in vectors and core in vectors and same_word(word, core, vectors)

    words, marks = possessives(WORD_PATTERN.findall(inputs.question.lower()))
    done = done_by_topic(inputs)
    taken = Counter(inputs.path)
    out = []
    for token in inputs.tokens:
        if token == STOP_TOKEN:
            out.append(0.0)
            continue
        relation, _, direction = token.rpartition("|")
        named = relation_name_words(token).lower().split()
        core = [w for w in named if w not in FUNCTION_WORDS]
        k = len(core)
        owned = (
            sum(
                all(names(w, c) for w, c in zip(words[i : i + k], core, strict=True))
                and (_before_of(words, i + k) or (i > 0 and marks[i - 1]))
                for i in range(len(words) - k + 1)
            )
            if k
            else 0
        )
        if done and k == 1 and one_active_verb(relation) and names(done, core[0]):
            owned += 1  # the people managed by [X]: [X] manages them, out of [X]
        forward = "in" if named and named[-1] == "of" else "out"
        if owned <= taken[f"{relation}|{forward}"]:
            out.append(0.0)
        else:
            out.append(1.0 if direction == forward else -1.0)
    return out


def done_by_topic(inputs: DecisionInputs) -> str | None:
    """The word a question says is done by its topic in the passive, right before it (``managed`` in ``the
    people managed by [X]``: a content word two words before the topic, :func:`nearness`, followed by ``by``);
    ``None`` when it says none."""
    words = WORD_PATTERN.findall(inputs.question.lower())
    before_by = {a for a, b in itertools.pairwise(words) if b == "by"}
    for word, near in zip(content_words(inputs.question), inputs.near, strict=False):
        if near == 0.5 and word in before_by:
            return word
    return None


def one_active_verb(relation: str) -> bool:
    """Whether a relation is named by one active verb (``manages``, ``SOLD``, ``owns``; not ``directed_by``, whose
    name is a passive already, or ``works_at``), so that its passive (``managed by [X]``) runs out of its doer."""
    active = read_relation(relation).active
    return active is not None and " " not in active.phrase


JOINT_PATTERN = re.compile(r"(?<![a-z])co-([a-z][a-z']*)")  # co-wrote, co-founded: done together with the topic


def named_again(inputs: DecisionInputs, vectors: Mapping[str, np.ndarray]) -> frozenset[str]:
    """The relations of the hops taken that the question names more often than the path has taken them, either
    way (``the films directed by the director of [X]``: directed twice, one hop taken, so the way back is asked
    for too). A relation is named as often as the question's words (with repeats, the topic masked) take the form
    of its most named word (:func:`relation_core_words`, :func:`same_word`). A word that names one of the
    decision's types is not counted: a type named after its relation (``which ethnicity is the ethnicity of
    [X]``) is asked for by that word, not walked twice."""
    if not inputs.path:
        return frozenset()
    kinds = {w for t in inputs.types for w in content_words(type_text(t))}
    question = inputs.question.lower()
    counts = Counter(
        w for w in WORD_PATTERN.findall(question) if w not in FUNCTION_WORDS and not any(same_stem(w, k) for k in kinds)
    )
    # a word after ``co-`` names its relation twice: "who co-wrote films with [X]" is who wrote the films [X] wrote
    counts.update(w for w in JOINT_PATTERN.findall(question) if w in counts)
    taken = Counter(t.rsplit("|", 1)[0] for t in inputs.path)
    out = set()
    for relation, times in taken.items():
        core = relation_core_words(f"{relation}|out")
        named = max((sum(n for w, n in counts.items() if same_word(w, c, vectors)) for c in core), default=0)
        if named > times:
            out.add(relation)
    return frozenset(out)


def _best_match(
    words: Sequence[str], question: np.ndarray, against: Sequence[str], vectors: Mapping[str, np.ndarray]
) -> np.ndarray:
    """Per question content word (``words``, their vectors the rows of ``question``), its best match with a word
    of ``against`` (0 when there are none): the cosine, or 1 for a form of the same word (:func:`same_form`:
    ``director`` and ``directed`` are 0.57 by MiniLM, ``screenwriter`` nearer ``directed`` than ``written``)."""
    if not against:
        return np.zeros(len(question), dtype=np.float32)
    b = np.stack([vectors[w] for w in against])
    match = np.asarray(question @ b.T, dtype=np.float32)
    for i, word in enumerate(words):
        for j, other in enumerate(against):
            if same_form(word, other):
                match[i, j] = 1.0
    return np.asarray(match.max(axis=1), dtype=np.float32)


def _word_extras(out: np.ndarray, vectors: Mapping[str, np.ndarray], inputs: DecisionInputs) -> None:
    """Columns 7-9, 12-15, 18 and 19 of :func:`option_extras` (word-level coverage)."""
    words = content_words(inputs.question)
    if not words:
        return
    question = np.stack([vectors[w] for w in words])  # once per decision, not once per option
    path_words = [w for m in inputs.path_moves for w in content_words(m)]
    covered = _best_match(words, question, path_words, vectors)
    least = float(covered.min())  # the least-matched word so far (columns 18, 19)
    near = np.asarray(inputs.near, dtype=np.float32) if len(inputs.near) == len(words) else np.zeros(len(words))
    sides = [np.where(near > 0, near, 0.0), np.where(near < 0, -near, 0.0)]  # before the topic, after it
    weights = [w / w.sum() if w.sum() > 0 else w for w in sides]
    best = 0.0
    nbest = [0.0, 0.0]
    stops = []
    for i, (token, move) in enumerate(zip(inputs.tokens, inputs.moves, strict=True)):
        if token == STOP_TOKEN:
            out[i, 9] = float(covered.mean())
            out[i, 18] = least
            stops.append(i)
            continue
        reach = np.maximum(covered, _best_match(words, question, content_words(move), vectors))
        gain = float((reach - covered).sum())
        out[i, 7] = gain
        out[i, 9] = float(reach.mean())
        out[i, 18] = float(reach.min())
        out[i, 19] = out[i, 18] - least
        best = max(best, gain)
        for side, weight in enumerate(weights):
            out[i, 12 + side] = float((reach - covered) @ weight)
            nbest[side] = max(nbest[side], float(out[i, 12 + side]))
    for i in stops:
        out[i, 8] = best
        out[i, 12], out[i, 13] = nbest
    claim = claims(words, question, inputs, vectors)
    for i, token in enumerate(inputs.tokens):
        if token != STOP_TOKEN:
            out[i, 14] = claim.get(token.rsplit("|", 1)[0], 0.0)
    for i in stops:
        out[i, 15] = max((float(out[j, 14]) for j in range(len(inputs.tokens))), default=0.0)


def claims(
    words: Sequence[str], question: np.ndarray, inputs: DecisionInputs, vectors: Mapping[str, np.ndarray]
) -> dict[str, float]:
    """Per relation offered by a move and not yet taken: the sum, over the question's content words whose best
    match among the relations of the path and the moves (:func:`relation_core_words`) is this relation's, of
    the margin by which it beats the next relation. A word the path's relations match best is spent (ties go to
    the path), so what is left is what the question names that no hop has taken yet. ``words``: the question's
    content words, ``question`` their vectors, one row each."""
    relations: dict[str, tuple[str, ...]] = {}
    for token in (*inputs.path, *inputs.tokens):
        if token != STOP_TOKEN:
            relations.setdefault(token.rsplit("|", 1)[0], relation_core_words(token))
    names = [r for r, words in relations.items() if words]
    if len(names) < 2 or not len(question):
        return {}
    taken = {t.rsplit("|", 1)[0] for t in inputs.path}
    match = np.stack([_best_match(words, question, relations[r], vectors) for r in names])  # (relations, words)
    order = np.argsort(-match, axis=0, kind="stable")  # ties: the earlier relation, the path's first
    best, second = order[0], order[1]
    cols = np.arange(match.shape[1])
    margin = match[best, cols] - match[second, cols]
    out: dict[str, float] = {}
    for k, name in enumerate(names):
        if name not in taken:
            out[name] = float(margin[best == k].sum())
    return out
