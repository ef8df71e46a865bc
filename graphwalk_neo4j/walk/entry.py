"""Entry: from a question (or user-given starts) to the start node(s) of a walk.

Linking order: (1) exact name mentions — every span of up to 8 words of the question, with a ``[bracketed]``
span taken as a mention on its own, looked up in one round trip; longest match first, non-overlapping, single
stopwords ignored; (2) when no name is mentioned, fulltext and vector candidates from entity search. With
``choose=True`` and a decision backend, one decision call picks among up to 8 candidates. A failure is a
:class:`~graphwalk_neo4j.errors.LinkingError`, reported as such (not as a wrong answer). The graph's profile picks
the look-ups: an ingested graph's entities, or an adopted graph's nodes by their namespaced name (``gw_name_lc``,
written by adopt; element ids for ``--start``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionBackend, DecisionRequest, MentionScorer
from graphwalk_neo4j.errors import LinkingError
from graphwalk_neo4j.graph.identity import entity_uid
from graphwalk_neo4j.graph.profile import GraphProfile, ingested_profile
from graphwalk_neo4j.graph.search import Hit, search_entities
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.store.queries import (
    ADOPTED_BY_ID,
    ADOPTED_EXACT_NAMES,
    ENTITIES_BY_ID,
    EXACT_NAMES,
    DegreeRow,
    SpanDegreeRow,
)
from graphwalk_neo4j.walk.ports import NodeRef

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.store import GraphStore, Query

MAX_SPAN = 8
_WORD = re.compile(r"[\w'\u2019.&-]+", re.UNICODE)  # \u2019: the typographic apostrophe
STOPWORDS = frozenset(
    "a an the of in on at to for by with from and or is are was were be been what which who whom whose when where "
    "how why did do does that this these those it its as film films movie movies about also same share".split()
)


# A search hit that shares no word with the question is a link only at this vector index score or above. Neo4j's
# cosine vector index scores (1 + cosine) / 2, so 0.7 is a cosine of 0.4. Chosen on a handful of MiniLM pairs
# (docs/cli-guide.md, `walk`): unrelated names came at cosines 0.05-0.34 against questions ("what is the airspeed of
# an unladen swallow" ~ "The Prestige" 0.05, "the" ~ "The Competition" 0.34), a name the question means without
# saying it at 0.48 ("who is the president of france" ~ "Emmanuel Macron").
LINK_VECTOR_FLOOR = 0.7


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOPWORDS}


def one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by at most one inserted, deleted, replaced or swapped letter."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :] or (a[i + 2 :] == b[i + 2 :] and a[i : i + 2] == b[i : i + 2][::-1])
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return longer[i + 1 :] == shorter[i:]


def grounded(question: str, hit: Hit) -> bool:
    """Whether a search hit has something to do with the question, so that a walk may start there: its name is
    the question (an exact name or alias match), a word of its name or aliases other than a function word is in
    the question (one typo allowed in words of five letters or more: ``matrx`` finds ``Matrix``), or the vector
    index found it at :data:`LINK_VECTOR_FLOOR` or above. Without this a question naming nothing in the graph
    started from whatever shared its function words (``the``)."""
    if any(r.startswith("exact") for r in hit.reasons):
        return True
    if hit.similarity is not None and hit.similarity >= LINK_VECTOR_FLOOR:
        return True
    asked = _words(question)
    named = _words(" ".join([hit.name, *hit.aliases]))
    return any(a == n or (min(len(a), len(n)) >= 5 and one_edit(a, n)) for a in asked for n in named)


@dataclass
class Linking:
    start: list[NodeRef]
    method: str  # "given" | "exact" | "search" | "choice"
    candidates: list[NodeRef] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)
    decision_calls: int = 0


def question_spans(question: str, max_words: int = MAX_SPAN) -> list[str]:
    """Lower-cased candidate mentions: bracketed spans first, then every word n-gram, longest first; n-grams
    of the whitespace-separated tokens too, so names with punctuation (``Salaam Bombay!``, ``Crouching Tiger,
    Hidden Dragon``, ``Bat*21``) can match whole."""
    spans = [m.strip().lower() for m in re.findall(r"\[([^\]]+)\]", question)]
    plain = question.replace("[", " ").replace("]", " ")
    for words in (_WORD.findall(plain), plain.split()):
        for n in range(min(max_words, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                span = " ".join(words[i : i + n]).lower()
                if n == 1 and span in STOPWORDS:
                    continue
                spans.append(span)
                trimmed = span.rstrip(",;:")
                if trimmed != span and trimmed:
                    spans.append(trimmed)
    return list(dict.fromkeys(spans))


def best_candidate(text: str, rows: Sequence[DegreeRow]) -> DegreeRow:
    """Among the entities that a case-insensitive name match found, the one whose name ``text`` spells as it is
    (``heat`` the tag, not ``Heat`` the film, for "movies about [heat]"), then the one of highest degree (ties:
    name, id)."""
    return sorted(rows, key=lambda r: (not _spelled(r["name"], text), -r["degree"], r["name"], r["id"]))[0]


def _spelled(name: str, text: str) -> bool:
    """``name`` occurs in ``text`` with the same letters and case, as a whole word sequence."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def best_per_span(found: Mapping[str, Sequence[DegreeRow]], question: str = "") -> list[tuple[str, DegreeRow]]:
    """Every found span with its best entity in ``question`` (:func:`best_candidate`), longest spans first."""
    return [
        (span, best_candidate(question, found[span]))
        for span in sorted(found, key=lambda s: (-len(s.split()), -len(s), s))
    ]


