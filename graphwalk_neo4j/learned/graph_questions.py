"""Questions written from a graph alone, for training a learned decider without question–answer pairs.

1. **The graph** (:func:`read_graph`): every data relationship of the graph with both ends' id, name and type,
   read page by page (``graph/relations_page``) into an in-memory index (:class:`GraphIndex`).
2. **Relation paths** (:func:`sample_paths`): 1 to ``max_hops`` hops, in either direction. The first move is
   drawn with weight ``sqrt(nodes that have it)``, so a relation on a handful of nodes is still drawn while a hub
   relation is drawn more often; its start is drawn uniformly among the nodes that have the move half of the time,
   by degree the other half (hubs and ordinary nodes both start paths). Each later move is drawn among the moves
   out of the path's frontier with the same square-root weight. The answer is the frontier at the end, the start
   left out (the rule MetaQA and ``--exclude start`` follow); paths with an empty answer, more than
   ``max_answers`` answers or an intermediate frontier above ``max_frontier`` nodes are drawn again.
3. **Wording** (:func:`write_question`): from the graph's own words only: the relation name read as words
   (:func:`read_relation`: ``directed_by`` and ``directedBy`` read ``directed by``; a path-like name such as
   ``/film/film/directed_by`` by its last segment, its domain words kept now and then) and the node types
   (labels) of the ends. A name ending in a preposition reads as a verb (``the films directed by [X]``, ``who
   was [X] directed by``), any other as a noun (``the genre of [X]``, ``films whose genre is [X]``); a name whose
   first word is a verb form, in the active voice (:func:`active_verb`: ``which company does [X] work at``, ``who
   directed [X]``), except one past word from a type that is no agent, a passive (``what is [X] tagged``); a
   ``<noun> of`` name as that noun, the other way round (``DIRECTOR_OF``: ``the director of [X]``). Each inner
   hop becomes a noun phrase around the one before it; the last becomes a question
   whose opening says what kind of thing is asked for (:func:`kind_of` from the answer type's words: ``who`` for
   a person-like type, ``when`` for a time-like one, ``where`` now and then for a place-like one, ``which
   company`` otherwise), except for a quarter of the questions, which frame the noun phrase plainly (``name
   ...``, ``list ...``). Other forms of the same words, by general English morphology and no list of relations,
   now and then: a move followed by its own inverse as one phrase about what shares
   the neighbour (``the films that share directors with [X]``, the agent noun of ``directed``; ``the people
   that share films with [X] as starred actors``), a noun whose head is an agent noun as its act (``starred
   actors``: ``who acted in [X]``), an active verb's doer by its agent noun (``plays_for`` going in: ``the
   player of [X]``, :func:`subject_agent`), a time attribute with a modifier as when (``release year``: ``when
   was [X] released``), the question word at the end (``[X] was directed by who``), and an inner hop named by the kind
   of thing it reaches alone where it is the graph's main move between the two kinds (:func:`kind_moves`:
   ``the coach of [X]'s club`` for the club a player ``plays_for``). The patterns are written here, not taken
   from any benchmark's questions. The topic is written ``[like this]``.
4. **The types no relation names.** A graph loaded without types has its types inferred from its relations
   (:mod:`.role_types`); a kind of node no relation names is ``item`` (MetaQA's films, a company graph's
   countries; ``item 2``, ... where there are several). A user never asks "which items": they ask for films or
   countries. So each question calls each such type by its own noun drawn from :data:`STAND_IN_NOUNS`. Where
   there is exactly one, the model reads it as the noun the question asks for (:func:`~.inputs.typed_as_asked`),
   in training as when it walks; where there are several, which one a question asks for is not known, and the
   model learns from the varied nouns to go by the relations' words instead.

Everything is seeded: the same graph and seed give the same questions.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from graphwalk_neo4j.decide.answer_types import ORGANISATION_WORDS, TIME_WORDS, kind_of, singular
from graphwalk_neo4j.decide.render import plural
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.identifiers import property_words, relation_words
from graphwalk_neo4j.learned.options import SamplingOptions as SamplingOptions  # noqa: TC001 (re-exported)
from graphwalk_neo4j.learned.qa import QAPair
from graphwalk_neo4j.store.queries import ADOPTED_RELATIONS, COUNTS, RELATIONS_PAGE, RelationsPageRow

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from graphwalk_neo4j.graph.profile import GraphProfile
    from graphwalk_neo4j.progress import Progress
    from graphwalk_neo4j.store import GraphStore

Move = tuple[str, str]  # (relation, "out" | "in")
PAGE = 5_000
PROGRESS_EVERY = 100  # paths drawn between progress reports


@dataclass
class GraphIndex:
    """A graph's data relationships in memory: names and types by node id, and neighbours by move."""

    names: dict[str, str] = field(default_factory=dict)
    types: dict[str, str | None] = field(default_factory=dict)
    adjacent: dict[str, dict[Move, list[str]]] = field(default_factory=dict)
    relationships: int = 0

    def add(self, source: str, relation: str, target: str) -> None:
        self.adjacent.setdefault(source, {}).setdefault((relation, "out"), []).append(target)
        self.adjacent.setdefault(target, {}).setdefault((relation, "in"), []).append(source)
        self.relationships += 1

    def follow(self, nodes: Sequence[str], move: Move, exclude: str, limit: int | None = None) -> list[str]:
        """The distinct far ends of ``move`` from ``nodes``, in first-seen order, without ``exclude``. With
        ``limit``, reading stops at the first ``limit + 1`` of them: a caller that only needs to know that there
        are more than ``limit`` does not read a hub's thousands of neighbours to learn it."""
        out: dict[str, None] = {}
        for node in nodes:
            for target in self.adjacent.get(node, {}).get(move, ()):
                if target != exclude:
                    out[target] = None
                    if limit is not None and len(out) > limit:
                        return list(out)
        return list(out)

    def degree(self, node: str) -> int:
        return sum(len(t) for t in self.adjacent.get(node, {}).values())


