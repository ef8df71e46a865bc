"""LearnedDecider: a decision model trained on this graph's own decisions (``--model learned:DIR``).

It reads the structure of each choice question (:class:`~graphwalk_neo4j.decide.request.DecisionContext`),
never its text, and scores every option with a small network over frozen sentence embeddings:

* the question, with the start entities' names taken out, embedded by the packaged MiniLM (384 numbers,
  cached per question);
* the path so far as learned embeddings of its (relation, direction) moves, one table per position;
* each option's move (a learned embedding of its (relation, direction), or of STOP), the type it reaches, the
  log of its target count, and the cosine between the question and the move in words (``directed by (film to
  person)``, ``films directed by this person``), with the other relation-free numbers of
  :func:`~graphwalk_neo4j.learned.inputs.option_extras`;
* (format 4) the moves by their words, so a relation the model never saw is not blind: learned projections of
  the option's move in words, of its elementwise product with the question, of the question times the type it
  reaches in words, and of the path's last and mean hop in words (:class:`TextVectors`). Format 3 artifacts,
  from before these, still load and read the ids and the first ten extras only.

``score = w2 · relu(W1 · x + b1) + b2`` per option; ``p = softmax(score / T)`` with the temperature ``T``
fitted on the validation split (so the probabilities are calibrated on held-out decisions). The forward pass is
NumPy (no torch at inference), deterministic, and costs well under a millisecond per question once the
question's embedding is cached.

The artifact directory (written by :func:`graphwalk_neo4j.learned.fit.fit` and the ``gw-neo4j decider
train`` command) holds ``model.npz`` (weights), ``config.json`` (vocabularies, sizes, temperature, embedder,
graph, training-data hash) and ``metrics.json``. It loads offline.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphwalk_neo4j.decide.answer_types import WHERE_OF_ORGANISATION, asked_about, without_options, without_stop
from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionBackend, DecisionRequest, DecisionResponse
from graphwalk_neo4j.decide.normalize import check_request, in_process_response
from graphwalk_neo4j.embed.base import Embedder, VectorCache, embed_cached
from graphwalk_neo4j.errors import ConfigError, DecisionError
from graphwalk_neo4j.learned.artifact import (
    COMPANION_PLAUSIBLE,
    COMPANION_WEIGHT,
    CONFIG_FILE,
    MODEL_FILE,
    read_artifact_config,
    trained_walk_defaults,
)
from graphwalk_neo4j.learned.inputs import (
    STOP_TOKEN,
    DecisionInputs,
    asked_by_meaning,
    asked_compound,
    asked_nouns,
    asked_unnamed,
    asked_where_of_organisation,
    decision_inputs,
    nouns_before_topic,
    option_extras,
    predicate_of_another,
    reached_at,
    same_word,
    stop_ruled_out,
    type_heads,
    type_text,
    typed_for,
    unnamed_types,
    without_topic_nouns,
)
from graphwalk_neo4j.learned.linker import MentionLinker
from graphwalk_neo4j.learned.role_types import graph_role_types

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from graphwalk_neo4j.decide.request import DecisionContext
    from graphwalk_neo4j.graph.profile import GraphProfile
    from graphwalk_neo4j.store import GraphStore

# How a learned model searches when the caller names no preset or strategy: its calibrated probabilities make a
# beam of three pick the likelier whole path where one hop's choice is close (MetaQA as it comes, 3 hops: 0.784
# greedy, 0.787 beam; `people` dev 2 hops 0.841 / 0.894; `--model general` on MetaQA 2 hops 0.657 / 0.706;
# docs/eval.md, "Beam search by default for learned models"). A preset or ``--strategy`` still decides.
SEARCH_DEFAULTS: dict[str, Any] = {"strategy": "beam", "beam_width": 3}
UNK = "<unk>"
PAD = "<pad>"
MAX_PATH = 3  # path positions with their own table; deeper hops share the last


@dataclass
class Vocab:
    tokens: list[str]
    types: list[str]

    def __post_init__(self) -> None:
        self._tok = {t: i for i, t in enumerate(self.tokens)}
        self._typ = {t: i for i, t in enumerate(self.types)}

    def token(self, token: str) -> int:
        return self._tok.get(token, self._tok[UNK])

    def type(self, kind: str) -> int:
        return self._typ.get(kind, self._typ[UNK])

    @classmethod
    def build(cls, decisions: Sequence[DecisionInputs]) -> Vocab:
        tokens = {t for d in decisions for t in (*d.tokens, *d.path)} - {PAD, UNK, STOP_TOKEN}
        kinds = {k for d in decisions for k in d.embedded_types} - {UNK}
        return cls(tokens=[PAD, UNK, STOP_TOKEN, *sorted(tokens)], types=[UNK, *sorted(kinds)])


@dataclass
class Encoded:
    """A decision as arrays (no embeddings yet): token/type ids, path ids per position, numeric extras."""

    path: np.ndarray  # (MAX_PATH,) token ids, PAD when shorter
    tokens: np.ndarray  # (n,)
    types: np.ndarray  # (n,)
    counts: np.ndarray  # (n,) float
    is_stop: np.ndarray  # (n,) float


def encode(vocab: Vocab, d: DecisionInputs) -> Encoded:
    path = [vocab.token(t) for t in d.path]
    if len(path) > MAX_PATH:
        path = [*path[: MAX_PATH - 1], path[-1]]
    path += [vocab.token(PAD)] * (MAX_PATH - len(path))
    return Encoded(
        path=np.asarray(path, dtype=np.int64),
        tokens=np.asarray([vocab.token(t) for t in d.tokens], dtype=np.int64),
        types=np.asarray([vocab.type(t) for t in d.embedded_types], dtype=np.int64),
        counts=np.log1p(np.asarray(d.counts, dtype=np.float32)),
        is_stop=np.asarray([1.0 if t == STOP_TOKEN else 0.0 for t in d.tokens], dtype=np.float32),
    )


@dataclass
class TextVectors:
    """A decision's moves by their words (format 4): the embeddings the projections ``mp``, ``xp``, ``tp`` and
    ``pp`` of :class:`Weights` read."""

    moves: np.ndarray  # (n, Q): each option's move in words
    types: np.ndarray  # (n, Q): the type each option reaches, in words
    last: np.ndarray  # (Q,): the last hop taken, in words (zeros at the start)
    mean: np.ndarray  # (Q,): the mean of the last MAX_PATH hops taken (zeros at the start)


def text_vectors(vectors: Mapping[str, np.ndarray], inputs: DecisionInputs) -> TextVectors:
    """:class:`TextVectors` for ``inputs`` from the embeddings of its texts (:meth:`DecisionInputs.texts`)."""
    q_dim = len(vectors[inputs.question])
    path = [np.asarray(vectors[m], dtype=np.float32) for m in inputs.path_moves[-MAX_PATH:]]
    zeros = np.zeros(q_dim, dtype=np.float32)
    return TextVectors(
        moves=np.stack([np.asarray(vectors[m], dtype=np.float32) for m in inputs.moves]),
        types=np.stack([np.asarray(vectors[type_text(k)], dtype=np.float32) for k in inputs.types]),
        last=path[-1] if path else zeros,
        mean=np.mean(path, axis=0).astype(np.float32) if path else zeros,
    )


@dataclass
class Weights:
    """The network's parameters (NumPy, float32). Names match the torch module in :mod:`.fit`.

    Format 4 adds the text projections (``None`` in a format 3 artifact, which reads moves by id only):
    ``mp`` the option's move in words, ``xp`` its elementwise product with the question, ``tp`` the question
    times the reached type in words, ``pp`` the path's last hop and mean hop in words, each ``(d, Q)``."""

    tok: np.ndarray  # (V, dt)
    typ: np.ndarray  # (K, dk)
    pos: np.ndarray  # (MAX_PATH, V, dp)
    w1: np.ndarray  # (H, Q + MAX_PATH*dp [+ 2d] + dt + dk + EXTRA [+ 3d])
    b1: np.ndarray  # (H,)
    w2: np.ndarray  # (H,)
    b2: np.ndarray  # ()
    mp: np.ndarray | None = None
    xp: np.ndarray | None = None
    tp: np.ndarray | None = None
    pp: np.ndarray | None = None

    NAMES = ("tok", "typ", "pos", "w1", "b1", "w2", "b2")
    TEXT_NAMES = ("mp", "xp", "tp", "pp")

    @property
    def reads_text(self) -> bool:
        return self.mp is not None