def pick_mentions(question: str, found: Mapping[str, Sequence[DegreeRow]]) -> list[tuple[str, DegreeRow]]:
    """Longest found spans first, skipping spans that overlap an already chosen one; per span the best candidate
    (:func:`best_candidate`)."""
    chosen: list[tuple[str, DegreeRow]] = []
    taken: list[tuple[int, int]] = []
    text = question.lower().replace("[", " ").replace("]", " ")
    for span in sorted(found, key=lambda s: (-len(s.split()), -len(s), s)):
        pos = text.find(span)
        if pos < 0:
            continue
        end = pos + len(span)
        if any(pos < e and s < end for s, e in taken):
            continue
        chosen.append((span, best_candidate(question, found[span])))
        taken.append((pos, end))
    return chosen


def node_ref(row: DegreeRow) -> NodeRef:
    """A looked-up entity as the walk holds it (its degree as importance)."""
    return NodeRef(id=row["id"], name=row["name"], type=row.get("type"), importance=float(row.get("degree") or 0))


_ELEMENT_ID = re.compile(r"\d+:[0-9a-fA-F-]+:\d+")


def names_query(profile: GraphProfile | None) -> Query[SpanDegreeRow]:
    """The exact-name look-up of a graph: the adopted nodes' index, else the ingested entities' one."""
    return ADOPTED_EXACT_NAMES if profile is not None and profile.adopted else EXACT_NAMES