async def read_graph(
    store: GraphStore,
    graph: str,
    progress: Progress | None = None,
    page: int = PAGE,
    profile: GraphProfile | None = None,
    max_nodes: int | None = None,
) -> GraphIndex:
    """Every data relationship of ``graph`` (module docstring, 1); ``progress`` hears ``("read graph", nodes read,
    nodes)`` after each page. With ``max_nodes``, an ingested graph is read only until that many of its nodes (in
    uid order, a page at a time) have had their relationships read. An adopted graph (``profile.adopted``) is read
    in one query over its adopted nodes and the profile's relationship types, with the ids, names and kinds its
    walks use (element ids, adopted names)."""
    index = GraphIndex()
    if profile is not None and profile.adopted:
        rows = await store.read(ADOPTED_RELATIONS, graph=graph, profile=profile.cypher())
        _index_rows(index, rows)
        nodes = len({r["uid"] for r in rows})
        if progress:
            progress.advance("read graph", nodes, nodes)
        return index
    counted = await store.read(COUNTS, graph=graph)
    total = counted[0]["entities"] if counted else 0
    after, nodes = "", 0
    while True:
        rows = await store.read(RELATIONS_PAGE, graph=graph, bookkeeping=BOOKKEEPING_TYPES, after=after, limit=page)
        if not rows:
            return index
        _index_rows(index, rows)
        nodes += len({r["uid"] for r in rows})
        after = rows[-1]["uid"]
        if progress:
            progress.advance("read graph", nodes, max(total, nodes))
        if max_nodes is not None and nodes >= max_nodes:
            return index


def _index_rows(index: GraphIndex, rows: Sequence[RelationsPageRow]) -> None:
    for r in rows:
        index.names[r["id"]] = r["name"]
        index.types[r["id"]] = r["type"]
        if r["relation"] is not None and r["target"] is not None:
            index.names.setdefault(r["target"], r["target_name"] or r["target"])
            index.types.setdefault(r["target"], r["target_type"])
            index.add(r["id"], r["relation"], r["target"])


@dataclass(frozen=True)
class SampledPath:
    start: str
    moves: tuple[Move, ...]
    answers: tuple[str, ...]  # node ids


def _weighted(counts: Counter[Move]) -> tuple[list[Move], list[float]]:
    moves = sorted(counts)
    total, cumulative = 0.0, []
    for m in moves:
        total += math.sqrt(counts[m])
        cumulative.append(total)
    return moves, cumulative


def _draw(rng: random.Random, items: Sequence[Move], cumulative: Sequence[float]) -> Move:
    return items[bisect.bisect_left(cumulative, rng.random() * cumulative[-1])]


def sample_paths(index: GraphIndex, options: SamplingOptions, progress: Progress | None = None) -> list[SampledPath]:
    """``options.questions`` distinct relation paths, an equal share of each length (module docstring, 2);
    ``progress`` hears ``("write questions", paths drawn, options.questions)``.

    A frontier is read only up to the larger of ``max_frontier`` and ``max_answers`` nodes (:meth:`GraphIndex.follow`'s
    ``limit``): a path whose frontier passes it is drawn again whatever its true size, so reading the rest would
    change nothing (the paths, and so the questions, are the same), but a start drawn by degree is often a hub,
    and on the generated 1M-triple graph reading each hub whole kept training in this loop for minutes."""
    rng = random.Random(options.seed)
    cap = max(options.max_frontier, options.max_answers)
    starts: dict[Move, list[str]] = {}
    for node in sorted(index.adjacent):
        for move in index.adjacent[node]:
            starts.setdefault(move, []).append(node)
    if not starts:
        return []
    first_moves, first_weights = _weighted(Counter({m: len(n) for m, n in starts.items()}))
    by_degree: dict[Move, list[float]] = {}
    for move, nodes in starts.items():
        total, cumulative = 0.0, []
        for node in nodes:
            total += index.degree(node)
            cumulative.append(total)
        by_degree[move] = cumulative
    seen: set[tuple[str, tuple[Move, ...]]] = set()
    out: list[SampledPath] = []
    attempts = 0
    while len(out) < options.questions and attempts < options.questions * 20:
        attempts += 1
        hops = 1 + len(out) % options.max_hops
        move = _draw(rng, first_moves, first_weights)
        nodes = starts[move]
        if rng.random() < 0.5:
            start = nodes[rng.randrange(len(nodes))]
        else:
            weights = by_degree[move]
            start = nodes[bisect.bisect_left(weights, rng.random() * weights[-1])]
        moves, frontier = [move], index.follow([start], move, start, cap)
        while len(moves) < hops and frontier and len(frontier) <= options.max_frontier:
            counts: Counter[Move] = Counter()
            for node in frontier:
                counts.update(index.adjacent.get(node, {}).keys())
            nexts, weights = _weighted(counts)
            move = _draw(rng, nexts, weights)
            moves.append(move)
            reached = index.follow(frontier, move, start, cap)
            # the walk offers no move whose far ends are all where it stands (a self-loop, a link inside the
            # frontier), so such a path has no walk to mine
            frontier = reached if set(reached).difference(frontier) else []
        key = (start, tuple(moves))
        if len(moves) != hops or not frontier or len(frontier) > options.max_answers or key in seen:
            continue
        seen.add(key)
        out.append(SampledPath(start, tuple(moves), tuple(frontier)))
        if progress and len(out) % PROGRESS_EVERY == 0:
            progress.advance("write questions", len(out), options.questions)
    return out


# -- wording ---------------------------------------------------------------------------------------------

