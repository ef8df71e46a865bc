"""LocalDecider: a key-free, network-free decision backend that scores options with sentence embeddings.

Two methods (``method=``):

``"coverage"`` (default) reads each question as the walk lays it out (see
:mod:`graphwalk_neo4j.walk.choice_questions`: ``start`` entities as ``name (type)``, one ``path`` line per hop as
``MOVE: REACHED``, option descriptions as ``HEAD — DETAILS``) and scores every option with a weighted sum of
similarity features:

1. *Residual question*: the state (the user's question) without the start entities' names; the start is given,
   the path has to cover the rest. Its *focus* is the first wh-word with the noun phrase it asks about
   (``which years``, ``who``, ``what are the genres`` -> ``genres``); the other content words are the *body*,
   weighted by closeness to where the start entity was mentioned (relations nearer the entity are usually
   applied first: "the films acted by [X] were released in which years").
2. Option features, with ``m`` the option's move (the description's head without edge notation):
   ``gain`` — how much more of the body (proximity-weighted) the path's words cover once ``m`` is added; words
   match by a shared 5-letter stem or by the cosine of their MiniLM embeddings; ``local`` — cos(body, m);
   ``focus`` — cos(focus, m), counted in proportion to how much of the body the path already covers;
   ``repeat`` — 1 when ``m`` repeats a move already on the path; ``cover`` — cos(residual, path moves + m).
3. STOP features: ``stop_fit`` — cos(focus, what the last hop reached, e.g. ``2 years``); ``stop_left`` — the
   share of the body not covered yet; ``stop_cover`` — cos(residual, path moves); a constant ``stop_const``.
4. ``p = softmax((w · features + stop_bias on STOP) / temperature)``; temperature 1, stop bias -0.5.
5. For a walk's question (one with its structure, a ``DecisionContext``), STOP then gets 0 where the question
   names the type of its answer, the walk stands on another type and an offered move reaches the named one
   (:func:`~graphwalk_neo4j.decide.answer_types.stop_ruled_out`, both methods; ``stop_rule=False``: not).

The weights (:data:`DEFAULT_WEIGHTS`) are a conditional-logit fit on teacher-forced decisions along the gold
relation paths of 150 MetaQA dev questions per hop, and the stop bias was then chosen on walks over another 100
dev questions per hop (docs/eval.md); the features themselves name no relation or
dataset, so the method runs on any graph, but the weights carry MetaQA's phrasing habits. A question without
the layout (plain-text instructions, no ``start``) still works: the residual is the whole question and moves
are the whole descriptions.

``"similarity"`` (plain cosine similarity): ``score = cos(q, e(context + " " + description))`` for every option, STOP
included from its own description, plus ``stop_bias`` on STOP; ``context`` is the ``start``/``path``/
``current``/``context`` fields; ``temperature`` 0.05.

Everything is deterministic. Sentence and word embeddings are kept in an LRU map (``cache_size``). Limits: a
similarity ranker, not a reader. It can't follow negation, numbers or comparisons; it matches words, so a
relation used twice in a row ("films that share directors with X") is easily mistaken for a new one; and its
probabilities are scaled similarities, not calibrated beliefs.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from graphwalk_neo4j.decide.answer_types import context_stop_ruled_out, without_stop
from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionBackend, DecisionRequest, DecisionResponse
from graphwalk_neo4j.decide.normalize import check_request, in_process_response
from graphwalk_neo4j.decide.render import coverage_view
from graphwalk_neo4j.decide.text import values_text
from graphwalk_neo4j.embed.base import Embedder, VectorCache, embed_cached

Method = Literal["coverage", "similarity"]

DEFAULT_METHOD: Method = "coverage"
SIMILARITY_TEMPERATURE = 0.05
COVERAGE_STOP_BIAS = -0.5
DEFAULT_CONTEXT_KEYS = ("start", "path", "current", "context")
HEAD_SEPARATOR = " — "
FEATURES = ("gain", "local", "focus", "repeat", "cover", "stop_fit", "stop_left", "stop_cover", "stop_const")
DEFAULT_WEIGHTS: dict[str, float] = {
    "gain": 5.5,
    "local": 5.3,
    "focus": 2.8,
    "repeat": -2.5,
    "cover": 4.8,
    "stop_fit": 5.9,
    "stop_left": -2.1,
    "stop_cover": 3.5,
    "stop_const": 3.0,
}
STEM = 5
KIND_MATCH = 0.6

_TYPE_SUFFIX = re.compile(r"\s*\([^()]*\)\s*$")
_EDGE_NOTATION = re.compile(r"\s*\(\s*<?-{2,}[^()]*?-{1,}>?\s*\)")
_WORD = re.compile(r"[a-z0-9]+")
WH_WORDS = frozenset({"who", "whom", "whose", "what", "which", "when", "where", "how"})
COPULAS = frozenset({"is", "are", "was", "were", "be", "been"})
FUNCTION_WORDS = frozenset(
    "a an the of in on at to for by with from and or is are was were be been being do does did done has have had "
    "this that these those it its as also same both one ones any some all there their them they he she his her him "
    "i you we me my our your can could would should will shall may might must about into than then so such not no "
    "who whom whose what which when where why how many much node nodes".split()
)


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    logits = np.asarray(scores, dtype=np.float64) / temperature
    logits -= logits.max()
    weights = np.exp(logits)
    probabilities: np.ndarray = weights / weights.sum()
    return probabilities


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def content_words(text: str) -> list[str]:
    """Lower-cased words that are neither function words nor numbers."""
    return [w for w in words(text) if w not in FUNCTION_WORDS and not w.isdigit()]


def gist(text: str) -> str:
    """The head of a ``HEAD — DETAILS`` description, without stored-edge notation such as ``(--rel-->)``."""
    head = text.split(HEAD_SEPARATOR, 1)[0]
    return " ".join(_EDGE_NOTATION.sub("", head).split())


def start_names(instructions: Any) -> list[str]:
    """Names from the ``start`` field's ``name (type)`` entries (empty without one)."""
    entries = instructions.get("start") if isinstance(instructions, Mapping) else None
    if isinstance(entries, str):
        entries = [entries]
    if not isinstance(entries, list):
        return []
    return [name for name in (_TYPE_SUFFIX.sub("", str(e)).strip() for e in entries) if name]


