"""Training a learned decider from question–answer pairs, end to end: read the pairs (:mod:`.qa`), mine
decisions (:mod:`.mining`, kept on disk by :mod:`.dataset`), fit the model (:mod:`.fit`) and the mention scorer
for linking from plain text (:mod:`.linker`)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.profile import load_profile
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.learned.artifact import COMPANION_PLAUSIBLE, COMPANION_WEIGHT, METRICS_FILE
from graphwalk_neo4j.learned.dataset import build_dataset
from graphwalk_neo4j.learned.fit import Example, fit, make_dir
from graphwalk_neo4j.learned.graph_questions import SamplingOptions, graph_pairs, read_graph
from graphwalk_neo4j.learned.inputs import sole_unnamed, typed_for, unnamed_types
from graphwalk_neo4j.learned.linker import fit_linker, template_counts
from graphwalk_neo4j.learned.mining import MiningOptions, mining_config
from graphwalk_neo4j.learned.qa import (
    TEST_SHARE,
    VAL_SHARE,
    QAFormat,
    QAPair,
    Split,
    load_qa,
    qa_hash,
    sample_pairs,
    split_of,
)
from graphwalk_neo4j.learned.role_types import fill_node_types, infer_role_types, type_links
from graphwalk_neo4j.walk.entry import best_per_span, names_query, question_spans

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from graphwalk_neo4j.graph.profile import GraphProfile
    from graphwalk_neo4j.progress import Progress
    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.store.queries import DegreeRow, SpanDegreeRow
    from graphwalk_neo4j.walk.config import WalkConfig


async def mention_candidates(
    store: GraphStore,
    graph: str,
    pairs: Sequence[QAPair],
    batch: int = 256,
    profile: GraphProfile | None = None,
) -> list[tuple[str, list[tuple[str, DegreeRow]], int | None]]:
    """Per question: its exact-name mentions (the walk's own spans and look-up, one round trip per batch of
    questions; an adopted graph's names with ``profile``) and the index of the one naming its topic (``None``
    when the topic is not among them)."""
    lookup = names_query(profile)
    out: list[tuple[str, list[tuple[str, DegreeRow]], int | None]] = []
    for i in range(0, len(pairs), batch):
        part = pairs[i : i + batch]
        spans = [question_spans(q.text) for q in part]
        names = sorted({s for group in spans for s in group})
        rows = await store.read(lookup, graph=graph, names=names, bookkeeping=BOOKKEEPING_TYPES)
        found: dict[str, list[SpanDegreeRow]] = {}
        for row in rows:
            found.setdefault(row["span"], []).append(row)
        for q, group in zip(part, spans, strict=True):
            candidates = best_per_span({s: found[s] for s in group if s in found})
            topic = " ".join(q.topic.lower().split())
            gold = next((k for k, (span, _) in enumerate(candidates) if span == topic), None)
            out.append((q.text, candidates, gold))
    return out


@dataclass
class LinkerQuestions:
    """One graph's training and validation questions for the mention scorer."""

    graph: str
    train: Sequence[QAPair]
    val: Sequence[QAPair]
    profile: GraphProfile | None = None


async def train_linker(store: GraphStore, graphs: Sequence[LinkerQuestions]) -> tuple[Any, dict[str, Any]]:
    """Fit the mention scorer (:mod:`graphwalk_neo4j.learned.linker`) on the training questions of every graph;
    report its linking accuracy (topic first among the exact mentions) on the validation questions, beside
    longest-match-first."""
    outside, inside = template_counts(q.raw for part in graphs for q in part.train if q.raw)
    seen = []
    checked = []
    for part in graphs:
        seen += await mention_candidates(store, part.graph, part.train, profile=part.profile)
        checked += await mention_candidates(store, part.graph, part.val, profile=part.profile)
    linker, fitted = fit_linker([(q, c, g) for q, c, g in seen if g is not None], outside, inside)
    hit = longest = 0
    for question, candidates, gold in checked:
        if gold is None or not candidates:
            continue
        scores = linker(question, candidates)
        hit += int(max(range(len(candidates)), key=lambda k: (scores[k], -k)) == gold)
        longest += int(gold == 0)
    n = len(checked)
    return linker, {
        "train": fitted,
        "val_questions": n,
        "val_accuracy": hit / n if n else None,
        "val_accuracy_longest_first": longest / n if n else None,
    }