# A relation is read one of two ways. *Verb-like* names end in a preposition (``directed_by``, ``works_at``,
# ``born_in``): the inverse reads ``the films directed by [X]``, the forward ``who was [X] directed by``.
# *Noun-like* names (``genre``, ``starred_actors``, ``place_of_birth``; a leading ``has`` / ``in`` dropped):
# ``the genre of [X]``, inverse ``the films whose genre is [X]``. Patterns: {x} the phrase so far (the topic, or
# the previous hop's phrase); {r} the relation in words; {n} its noun; {y} / {ys} the type reached; {w} the
# question word for the answer's kind (``who``, ``which film``, ``what``).
PREPOSITIONS = frozenset("by in at of on from to for with into about under".split())
LEADING = frozenset({"has", "have", "is", "in", "of", "with", "get"})
# Inner hops: a noun phrase around the phrase before it.
NOUN_FORWARD = ("the {n} of {x}", "{x}'s {n}", "the {ys} that are the {n} of {x}", "the {n} of {x}")
NOUN_INVERSE = (
    "the {ys} whose {n} is {x}",
    "{ys} with {n} {x}",
    "the {ys} that have {x} as {n}",
    "{ys} having {n} {x}",
)
VERB_FORWARD = ("the {y} {x} is {r}", "the {ys} that {x} was {r}", "the {ys} {x} is {r}")
VERB_INVERSE = ("the {ys} {r} {x}", "{ys} {r} {x}", "the {ys} that are {r} {x}", "{ys} that were {r} {x}")
# The last hop: a question whose question word says what kind of thing is asked for.
ASK_NOUN_FORWARD = ("{w} is the {n} of {x}", "{w} are {x}'s {n}", "{w} is the {n} of {x}", "{w} are the {n} of {x}")
ASK_NOUN_INVERSE = ("{w} has {x} as {n}", "{w} have the {n} {x}", "{w} has {n} {x}", "{w} are with {n} {x}")
ASK_VERB_FORWARD = ("{w} was {x} {r}", "{w} is {x} {r}", "{w} were {x} {r}")
ASK_VERB_INVERSE = ("{w} is {r} {x}", "{w} are {r} {x}", "{w} was {r} {x}", "{w} were {r} {x}")
# A share of the questions name no kind: the noun phrase framed plainly.
FRAMES = ("name {p}", "list {p}", "tell me {p}", "{p}", "find {p}", "what are {p}", "give me {p}")
PLAIN_SHARE = 0.25


@dataclass(frozen=True)
class Reading:
    """A relation name read as words: ``words`` (all of them), ``core`` (the last segment of a path-like name:
    ``/film/film/directed_by`` -> ``directed by``), ``noun`` (the core without a leading ``has`` / ``in``),
    whether it reads as a verb (ends in a preposition), and ``active``: the core's verb phrase in the active
    voice with the source as its subject, when its first word is a verb form that reads so (:func:`active_verb`:
    ``works at``, ``plays in``, ``studied at``, ``directed``, ``manages``), else ``None``."""

    words: str
    core: str
    noun: str
    verb: bool
    active: ActiveVerb | None = None
    of_noun: bool = False  # ``<noun> of`` (``director_of``, ``capital_of``): the source is the target's noun


@dataclass(frozen=True)
class ActiveVerb:
    """A relation's verb phrase in the active voice: as the name has it (``works at``, ``directed``), in the
    base form (``work at``; ``None`` for a past form, whose base English spelling does not give), and whether
    it is past (``studied at``, ``directed``: a question reads it as it is, ``who studied at [X]``)."""

    phrase: str
    base: str | None
    past: bool
    only: bool  # the one reading (a present verb before a preposition, one past word); else now and then
    # the words after the verb phrase: its object's noun (``plays in club``: club, ``studied at university``)
    object: str | None = None


IRREGULAR_PAST = frozenset({"wrote", "sang", "made", "built", "taught", "led", "won", "held", "sold", "bought"})
PARTICIPLES = frozenset({"born", "known", "given", "shown", "seen", "taken", "written"})  # not in -ed
PASSIVE_ONLY = frozenset({"by"})  # -ed then ``by`` is a passive (directed by), never an active past


def present_third_person(word: str) -> bool:
    """Whether ``word`` may be a present third-person verb by its spelling: a word of four letters or more in
    ``-s`` that is no ``-ss``, ``-us`` or ``-is`` (``works``, ``plays``; not ``class``, ``status``, ``basis``)."""
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


def base_form(verb: str) -> str:
    """A present third-person verb's base form (``works`` -> ``work``, ``studies`` -> ``study``, ``watches``
    -> ``watch``, ``manages`` -> ``manage``)."""
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def active_verb(core: str) -> ActiveVerb | None:
    """The active reading of a relation's core words, by English morphology (no list of relations): a first
    word in ``-s`` before a preposition is a present verb (``works at``, ``plays in club``: ``plays in``); a
    name that is one word in ``-s`` may be one (``manages``, ``follows``; one reading of several, since
    ``genres`` is a noun), unless its singular is a word for people (:func:`kind_of`: ``parents``, ``friends``,
    ``members`` are nouns); a first word in ``-ed`` (or an irregular past) alone or before a preposition other
    than ``by`` may be an active past (``directed``, ``studied at``; ``born in`` reads so too, which is why the
    passive stays the other reading)."""
    parts = core.split()
    if not parts:
        return None
    head = parts[0]
    prep = next((i for i, w in enumerate(parts[1:], 1) if w in PREPOSITIONS), None)
    phrase = " ".join(parts[: prep + 1]) if prep == 1 else (head if len(parts) == 1 else None)
    if phrase is None:
        return None
    rest = phrase.partition(" ")[2]
    after = " ".join(parts[len(phrase.split()) :]) or None
    if present_third_person(head):
        if len(parts) == 1 and kind_of(base_form(head)) == "agent":
            return None  # the plural of a word for people (parents, friends, members) is a noun, not a verb
        return ActiveVerb(phrase, f"{base_form(head)} {rest}".strip(), past=False, only=len(parts) > 1, object=after)
    past = head in IRREGULAR_PAST or (len(head) > 4 and head.endswith("ed"))
    if past and (len(parts) == 1 or parts[1] not in PASSIVE_ONLY):
        return ActiveVerb(phrase, None, past=True, only=len(parts) == 1, object=after)  # one past word is no noun
    if head in PARTICIPLES and len(parts) == 1:
        return ActiveVerb(phrase, None, past=True, only=True)
    return None


def read_relation(relation: str) -> Reading:
    """How :func:`write_question` reads ``relation`` (the graph's own words, no dictionary of relations)."""
    words = relation_words(relation)
    core = property_words(relation)
    parts = core.split()
    verb = len(parts) > 1 and parts[-1] in PREPOSITIONS
    head, _, rest = core.partition(" ")
    noun = rest if head in LEADING and rest else core
    active = active_verb(core)
    if active is None and len(parts) > 1 and parts[-1] == "of":
        # X director_of Y: X is the director of Y, so the name reads as the noun ``director`` of a relation from
        # Y to X (going in is "the director of [Y]", going out "the films whose director is [X]")
        return Reading(words=words, core=core, noun=" ".join(parts[:-1]), verb=False, of_noun=True)
    return Reading(words=words, core=core, noun=noun, verb=verb, active=active)


