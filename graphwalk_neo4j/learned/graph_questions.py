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
   was [X] directed by``), any other as a noun (``the genre of [X]``, ``films whose genre is [X]``). Each inner
   hop becomes a noun phrase around the one before it; the last becomes a question whose opening says what kind
   of thing is asked for (:func:`kind_of` from the answer type's words: ``who`` for a person-like type, ``when``
   for a time-like one, ``which city`` otherwise), except for a quarter of the questions, which frame the noun
   phrase plainly (``name ...``, ``list ...``). The patterns are general English written here, not taken from
   any benchmark's questions. The topic is written ``[like this]``.

Everything is seeded: the same graph and seed give the same questions.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphwalk_neo4j.decide.render import plural
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.identifiers import relation_words
from graphwalk_neo4j.learned.options import SamplingOptions as SamplingOptions  # noqa: TC001 (re-exported)
from graphwalk_neo4j.learned.qa import QAPair
from graphwalk_neo4j.store.queries import ADOPTED_RELATIONS, COUNTS, RELATIONS_PAGE, RelationsPageRow

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.graph.profile import GraphProfile
    from graphwalk_neo4j.progress import Progress
    from graphwalk_neo4j.store import GraphStore

Move = tuple[str, str]  # (relation, "out" | "in")
PAGE = 5_000


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

    def follow(self, nodes: Sequence[str], move: Move, exclude: str) -> list[str]:
        """The distinct far ends of ``move`` from ``nodes``, in first-seen order, without ``exclude``."""
        out: dict[str, None] = {}
        for node in nodes:
            for target in self.adjacent.get(node, {}).get(move, ()):
                if target != exclude:
                    out[target] = None
        return list(out)

    def degree(self, node: str) -> int:
        return sum(len(t) for t in self.adjacent.get(node, {}).values())


async def read_graph(
    store: GraphStore,
    graph: str,
    progress: Progress | None = None,
    page: int = PAGE,
    profile: GraphProfile | None = None,
) -> GraphIndex:
    """Every data relationship of ``graph`` (module docstring, 1); ``progress`` hears ``("read graph", nodes read,
    nodes)`` after each page. An adopted graph (``profile.adopted``) is read in one query over its adopted nodes
    and the profile's relationship types, with the ids, names and kinds its walks use (element ids, adopted
    names)."""
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


