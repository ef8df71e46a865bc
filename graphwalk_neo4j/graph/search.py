"""Entity search: exact name, alias, fulltext and vector candidates merged into one ranked list with reasons.

Ranking: an exact name match scores 3, an exact alias match 2.5; otherwise the best of the fulltext score
(squashed into [0, 1) by ``s / (s + 1)``, a Lucene score has no upper bound) and the vector index's score
(``(1 + cosine) / 2``, in [0, 1]), plus 0.1 for each further method that found the same entity. Ties break by name.
Entity linking (the walk) and ingest routing use this same function. The graph's profile picks the indexes: an
ingested graph's (``entity_names``, ``entity_embedding``) or the adopted nodes' (``gw_adopt_names``,
``gw_adopt_embedding``); the server picks how the vector index is asked: Cypher 25's ``SEARCH`` clause where it
has one (``GraphStore.search_clause``, Neo4j 2026.01+), ``db.index.vector.queryNodes`` elsewhere. Full-text stays
on ``db.index.fulltext.queryNodes``: the clause does not serve eventually consistent full-text indexes (store.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.graph.profile import GraphProfile, load_profile
from graphwalk_neo4j.limits import MAX_SEARCH_HITS as MAX_SEARCH_HITS
from graphwalk_neo4j.store.queries import (
    ADOPTED_EXACT,
    ADOPTED_FULLTEXT,
    ADOPTED_VECTOR,
    ADOPTED_VECTOR_CYPHER25,
    EXACT,
    FULLTEXT,
    VECTOR,
    VECTOR_CYPHER25,
    ScoredSearchRow,
    SearchRow,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.store import GraphStore, Query

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_LUCENE_WORDS = {"AND", "OR", "NOT", "TO"}
CANDIDATE_CAP = 10_000
_INGESTED = (EXACT, FULLTEXT, VECTOR)
_ADOPTED = (ADOPTED_EXACT, ADOPTED_FULLTEXT, ADOPTED_VECTOR)
_INGESTED_CYPHER25 = (EXACT, FULLTEXT, VECTOR_CYPHER25)
_ADOPTED_CYPHER25 = (ADOPTED_EXACT, ADOPTED_FULLTEXT, ADOPTED_VECTOR_CYPHER25)


def search_queries(
    *, adopted: bool, search_clause: bool
) -> tuple[Query[SearchRow], Query[ScoredSearchRow], Query[ScoredSearchRow]]:
    """The exact, fulltext and vector templates for a graph (ingested or adopted) on a server with or without
    Cypher 25's ``SEARCH`` clause."""
    if adopted:
        return _ADOPTED_CYPHER25 if search_clause else _ADOPTED
    return _INGESTED_CYPHER25 if search_clause else _INGESTED


@dataclass
class Hit:
    uid: str
    id: str
    name: str
    type: str | None
    score: float
    reasons: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    similarity: float | None = None  # the vector index's score, (1 + cosine) / 2, when it found this entity

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "score": round(self.score, 4),
            "reasons": self.reasons,
        }


def lucene_query(text: str) -> str:
    """Escape user text for the fulltext index: every term is quoted-safe, boolean words lower-cased."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", text)
    terms = [t.lower() if t in _LUCENE_WORDS else t for t in escaped.split()]
    return " ".join(terms)


def merge_hits(
    exact: Sequence[SearchRow],
    fulltext: Sequence[ScoredSearchRow],
    vector: Sequence[ScoredSearchRow],
    text: str,
    k: int,
) -> list[Hit]:
    """Pure merge of the three candidate lists (see the module docstring for the scoring)."""
    hits: dict[str, Hit] = {}
    base: dict[str, float] = {}
    methods: dict[str, int] = {}
    text_lc = text.strip().lower()

    def hit(row: SearchRow) -> Hit:
        if row["uid"] not in hits:
            hits[row["uid"]] = Hit(
                uid=row["uid"],
                id=row["id"],
                name=row["name"],
                type=row.get("type"),
                score=0.0,
                aliases=list(row.get("aliases") or []),
            )
            base[row["uid"]] = 0.0
            methods[row["uid"]] = 0
        return hits[row["uid"]]

    for row in exact:
        h = hit(row)
        h.reasons.append("exact name")
        base[h.uid] = max(base[h.uid], 3.0)
        methods[h.uid] += 1
    for row in fulltext:
        h = hit(row)
        alias = next((a for a in h.aliases if a.lower() == text_lc), None)
        if alias is not None and "exact name" not in h.reasons:
            h.reasons.append(f"exact alias {alias!r}")
            base[h.uid] = max(base[h.uid], 2.5)
        squashed = row["score"] / (row["score"] + 1.0)
        h.reasons.append(f"fulltext {row['score']:.2f}")
        base[h.uid] = max(base[h.uid], squashed)
        methods[h.uid] += 1
    for row in vector:
        h = hit(row)
        h.reasons.append(f"vector {row['score']:.3f}")
        h.similarity = max(h.similarity or 0.0, float(row["score"]))
        base[h.uid] = max(base[h.uid], float(row["score"]))
        methods[h.uid] += 1
    for uid, h in hits.items():
        h.score = base[uid] + 0.1 * (methods[uid] - 1)
    return sorted(hits.values(), key=lambda h: (-h.score, h.name))[:k]


async def _widening(
    store: GraphStore, query: Query[ScoredSearchRow], k: int, *, pool_param: str = "pool", **params: Any
) -> list[ScoredSearchRow]:
    """The fulltext and vector indexes span every graph of the database and are filtered to one graph afterwards,
    so a small graph beside a big one may need a wider net: read 5k candidates, then 10x more, until k hits of
    this graph, a wider net finds nothing more (the graph has no more matches), or the cap."""
    pool = k * 5
    rows: list[ScoredSearchRow] = []
    while True:
        found = await store.read(query, limit=k, **{pool_param: pool}, **params)
        if len(found) >= k or pool >= CANDIDATE_CAP or (pool > k * 5 and len(found) == len(rows)):
            return found
        rows = found
        pool = min(pool * 10, CANDIDATE_CAP)


async def search_entities(
    store: GraphStore,
    graph: str,
    text: str,
    *,
    k: int = 10,
    embedder: Embedder | None = None,
    profile: GraphProfile | None = None,
) -> list[Hit]:
    text = text.strip()
    if not text:
        return []
    profile = profile or await load_profile(store, graph)
    exact_q, fulltext_q, vector_q = search_queries(adopted=profile.adopted, search_clause=store.search_clause)
    exact = await store.read(exact_q, graph=graph, text_lc=text.lower(), limit=k)
    lucene = lucene_query(text)
    fulltext = await _widening(store, fulltext_q, k, graph=graph, lucene=lucene) if lucene else []
    vector: list[ScoredSearchRow] = []
    if embedder is not None:
        vec = (await embedder.embed([text]))[0].tolist()
        vector = await _widening(store, vector_q, k, pool_param="k", graph=graph, vector=vec)
    return merge_hits(exact, fulltext, vector, text, k)
