"""Fitting the learned decider (torch; CPU, or a GPU when one is present) and writing its artifact directory.

:func:`fit` takes decisions as (:class:`~graphwalk_neo4j.learned.inputs.DecisionInputs`, target distribution)
pairs, split into train and validation, and:

1. builds the vocabularies (moves, types) from the training decisions;
2. embeds every distinct masked question and move text once with the frozen embedder (cached in
   ``DIR/cache/`` so a resumed run does not embed again);
3. trains the network of :mod:`~graphwalk_neo4j.learned.model` (Adam, a fixed seed, minibatches), keeping
   the epoch with the lowest validation loss; a checkpoint after every epoch lets an interrupted run resume
   (``DIR/checkpoint.pt``). The loss depends on what a target means. From question–answer pairs it is a *set*
   (``Example.set_valued``): every option that continues some gold path is right, so the loss is
   ``-log`` of the probability summed over the right options, and the model may put all its mass on one of
   equally right moves (a film's director is often its writer) instead of being taught to split it, which
   made whole paths look less likely than they are. From traces the target is the teacher's distribution
   (soft-target cross-entropy). With ``augment`` > 0 every training decision is also seen with rewordings of
   its question (:mod:`graphwalk_neo4j.learned.augment`);
4. fits the temperature on the validation decisions (grid over [0.2, 5], lowest NLL of the same loss) and
   reports the expected calibration error before and after;
5. writes ``model.npz``, ``config.json`` and ``metrics.json``.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import math
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import numpy as np

from graphwalk_neo4j.decide.answer_types import FUNCTION_WORDS
from graphwalk_neo4j.decide.calibration import expected_calibration_error
from graphwalk_neo4j.embed.minilm import vocabulary_words
from graphwalk_neo4j.extras import require_extra
from graphwalk_neo4j.identifiers import relation_words
from graphwalk_neo4j.learned.artifact import CONFIG_FILE, FORMAT_VERSION, METRICS_FILE, MODEL_FILE
from graphwalk_neo4j.learned.augment import SYNONYMS, merged, neighbour_synonyms, variants
from graphwalk_neo4j.learned.inputs import (
    EXTRA,
    STOP_TOKEN,
    DecisionInputs,
    content_words,
    option_extras,
    type_text,
)
from graphwalk_neo4j.learned.model import MAX_PATH, Vocab, Weights, encode, save_members
from graphwalk_neo4j.learned.options import FitOptions as FitOptions

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.progress import Progress

P = ParamSpec("P")
R = TypeVar("R")


@dataclass
class Example:
    inputs: DecisionInputs
    target: Sequence[float]
    group: str = ""  # e.g. the hop count, for per-group metrics
    set_valued: bool = False  # the target marks a set of equally right options (module docstring, step 3)


def make_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_hash(examples: Sequence[Example]) -> str:
    digest = hashlib.sha256()
    for e in examples:
        digest.update(json.dumps([e.inputs.to_json(), list(e.target)], sort_keys=True).encode())
    return digest.hexdigest()


class _Tensors:
    """Padded arrays for a list of examples: (N, M) per-option arrays with a mask."""

    def __init__(
        self,
        examples: Sequence[Example],
        vocab: Vocab,
        qindex: Mapping[str, int],
        vectors: Mapping[str, np.ndarray],
        tindex: Mapping[str, int],
    ) -> None:
        n = len(examples)
        m = max((len(e.inputs.tokens) for e in examples), default=1)
        self.q = np.zeros(n, dtype=np.int64)
        self.path = np.zeros((n, MAX_PATH), dtype=np.int64)
        self.tok = np.zeros((n, m), dtype=np.int64)
        self.typ = np.zeros((n, m), dtype=np.int64)
        self.extra = np.zeros((n, m, EXTRA), dtype=np.float32)
        self.mask = np.zeros((n, m), dtype=bool)
        self.target = np.zeros((n, m), dtype=np.float32)
        self.set_valued = np.zeros(n, dtype=bool)
        # the moves by their words: rows of the text matrix (0: no text), see fit()
        self.mtext = np.zeros((n, m), dtype=np.int64)
        self.ttext = np.zeros((n, m), dtype=np.int64)
        self.ptext = np.zeros((n, MAX_PATH), dtype=np.int64)  # the hops taken, the last one last
        for i, e in enumerate(examples):
            enc = encode(vocab, e.inputs)
            k = len(enc.tokens)
            self.q[i] = qindex[e.inputs.question]
            self.path[i] = enc.path
            self.tok[i, :k] = enc.tokens
            self.typ[i, :k] = enc.types
            self.extra[i, :k] = option_extras(vectors[e.inputs.question], vectors, e.inputs)
            self.mask[i, :k] = True
            self.target[i, :k] = np.asarray(e.target, dtype=np.float32)
            self.set_valued[i] = e.set_valued
            self.mtext[i, :k] = [tindex[t] for t in e.inputs.moves]
            self.ttext[i, :k] = [tindex[type_text(t)] for t in e.inputs.types]
            hops = [tindex[t] for t in e.inputs.path_moves]
            self.ptext[i, : len(hops)] = hops[-MAX_PATH:]


def _module(torch: Any, vocab: Vocab, q_dim: int, opts: FitOptions) -> Any:
    nn = torch.nn
    d = opts.text_dim

    class Net(nn.Module):  # type: ignore[name-defined,misc]
        def __init__(self) -> None:
            super().__init__()
            v, k = len(vocab.tokens), len(vocab.types)
            self.tok = nn.Parameter(torch.randn(v, opts.tok_dim) * 0.1)
            self.typ = nn.Parameter(torch.randn(k, opts.type_dim) * 0.1)
            self.pos = nn.Parameter(torch.randn(MAX_PATH, v, opts.pos_dim) * 0.1)
            width = q_dim + MAX_PATH * opts.pos_dim + opts.tok_dim + opts.type_dim + EXTRA
            if d:
                self.mp = nn.Linear(q_dim, d, bias=False)
                self.xp = nn.Linear(q_dim, d, bias=False)
                self.tp = nn.Linear(q_dim, d, bias=False)
                self.pp = nn.Linear(q_dim, d, bias=False)
                width += 5 * d
            self.l1 = nn.Linear(width, opts.hidden)
            self.l2 = nn.Linear(opts.hidden, 1)
            self.drop = nn.Dropout(opts.dropout)
            self.drop_id = nn.Dropout(opts.id_dropout if d else 0.0)

        def forward(self, q: Any, path: Any, tok: Any, typ: Any, extra: Any, text: Any = None) -> Any:
            n, m = tok.shape
            path_vec = torch.cat([self.pos[i][path[:, i]] for i in range(MAX_PATH)], dim=1)
            shared = [self.drop(q), self.drop_id(path_vec)]
            per = [self.drop_id(self.tok[tok]), self.typ[typ], extra]
            if d:
                moves, types, last, mean = text  # (n, m, Q), (n, m, Q), (n, Q), (n, Q)
                shared += [self.pp(last), self.pp(mean)]
                per += [self.mp(moves), self.xp(q[:, None, :] * moves), self.tp(q[:, None, :] * types)]
            x = torch.cat([torch.cat(shared, dim=1)[:, None, :].expand(n, m, -1), *per], dim=2)
            return self.l2(torch.relu(self.l1(x))).squeeze(-1)

    return Net()


def _resumable(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options a checkpoint must share to be resumed: all but ``epochs`` (a run may be given more)."""
    return {k: v for k, v in (options or {}).items() if k != "epochs"}