def question_word(kind: str, y: str, ys: str, rng: random.Random) -> str:
    """The words that open a question asking for a ``kind`` (:func:`kind_of`) of type ``y``."""
    if kind == "agent":
        return rng.choice(("who", "who", f"which {y}", f"which {ys}"))
    if kind == "time":
        return rng.choice(("when", f"in which {y}", f"which {y}", f"what {y}"))
    if kind == "place":
        return rng.choice(("where", "where", f"which {y}", f"what {y}", f"which {ys}"))
    return rng.choice((f"which {y}", f"what {y}", f"which {ys}", "what"))


UNTYPED = frozenset({"thing", "entity", "node"})  # what :func:`_type_word` and a type-less ingest call a node

# Nouns a question calls the graph's unnamed types by (module docstring, 4), one per type and question: things of many
# domains, none a person, time, place or organisation word (:func:`kind_of`: those change the question word) and
# none a noun of this project's dev questions (film, movie, country, university), so the dev sets measure the
# reading of a noun never trained on.
STAND_IN_NOUNS = tuple(
    "album book song recipe vehicle device painting game product drug disease protein gene instrument dish plant "
    "animal festival award project course journal article show episode podcast ticket order invoice shipment "
    "contract patent tool component material compound mineral ship engine camera app website "
    "dataset language sport weapon fabric sculpture poem novel".split()
)


def _kind(index: GraphIndex, nodes: Sequence[str]) -> str | None:
    """The type most of ``nodes`` have (of their first 20), ``None`` for untyped nodes."""
    found = Counter(index.types.get(n) for n in nodes[:20])
    return next((t for t, _ in found.most_common() if t), None)


def _type_word(index: GraphIndex, nodes: Sequence[str]) -> str:
    kind = _kind(index, nodes)
    return relation_words(kind) if kind else "thing"


def kind_moves(index: GraphIndex) -> dict[tuple[str, str], Move]:
    """Per pair of types ``(left, reached)``, the move that carries at least :data:`OWN_KIND_LEAD` times the links
    of any other from nodes of the first type to nodes of the second (untyped nodes, and a type to itself, left
    out): the move English means by the reached type's noun alone, ``[X]'s club`` for the club a player plays for
    where the graph links players to clubs mostly so (``plays_for`` 264 links, ``formerly_played_for`` 108)."""
    counts: dict[tuple[str, str], Counter[Move]] = {}
    for node, moves in index.adjacent.items():
        left = index.types.get(node)
        if not left:
            continue
        for move, targets in moves.items():
            for target in targets:
                reached = index.types.get(target)
                if reached and reached != left:
                    counts.setdefault((left, reached), Counter())[move] += 1
    out = {}
    for pair, found in sorted(counts.items()):
        top = found.most_common(2)
        if len(top) == 1 or top[0][1] >= OWN_KIND_LEAD * top[1][1]:
            out[pair] = top[0][0]
    return out


# Other forms of a relation's words, by general English morphology (no list of relations): the agent noun of a
# past participle (``directed`` -> ``director``), the past tense of an agent noun (``actors`` -> ``acted``), the
# participle of a time attribute's modifier (``release year`` -> ``released``). Irregular words by table: one
# table of agent nouns and their past tense and past participle, read both ways.
IRREGULAR_ACTS = {
    "writer": ("wrote", "written"),
    "singer": ("sang", "sung"),
    "maker": ("made", "made"),
    "builder": ("built", "built"),
    "teacher": ("taught", "taught"),
    "leader": ("led", "led"),
    "winner": ("won", "won"),
    "holder": ("held", "held"),
    "seller": ("sold", "sold"),
    "buyer": ("bought", "bought"),
    "speaker": ("spoke", "spoken"),
    "drawer": ("drew", "drawn"),
}
IRREGULAR_AGENT = {form: agent for agent, forms in IRREGULAR_ACTS.items() for form in forms}
NO_ED_AFTER = frozenset("aeiouhyw")  # a modifier ending so does not take -ed (idea, birth, day, view)


def agent_noun(participle: str) -> str | None:
    """The one who does what a past participle says (``directed`` -> ``director``, ``founded`` -> ``founder``,
    ``written`` -> ``writer``, ``coached`` -> ``coach``); ``None`` for a word that is not a regular ``-ed``
    participle."""
    if participle in IRREGULAR_AGENT:
        return IRREGULAR_AGENT[participle]
    if len(participle) < 5 or not participle.endswith("ed"):
        return None
    stem = participle[:-2]
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls":
        stem = stem[:-1]  # starred -> star
    if kind_of(stem) == "agent":
        return stem  # coached -> coach: the stem already names the one who does it
    return stem + ("or" if stem.endswith("t") else "er")


VOWELS = frozenset("aeiou")


def present_agent(base: str) -> str:
    """The agent noun of a verb's base form by English spelling: ``manage`` -> ``manager``, ``supply`` ->
    ``supplier``, ``ship`` -> ``shipper`` (one syllable ending consonant-vowel-consonant doubles its last
    letter), ``play`` -> ``player``, ``work`` -> ``worker``."""
    if base.endswith("e"):
        return base + "r"
    if len(base) > 2 and base[-1] == "y" and base[-2] not in VOWELS:
        return base[:-1] + "ier"
    if (
        len(base) >= 3
        and base[-1] not in VOWELS | set("wxy")
        and base[-2] in VOWELS
        and base[-3] not in VOWELS
        and sum(c in VOWELS for c in base) == 1
    ):
        return base + base[-1] + "er"
    return base + "er"


# Agent nouns English has other words for that no form of the verb gives: the one who stars in a film is its
# actor or performer (a schema's ``STARRED_IN`` never says "actor"; "who are the actors in [X]" asks for them)
AGENT_ALIASES: dict[str, tuple[str, ...]] = {"star": ("actor", "performer")}


def subject_agent(active: ActiveVerb) -> str | None:
    """Who does what an active verb says, by its agent noun (``plays for``: player, ``supplies``: supplier,
    ``directed``: director, ``acted in``: actor, ``wrote``: writer), where that noun names a person or an
    organisation; ``None`` otherwise (``lives in`` names no "liver", ``released`` no "releaser")."""
    head = active.phrase.split()[0]
    noun = agent_noun(head) if active.past else present_agent(base_form(head))
    if noun and (kind_of(noun) == "agent" or noun in ORGANISATION_WORDS):
        return noun
    return None