# -- the whole pipeline ----------------------------------------------------------------------------------


async def train_from_qa(
    store: GraphStore,
    graph: str,
    embedder: Any,
    qa_paths: Sequence[str],
    out_dir: str | Path,
    *,
    fmt: QAFormat = "metaqa",
    seed: int = 0,
    per_file: int | None = None,
    config: WalkConfig | None = None,
    mining: MiningOptions | None = None,
    fit_options: Any = None,
    observe: Progress | None = None,
) -> dict[str, Any]:
    """QA pairs -> mined decisions -> a fitted, calibrated artifact in ``out_dir`` (resumable)."""
    pairs = sample_pairs(load_qa(qa_paths, fmt), per_file, seed)
    if not pairs:
        raise InputError("no questions in the --qa files", path=qa_paths[0] if qa_paths else None)
    meta = {
        "source": "qa",
        "qa_files": [str(p) for p in qa_paths],
        "qa_format": fmt,
        "qa_sha256": qa_hash(pairs),
        "split": {"seed": seed, "val": VAL_SHARE, "test": TEST_SHARE, "by": "question"},
        "per_file": per_file,
    }
    splits = {q.id: split_of(seed, q.text) for q in pairs}
    return await train_on_pairs(
        store,
        graph,
        embedder,
        pairs,
        splits,
        out_dir,
        meta,
        config=config,
        mining=mining,
        fit_options=fit_options,
        observe=observe,
    )


@dataclass
class GraphQuestions:
    """A graph's own questions (:mod:`.graph_questions`) and the readings they were worded with."""

    pairs: list[QAPair]
    role_types: dict[str, str]  # the types a graph without its own was given (empty for a typed graph)
    links: dict[str, list[str]]  # per type, the types one move away
    seconds: float

    @property
    def unnamed_as_asked(self) -> bool:
        """Whether the graph has exactly one unnamed type, which its questions call by stand-in nouns
        (graph_questions, 4) and the model reads as the noun a question asks for (:func:`~.inputs.typed_as_asked`);
        several are called by stand-ins too, but none is read so."""
        return sole_unnamed(self.role_types) is not None


async def graph_questions(
    store: GraphStore,
    graph: str,
    data_dir: Path,
    sampling: SamplingOptions,
    observe: Progress | None = None,
) -> GraphQuestions:
    """Read ``graph`` and write its questions into ``data_dir``, or read what an earlier run wrote there (the same
    questions, role types and type links, so a resumed run mines and fits the same ones)."""
    started = time.perf_counter()
    pairs = read_questions(data_dir, sampling)
    role_types = read_data_file(data_dir, ROLE_TYPES_FILE)
    links = read_data_file(data_dir, TYPE_LINKS_FILE)
    if pairs is None:
        index = await read_graph(store, graph, observe, profile=await load_profile(store, graph))
        if index.relationships == 0:
            raise InputError(
                f"graph {graph!r} has no relationships to learn from: ingest or adopt it first "
                "(gw-neo4j graphs lists the graphs)"
            )
        # a graph loaded without types gets them from its structure, before its questions are worded
        role_types = infer_role_types(index)
        fill_node_types(index, role_types)
        links = type_links(index, role_types)
        pairs = graph_pairs(index, sampling, observe, unnamed=unnamed_types(role_types))
        write_data_file(data_dir, ROLE_TYPES_FILE, role_types)
        write_data_file(data_dir, TYPE_LINKS_FILE, links)
        write_questions(data_dir, pairs, sampling)
    return GraphQuestions(pairs, role_types, links, time.perf_counter() - started)


def graph_split(sampling: SamplingOptions) -> dict[str, Any]:
    """``config.json``'s ``split`` for questions written from graphs: train and validation, nothing held out."""
    return {"seed": sampling.seed, "val": VAL_SHARE, "test": 0.0, "by": "question"}


def graph_meta(sampling: SamplingOptions, written: GraphQuestions) -> dict[str, Any]:
    """What ``config.json`` says of questions written from a graph."""
    return {
        "source": "graph",
        "graph_questions": {**sampling.__dict__, "written": len(written.pairs), "sha256": qa_hash(written.pairs)},
        "qa_sha256": qa_hash(written.pairs),
        "split": graph_split(sampling),
    }