def save_members(path: Path, members: Sequence[Weights]) -> None:
    """Every member's weights in one ``.npz``: array ``{name}.{k}`` for member ``k``."""
    arrays = {}
    for k, w in enumerate(members):
        for n in (*Weights.NAMES, *Weights.TEXT_NAMES):
            value = getattr(w, n)
            if value is not None:
                arrays[f"{n}.{k}"] = value
    np.savez(path, **arrays)


def load_members(path: Path) -> list[Weights]:
    with np.load(path) as data:
        count = 1 + max(int(key.rsplit(".", 1)[1]) for key in data.files)
        members = []
        for k in range(count):
            found = {n: np.asarray(data[f"{n}.{k}"], dtype=np.float32) for n in Weights.NAMES}
            text = {n: np.asarray(data[f"{n}.{k}"], dtype=np.float32) for n in Weights.TEXT_NAMES if f"{n}.{k}" in data}
            members.append(Weights(**found, **text))
        return members


def logits(
    weights: Weights, qvec: np.ndarray, enc: Encoded, extras: np.ndarray, text: TextVectors | None = None
) -> np.ndarray:
    """The options' scores before the temperature (the same arithmetic as the torch module). ``text`` is
    required by a model that reads moves by their words (format 4) and ignored by one that does not."""
    path_vec = np.concatenate([weights.pos[i, enc.path[i]] for i in range(MAX_PATH)])
    shared_in = [qvec.astype(np.float32), path_vec]
    per_in = [weights.tok[enc.tokens], weights.typ[enc.types]]
    text_cols = 0
    if weights.reads_text:
        if text is None:
            raise ValueError("this model reads moves by their words: pass their TextVectors")
        mp, xp, tp, pp = (getattr(weights, n) for n in Weights.TEXT_NAMES)
        shared_in += [pp @ text.last, pp @ text.mean]
        q = qvec.astype(np.float32)
        text_per = [text.moves @ mp.T, (q * text.moves) @ xp.T, (q * text.types) @ tp.T]
        text_cols = sum(t.shape[1] for t in text_per)
    shared_x = np.concatenate(shared_in)
    width = shared_x.shape[0]
    n_extra = weights.w1.shape[1] - width - weights.tok.shape[1] - weights.typ.shape[1] - text_cols
    per_in.append(extras[:, :n_extra].astype(np.float32))  # format 3 read the first 10 extras
    if weights.reads_text:
        per_in += text_per
    shared = weights.w1[:, :width] @ shared_x + weights.b1  # (H,), once per decision
    per_option = np.concatenate(per_in, axis=1)
    hidden = np.maximum(shared[None, :] + per_option @ weights.w1[:, width:].T, 0.0)
    return np.asarray(hidden @ weights.w2 + weights.b2, dtype=np.float64)