def act_forms(agent: str) -> tuple[str, str] | None:
    """What an agent noun's one did, as past tense and past participle (``actors`` -> ``acted``, ``founder``
    -> ``founded``, ``writers`` -> ``wrote`` / ``written``); ``None`` for a word that does not end like one."""
    word = agent[:-1] if agent.endswith(("ors", "ers")) else agent
    if word in IRREGULAR_ACTS:
        return IRREGULAR_ACTS[word]
    if len(word) < 5 or not word.endswith(("or", "er")):
        return None
    stem = word[:-2]
    past = stem + ("d" if stem.endswith("e") else "ed")
    return past, past


def participle(word: str) -> str | None:
    """A time attribute's modifier as a participle (``release`` -> ``released``, ``founding`` -> ``founded``)."""
    if word.endswith("ing") and len(word) > 5:
        return word[:-3] + "ed"
    if word.endswith("e") and len(word) > 3:
        return word + "d"
    if len(word) > 3 and word[-1] not in NO_ED_AFTER:
        return word + "ed"
    return None


# A move followed by its own inverse reaches the other things that share a neighbour with the phrase before it
# (films that share a director, people who share a film): read as one phrase, the neighbour named by the
# relation's noun or agent noun ({a}, plural {as_}) or by its type ({m}, {ms}). {ys}: the type reached.
SHARE_OUT_IN = (
    "the {ys} that share {as_} with {x}",
    "{ys} with the same {a} as {x}",
    "the {ys} that have the same {a} as {x}",
    "other {ys} of the {a} of {x}",
)
SHARE_OUT_IN_VERB = ("the {ys} {r} the same {m} as {x}", "{ys} that were also {r} the {m} of {x}")
SHARE_IN_OUT = (
    "the {ys} that share {ms} with {x} as {as_}",
    "the other {as_} of the {ms} of {x}",
    "{ys} who are {as_} of the same {ms} as {x}",
)
ASK_SHARE_OUT_IN = (
    "{w} share {as_} with {x}",
    "{w} have the same {a} as {x}",
    "{w} are the other {ys} of the {a} of {x}",
)
ASK_SHARE_IN_OUT = ("{w} share {ms} with {x} as {as_}", "{w} are the other {as_} of the {ms} of {x}")
# In, then out, for a noun that reads as an act (``starred actors``: acted): the others who did it together
# with the topic.
SHARE_IN_OUT_ACT = ("the {ys} who {v} together with {x}", "{ys} who {v} alongside {x}")
ASK_SHARE_IN_OUT_ACT = ("{w} {v} together with {x}", "{w} {v} alongside {x}", "{w} {v} with {x}")
# In, then out, reaching agents whose act has a past (written by: wrote; starred actors: acted): the others who
# did it jointly with the topic, by English's ``co-`` prefix (co-wrote, the co-writers of [X]), which no one-hop
# reading has.
CO_ACT = ("the {ys} who co-{v} {cms} with {x}", "{ys} that co-{v} {cms} with {x}", "the co-{cas} of {x}")
ASK_CO_ACT = ("{w} co-{v} {cms} with {x}", "{w} co-{v} with {x}", "{w} are the co-{cas} of {x}")
CO_SHARE = 0.25  # how often an in-then-out pair that has a co- reading is read so
SHARE_SHARE = 0.5  # how often a move and its inverse are read as one phrase
# An inner hop named by the kind of thing it reaches alone, the move the graph mostly takes between the two kinds
# (:func:`kind_moves`): ``the coach of [X]'s club`` names no relation for the club, ``plays_for``.
OWN_KIND = ("the {y} of {x}", "{x}'s {y}", "the {ys} of {x}", "{x}'s {ys}")
OWN_KIND_SHARE = 0.25  # how often an inner hop that is its kinds' main move is read so
OWN_KIND_LEAD = 2  # the main move between two kinds has at least twice the links of the next
# A noun whose head is an agent noun reads as the act (``starred actors`` -> ``acted in``) now and then.
ACT_FORWARD = ("the {ys} who {v} in {x}", "the {ys} that {v} {x}")
ACT_INVERSE = ("the {ys} {x} {v} in", "{ys} that {x} {v}")
ASK_ACT_FORWARD = ("{w} {v} in {x}", "{w} {v} {x}")
ASK_ACT_INVERSE = ("{w} has {x} {vp} in", "{w} did {x} appear in as {n}")
# The act of a ``<noun> of`` name (``director of``: directed) takes its object directly.
DIRECT_ACT_FORWARD = ("the {ys} who {v} {x}", "the {ys} that {v} {x}")
DIRECT_ACT_INVERSE = ("the {ys} {x} {v}", "{ys} that {x} {v}")
ASK_DIRECT_ACT_FORWARD = ("{w} {v} {x}", "{w} {v} {x}")
ASK_DIRECT_ACT_INVERSE = ("{w} has {x} {vp}", "{w} did {x} work on as {n}")
# A passive verb-like relation (``directed by``) going in, in the active voice: what [X] has directed.
ACTIVE_INVERSE = ("the {ys} {x} has {p}", "{ys} that {x} has {p}")
ASK_ACTIVE_INVERSE = ("{w} has {x} {p}", "{w} have {x} {p}")
# A time attribute with a modifier (``release year``) reads as when the thing was so (``released``).
TIME_FORWARD = ("the {y} {x} was {p} in", "the {y} when {x} was {p}")
TIME_INVERSE = ("the {ys} {p} in {x}", "{ys} that were {p} in {x}")
ASK_TIME_FORWARD = ("when was {x} {p}", "in which {y} was {x} {p}", "what {y} was {x} {p} in")
ASK_TIME_INVERSE = ("{w} were {p} in {x}", "{w} was {p} in {x}")
# A verb in the active voice with the source as subject (:func:`active_verb`): {v} as the name has it (``works
# at``, ``directed``), {vb} its base form (present verbs only).
PRESENT_FORWARD = ("the {y} {x} {v}", "the {ys} that {x} {v}")
PRESENT_INVERSE = ("the {ys} who {vb} {x}", "{ys} that {vb} {x}")
ASK_PRESENT_FORWARD = ("{w} does {x} {vb}", "{w} do {x} {vb}", "{x} {v} {w}")
ASK_PRESENT_INVERSE = ("{w} {v} {x}", "{w} {vb} {x}")
PAST_FORWARD = ("the {ys} {x} {v}", "the {ys} that {x} {v}")
PAST_INVERSE = ("the {ys} who {v} {x}", "{ys} that {v} {x}")
ASK_PAST_FORWARD = ("{w} has {x} {v}", "{x} {v} {w}")
ASK_PAST_INVERSE = ("{w} {v} {x}", "{w} {v} {x}")
# A question word need not open a question: ``[X] was directed by who``.
ASK_VERB_FORWARD_AT_END = ("{x} was {r} {w}", "{x} were {r} {w}")
ASK_NOUN_FORWARD_AT_END = ("the {n} of {x} is {w}", "the {n} of {x} are {w}")
AT_END_SHARE = 0.2
OTHER_FORMS = 0.5  # how often a relation that has one of the other forms above is read in it