def _weights(net: Any) -> Weights:
    def arr(t: Any) -> np.ndarray:
        return np.asarray(t.detach().cpu().numpy(), dtype=np.float32)

    text = {n: arr(getattr(net, n).weight) for n in Weights.TEXT_NAMES if hasattr(net, n)}
    return Weights(
        tok=arr(net.tok),
        typ=arr(net.typ),
        pos=arr(net.pos),
        w1=arr(net.l1.weight),
        b1=arr(net.l1.bias),
        w2=arr(net.l2.weight[0]),
        b2=arr(net.l2.bias[0]),
        **text,
    )


def _softmax_rows(scores: np.ndarray, mask: np.ndarray, temperature: float) -> np.ndarray:
    z = np.where(mask, scores / temperature, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(z), 0.0)
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def decision_metrics(
    probs: np.ndarray, target: np.ndarray, mask: np.ndarray, set_valued: np.ndarray | None = None
) -> dict[str, float]:
    """Accuracy (the argmax is a best-target option), NLL of the target (of the right set, for set-valued
    rows), ECE of the top probability."""
    top = probs.argmax(axis=1)
    best = np.where(mask, target, -1.0).max(axis=1)
    correct = target[np.arange(len(top)), top] >= best - 1e-9
    soft = -(target * np.log(np.clip(probs, 1e-12, 1.0))).sum(axis=1)
    if set_valued is not None and set_valued.any():
        in_set = -np.log(np.clip((probs * (target > 0)).sum(axis=1), 1e-12, 1.0))
        soft = np.where(set_valued, in_set, soft)
    nll = soft.mean() if len(top) else 0.0
    conf = probs[np.arange(len(top)), top]
    return {
        "accuracy": float(correct.mean()) if len(top) else 0.0,
        "nll": float(nll),
        "ece": expected_calibration_error(conf, correct),
        "n": len(top),
    }


