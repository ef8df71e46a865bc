"""Rewordings of training questions, so the learned decider learns relations rather than one dataset's templates.

:func:`variants` rewrites a (masked) question a few ways, deterministically from a seed: content words are
swapped for other words of the same meaning from this module's own lists (``directed`` -> ``made``, ``films``
-> ``titles``, ``who`` -> ``which person``, ...), a few function words are dropped, and a trailing "by who"
question is turned around. The lists are general English for the kinds of relation a film, book or music graph
has; they were written here and are deliberately *not* the word lists of any evaluation rewording (an
evaluation set's vocabulary used for training would be tuning on the test).

The lists only know films, books and music. For any other graph, :func:`neighbour_synonyms` finds stand-ins for
the graph's own relation and type words among a general English vocabulary (the embedder's word list) by the
embedder's own similarity: a word is a stand-in for a graph word when it is one of the nearest to it and nearer to
it than to any word of the graph's other relations and types (``employer`` -> ``workplace``, ``headquartered``
-> ``headquarters``, never a word of another relation). A question reworded with them names its relation the way a
user might, not the way the graph spells it, so the model learns to take the nearest move rather than the move
whose words it finds verbatim.

The training loop (:mod:`graphwalk_neo4j.learned.fit`) gives every training decision one of its
question's variants besides the original, so the question's embedding varies while the path, the options and
the right answer stay the same: what the model can rely on is what the words mean, and the coverage features
that compare the question with the path.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# word -> words with the same role in a question (lower case; a multi-word replacement is fine)
SYNONYMS: dict[str, tuple[str, ...]] = {
    "directed": ("made", "shot", "filmed", "was behind"),
    "direct": ("make", "shoot", "film"),
    "director": ("filmmaker", "maker"),
    "directors": ("filmmakers", "makers"),
    "wrote": ("penned", "authored", "scripted"),
    "written": ("penned", "authored", "scripted"),
    "write": ("pen", "author", "script"),
    "writer": ("author", "scriptwriter", "scribe"),
    "writers": ("authors", "scriptwriters", "scribes"),
    "screenwriter": ("scriptwriter", "author", "scenarist"),
    "screenwriters": ("scriptwriters", "authors", "scenarists"),
    "starred": ("featured", "headlined", "performed", "acted", "appeared"),
    "star": ("feature", "headline", "perform", "act", "appear"),
    "stars": ("features", "headlines", "performs"),
    "acted": ("performed", "played", "featured"),
    "act": ("perform", "play"),
    "actor": ("performer", "player", "lead"),
    "actors": ("performers", "players", "leads"),
    "appear": ("show up", "feature", "play"),
    "appears": ("shows up", "features", "plays"),
    "appeared": ("showed up", "featured", "played"),
    "movie": ("flick", "title", "feature", "production"),
    "movies": ("flicks", "titles", "features", "productions"),
    "film": ("flick", "title", "feature", "production"),
    "films": ("flicks", "titles", "features", "productions"),
    "released": ("out", "issued", "launched", "first shown"),
    "release": ("launch", "debut", "issue"),
    "genre": ("kind", "type", "style"),
    "genres": ("kinds", "types", "styles"),
    "language": ("tongue", "spoken language"),
    "languages": ("tongues", "spoken languages"),
    "year": ("date", "time"),
    "years": ("dates", "times"),
    "topics": ("themes", "subjects", "keywords"),
    "tags": ("keywords", "labels", "themes"),
    "about": ("on", "concerning", "regarding"),
    "share": ("have in common", "also have"),
    "same": ("identical", "very same"),
    "who": ("which person", "what person", "whom"),
    "what": ("which",),
    "which": ("what",),
    "person": ("individual", "people"),
    "also": ("too", "as well"),
    "listed": ("named", "credited"),
    "rating": ("score", "grade"),
    "votes": ("popularity", "reception"),
}
DROPPABLE = frozenset({"the", "a", "an", "are", "is", "was", "were", "did", "does", "do", "of", "by", "in"})
_WORD = re.compile(r"[\w']+|[^\w\s]")


def _rng(seed: int, text: str, k: int) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{k}:{text}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def reword(
    text: str,
    rng: random.Random,
    *,
    swap: float = 0.6,
    drop: float = 0.15,
    synonyms: Mapping[str, Sequence[str]] = SYNONYMS,
) -> str:
    """One rewording: each word of ``synonyms`` swapped with probability ``swap``, each droppable word dropped
    with probability ``drop``; a question ending in "by who" may be turned into "who ... ?"."""
    words = _WORD.findall(text)
    out: list[str] = []
    for word in words:
        low = word.lower()
        if low in synonyms and rng.random() < swap:
            out.append(rng.choice(synonyms[low]))
        elif low in DROPPABLE and rng.random() < drop:
            continue
        else:
            out.append(word)
    if len(out) > 3 and [w.lower() for w in out[-2:]] == ["by", "who"] and rng.random() < 0.5:
        out = ["who", *out[:-2]]
    rewritten = " ".join(out)
    return rewritten if rewritten.strip() else text


def variants(text: str, k: int, seed: int = 0, synonyms: Mapping[str, Sequence[str]] = SYNONYMS) -> list[str]:
    """Up to ``k`` distinct rewordings of ``text`` (never ``text`` itself), the same for the same seed."""
    found: dict[str, None] = {}
    for attempt in range(4 * k):
        candidate = reword(text, _rng(seed, text, attempt), synonyms=synonyms)
        if candidate != text and candidate not in found:
            found[candidate] = None
        if len(found) >= k:
            break
    return list(found)


def vocabulary() -> Sequence[str]:
    """Every word these rewordings can introduce (for reports and tests)."""
    return sorted({w for options in SYNONYMS.values() for phrase in options for w in phrase.split()})


def neighbour_synonyms(
    groups: Mapping[str, Sequence[str]],
    vocabulary: Sequence[str],
    vectors: Mapping[str, np.ndarray],
    *,
    top: int = 4,
    floor: float = 0.55,
) -> dict[str, tuple[str, ...]]:
    """Stand-ins for a graph's words from a general ``vocabulary`` (module docstring). ``groups`` names the words of
    each of the graph's relations and types (``{"works_at": ["works"], "Company": ["company"]}``); ``vectors``
    holds unit vectors of every word of both. A vocabulary word ``v`` stands in for a group's word ``w`` when
    ``cos(v, w) >= floor``, ``v`` is no word of the graph, and ``w`` is nearer to ``v`` than every word of the
    other groups; each word keeps its ``top`` nearest, nearest first. The same inputs give the same table."""
    owners: dict[str, set[str]] = {}
    for group, words in groups.items():
        for w in words:
            owners.setdefault(w, set()).add(group)
    graph_words = sorted(owners)
    candidates = [v for v in dict.fromkeys(vocabulary) if v not in owners]
    if not graph_words or not candidates:
        return {}
    g = np.stack([vectors[w] for w in graph_words]).astype(np.float32)
    c = np.stack([vectors[v] for v in candidates]).astype(np.float32)
    sims = g @ c.T  # (graph words, candidates)
    table: dict[str, tuple[str, ...]] = {}
    for i, w in enumerate(graph_words):
        others = [j for j, o in enumerate(graph_words) if not owners[o] & owners[w]]
        rival = sims[others].max(axis=0) if others else np.full(len(candidates), -1.0, dtype=np.float32)
        keep = np.flatnonzero((sims[i] >= floor) & (sims[i] > rival))
        order = keep[np.argsort(-sims[i, keep], kind="stable")][:top]
        if len(order):
            table[w] = tuple(candidates[j] for j in order)
    return table


def merged(*tables: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """One synonym table from several: a word's stand-ins from each, in order, each once."""
    out: dict[str, tuple[str, ...]] = {}
    for table in tables:
        for word, options in table.items():
            out[word] = tuple(dict.fromkeys((*out.get(word, ()), *options)))
    return out