IRREGULAR_PLURALS = {"person": "people", "man": "men", "woman": "women", "child": "children"}
IRREGULAR_SINGULARS = {many: one for one, many in IRREGULAR_PLURALS.items()}


def plural_of(words: str) -> str:
    """A type's words in the plural, its last word by English's irregular plurals first (``person`` ->
    ``people``, ``film person`` -> ``film people``), else by :func:`~graphwalk_neo4j.decide.render.plural`."""
    head, _, last = words.rpartition(" ")
    if last in IRREGULAR_PLURALS:
        return f"{head} {IRREGULAR_PLURALS[last]}".strip()
    return plural(words)


def _plural(noun: str) -> str:
    """A relation's noun in the plural, left as it is when it already is one (``tags``, ``starred actors``)."""
    return noun if noun.endswith("s") else plural_of(noun)


def _inverse(move: Move) -> Move:
    return (move[0], "in" if move[1] == "out" else "out")


def _agent_words(reading: Reading, mid: str) -> str:
    """What the shared neighbour of a move and its inverse is called: the relation's noun, the agent noun of a
    verb-like relation that reaches an agent (``directed by`` -> ``director``), else the type it reaches."""
    if reading.active is not None and reading.active.only:
        return mid  # a verb read only so has no noun: the type it reaches (the people that share years with [X])
    if not reading.verb:
        return reading.noun
    found = agent_noun(reading.core.split()[0]) if kind_of(mid) == "agent" else None
    return found or mid


def _act_verb(reading: Reading, agent: str) -> tuple[str, str] | None:
    """The act of a noun-like relation whose head is an agent noun and whose agent end is an agent
    (``starred actors`` -> ``acted``, :func:`act_forms`), else ``None``."""
    if reading.verb or kind_of(agent) != "agent":
        return None
    return act_forms(reading.noun.split()[-1])


def _time_participle(reading: Reading, reached: str) -> str | None:
    """The participle of a time attribute's modifier (``release year`` reaching a year -> ``released``)."""
    parts = reading.noun.split()
    if reading.verb or len(parts) != 2 or kind_of(reached) != "time" or parts[1] not in TIME_WORDS:
        return None
    return participle(parts[0])


def _time_patterns(direction: str, last: bool) -> tuple[str, ...]:
    """The patterns of a hop read as when its source was so ({p}: ``released``)."""
    if last:
        return ASK_TIME_FORWARD if direction == "out" else ASK_TIME_INVERSE
    return TIME_FORWARD if direction == "out" else TIME_INVERSE


# English's pairs of role nouns: where a relation's own noun names one end (``subsidiary_of``: a subsidiary,
# ``manages``: a manager, ``works_at``: a worker), the noun English names the other end by (its parent company, the
# manager's reports, the worker's employer). General English, not any graph's or dataset's relations.
CONVERSE_ROLES: dict[str, tuple[str, ...]] = {
    "subsidiary": ("parent company", "parent", "owner"),
    "parent": ("child", "subsidiary"),
    "child": ("parent",),
    "worker": ("employer",),
    "employee": ("employer",),
    "employer": ("employee", "worker"),
    "manager": ("report", "subordinate"),
    "supervisor": ("subordinate",),
    "subordinate": ("manager", "supervisor"),
    "teacher": ("student", "pupil"),
    "student": ("teacher",),
    "mentor": ("mentee",),
    "predecessor": ("successor",),
    "successor": ("predecessor",),
    "landlord": ("tenant",),
    "tenant": ("landlord",),
    "seller": ("buyer",),
    "buyer": ("seller",),
}
CONVERSE_SHARE = 0.5  # how often a hop whose role noun has a converse is read by the converse


def role_noun(reading: Reading) -> tuple[str, str] | None:
    """``(the noun a relation's name gives one end, the direction "the <noun> of [X]" reads)``: a noun's head
    going out (``parents``: the parents of [X]; a ``<noun> of`` name's noun is read so already, :class:`Reading`),
    a passive's agent going out (``founded_by``: the founder of [X]), a present verb's doer going in
    (``manages``: the manager of [X]); ``None`` for other names."""
    core = reading.core.split()
    if reading.active is not None:
        doer = subject_agent(reading.active) if not reading.active.past else None
        return (doer, "in") if doer else None
    if reading.verb:
        agent = agent_noun(core[0]) if len(core) == 2 and core[-1] == "by" else None
        return (agent, "out") if agent else None
    return (reading.noun.split()[-1], "out") if reading.noun else None


def converse_role(reading: Reading, direction: str) -> tuple[str, ...]:
    """The nouns English names the end a move reaches by where the relation's own noun (:func:`role_noun`) names
    the other end (:data:`CONVERSE_ROLES`): ``subsidiary_of`` going out reaches the parent company, ``manages``
    going out the manager's reports, ``works_at`` going out the worker's employer; in the plural where the
    relation's noun is one (``parents`` going in: the children). None where the move reads by the noun itself."""
    found = role_noun(reading)
    if found is None or found[1] == direction:
        return ()
    noun = found[0]
    one = IRREGULAR_SINGULARS.get(noun) or singular(noun)
    converses = CONVERSE_ROLES.get(one, ())
    if one != noun:
        return tuple(plural_of(c) for c in converses)
    return tuple(form for c in converses for form in (c, plural_of(c)))