def fit_temperature(
    scores: np.ndarray, target: np.ndarray, mask: np.ndarray, set_valued: np.ndarray | None = None
) -> float:
    grid = np.exp(np.linspace(math.log(0.2), math.log(5.0), 81))
    losses = [decision_metrics(_softmax_rows(scores, mask, float(t)), target, mask, set_valued)["nll"] for t in grid]
    return float(grid[int(np.argmin(losses))])


async def embed_texts(
    embedder: Embedder, texts: Sequence[str], cache_dir: Path, progress: Progress | None = None, chunk: int = 512
) -> dict[str, np.ndarray]:
    """Vectors for ``texts``, cached in ``cache_dir`` (``vectors.npy`` + ``texts.json``) across runs."""
    make_dir(cache_dir)
    known: dict[str, np.ndarray] = {}
    names, vectors = cache_dir / "texts.json", cache_dir / "vectors.npy"
    if names.is_file() and vectors.is_file():
        stored = json.loads(names.read_text(encoding="utf-8"))
        if stored.get("embedder") == embedder.model_id:
            matrix = np.load(vectors)
            if len(matrix) == len(stored["texts"]):  # else another run was writing it: embed again
                known = {t: matrix[i] for i, t in enumerate(stored["texts"])}
    missing = [t for t in dict.fromkeys(texts) if t not in known]
    for i in range(0, len(missing), chunk):
        part = missing[i : i + chunk]
        for text, vec in zip(part, await embedder.embed(part), strict=True):
            known[text] = np.asarray(vec, dtype=np.float32)
        if progress:
            progress.advance("embed", min(i + chunk, len(missing)), len(missing))
        all_texts = list(known)
        matrix_file = io.BytesIO()
        np.save(matrix_file, np.stack([known[t] for t in all_texts]))
        _replace(vectors, matrix_file.getvalue())
        _replace(names, json.dumps({"embedder": embedder.model_id, "texts": all_texts}).encode())
    return known


def _replace(path: Path, data: bytes) -> None:
    """Write ``path`` through a file beside it renamed over it, so a reader sees the old file or the new one."""
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    part.write_bytes(data)
    os.replace(part, path)


def graph_word_groups(examples: Sequence[Example]) -> dict[str, list[str]]:
    """The content words of every relation the examples offer and of every type they reach, by relation or type
    (what :func:`~graphwalk_neo4j.learned.augment.neighbour_synonyms` finds stand-ins for)."""
    groups: dict[str, list[str]] = {}
    for e in examples:
        for token, kind in zip(e.inputs.tokens, e.inputs.types, strict=True):
            if token != STOP_TOKEN:
                relation = token.rsplit("|", 1)[0]
                groups.setdefault(relation, list(content_words(relation_words(relation))))
            groups.setdefault(f"type:{kind}", list(content_words(type_text(kind))))
    return {g: words for g, words in sorted(groups.items()) if words}