def ensemble_logits(
    members: Sequence[Weights], qvec: np.ndarray, enc: Encoded, extras: np.ndarray, text: TextVectors | None = None
) -> np.ndarray:
    """The members' scores averaged (an ensemble of independently seeded fits; one member: its scores)."""
    return np.asarray(np.mean([logits(w, qvec, enc, extras, text) for w in members], axis=0))


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    z = np.asarray(scores, dtype=np.float64) / temperature
    z -= z.max()
    e = np.exp(z)
    return np.asarray(e / e.sum())


class LearnedDecider(DecisionBackend):
    """A :class:`~graphwalk_neo4j.decide.base.DecisionBackend` over a trained artifact directory."""

    def __init__(
        self,
        weights: Weights | Sequence[Weights],
        vocab: Vocab,
        embedder: Embedder,
        *,
        temperature: float = 1.0,
        name: str = "learned",
        config: Mapping[str, Any] | None = None,
        cache_size: int = 20_000,
        max_options: int = 255,
        stop_rule: bool = True,
    ) -> None:
        if not (temperature > 0 and math.isfinite(temperature)):
            raise ValueError("temperature must be a positive finite number")
        self.members = [weights] if isinstance(weights, Weights) else list(weights)
        if not self.members:
            raise ValueError("a learned decider needs at least one set of weights")
        self.vocab = vocab
        self.embedder = embedder
        self.temperature = float(temperature)
        self.name = name
        self.config = dict(config or {})
        self.cache = VectorCache(cache_size)
        self._max_options = max_options
        self.stop_rule = stop_rule  # STOP ruled out on the wrong type of answer (probabilities())
        # the types a graph without its own was given in training (learned/role_types.py), read into every decision
        self.role_types: dict[str, str] = dict(self.config.get("role_types") or {})
        # per type, the types one move away (learned/role_types.type_links): the STOP rule looks a move past each option
        self.type_links: dict[str, list[str]] = dict(self.config.get("type_links") or {})
        # a graph's one unnamed type read as what a question asks for (inputs.unnamed_type_asked): on for a model
        # whose training questions called it so (graph-only training, `unnamed_as_asked`), and for a copy
        # walking a graph the model was not trained on (for_graph) when its own graphs had no unnamed type
        self.name_unnamed = bool(self.config.get("unnamed_as_asked"))
        self.linker: MentionLinker | None = None  # linking from plain text, when trained with one
        self.directory: Path | None = None  # where load() read it from; digest reads it again when asked
        # the model walked beside this one, its probabilities averaged in (with_companion); None: alone
        self.companion: LearnedDecider | None = None
        self.companion_weight = 0.0
        self.companion_plausible = 0.0  # the companion's say is limited to the moves this model finds plausible

    @classmethod
    def load(cls, directory: str | Path, embedder: Embedder) -> LearnedDecider:
        config = read_artifact_config(directory)
        model_path = Path(directory) / MODEL_FILE
        if not model_path.is_file():
            raise ConfigError(f"{directory}: {MODEL_FILE} is missing; retrain with `gw-neo4j decider train`")
        if config.get("embedder") and config["embedder"] != embedder.model_id:
            raise ConfigError(
                f"{directory} was trained over embedder {config['embedder']!r}, but "
                f"{embedder.model_id!r} is configured (GW_NEO4J_EMBEDDER)"
            )
        vocab = Vocab(tokens=list(config["vocab"]["tokens"]), types=list(config["vocab"]["types"]))
        decider = cls(
            load_members(model_path),
            vocab,
            embedder,
            temperature=float(config.get("temperature", 1.0)),
            name=str(config.get("name") or Path(directory).name),
            config=config,
            stop_rule=bool(config.get("stop_rule", True)),
        )
        decider.linker = MentionLinker.load(directory)
        decider.directory = Path(directory)
        return decider

    @functools.cached_property
    def digest(self) -> str | None:
        """What this artifact is, by content (``config.json`` and the weights), so that an eval run resumed with
        the same ``--model`` path but another artifact behind it is refused rather than answered from the old
        records; ``None`` for a decider not loaded from a directory. Read when first asked (the description an
        eval run records), not on every load."""
        if self.directory is None:
            return None
        content = hashlib.sha256((self.directory / CONFIG_FILE).read_bytes())
        content.update((self.directory / MODEL_FILE).read_bytes())
        if self.companion is not None:  # another companion answers otherwise
            content.update(f"{self.companion.digest}:{self.companion_weight}:{self.companion_plausible}".encode())
        return content.hexdigest()[:12]

    def with_companion(
        self, companion: LearnedDecider, weight: float = COMPANION_WEIGHT, plausible: float = COMPANION_PLAUSIBLE
    ) -> LearnedDecider:
        """This model walking beside ``companion``: per decision, ``(1 - weight)`` of this model's calibrated
        probabilities plus ``weight`` of the companion's (each after its own STOP rule), the companion's counted
        only on the moves this model gives at least ``plausible`` times its top move's probability
        (:data:`~.artifact.COMPANION_PLAUSIBLE`; 0 counts it on every move), renormalised. A copy; the weights
        and vector caches are shared."""
        if not 0.0 < weight < 1.0:
            raise ValueError("a companion's weight is between 0 and 1 (exclusive)")
        if not 0.0 <= plausible <= 1.0:
            raise ValueError("a companion's plausibility floor is between 0 and 1")
        paired = copy.copy(self)
        paired.companion, paired.companion_weight = companion, float(weight)
        paired.companion_plausible = float(plausible)
        paired.__dict__.pop("digest", None)  # the cached digest named the model alone
        return paired

    @property
    def model_id(self) -> str:
        return f"learned:{self.name}"

    @property
    def max_options(self) -> int:
        return self._max_options

    @property
    def mention_scorer(self) -> MentionLinker | None:
        """The mention scorer trained beside the model (``linker.json``), when there is one."""
        return self.linker

    @property
    def walk_defaults(self) -> dict[str, Any]:
        """The walk settings this model was trained under (see :func:`trained_walk_defaults`), and its search:
        a beam of :data:`SEARCH_DEFAULTS` where the caller named no preset and no strategy."""
        return {**SEARCH_DEFAULTS, **trained_walk_defaults(self.config)}

    def __repr__(self) -> str:
        return (
            f"LearnedDecider(name={self.name!r}, embedder={self.embedder.model_id!r}, "
            f"members={len(self.members)}, temperature={self.temperature:.4g}, graph={self.config.get('graph')!r}"
            + (
                f", companion={self.companion.name!r} at {self.companion_weight:g}"
                f" on moves at {self.companion_plausible:g} of the top"
                if self.companion
                else ""
            )
            + (f", artifact={self.digest!r})" if self.digest else ")")
        )

    def trained_on(self, graph: str) -> bool:
        """Whether ``graph`` is one this model was trained on (``config.json``'s ``graph``, or ``graphs`` of a
        model trained from several)."""
        return graph == self.config.get("graph") or graph in (self.config.get("graphs") or ())

    async def for_graph(self, store: GraphStore, graph: str, profile: GraphProfile) -> LearnedDecider:
        """This model as it decides on ``graph``: itself on a graph it was trained on or one with types of its
        own; on a graph loaded without types a copy (the same weights, vector cache and mention scorer) that reads
        the walked graph's types, inferred from its structure, and its type links
        (:func:`~.role_types.graph_role_types`), not those of the graphs it was trained on. The one type those
        leave unnamed (``item``) reads as the noun a question asks for (:func:`~.inputs.unnamed_type_asked`),
        unless the model's own graphs had an unnamed type its questions called ``item`` (``unnamed_as_asked``
        false: trained before stand-in nouns, or on a graph with several unnamed types). A model
        trained on other graphs (``general``) walking MetaQA loaded as it comes answered 0.558 / 0.476 / 0.462
        without them, 0.864 / 0.647 / 0.508 with them (docs/eval.md)."""
        walked = await self._for_graph(store, graph, profile)
        if self.companion is None:
            return walked
        walked = copy.copy(walked)  # the companion reads the walked graph as it would alone
        walked.companion = await self.companion.for_graph(store, graph, profile)
        return walked

    async def _for_graph(self, store: GraphStore, graph: str, profile: GraphProfile) -> LearnedDecider:
        """:meth:`for_graph` of this model alone (its companion, if any, unchanged)."""
        if self.trained_on(graph):
            return self
        found = await graph_role_types(store, graph, profile)
        if not found.role_types:  # a graph with its own types: the model as it is (a copy of MetaQA under
            return self  # another name keeps the type links it was trained with)
        walked = copy.copy(self)
        walked.role_types, walked.type_links = dict(found.role_types), dict(found.links)
        # a model whose own graphs had unnamed types it did not read as the asked noun keeps reading `item`
        walked.name_unnamed = self.name_unnamed or not unnamed_types(self.role_types)
        return walked

    async def vectors(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        return await embed_cached(self.embedder, self.cache, texts)

    async def scores(self, inputs: DecisionInputs) -> np.ndarray:
        """The ensemble's scores for a decision, read with the types a graph without its own was given in training
        (:func:`~.inputs.typed_inputs`; a no-op for inputs typed already)."""
        return await self._scores(self._typed(inputs)[0])

    def _typed(
        self, inputs: DecisionInputs, *, name_unnamed: bool | None = None
    ) -> tuple[DecisionInputs, Mapping[str, Sequence[str]]]:
        """One decision's inputs typed as this model reads them, and the type links its STOP rule reads: with
        :attr:`name_unnamed` (or ``name_unnamed`` for this decision), the graph's unnamed type named as the
        question asks for it (:func:`~.inputs.typed_for`)."""
        name = self.name_unnamed if name_unnamed is None else name_unnamed
        return typed_for(inputs, self.role_types, self.type_links, name_unnamed=name)

    async def _read_by_meaning(self, asked: str, inputs: DecisionInputs) -> str:
        """What the question asks for (``asked``, :func:`~graphwalk_neo4j.decide.answer_types.asked_about`), its
        nouns read as the graph's type words they mean (:func:`~.inputs.asked_by_meaning`: ``which movies`` where
        films are ``film``)."""
        nouns = asked_nouns(asked)
        if not nouns:
            return asked
        names = {*self.role_types.values(), *self.type_links, *inputs.types}
        compound = asked_compound(asked)
        texts = {*nouns, *type_heads(names), *([compound] if compound else [])}
        return asked_by_meaning(asked, names, await self.vectors(sorted(texts)))

    async def _asked_of_stop_rule(self, asked: str, inputs: DecisionInputs, links: Mapping[str, Sequence[str]]) -> str:
        """``asked`` as the STOP rule reads it (:func:`~.inputs.asked_unnamed`): a noun that names none of the
        graph's named types asks for its unnamed ones. The types are those the decision is typed with (``inputs``,
        ``links``): a graph's one unnamed type named as asked already is named."""
        nouns = asked_nouns(asked)
        if not nouns:
            return asked
        names = {*links, *(t for linked in links.values() for t in linked), *inputs.types}
        return asked_unnamed(asked, names, await self.vectors(sorted({*nouns, *type_heads(names)})))

    async def _without_topic_nouns(self, context: DecisionContext) -> DecisionContext:
        """``context`` with the noun that names a start entity's own type taken from before its name
        (:func:`~.inputs.without_topic_nouns`: ``describe movie [X]``, ``the film [X]`` on a graph whose films are
        ``Movie``); the noun is the type's head in another form by its letters or by meaning (:func:`~.inputs.
        same_word`)."""
        names = [s.name for s in context.start]
        heads = type_heads(s.type or "" for s in context.start)
        nouns = nouns_before_topic(context.question, names)
        if not heads or not nouns:
            return context
        vectors = await self.vectors(sorted({*nouns, *heads}))
        question = without_topic_nouns(
            context.question, names, lambda word: any(same_word(word, head, vectors) for head in heads)
        )
        return context if question == context.question else context.model_copy(update={"question": question})

    async def _scores(self, inputs: DecisionInputs) -> np.ndarray:
        """:meth:`scores` of inputs typed already."""
        vecs = await self.vectors(list(inputs.texts()))
        qvec = vecs[inputs.question]
        text = text_vectors(vecs, inputs) if self.members[0].reads_text else None
        return ensemble_logits(self.members, qvec, encode(self.vocab, inputs), option_extras(qvec, vecs, inputs), text)

    async def probabilities(self, context: DecisionContext) -> np.ndarray:
        """The calibrated distribution over the options; STOP 0 where the question names the answer's type, the
        walk stands elsewhere and a move reaches it, or leads on to it by the artifact's ``type_links``
        (:func:`~.inputs.stop_ruled_out`, unless ``stop_rule`` is off), the rest renormalised. With a companion
        (:meth:`with_companion`), the weighted mean of the two distributions, the companion's only on the moves
        this model finds plausible."""
        own = await self._probabilities(context)
        if self.companion is None:
            return own
        other = await self.companion.probabilities(context)
        other = np.where(own >= self.companion_plausible * float(own.max()), other, 0.0)
        mixed = np.asarray((1.0 - self.companion_weight) * own + self.companion_weight * other, dtype=np.float64)
        return mixed / float(mixed.sum())

    async def _probabilities(self, context: DecisionContext) -> np.ndarray:
        """:meth:`probabilities` of this model alone."""
        context = await self._without_topic_nouns(context)
        untyped = decision_inputs(context)
        plain = asked_about(context.question, [s.name for s in context.start])
        asked = await self._read_by_meaning(plain, untyped)
        # a noun that is a named type's word by meaning asks for that type, not for the graph's unnamed one
        inputs, links = self._typed(untyped, name_unnamed=self.name_unnamed and asked == plain)
        probs = softmax(await self._scores(inputs), self.temperature)
        names = [s.name for s in context.start]
        is_stop = [token == STOP_TOKEN for token in inputs.tokens]
        if self.stop_rule:
            stop_asked = await self._asked_of_stop_rule(asked, inputs, links)
            if stop_asked == "where" and asked_where_of_organisation(context.question, names):
                stop_asked = WHERE_OF_ORGANISATION  # where [X]'s club plays: a place, not the club
            # where did [X] study: at the university [X] studied at, whatever its type
            done_at = stop_asked == "where" and reached_at(inputs.path)
            if not done_at and stop_ruled_out(inputs, stop_asked, links):
                probs = without_stop(probs, is_stop)
        if len(inputs.path) > 1 or not (said := predicate_of_another(context.question, names)):
            return probs
        if not inputs.path:
            # "where was the coach of [X]'s club born": the coach was born, not [X]; born_in is no first move
            named = [not stop and said.names(token) for token, stop in zip(inputs.tokens, is_stop, strict=True)]
            if any(named) and is_stop.count(False) > sum(named):
                probs = without_options(probs, named)
        elif said.subject and not said.reached_by(inputs.path[0]):
            # "in which city is the owner of [X] based": one move reaches the owner, where it is based is another
            probs = without_stop(probs, is_stop)
        return probs

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        check_request(request, max_options=self._max_options, backend="learned")
        started = time.perf_counter()
        raw = {}
        for question in request.questions:
            context = _context(question)
            probs = await self.probabilities(context)
            raw[question.key] = {label: float(p) for label, p in zip(context.labels, probs, strict=True)}
        return in_process_response(request, raw, started=started, model=self.model_id)

    async def aclose(self) -> None:
        return None


def _context(question: ChoiceQuestion) -> DecisionContext:
    context = question.context
    if context is None:
        raise DecisionError(
            f"learned decider: question {question.key!r} carries no structure (DecisionContext); it answers walk "
            "questions only. Use --model local or jev for linking/routing choices"
        )
    if context.labels != list(question.options):
        raise DecisionError(
            f"learned decider: question {question.key!r} has labels {list(question.options)} but "
            f"its structure has {context.labels}"
        )
    return context
