"""Routing: decide, for every mention a chunk yields, which existing entity it is, or that it is NEW.

For each mention, up to ``k`` (5) candidates come from :func:`~graphwalk_neo4j.graph.search.search_entities`
(exact name/alias, fulltext, and vector when an embedder is given). A mention without candidates is NEW, no call.
The others go into ONE decision request per chunk: the state is the passage, and each mention is one choice
question (key ``m<i>``) over ``c1..cN`` and ``NEW``. Each candidate option is a card with its name, type,
aliases, summary and up to 8 relations (``cypher/ingest/candidate_cards.cypher``).

* If the chosen option's probability is below ``threshold`` (0.6), the question goes to the ``adjudicator`` (an
  LLM decision backend) and its answer stands; without one, or when it fails, the decider's choice stands.
* With no decider, with ``mode="exact"`` (the no-call baseline), or when the decider fails (the error is kept
  in :attr:`RoutingStats.warnings`), a mention merges only into a candidate whose name or an alias equals its
  own, ignoring case (preferring a candidate of the same type, then a name over an alias match).

Routing reads the graph; it never writes. :mod:`graphwalk_neo4j.ingest.resolution` applies the result.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionBackend, DecisionRequest, DecisionResponse
from graphwalk_neo4j.errors import GraphwalkError
from graphwalk_neo4j.graph.identity import canonical_name
from graphwalk_neo4j.graph.search import search_entities

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.ingest.extraction import Mention
    from graphwalk_neo4j.store import GraphStore

RoutingMode = Literal["decide", "exact"]
NEW = "NEW"
TASK = (
    "The passage (state) mentions the entity described under 'mention'. Is it the same real-world thing as "
    "one of the existing entities offered (c1, c2, ...)? Pick that option; pick NEW when it is none of them "
    "(a different thing that only has a similar name is NEW)."
)
NEW_CARD = {"name": "NEW", "meaning": "none of the listed entities: create a new entity for this mention"}


@dataclass
class Candidate:
    uid: str
    name: str
    type: str | None
    aliases: list[str] = field(default_factory=list)
    summary: str | None = None
    relations: list[str] = field(default_factory=list)
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)

    def card(self) -> dict[str, Any]:
        card: dict[str, Any] = {"name": self.name, "type": self.type or "untyped"}
        if self.aliases:
            card["aliases"] = self.aliases
        if self.summary:
            card["summary"] = self.summary
        if self.relations:
            card["relations"] = self.relations
        return card


@dataclass
class Route:
    """Where one mention goes: ``target`` (an entity uid) or ``None`` for NEW."""

    mention: Mention
    target: str | None
    confidence: float
    method: str  # "exact" | "decided" | "adjudicated" | "no-candidates" | "fallback-exact"
    candidates: list[Candidate] = field(default_factory=list)

    @property
    def target_name(self) -> str | None:
        return next((c.name for c in self.candidates if c.uid == self.target), None)


@dataclass
class RoutingStats:
    mentions: int = 0
    questions: int = 0
    decision_calls: int = 0
    escalations: int = 0
    fallbacks: int = 0
    merged: int = 0
    new: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)


def _same(a: str, b: str) -> bool:
    return canonical_name(a).casefold() == canonical_name(b).casefold()


def exact_match(mention: Mention, candidates: Sequence[Candidate]) -> Candidate | None:
    """The candidate named (or aliased) exactly like the mention, ignoring case; same type, then name, first."""
    matches = [c for c in candidates if _same(c.name, mention.name) or any(_same(a, mention.name) for a in c.aliases)]
    if not matches:
        return None
    return sorted(matches, key=lambda c: (c.type != mention.type, not _same(c.name, mention.name)))[0]


def build_request(passage: str, mentions: Sequence[tuple[int, Mention, list[Candidate]]]) -> DecisionRequest:
    """One request for a chunk: one question per mention that has candidates (pure; unit-tested)."""
    questions = []
    for index, mention, candidates in mentions:
        options: dict[str, Any] = {f"c{i}": c.card() for i, c in enumerate(candidates, start=1)}
        options[NEW] = dict(NEW_CARD)
        described: dict[str, Any] = {"name": mention.name, "type": mention.type or "untyped"}
        if mention.description:
            described["description"] = mention.description
        questions.append(
            ChoiceQuestion(key=f"m{index}", instructions={"task": TASK, "mention": described}, options=options)
        )
    return DecisionRequest(state={"passage": passage}, questions=questions)


def read_choice(response: DecisionResponse, key: str) -> tuple[str, float] | None:
    result = response.results.get(key)
    if result is None:
        return None
    return result.top, float(result.probabilities.get(result.top, 0.0))


class Router:
    def __init__(
        self,
        store: GraphStore,
        graph: str,
        *,
        decider: DecisionBackend | None = None,
        adjudicator: DecisionBackend | None = None,
        embedder: Embedder | None = None,
        mode: RoutingMode = "decide",
        k: int = 5,
        threshold: float = 0.6,
    ) -> None:
        if mode not in ("decide", "exact"):
            raise ValueError(f"unknown routing mode {mode!r}: use decide or exact")
        self.store = store
        self.graph = graph
        self.decider = decider if mode == "decide" else None
        self.adjudicator = adjudicator if mode == "decide" else None
        self.embedder = embedder
        self.mode = mode
        self.k = k
        self.threshold = threshold
        self.stats = RoutingStats()

    async def candidates(self, mentions: Sequence[Mention]) -> list[list[Candidate]]:
        """Up to ``k`` candidates per mention, each with its option card filled in."""
        hits = await asyncio.gather(
            *(search_entities(self.store, self.graph, m.name, k=self.k, embedder=self.embedder) for m in mentions)
        )
        uids = sorted({h.uid for per in hits for h in per})
        cards = {r["uid"]: r for r in await self.store.read("ingest/candidate_cards", uids=uids)} if uids else {}
        out: list[list[Candidate]] = []
        for per in hits:
            found = []
            for h in per:
                card = cards.get(h.uid, {})
                found.append(
                    Candidate(
                        uid=h.uid,
                        name=h.name,
                        type=h.type,
                        aliases=list(h.aliases),
                        summary=card.get("summary"),
                        relations=list(card.get("relations") or []),
                        score=h.score,
                        reasons=list(h.reasons),
                    )
                )
            out.append(found)
        return out

    def _exact(self, mention: Mention, found: list[Candidate], method: str) -> Route:
        match = exact_match(mention, found)
        if match is None:
            return Route(mention, None, 1.0, "no-candidates" if not found else method, found)
        return Route(mention, match.uid, 1.0, method, found)

    async def _ask(self, backend: DecisionBackend, request: DecisionRequest) -> DecisionResponse:
        response = await backend.decide(request)
        self.stats.decision_calls += max(1, response.calls)
        return response

    async def route(self, passage: str, mentions: Sequence[Mention]) -> list[Route]:
        started = time.perf_counter()
        try:
            return await self._route(passage, mentions)
        finally:
            self.stats.seconds += time.perf_counter() - started

    async def _route(self, passage: str, mentions: Sequence[Mention]) -> list[Route]:
        self.stats.mentions += len(mentions)
        found = await self.candidates(mentions) if mentions else []
        routes: list[Route | None] = [None] * len(mentions)
        asked: list[tuple[int, Mention, list[Candidate]]] = []
        for i, (mention, cands) in enumerate(zip(mentions, found, strict=True)):
            if not cands:
                routes[i] = Route(mention, None, 1.0, "no-candidates", [])
            elif self.decider is None:
                routes[i] = self._exact(mention, cands, "exact")
            else:
                asked.append((i, mention, cands))
        if asked:
            assert self.decider is not None
            request = build_request(passage, asked)
            self.stats.questions += len(asked)
            try:
                response = await self._ask(self.decider, request)
            except (GraphwalkError, OSError, TimeoutError) as exc:
                self.stats.fallbacks += len(asked)
                self.stats.warnings.append(f"decision backend failed ({exc}); merged on exact names only")
                for i, mention, cands in asked:
                    routes[i] = self._exact(mention, cands, "fallback-exact")
            else:
                await self._apply(passage, asked, response, routes)
        result = [r for r in routes if r is not None]
        self.stats.merged += sum(1 for r in result if r.target is not None)
        self.stats.new += sum(1 for r in result if r.target is None)
        return result

    async def _apply(
        self,
        passage: str,
        asked: list[tuple[int, Mention, list[Candidate]]],
        response: DecisionResponse,
        routes: list[Route | None],
    ) -> None:
        low: list[tuple[int, Mention, list[Candidate]]] = []
        for i, mention, cands in asked:
            choice = read_choice(response, f"m{i}")
            if choice is None:
                self.stats.fallbacks += 1
                self.stats.warnings.append(f"no answer for mention {mention.name!r}; merged on exact name only")
                routes[i] = self._exact(mention, cands, "fallback-exact")
                continue
            routes[i] = self._route_from(mention, cands, choice, "decided")
            if choice[1] < self.threshold and self.adjudicator is not None:
                low.append((i, mention, cands))
        if not low:
            return
        assert self.adjudicator is not None
        self.stats.escalations += len(low)
        try:
            verdict = await self._ask(self.adjudicator, build_request(passage, low))
        except (GraphwalkError, OSError, TimeoutError) as exc:
            self.stats.warnings.append(f"adjudicator failed ({exc}); kept the decider's low-confidence choices")
            return
        for i, mention, cands in low:
            choice = read_choice(verdict, f"m{i}")
            if choice is not None:
                routes[i] = self._route_from(mention, cands, choice, "adjudicated")

    @staticmethod
    def _route_from(mention: Mention, cands: list[Candidate], choice: tuple[str, float], method: str) -> Route:
        label, p = choice
        if label == NEW or not label.startswith("c"):
            return Route(mention, None, p, method, cands)
        return Route(mention, cands[int(label[1:]) - 1].uid, p, method, cands)