def graph_splits(sampling: SamplingOptions, pairs: Sequence[QAPair]) -> dict[str, Split]:
    """Train and validation only: the graph's own questions are not an evaluation."""
    return {q.id: split_of(sampling.seed, q.text, test=0.0) for q in pairs}


async def train_from_graph(
    store: GraphStore,
    graph: str,
    embedder: Any,
    out_dir: str | Path,
    *,
    sampling: SamplingOptions | None = None,
    config: WalkConfig | None = None,
    mining: MiningOptions | None = None,
    fit_options: Any = None,
    observe: Progress | None = None,
    companion: str | None = None,
) -> dict[str, Any]:
    """The graph alone -> questions written from its relation paths (:mod:`.graph_questions`) -> mined decisions
    -> a fitted artifact in ``out_dir``. The questions are kept in ``DIR/data/questions.jsonl``, so a resumed run
    mines and fits the same ones. No question is held out: the graph's own questions are not an evaluation.
    ``companion``: the model it walks beside (``config.json`` ``companion``, :data:`~.artifact.COMPANION_WEIGHT`,
    :data:`~.artifact.COMPANION_PLAUSIBLE`)."""
    out = Path(out_dir)
    sampling = sampling or SamplingOptions()
    written = await graph_questions(store, graph, out / "data", sampling, observe)
    meta = {
        **graph_meta(sampling, written),
        "role_types": written.role_types,
        "type_links": written.links,
        "unnamed_as_asked": written.unnamed_as_asked,
    }
    if companion:
        meta |= {
            "companion": companion,
            "companion_weight": COMPANION_WEIGHT,
            "companion_plausible": COMPANION_PLAUSIBLE,
        }
    metrics = await train_on_pairs(
        store,
        graph,
        embedder,
        written.pairs,
        graph_splits(sampling, written.pairs),
        out,
        meta,
        config=config,
        mining=mining,
        fit_options=fit_options,
        observe=observe,
    )
    metrics["seconds"]["questions"] = round(written.seconds, 1)
    (out / METRICS_FILE).write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    return metrics


GRAPHS_DIR = "graphs"  # DIR/data/graphs/<graph>/: one graph's questions and mined decisions in a model of several


async def train_from_graphs(
    store: GraphStore,
    graphs: Sequence[str],
    embedder: Any,
    out_dir: str | Path,
    *,
    sampling: SamplingOptions | None = None,
    config: WalkConfig | None = None,
    mining: MiningOptions | None = None,
    fit_options: Any = None,
    observe: Progress | None = None,
    companion: str | None = None,
) -> dict[str, Any]:
    """One model from several graphs alone, for graphs it never saw (a *general* model): each graph's questions
    written and mined as :func:`train_from_graph` does, in ``DIR/data/graphs/<graph>/`` (resumable), then one fit
    and one mention scorer over all of them. ``config.json`` keeps each graph's role types (a relation name two
    graphs share takes the first graph's) but no type links: the STOP rule's look two moves ahead reads a graph's
    own schema, and this model walks other graphs. One graph is :func:`train_from_graph` (with ``companion``;
    a model of several graphs walks alone)."""
    if len(graphs) == 1:
        return await train_from_graph(
            store,
            graphs[0],
            embedder,
            out_dir,
            sampling=sampling,
            config=config,
            mining=mining,
            fit_options=fit_options,
            observe=observe,
            companion=companion,
        )
    if len(set(graphs)) != len(graphs):
        raise InputError(f"--graph names a graph twice: {', '.join(graphs)}")
    out = Path(out_dir)
    sampling = sampling or SamplingOptions()
    mining = mining or MiningOptions()
    config = config or mining_config()
    started = time.perf_counter()
    questions_s = 0.0
    train: list[Example] = []
    val: list[Example] = []
    role_types: dict[str, str] = {}
    linking: list[LinkerQuestions] = []
    per_graph: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    unnamed_as_asked = False
    for graph in graphs:
        data = out / "data" / GRAPHS_DIR / graph
        written = await graph_questions(store, graph, data, sampling, observe)
        questions_s += written.seconds
        splits = graph_splits(sampling, written.pairs)
        mined = await mined_examples(
            store,
            graph,
            written.pairs,
            splits,
            data,
            written.role_types,
            config,
            mining,
            observe,
            unnamed_as_asked=written.unnamed_as_asked,
        )
        unnamed_as_asked = unnamed_as_asked or written.unnamed_as_asked
        train += mined.train
        val += mined.val
        for key, value in written.role_types.items():
            role_types.setdefault(key, value)
        linking.append(LinkerQuestions(graph, mined.train_pairs, mined.val_pairs, mined.profile))
        per_graph[graph] = {**graph_meta(sampling, written), "mining_coverage": mined.coverage}
        rows += mined.rows
    mine_s = time.perf_counter() - started - questions_s
    meta = {
        "graph": ", ".join(graphs),
        "graphs": list(graphs),
        "source": "graphs",
        "per_graph": per_graph,
        "split": graph_split(sampling),
        "role_types": role_types,
        "type_links": {},
        "unnamed_as_asked": unnamed_as_asked,
        "questions": {"train": sum(len(x.train) for x in linking), "val": sum(len(x.val) for x in linking), "test": 0},
        "walk_config": config.model_dump(mode="json"),
        "mining": mining.__dict__,
        "mining_coverage": mining_coverage(rows),
    }
    seconds = {"mine": mine_s, "questions": questions_s}
    return await fit_and_link(store, embedder, out, train, val, linking, meta, seconds, fit_options, observe)