def mask_start(state: str, instructions: Any) -> str:
    """``state`` without the start entities' names, matched case-insensitively on word boundaries."""
    masked = state
    for name in start_names(instructions):
        masked = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", masked, flags=re.IGNORECASE)
    return " ".join(masked.split()) or state


@dataclass(frozen=True)
class Reading:
    """A question read for coverage: residual text, focus words, body words and their proximity weights."""

    residual: str
    focus: str
    body: tuple[str, ...]
    weights: tuple[float, ...]
    distances: tuple[int | None, ...] = ()  # token distance of each body word from the start mention


def read_question(state: str, names: Sequence[str]) -> Reading:
    """Split a question into focus and proximity-weighted body around the first start-name mention.

    The focus is the first wh-word, plus the noun phrase it asks about: the word after which/what/whose/how
    (``which years``; ``what type of movie`` -> ``what type movie``), or the phrase after a copula (``what are
    the genres of`` -> ``what genres``). Body words are weighted ``1 / (1 + rank)`` by their distance rank from
    the mention (all 1 when no name is found)."""
    tokens = words(state)
    keep = [True] * len(tokens)
    mention: tuple[int, int] | None = None  # first and last token of the first mention
    for name in names:
        span = words(name)
        for i in range(len(tokens) - len(span) + 1):
            if span and tokens[i : i + len(span)] == span:
                if mention is None or i < mention[0]:
                    mention = (i, i + len(span) - 1)
                keep[i : i + len(span)] = [False] * len(span)
                break
    focus: list[int] = []
    wh = next((i for i, t in enumerate(tokens) if keep[i] and t in WH_WORDS), None)
    if wh is not None:
        focus.append(wh)
        j = wh + 1
        if j < len(tokens) and tokens[j] in COPULAS:
            j += 1
            while j < len(tokens) and tokens[j] in ("the", "a", "an"):
                j += 1
            while j < len(tokens) and keep[j] and tokens[j] not in FUNCTION_WORDS:
                focus.append(j)
                j += 1
        elif tokens[wh] != "who":
            while j < len(tokens) and tokens[j] in ("many", "much", "kind", "sort", "type", "of"):
                if tokens[j] in ("kind", "sort", "type"):
                    focus.append(j)
                j += 1
            if j < len(tokens) and keep[j] and tokens[j] not in FUNCTION_WORDS:
                focus.append(j)

    def distance(i: int) -> int:
        return 0 if mention is None else mention[0] - i if i < mention[0] else i - mention[1]

    body = [
        (t, distance(i))
        for i, t in enumerate(tokens)
        if keep[i] and i not in focus and t not in FUNCTION_WORDS and not t.isdigit()
    ]
    order = sorted(range(len(body)), key=lambda k: body[k][1])
    rank = {k: r for r, k in enumerate(order)}
    residual = " ".join(t for i, t in enumerate(tokens) if keep[i]) or state
    return Reading(
        residual=residual,
        focus=" ".join(tokens[i] for i in sorted(focus)),
        body=tuple(b for b, _ in body),
        weights=tuple(1.0 / (1.0 + rank[k]) if mention is not None else 1.0 for k in range(len(body))),
        distances=tuple(d if mention is not None else None for _, d in body),
    )