VOCABULARY_CACHE = Path.home() / ".cache" / "graphwalk-neo4j" / "vocabulary-vectors"


def vocabulary_cache(embedder: Embedder) -> Path:
    """Where the general word list's vectors are kept: the same for every graph and training run, so once per
    user and embedder (a folder per model id under :data:`VOCABULARY_CACHE`)."""
    return VOCABULARY_CACHE / hashlib.sha256(embedder.model_id.encode()).hexdigest()[:16]


async def rewording_table(
    examples: Sequence[Example], embedder: Embedder, cache_dir: Path, neighbours: int
) -> dict[str, tuple[str, ...]]:
    """The synonym lists of :mod:`.augment` and, with ``neighbours`` > 0, that many stand-ins per graph word from
    the packaged model's vocabulary (:func:`vocabulary_words`, embedded once per user and embedder,
    :func:`vocabulary_cache`; the graph's words are cached with the run's other texts)."""
    if neighbours <= 0:
        return dict(SYNONYMS)
    groups = graph_word_groups(examples)
    vocabulary = [w for w in vocabulary_words() if w not in FUNCTION_WORDS]
    vectors = await embed_texts(embedder, vocabulary, vocabulary_cache(embedder))  # the same for every graph
    vectors.update(await embed_texts(embedder, sorted({w for ws in groups.values() for w in ws}), cache_dir))
    return merged(SYNONYMS, neighbour_synonyms(groups, vocabulary, vectors, top=neighbours))


def augmented(
    examples: Sequence[Example], k: int, seed: int, synonyms: Mapping[str, Sequence[str]] = SYNONYMS
) -> list[Example]:
    """``k`` copies of every example, each with another rewording of its question (none when it has none)."""
    if k <= 0:
        return []
    rewordings = {q: variants(q, 2 * k, seed, synonyms) for q in sorted({e.inputs.question for e in examples})}
    out: list[Example] = []
    for i, e in enumerate(examples):
        options = rewordings[e.inputs.question]
        for j in range(min(k, len(options))):
            question = options[(i + j) % len(options)]
            out.append(replace(e, inputs=replace(e.inputs, question=question)))
    return out