def sample_paths(index: GraphIndex, options: SamplingOptions) -> list[SampledPath]:
    """``options.questions`` distinct relation paths, an equal share of each length (module docstring, 2)."""
    rng = random.Random(options.seed)
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
        moves, frontier = [move], index.follow([start], move, start)
        while len(moves) < hops and frontier and len(frontier) <= options.max_frontier:
            counts: Counter[Move] = Counter()
            for node in frontier:
                counts.update(index.adjacent.get(node, {}).keys())
            nexts, weights = _weighted(counts)
            move = _draw(rng, nexts, weights)
            moves.append(move)
            reached = index.follow(frontier, move, start)
            # the walk offers no move whose far ends are all where it stands (a self-loop, a link inside the
            # frontier), so such a path has no walk to mine
            frontier = reached if set(reached).difference(frontier) else []
        key = (start, tuple(moves))
        if len(moves) != hops or not frontier or len(frontier) > options.max_answers or key in seen:
            continue
        seen.add(key)
        out.append(SampledPath(start, tuple(moves), tuple(frontier)))
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
# Words that make a type an agent, asked for with ``who``: decided from the type's own words, nothing else.
AGENT_WORDS = frozenset(
    "person people human individual actor actress director writer author artist musician singer composer "
    "player athlete employee worker staff user customer client member character politician scientist founder "
    "manager student teacher producer reviewer agent man woman child owner creator leader officer".split()
)
# Types that read as a time, asked for with ``when`` or ``in which``.
TIME_WORDS = frozenset("year date time day month decade century era period".split())

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
    ``/film/film/directed_by`` -> ``directed by``), ``noun`` (the core without a leading ``has`` / ``in``) and
    whether it reads as a verb (ends in a preposition)."""

    words: str
    core: str
    noun: str
    verb: bool


def read_relation(relation: str) -> Reading:
    """How :func:`write_question` reads ``relation`` (the graph's own words, no dictionary of relations)."""
    words = relation_words(relation)
    segments = [s for s in relation.replace("__", "/").split("/") if s.strip()]
    core = relation_words(segments[-1]) if len(segments) > 1 else words
    parts = core.split()
    verb = len(parts) > 1 and parts[-1] in PREPOSITIONS
    head, _, rest = core.partition(" ")
    noun = rest if head in LEADING and rest else core
    return Reading(words=words, core=core, noun=noun, verb=verb)


def kind_of(type_words: str) -> str:
    """``agent`` when a type reads as a person or other agent (any of its words in :data:`AGENT_WORDS`), ``time``
    when it reads as a time, ``thing`` otherwise."""
    words = set(type_words.lower().split())
    if words & AGENT_WORDS:
        return "agent"
    if words & TIME_WORDS:
        return "time"
    return "thing"


def question_word(kind: str, y: str, ys: str, rng: random.Random) -> str:
    """The words that open a question asking for a ``kind`` (:func:`kind_of`) of type ``y``."""
    if kind == "agent":
        return rng.choice(("who", "who", f"which {y}", f"which {ys}"))
    if kind == "time":
        return rng.choice(("when", f"in which {y}", f"which {y}", f"what {y}"))
    return rng.choice((f"which {y}", f"what {y}", f"which {ys}", "what"))


def _type_word(index: GraphIndex, nodes: Sequence[str]) -> str:
    found = Counter(index.types.get(n) for n in nodes[:20])
    kind = next((t for t, _ in found.most_common() if t), None)
    return relation_words(kind) if kind else "thing"


def write_question(index: GraphIndex, path: SampledPath, rng: random.Random) -> tuple[str, str]:
    """``(raw question with [topic], the same without brackets)`` for ``path`` (module docstring, 3)."""
    topic = index.names[path.start]
    phrase = f"[{topic}]"
    nodes = [path.start]
    plain = rng.random() < PLAIN_SHARE
    for k, move in enumerate(path.moves):
        relation, direction = move
        reached = index.follow(nodes, move, path.start)
        y = _type_word(index, reached)
        reading = read_relation(relation)
        # a path-like name is read by its last segment, its domain words kept now and then
        r = reading.core if rng.random() < 0.75 else reading.words
        n = reading.noun if r == reading.core else reading.words
        last = k == len(path.moves) - 1
        patterns: tuple[str, ...]
        if last and not plain:
            if reading.verb:
                patterns = ASK_VERB_FORWARD if direction == "out" else ASK_VERB_INVERSE
            else:
                patterns = ASK_NOUN_FORWARD if direction == "out" else ASK_NOUN_INVERSE
            w = question_word(kind_of(y), y, plural(y), rng)
        elif reading.verb:
            patterns, w = (VERB_FORWARD if direction == "out" else VERB_INVERSE), ""
        else:
            patterns, w = (NOUN_FORWARD if direction == "out" else NOUN_INVERSE), ""
        if k > 0:  # "'s" after a whole phrase reads as belonging to its last word
            patterns = tuple(p for p in patterns if "{x}'s" not in p)
        phrase = rng.choice(patterns).format(x=phrase, r=r, n=n, y=y, ys=plural(y), w=w)
        nodes = reached
    raw = rng.choice(FRAMES).format(p=phrase) if plain else phrase
    raw = " ".join(raw.split())
    return raw, raw.replace(f"[{topic}]", topic)


def graph_pairs(index: GraphIndex, options: SamplingOptions) -> list[QAPair]:
    """The sampled paths as question–answer pairs (the topic's id kept, so mining starts where the path did)."""
    pairs = []
    for k, path in enumerate(sample_paths(index, options)):
        rng = random.Random(int.from_bytes(hashlib.sha256(f"{options.seed}:{k}".encode()).digest()[:8], "big"))
        raw, text = write_question(index, path, rng)
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