def _pattern_words(
    reading: Reading, direction: str, y: str, source: str, last: bool, rng: random.Random
) -> tuple[tuple[str, ...], dict[str, str]]:
    """The patterns one hop can be written with and the words they take besides {x}, {r}, {n}, {y}, {ys}, {w}
    (or instead of {n}): the active voice of a verb-like name (:func:`active_verb`; always for a present verb
    before a preposition, ``works at``), or one of the other forms (the act, the time, a passive verb in the
    active voice, a verb's agent noun) now and then, else the verb or noun reading."""
    converses = converse_role(reading, direction)
    if converses and rng.random() < CONVERSE_SHARE:
        # the end reached named by the converse of the relation's own noun: the parent company of [X]
        return (ASK_NOUN_FORWARD if last else NOUN_FORWARD), {"n": rng.choice(converses)}
    end = y if direction == "out" else source  # the agent or time end: what it reaches out, comes from in
    active = reading.active
    one_past_word = active is not None and active.past and " " not in active.phrase
    if active and one_past_word and kind_of(end) == "time":
        # one past word reaching a time reads as when the thing was so (``released``: when was [X] released)
        return _time_patterns(direction, last), {"p": active.phrase}
    subject = source if direction == "out" else y  # the name's own source end
    typed = subject not in UNTYPED  # an untyped graph says nothing of who could have done it
    if one_past_word and typed and kind_of(subject) != "agent":
        # one past word from a thing that cannot have done it is a passive (a film TAGGED a tag, RATED a rating:
        # what was [X] tagged, the films tagged [noir]), not the active voice of a person's act (DIRECTED)
        reading = replace(reading, verb=True, active=None)
        active = None
    if active and (active.only or rng.random() < OTHER_FORMS):
        doer = subject_agent(active) if direction == "in" else None
        if doer and doer not in (y, source) and rng.random() < OTHER_FORMS:
            # the one who does it, by the verb's agent noun: the player of [club], the suppliers of [product]
            if doer in AGENT_ALIASES:  # the star of [film], or its actor
                doer = rng.choice((doer, *AGENT_ALIASES[doer]))
            return (ASK_NOUN_FORWARD if last else NOUN_FORWARD), {"n": doer}
        words = {"v": active.phrase, "vb": active.base or active.phrase}
        forward = direction == "out"
        if active.past:
            if last:
                return (ASK_PAST_FORWARD if forward else ASK_PAST_INVERSE), words
            return (PAST_FORWARD if forward else PAST_INVERSE), words
        if last:
            return (ASK_PRESENT_FORWARD if forward else ASK_PRESENT_INVERSE), words
        return (PRESENT_FORWARD if forward else PRESENT_INVERSE), words
    act = _act_verb(reading, end)
    when = _time_participle(reading, end)
    if act and rng.random() < OTHER_FORMS:
        words = {"v": act[0], "vp": act[1]}
        if reading.of_noun:  # "director of [X]": the act takes its object directly (who directed [X])
            if last:
                return (ASK_DIRECT_ACT_FORWARD if direction == "out" else ASK_DIRECT_ACT_INVERSE), words
            return (DIRECT_ACT_FORWARD if direction == "out" else DIRECT_ACT_INVERSE), words
        if last:
            return (ASK_ACT_FORWARD if direction == "out" else ASK_ACT_INVERSE), words
        return (ACT_FORWARD if direction == "out" else ACT_INVERSE), words
    if when and rng.random() < OTHER_FORMS:
        return _time_patterns(direction, last), {"p": when}
    core = reading.core.split()
    if direction == "in" and reading.verb and core[-1] == "by" and len(core) == 2 and rng.random() < OTHER_FORMS:
        return (ASK_ACTIVE_INVERSE if last else ACTIVE_INVERSE), {"p": core[0]}
    agent = _agent_words(reading, end) if reading.verb else None
    if agent and agent not in (y, source) and rng.random() < OTHER_FORMS:
        # a verb-like relation reaching an agent, read by its agent noun: the director of [X]
        if last:
            return (ASK_NOUN_FORWARD if direction == "out" else ASK_NOUN_INVERSE), {"n": agent}
        return (NOUN_FORWARD if direction == "out" else NOUN_INVERSE), {"n": agent}
    if last:
        if reading.verb:
            if direction == "out" and rng.random() < AT_END_SHARE:
                return ASK_VERB_FORWARD_AT_END, {}
            return (ASK_VERB_FORWARD if direction == "out" else ASK_VERB_INVERSE), {}
        if direction == "out" and rng.random() < AT_END_SHARE:
            return ASK_NOUN_FORWARD_AT_END, {}
        return (ASK_NOUN_FORWARD if direction == "out" else ASK_NOUN_INVERSE), {}
    if reading.verb:
        return (VERB_FORWARD if direction == "out" else VERB_INVERSE), {}
    return (NOUN_FORWARD if direction == "out" else NOUN_INVERSE), {}