def _deterministic(fn: Callable[P, Awaitable[R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """Run ``fn`` with torch's deterministic algorithms on (restored afterwards)."""

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        torch = require_extra("torch", "train", "training a learned decider")

        previous = torch.are_deterministic_algorithms_enabled()
        torch.use_deterministic_algorithms(True, warn_only=True)
        try:
            return await fn(*args, **kwargs)
        finally:
            torch.use_deterministic_algorithms(previous)

    return wrapper


@_deterministic
async def fit(
    train: Sequence[Example],
    val: Sequence[Example],
    embedder: Embedder,
    out_dir: str | Path,
    *,
    options: FitOptions | None = None,
    meta: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    resume: bool = True,
) -> dict[str, Any]:
    """Train, calibrate and write the artifact (module docstring). Returns the metrics written.

    Runs with torch's deterministic algorithms (the multi-threaded CPU backward of the embedding look-ups sums
    in a varying order otherwise), so the same data and options give the same weights, bit for bit."""
    import torch

    opts = options or FitOptions()
    out = make_dir(Path(out_dir))
    if not train:
        raise ValueError("no training decisions: nothing to learn from")
    validated_on = "val"
    if not val:  # a handful of questions: validate (and calibrate) on the training decisions, and say so
        val, validated_on = list(train), "train (no validation decisions)"
    started = time.perf_counter()
    signature = data_hash([*train, *val])
    vocab = Vocab.build([e.inputs for e in train])
    tr_original = train
    synonyms = await rewording_table(train, embedder, out / "cache", opts.neighbours) if opts.augment > 0 else {}
    train = [*train, *augmented(train, opts.augment, opts.seed, synonyms)]
    texts = sorted({t for e in (*train, *val) for t in e.inputs.texts()})
    vectors = await embed_texts(embedder, texts, out / "cache", progress)
    embed_s = time.perf_counter() - started
    questions = sorted({e.inputs.question for e in (*train, *val)})
    qindex = {q: i for i, q in enumerate(questions)}
    qmatrix = np.stack([vectors[q] for q in questions]).astype(np.float32)
    # every move, hop and type text once; row 0 is no text (padding)
    move_texts = sorted({t for e in (*train, *val) for t in (*e.inputs.moves, *e.inputs.path_moves)})
    move_texts += sorted({type_text(k) for e in (*train, *val) for k in e.inputs.types} - set(move_texts))
    tindex = {t: i + 1 for i, t in enumerate(move_texts)}
    tmatrix = np.zeros((len(move_texts) + 1, qmatrix.shape[1]), dtype=np.float32)
    for t, i in tindex.items():
        tmatrix[i] = vectors[t]
    tr, va = _Tensors(train, vocab, qindex, vectors, tindex), _Tensors(val, vocab, qindex, vectors, tindex)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    qt = torch.tensor(qmatrix, device=device)
    tt = torch.tensor(tmatrix, device=device)

    def tensors(t: _Tensors, idx: np.ndarray) -> tuple[Any, ...]:
        ptext = torch.tensor(t.ptext[idx], device=device)
        hops = (ptext > 0).sum(1)
        rows = torch.arange(len(idx), device=device)
        last = tt[ptext[rows, (hops - 1).clamp(min=0)]]  # row 0 (zeros) when no hop was taken
        mean = tt[ptext].sum(1) / hops.clamp(min=1)[:, None]
        text = (
            tt[torch.tensor(t.mtext[idx], device=device)],
            tt[torch.tensor(t.ttext[idx], device=device)],
            last,
            mean,
        )
        return (
            qt[torch.tensor(t.q[idx], device=device)],
            torch.tensor(t.path[idx], device=device),
            torch.tensor(t.tok[idx], device=device),
            torch.tensor(t.typ[idx], device=device),
            torch.tensor(t.extra[idx], device=device),
            text if opts.text_dim else None,
        )

    def net_scores(net: Any, t: _Tensors) -> np.ndarray:
        net.eval()
        parts = []
        with torch.no_grad():
            for i in range(0, len(t.q), 4096):
                idx = np.arange(i, min(i + 4096, len(t.q)))
                parts.append(net(*tensors(t, idx)).cpu().numpy())
        return np.concatenate(parts).astype(np.float64)

    def train_member(k: int) -> tuple[Any, list[dict[str, Any]]]:
        """Member ``k`` (seed ``seed + k``): epochs with a checkpoint after each, the best validation epoch kept."""
        seed = opts.seed + k
        torch.manual_seed(seed)
        net = _module(torch, vocab, qmatrix.shape[1], opts).to(device)
        optim = torch.optim.Adam(net.parameters(), lr=opts.lr, weight_decay=opts.weight_decay)
        checkpoint = out / f"checkpoint-{k}.pt"
        start_epoch, best_loss, best_state, history, stale = 0, math.inf, None, [], 0
        if resume and checkpoint.is_file():
            saved = torch.load(checkpoint, map_location=device, weights_only=False)
            if saved.get("signature") == signature and _resumable(saved.get("options")) == _resumable(opts.__dict__):
                net.load_state_dict(saved["net"])
                optim.load_state_dict(saved["optim"])
                start_epoch, best_loss, best_state = saved["epoch"], saved["best_loss"], saved["best_state"]
                history, stale = saved["history"], saved["stale"]
                torch.set_rng_state(saved["torch_rng"])  # dropout draws continue as if never interrupted
        rng = np.random.default_rng(seed)
        for _ in range(start_epoch):
            rng.permutation(len(tr.q))  # keep the shuffles of a resumed run identical to an uninterrupted one
        for epoch in range(start_epoch, opts.epochs):
            if stale >= opts.patience:
                break
            net.train()
            order = rng.permutation(len(tr.q))
            for i in range(0, len(order), opts.batch_size):
                idx = order[i : i + opts.batch_size]
                logits = net(*tensors(tr, idx))
                mask = torch.tensor(tr.mask[idx], device=device)
                target = torch.tensor(tr.target[idx], device=device)
                logp = torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)
                soft = -(target * logp.masked_fill(~mask, 0.0)).sum(1)
                in_set = -torch.logsumexp(logp.masked_fill(~(mask & (target > 0)), -1e9), dim=1)
                loss = torch.where(torch.tensor(tr.set_valued[idx], device=device), in_set, soft).mean()
                optim.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]  # torch's Tensor.backward is unannotated
                optim.step()
            val_metrics = decision_metrics(
                _softmax_rows(net_scores(net, va), va.mask, 1.0), va.target, va.mask, va.set_valued
            )
            history.append({"member": k, "epoch": epoch + 1, **val_metrics})
            if val_metrics["nll"] < best_loss - 1e-6:
                best_loss, stale = val_metrics["nll"], 0
                best_state = {name: v.detach().clone() for name, v in net.state_dict().items()}
            else:
                stale += 1
            torch.save(
                {
                    "signature": signature,
                    "options": opts.__dict__,
                    "net": net.state_dict(),
                    "optim": optim.state_dict(),
                    "epoch": epoch + 1,
                    "best_loss": best_loss,
                    "best_state": best_state,
                    "history": history,
                    "stale": stale,
                    "torch_rng": torch.get_rng_state(),
                },
                checkpoint,
            )
            if progress:
                progress.advance("train", k * opts.epochs + epoch + 1, opts.members * opts.epochs)
        if best_state is not None:
            net.load_state_dict(best_state)
        return net, history

    train_started = time.perf_counter()
    nets, history = [], []
    for k in range(opts.members):
        net, member_history = train_member(k)
        nets.append(net)
        history.extend(member_history)

    def scores_of(t: _Tensors) -> np.ndarray:
        return np.asarray(np.mean([net_scores(net, t) for net in nets], axis=0))

    train_s = time.perf_counter() - train_started
    val_scores = scores_of(va)
    temperature = fit_temperature(val_scores, va.target, va.mask, va.set_valued)
    before = decision_metrics(_softmax_rows(val_scores, va.mask, 1.0), va.target, va.mask, va.set_valued)
    after = decision_metrics(_softmax_rows(val_scores, va.mask, temperature), va.target, va.mask, va.set_valued)
    train_metrics = decision_metrics(
        _softmax_rows(scores_of(tr), tr.mask, temperature), tr.target, tr.mask, tr.set_valued
    )
    groups: dict[str, dict[str, float]] = {}
    for group in sorted({e.group for e in val}):
        idx = np.asarray([i for i, e in enumerate(val) if e.group == group])
        groups[group] = decision_metrics(
            _softmax_rows(val_scores[idx], va.mask[idx], temperature),
            va.target[idx],
            va.mask[idx],
            va.set_valued[idx],
        )
    save_members(out / MODEL_FILE, [_weights(net) for net in nets])
    config = {
        "format": FORMAT_VERSION,
        "name": out.name,
        "embedder": embedder.model_id,
        "vocab": {"tokens": vocab.tokens, "types": vocab.types},
        "temperature": temperature,
        # STOP ruled out where the question names another type of answer (model.LearnedDecider.probabilities);
        # false turns it off for this artifact. Artifacts from before it was recorded walk with it on.
        "stop_rule": True,
        "options": opts.__dict__,
        "training_data_sha256": signature,
        "device": device,
        **(meta or {}),
    }
    (out / CONFIG_FILE).write_text(json.dumps(config, indent=2, ensure_ascii=False), encoding="utf-8")
    metrics = {
        "decisions": {"train": len(train), "val": len(val), "augmented": len(train) - len(tr_original)},
        "validated_on": validated_on,
        "val_before_temperature": before,
        "val": after,
        "train": train_metrics,
        "val_by_group": groups,
        "temperature": temperature,
        "history": history,
        "seconds": {
            "embed": round(embed_s, 1),
            "train": round(train_s, 1),
            "total": round(time.perf_counter() - started, 1),
        },
    }
    (out / METRICS_FILE).write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    return metrics