def kind_words(reached: str) -> list[str]:
    """The kind of what a hop reached: the ``(type)`` of ``Name (type)``, else the content words (``2 years``)."""
    suffix = _TYPE_SUFFIX.search(reached)
    return content_words(suffix.group(0)) if suffix else content_words(reached)


def same_kind(word: str, kind: Sequence[str]) -> bool:
    """``word`` names ``kind`` (singular or plural)."""
    return any(word == k or word.rstrip("s") == k.rstrip("s") for k in kind)


def split_hop(line: str) -> tuple[str, str]:
    """A path line ``MOVE: REACHED`` -> (move, reached); a line without a colon is all move."""
    move, sep, reached = line.rpartition(": ")
    return (move, reached) if sep else (line, "")


class LocalDecider(DecisionBackend):
    def __init__(
        self,
        embedder: Embedder,
        temperature: float | None = None,
        stop_bias: float | None = None,
        *,
        method: Method = DEFAULT_METHOD,
        weights: Mapping[str, float] | None = None,
        stop_label: str = "STOP",
        context_keys: Sequence[str] = DEFAULT_CONTEXT_KEYS,
        cache_size: int = 50_000,
        max_options: int = 255,
        stop_rule: bool = True,
    ) -> None:
        if method not in ("coverage", "similarity"):
            raise ValueError(f"unknown LocalDecider method {method!r}: use coverage or similarity")
        if temperature is None:
            temperature = 1.0 if method == "coverage" else SIMILARITY_TEMPERATURE
        if not (temperature > 0 and math.isfinite(temperature)):
            raise ValueError("temperature must be a positive finite number")
        unknown = set(weights or {}) - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown LocalDecider feature weights {sorted(unknown)}; features: {FEATURES}")
        self.embedder = embedder
        self.method: Method = method
        self.temperature = float(temperature)
        if stop_bias is None:
            stop_bias = COVERAGE_STOP_BIAS if method == "coverage" else 0.0
        self.stop_bias = float(stop_bias)
        self.weights = {**DEFAULT_WEIGHTS, **(weights or {})}
        self._w = np.array([self.weights[f] for f in FEATURES], dtype=np.float64)
        self.stop_label = stop_label
        # STOP ruled out where the question names another type of answer, one move away (answer_types)
        self.stop_rule = stop_rule
        self.context_keys = tuple(context_keys)
        self.cache = VectorCache(cache_size)
        self._max_options = max_options

    @property
    def model_id(self) -> str:
        return f"local:{self.embedder.model_id}"

    @property
    def max_options(self) -> int:
        return self._max_options

    def __repr__(self) -> str:
        return (
            f"LocalDecider(embedder={self.embedder.model_id!r}, method={self.method!r}, "
            f"temperature={self.temperature}, stop_bias={self.stop_bias})"
        )

    # -- embedding -------------------------------------------------------------------------------------------

    async def _vectors(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        return await embed_cached(self.embedder, self.cache, texts)

    # -- similarity method -----------------------------------------------------------------------------------

    def context_of(self, instructions: Any) -> str:
        """The path context an option is read in (similarity method), from a question's instructions."""
        if isinstance(instructions, dict):
            picked = {k: instructions[k] for k in self.context_keys if k in instructions}
            return values_text(picked if picked else instructions)
        return values_text(instructions)

    def option_text(self, question: ChoiceQuestion, label: str) -> str:
        """The text the similarity method embeds for ``label``: context, then the description (or the label)."""
        description = question.options[label]
        body = values_text(description) if description is not None else ""
        if not body:
            body = label
        context = self.context_of(question.instructions)
        return f"{context} {body}".strip() if context else body

    # -- coverage method -------------------------------------------------------------------------------------

    def _texts(
        self,
        state: str,
        question: ChoiceQuestion,
    ) -> tuple[Reading, list[str], list[str], str, list[str], list[str]]:
        """(reading, path moves, option moves, what the last hop reached, words the path covers, start kind).

        A question with a :class:`~graphwalk_neo4j.decide.request.DecisionContext` is read from that structure
        (:func:`~graphwalk_neo4j.decide.render.coverage_view`); one without is read from its text layout."""
        context = question.context
        if context is not None:
            view = coverage_view(context)
            reading = read_question(context.question or state, view.start_names)
            hops = list(view.hops)
            start_kind = kind_words(view.start_kind) if view.start_kind else []
            option_moves = list(view.moves)
        else:
            instructions = question.instructions
            reading = read_question(state, start_names(instructions))
            path = instructions.get("path") if isinstance(instructions, dict) else None
            lines = [str(line) for line in path] if isinstance(path, list) else []
            hops = [split_hop(gist(line)) for line in lines]
            starts = instructions.get("start") if isinstance(instructions, dict) else None
            start_kind = kind_words(str(starts[0])) if isinstance(starts, list) and starts else []
            option_moves = [self._move(question, label) for label in question.options]
        kind, covered = start_kind, []
        for move, reached in hops:
            # A move's words minus the kind it leaves from, plus the kind it reached: "movie directed by person"
            # taken from films covers "directed" and "person"; the films were covered by whatever reached them.
            covered += [w for w in content_words(move) if not same_kind(w, kind)]
            kind = kind_words(reached)
            covered += kind
        return (reading, [m for m, _ in hops], option_moves, hops[-1][1] if hops else "", covered, start_kind)

    def _move(self, question: ChoiceQuestion, label: str) -> str:
        """What an option does, in words: the head of its description; when the head is a node and the details
        open with a gloss (entity mode: ``Inception (film) — films directed by this person; edge: ...``),
        ``gloss: node``."""
        if label == self.stop_label:
            return ""
        description = question.options[label]
        text = values_text(description) if description is not None else ""
        head = gist(text)
        details = text.split(HEAD_SEPARATOR, 1)[1] if HEAD_SEPARATOR in text else ""
        clause = details.split(";", 1)[0].strip()
        if clause and not clause.startswith(("edge:", "leads to")):
            head = f"{clause}: {head}"
        return head or label

    @staticmethod
    def _word_sims(a: Sequence[str], b: Sequence[str], vectors: Mapping[str, np.ndarray]) -> np.ndarray:
        """Word similarity matrix: 1 for a shared 5-letter stem (or equal words), else the clipped cosine."""
        if not a or not b:
            return np.zeros((len(a), len(b)))
        sims = np.stack([vectors[w] for w in a]).astype(np.float64) @ np.stack([vectors[w] for w in b]).T
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                if x == y or (len(x) >= STEM and len(y) >= STEM and x[:STEM] == y[:STEM]):
                    sims[i, j] = 1.0
        clipped: np.ndarray = np.clip(sims, 0.0, 1.0)
        return clipped

    async def features(self, state: str, question: ChoiceQuestion) -> np.ndarray:
        """The coverage features of every option, in offer order: a ``(n_options, len(FEATURES))`` array."""
        reading, moves, option_moves, reached, path_words, start_kind = self._texts(state, question)
        body = list(reading.body)
        weights = np.asarray(reading.weights, dtype=np.float64)
        path_text = " ".join(moves)
        focus = reading.focus or reading.residual
        here = kind_words(reached) if moves else start_kind
        move_words = [[w for w in content_words(m) if not same_kind(w, here)] for m in option_moves]
        reached_text = " ".join(kind_words(reached)) or " "
        sentences = [reading.residual, " ".join(body) or reading.residual, focus, path_text or " ", reached_text]
        sentences += [m or " " for m in option_moves] + [f"{path_text} {m}".strip() or " " for m in option_moves]
        all_words = body + path_words + start_kind + [w for ws in move_words for w in ws]
        vectors = await self._vectors(sentences + all_words)
        residual, body_vec, focus_vec, path_vec, reached_vec = (vectors[s] for s in sentences[:5])
        if body and start_kind:
            # "the film [X]": a word right before or after the mention that names the start's kind describes
            # the start itself, not a hop; it takes no part in coverage.
            near = [k for k, d in enumerate(reading.distances) if d is not None and d <= 2]
            kind_sims = self._word_sims([body[k] for k in near], start_kind, vectors)
            for k, row in zip(near, kind_sims, strict=True):
                if row.max(initial=0.0) >= KIND_MATCH:
                    weights[k] = 0.0
        covered = self._word_sims(body, path_words, vectors).max(1) if body and path_words else np.zeros(len(body))
        total = float(weights.sum()) or 1.0
        left = float((weights * (1.0 - covered)).sum() / total) if body else 0.0
        rows = np.zeros((len(option_moves), len(FEATURES)))
        for k, (label, move) in enumerate(zip(question.options, option_moves, strict=True)):
            if label == self.stop_label:
                rows[k, 5:] = [
                    float(focus_vec @ reached_vec) if reached else 0.0,
                    left,
                    float(residual @ path_vec) if moves else 0.0,
                    1.0,
                ]
                continue
            gain = 0.0
            if body and move_words[k]:
                after = np.maximum(covered, self._word_sims(body, move_words[k], vectors).max(1))
                gain = float((weights * (after - covered)).sum() / total)
            move_vec = vectors[move or " "]
            rows[k, :5] = [
                gain,
                float(body_vec @ move_vec),
                float(focus_vec @ move_vec) * (1.0 - left),
                1.0 if move and split_hop(move)[0] in moves else 0.0,
                float(residual @ vectors[f"{path_text} {move}".strip() or " "]),
            ]
        return rows

    # -- decide ----------------------------------------------------------------------------------------------

    async def _scores(self, state_text: str, question: ChoiceQuestion) -> np.ndarray:
        labels = list(question.options)
        if self.method == "coverage":
            scores = await self.features(state_text, question) @ self._w
        else:
            texts = [state_text] + [self.option_text(question, label) for label in labels]
            vectors = await self._vectors(texts)
            matrix = np.stack([vectors[t] for t in texts[1:]]).astype(np.float64)
            scores = matrix @ vectors[state_text].astype(np.float64)
        if self.stop_bias and self.stop_label in question.options:
            scores[labels.index(self.stop_label)] += self.stop_bias
        return scores

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        check_request(request, max_options=self._max_options, backend="local")
        started = time.perf_counter()
        state_text = values_text(request.state) or " "
        raw = {}
        for question in request.questions:
            probs = softmax(await self._scores(state_text, question), self.temperature)
            context = question.context
            if self.stop_rule and context is not None and context_stop_ruled_out(context):
                stops = {option.label for option in context.options if option.is_stop}
                probs = without_stop(probs, [label in stops for label in question.options])
            raw[question.key] = {label: float(p) for label, p in zip(question.options, probs, strict=True)}
        return in_process_response(request, raw, started=started, model=self.model_id)

    async def aclose(self) -> None:
        return None