def write_question(
    index: GraphIndex,
    path: SampledPath,
    rng: random.Random,
    stand_ins: Mapping[str, str] | None = None,
    main_moves: Mapping[tuple[str, str], Move] | None = None,
) -> tuple[str, str]:
    """``(raw question with [topic], the same without brackets)`` for ``path`` (module docstring, 3); with
    ``stand_ins`` (the graph's unnamed types, each to a noun), such a type is called by its noun (module
    docstring, 4); with ``main_moves`` (:func:`kind_moves`) an inner hop that is the main move between its two
    kinds is now and then named by the kind it reaches alone (:data:`OWN_KIND`)."""

    def type_word(nodes: Sequence[str]) -> str:
        word = _type_word(index, nodes)
        return (stand_ins or {}).get(word, word)

    topic = index.names[path.start]
    phrase = f"[{topic}]"
    nodes = [path.start]
    here = type_word(nodes)  # the type of the nodes the phrase so far stands on
    plain = rng.random() < PLAIN_SHARE
    k, hops = 0, len(path.moves)
    while k < hops:
        relation, direction = move = path.moves[k]
        reached = index.follow(nodes, move, path.start)
        y = type_word(reached)
        reading = read_relation(relation)
        # a path-like name is read by its last segment, its domain words kept now and then
        r = reading.core if rng.random() < 0.75 else reading.words
        n = reading.noun if r == reading.core or reading.of_noun else reading.words
        # a ``<noun> of`` name is read as its noun, whose relation runs the other way (:class:`Reading`)
        read_as = _inverse(move)[1] if reading.of_noun else direction
        if k + 1 < hops and path.moves[k + 1] == _inverse(move) and rng.random() < SHARE_SHARE:
            beyond = index.follow(reached, path.moves[k + 1], path.start)
            ask = k + 2 == hops and not plain
            here = type_word(beyond)
            phrase = _shared(phrase, reading, read_as, y, here, r, ask, rng)
            nodes, k = beyond, k + 2
            continue
        last = k == hops - 1
        main = False
        if not last and main_moves:  # the kinds looked up only where a hop may be named by one
            left, got = _kind(index, nodes), _kind(index, reached)
            main = left is not None and got is not None and main_moves.get((left, got)) == move
        if main and rng.random() < OWN_KIND_SHARE:  # drawn only for such a hop: other questions stay as they were
            phrase = rng.choice(OWN_KIND if k == 0 else OWN_KIND[::2]).format(x=phrase, y=y, ys=plural_of(y))
            nodes, here, k = reached, y, k + 1
            continue
        patterns, extra = _pattern_words(reading, read_as, y, here, last and not plain, rng)
        w = question_word(kind_of(y), y, plural_of(y), rng) if last and not plain else ""
        if k > 0:  # "'s" after a whole phrase reads as belonging to its last word
            patterns = tuple(p for p in patterns if "{x}'s" not in p)
        phrase = rng.choice(patterns).format(
            **{"x": phrase, "r": r, "n": n, "y": y, "ys": plural_of(y), "w": w, **extra}
        )
        if w == "where":
            phrase = _where(phrase)
        nodes, here, k = reached, y, k + 1
    raw = rng.choice(FRAMES).format(p=phrase) if plain else phrase
    raw = " ".join(raw.split())
    return raw, raw.replace(f"[{topic}]", topic)


def _where(question: str) -> str:
    """A question asked with ``where`` without the preposition its relation ends in (``where was [X] born in``
    -> ``where was [X] born``, ``[X] works at where`` -> ``[X] works where``)."""
    question = re.sub(r" (?:in|at|from|on) where\b", " where", question)
    return re.sub(r" (?:in|at|from|on)$", "", question) if question.startswith("where ") else question


def _shared(
    phrase: str,
    reading: Reading,
    direction: str,
    mid: str,
    end: str,
    r: str,
    ask: bool,
    rng: random.Random,
) -> str:
    """A move and its inverse as one phrase (:data:`SHARE_OUT_IN`): ``the films that share directors with X``
    (out, then in: the far end shared) or ``the people that share films with X as starred actors`` (in, then
    out: the near end shared; ``who acted together with X`` when the relation reads as an act), as a question
    when ``ask`` (the last hops of a question that names its kind). No pattern here has ``{x}'s``, so none needs
    leaving out after a whole phrase."""
    a = _agent_words(reading, mid) if direction == "out" else _agent_words(reading, end)
    words = {"x": phrase, "r": r, "a": a, "as_": _plural(a), "m": mid, "ms": plural_of(mid), "ys": plural_of(end)}
    # the act of an in-then-out pair whose noun reads as one (starred actors: acted); a verb's own ("directed
    # together with X") would read like its one hop ("what did X direct")
    act = _act_verb(reading, end)
    together = direction == "in" and act is not None and rng.random() < OTHER_FORMS
    co = act_forms(a.split()[-1]) if direction == "in" and a and kind_of(end) == "agent" else None
    if ask:
        words["w"] = question_word(kind_of(end), end, plural_of(end), rng)
    patterns: tuple[str, ...]
    if co is not None and rng.random() < CO_SHARE:
        # a verb's act takes the things as its object (co-wrote films), a noun's is done in them (co-acted in films)
        words.update(v=co[0], cas=_plural(a.split()[-1]), cms=("" if reading.verb else "in ") + words["ms"])
        patterns = ASK_CO_ACT if ask else CO_ACT
    elif act is not None and together:
        words["v"] = act[0]
        patterns = ASK_SHARE_IN_OUT_ACT if ask else SHARE_IN_OUT_ACT
    elif ask:
        patterns = ASK_SHARE_OUT_IN if direction == "out" else ASK_SHARE_IN_OUT
    elif direction == "out":
        patterns = SHARE_OUT_IN + (SHARE_OUT_IN_VERB if reading.verb else ())
    else:
        patterns = SHARE_IN_OUT
    return rng.choice(patterns).format(**words)


def _seeded(*parts: object) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:8], "big"))


def stand_in_nouns(named: Iterable[str]) -> tuple[str, ...]:
    """:data:`STAND_IN_NOUNS` less the words of the graph's ``named`` types (a question asking for one of those
    asks for that type, not the unnamed one)."""
    taken = {w for name in named for w in relation_words(name).split()}
    return tuple(n for n in STAND_IN_NOUNS if n not in taken)


def graph_pairs(
    index: GraphIndex, options: SamplingOptions, progress: Progress | None = None, unnamed: Sequence[str] = ()
) -> list[QAPair]:
    """The sampled paths as question–answer pairs (the topic's id kept, so mining starts where the path did);
    each of ``unnamed``, the graph's unnamed types, called in each question by its own noun of
    :func:`stand_in_nouns`, drawn apart from the wording's draws (so the rest of the question is as it was
    without)."""
    nouns = stand_in_nouns(t for t in set(index.types.values()) if t and t not in unnamed)
    main_moves = kind_moves(index)
    pairs = []
    for k, path in enumerate(sample_paths(index, options, progress)):
        rng = _seeded(options.seed, k)
        draw = _seeded(options.seed, k, "stand-in")
        stand_ins: dict[str, str] = {}
        for kind in unnamed[: len(nouns)]:
            stand_ins[kind] = draw.choice([n for n in nouns if n not in stand_ins.values()])
        raw, text = write_question(index, path, rng, stand_ins, main_moves)
        answers = tuple(dict.fromkeys(index.names[a] for a in path.answers))
        pairs.append(
            QAPair(
                id=f"graph:{k}",
                text=text,
                topic=index.names[path.start],
                answers=answers,
                hops=len(path.moves),
                raw=raw,
                topic_id=path.start,
            )
        )
    return pairs