async def resolve_starts(
    store: GraphStore, graph: str, starts: Sequence[str], profile: GraphProfile | None = None
) -> list[NodeRef]:
    """User-given starts: entity ids, else exact names (case-insensitive; among several, the one spelled as
    given, then the one of highest degree). Unknown ones raise with suggestions."""
    profile = profile or ingested_profile(graph)
    if profile.adopted:
        # An adopted node's id is its element id ('4:<database uuid>:17'); names are looked up below without
        # a round trip spent on ids that cannot be one.
        ids = [s for s in starts if _ELEMENT_ID.fullmatch(s)]
        rows = await store.read(ADOPTED_BY_ID, graph=graph, ids=ids) if ids else []
    else:
        rows = await store.read(
            ENTITIES_BY_ID, uids=[entity_uid(graph, s) for s in starts], bookkeeping=BOOKKEEPING_TYPES
        )
    by_id = {r["id"]: r for r in rows}
    lookup = names_query(profile)
    names = [s.strip().lower() for s in starts if s not in by_id]
    by_name: dict[str, list[SpanDegreeRow]] = {}
    for row in await store.read(lookup, graph=graph, names=names, bookkeeping=BOOKKEEPING_TYPES) if names else []:
        by_name.setdefault(row["span"], []).append(row)
    out: list[NodeRef] = []
    for s in starts:
        if s in by_id:
            out.append(node_ref(by_id[s]))
        elif s.strip().lower() in by_name:
            out.append(node_ref(best_candidate(s, by_name[s.strip().lower()])))
        else:
            hits = await search_entities(store, graph, s, k=5, profile=profile)
            hint = f"; did you mean: {', '.join(repr(h.name) for h in hits)}" if hits else ""
            raise LinkingError(f"no entity named or with id {s!r} in graph {graph!r}{hint}")
    return out


async def link_question(
    store: GraphStore,
    graph: str,
    question: str,
    *,
    embedder: Embedder | None = None,
    backend: DecisionBackend | None = None,
    choose: bool = False,
    max_candidates: int = 8,
    profile: GraphProfile | None = None,
    scorer: MentionScorer | None = None,
) -> Linking:
    """Link ``question`` (see the module docstring). With a ``scorer`` (a learned decider's), every exact
    mention is scored and the best one comes first, instead of the longest."""
    profile = profile or ingested_profile(graph)
    lookup = names_query(profile)
    spans = question_spans(question)
    rows = await store.read(lookup, graph=graph, names=spans, bookkeeping=BOOKKEEPING_TYPES) if spans else []
    found: dict[str, list[SpanDegreeRow]] = {}
    for row in rows:
        found.setdefault(row["span"], []).append(row)
    mentions = pick_mentions(question, found)
    if scorer is not None and len(found) > 1:
        every = best_per_span(found, question)
        scores = list(scorer(question, every))
        order = sorted(range(len(every)), key=lambda i: (-scores[i], i))
        mentions = [every[i] for i in order]
    if mentions and not choose:
        best = mentions[0]
        return Linking(
            start=[node_ref(best[1])],
            method="exact",
            mentions=[m for m, _ in mentions],
            candidates=[node_ref(r) for _, r in mentions],
        )
    candidates = [node_ref(r) for _, r in mentions]
    if len(candidates) < max_candidates:
        hits = await search_entities(store, graph, question, k=max_candidates, embedder=embedder, profile=profile)
        known = {c.id for c in candidates}
        candidates += [
            NodeRef(id=h.id, name=h.name, type=h.type) for h in hits if h.id not in known and grounded(question, h)
        ]
    candidates = candidates[:max_candidates]
    if not candidates:
        raise LinkingError(
            f"no entity of graph {graph!r} is mentioned in the question, and search found none that shares a word "
            "with it (or is close in meaning); give the start with --start NAME"
        )
    if not choose or backend is None or len(candidates) == 1:
        return Linking(
            start=[candidates[0]],
            method="exact" if mentions else "search",
            candidates=candidates,
            mentions=[m for m, _ in mentions],
        )
    labels = {f"c{i + 1}": c for i, c in enumerate(candidates)}
    request = DecisionRequest(
        state=question,
        questions=[
            ChoiceQuestion(
                key="entry",
                instructions="Which entity is the question about? Pick the entity the question starts from.",
                options={label: f"{c.name}" + (f" ({c.type})" if c.type else "") for label, c in labels.items()},
            )
        ],
    )
    response = await backend.decide(request)
    top = response.results["entry"].top
    return Linking(
        start=[labels[top]],
        method="choice",
        candidates=candidates,
        mentions=[m for m, _ in mentions],
        decision_calls=response.calls,
    )