ROLE_TYPES_FILE = "role_types.json"  # the types a graph without its own was given (learned/role_types.py)
TYPE_LINKS_FILE = "type_links.json"  # per type, the types one move away (role_types.type_links)


def write_data_file(directory: Path, name: str, value: dict[str, Any]) -> None:
    """One of the graph's readings kept beside its questions (``role_types.json``, ``type_links.json``), so a
    resumed run fits with the same ones."""
    make_dir(directory)
    (directory / name).write_text(json.dumps(value, indent=1, ensure_ascii=False), encoding="utf-8")


def read_data_file(directory: Path, name: str) -> dict[str, Any]:
    """What :func:`write_data_file` kept; ``{}`` when it kept nothing (a run from before that file)."""
    path = directory / name
    return dict(json.loads(path.read_text(encoding="utf-8"))) if path.is_file() else {}


QUESTIONS_FILE = "questions.jsonl"
SAMPLING_FILE = "questions.json"  # the sampling options the questions were written with


def write_questions(directory: Path, pairs: Sequence[QAPair], sampling: SamplingOptions) -> None:
    make_dir(directory)
    (directory / SAMPLING_FILE).write_text(json.dumps(sampling.__dict__), encoding="utf-8")
    text = "".join(json.dumps(q.__dict__, ensure_ascii=False) + "\n" for q in pairs)
    partial = directory / (QUESTIONS_FILE + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(directory / QUESTIONS_FILE)  # whole or not at all


def read_questions(directory: Path, sampling: SamplingOptions) -> list[QAPair] | None:
    """The questions an earlier run wrote into ``directory``; an error when they were written with other
    options (resuming must not mix two question sets)."""
    path = directory / QUESTIONS_FILE
    if not path.is_file():
        return None
    options = directory / SAMPLING_FILE
    recorded = json.loads(options.read_text(encoding="utf-8")) if options.is_file() else None
    if recorded is not None and recorded != sampling.__dict__:
        raise InputError(
            f"{directory.parent} holds questions written with {recorded}, not {sampling.__dict__}: "
            "pass the same --questions and --seed to resume, or a new --out"
        )
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [QAPair(**{**row, "answers": tuple(row["answers"])}) for row in rows]


@dataclass
class MinedExamples:
    """One graph's mined decisions as training and validation examples, typed as the model reads them."""

    train: list[Example]
    val: list[Example]
    train_pairs: list[QAPair]
    val_pairs: list[QAPair]
    rows: list[dict[str, Any]]  # the mined record of every question of the splits (mining.MinedQuestion as a dict)
    profile: GraphProfile

    @property
    def coverage(self) -> dict[str, dict[str, float]]:
        return mining_coverage(self.rows)


def mining_coverage(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per hop count: the questions mined, how many of them have a gold path, and their mean best F1."""
    coverage: dict[str, dict[str, float]] = {}
    for row in rows:
        c = coverage.setdefault(f"{row['hops']}hop", {"questions": 0, "with_gold_path": 0, "best_f1_sum": 0.0})
        c["questions"] += 1
        c["with_gold_path"] += 1 if row["gold_paths"] else 0
        c["best_f1_sum"] += row["best_f1"]
    for c in coverage.values():
        c["mean_best_f1"] = round(c.pop("best_f1_sum") / max(1, c["questions"]), 4)
    return coverage


async def mined_examples(
    store: GraphStore,
    graph: str,
    pairs: Sequence[QAPair],
    splits: dict[str, Split],
    data_dir: Path,
    role_types: dict[str, str],
    config: WalkConfig,
    mining: MiningOptions,
    observe: Progress | None = None,
    *,
    unnamed_as_asked: bool = False,
) -> MinedExamples:
    """Mine the pairs not in ``test`` into ``data_dir`` (resumable) and type their decisions with ``role_types``
    (the walk's decisions on an untyped graph, typed as the model reads them; with ``unnamed_as_asked``, the
    one unnamed type as each question asks for it, :func:`~.inputs.typed_as_asked`)."""
    usable = [q for q in pairs if splits[q.id] != "test"]
    profile = await load_profile(store, graph)
    decisions, mined = await build_dataset(store, graph, usable, data_dir, config, mining, observe, profile=profile)
    examples: dict[str, list[Example]] = {"train": [], "val": []}
    for d in decisions:
        split = splits.get(d.qid)
        if split in examples:
            typed = typed_for(d.inputs, role_types, {}, name_unnamed=unnamed_as_asked)[0]
            examples[split].append(Example(typed, d.target, f"{d.hops}hop", True))
    return MinedExamples(
        examples["train"],
        examples["val"],
        [q for q in usable if splits[q.id] == "train"],
        [q for q in usable if splits[q.id] == "val"],
        [row for row in mined.values() if row["qid"] in splits],
        profile,
    )


async def train_on_pairs(
    store: GraphStore,
    graph: str,
    embedder: Any,
    pairs: Sequence[QAPair],
    splits: dict[str, Split],
    out_dir: str | Path,
    meta: dict[str, Any],
    *,
    config: WalkConfig | None = None,
    mining: MiningOptions | None = None,
    fit_options: Any = None,
    observe: Progress | None = None,
) -> dict[str, Any]:
    """Mine decisions for the pairs not in ``test``, fit on ``train`` (``val`` picks the epoch and the
    temperature), train the mention scorer, and write the artifact (resumable)."""
    out = Path(out_dir)
    mining = mining or MiningOptions()
    config = config or mining_config()
    started = time.perf_counter()
    mined = await mined_examples(
        store,
        graph,
        pairs,
        splits,
        out / "data",
        meta.get("role_types") or {},
        config,
        mining,
        observe,
        unnamed_as_asked=bool(meta.get("unnamed_as_asked")),
    )
    mine_s = time.perf_counter() - started
    meta = {
        "graph": graph,
        **meta,
        "questions": {s: sum(1 for v in splits.values() if v == s) for s in ("train", "val", "test")},
        "walk_config": config.model_dump(mode="json"),
        "mining": mining.__dict__,
        "mining_coverage": mined.coverage,
    }
    linking = [LinkerQuestions(graph, mined.train_pairs, mined.val_pairs, mined.profile)]
    return await fit_and_link(
        store, embedder, out, mined.train, mined.val, linking, meta, {"mine": mine_s}, fit_options, observe
    )


async def fit_and_link(
    store: GraphStore,
    embedder: Any,
    out: Path,
    train: Sequence[Example],
    val: Sequence[Example],
    linking: Sequence[LinkerQuestions],
    meta: dict[str, Any],
    seconds: dict[str, float],
    fit_options: Any,
    observe: Progress | None,
) -> dict[str, Any]:
    """Fit the model on the mined examples (``meta`` goes into ``config.json``), then the mention scorer on the
    graphs' questions, and write the artifact and ``metrics.json`` with the stages' ``seconds``."""
    metrics = await fit(train, val, embedder, out, options=fit_options, meta=meta, progress=observe)
    metrics["seconds"].update({stage: round(s, 1) for stage, s in seconds.items()})
    metrics["mining_coverage"] = meta["mining_coverage"]
    started = time.perf_counter()
    linker, metrics["linking"] = await train_linker(store, linking)
    linker.save(out)
    metrics["seconds"]["linker"] = round(time.perf_counter() - started, 1)
    (out / METRICS_FILE).write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    return metrics
