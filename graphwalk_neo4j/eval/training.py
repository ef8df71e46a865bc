"""Training data for the learned decider, from question–answer pairs (weak supervision) over a Neo4j graph.

1. **Questions.** ``question<TAB>answer1|answer2`` lines with one ``[topic]`` (``--format metaqa``) or JSON
   lines ``{"question", "answers", "topic"?}`` (``--format jsonl``; without ``topic`` the ``[bracketed]`` span
   is the topic). Each question falls in ``train``, ``val`` or ``test`` by a hash of ``(seed, question text)``
   (:func:`split_of`): a fixed-seed split *by question*, so the same wording never lands on two sides.
   ``val`` chooses the epoch and fits the temperature; ``test`` is never trained on (``eval metaqa
   --heldout DIR`` evaluates on it).
2. **Path mining** (:func:`mine_batch`). For a batch of questions, the walk's own relation expander
   (:class:`~graphwalk_neo4j.walk.graph_expander.Neo4jExpander`) expands every open path of every question
   in ONE Cypher round trip per hop, with the walk's rules (visited nodes excluded, the same option limits). Each
   path's end set is scored against the gold answers (answer-set F1). When a question's hop count is known
   (MetaQA's file names, a ``hops`` field) its gold paths have exactly that length: otherwise short cuts win
   (a film's language is often the language of the films that share its director, so a 3-hop question would be
   learnt as 1 hop). Without it, paths grow up to ``max_hops`` and a question stops growing once a path
   reaches F1 = 1. Frontiers above ``max_mine_frontier`` nodes are not expanded further (hub paths are never
   the precise answer). The gold paths are those with the best F1 (at least ``min_f1``), shortest first.
3. **Teacher forcing.** Along every gold path, each state the walk would have asked about (at least two
   legal options, or one and STOP) becomes a decision with the real graph's offers, STOP included (STOP is
   right at the end of a gold path), built with the walk's own :func:`~graphwalk_neo4j.walk.prompts.build_context`.
   The target spreads evenly over every option that continues some gold path (ties are common: a film's
   director is often its writer).

Decisions are appended to ``DIR/decisions.jsonl`` batch by batch (with ``DIR/mined.jsonl`` listing every
question done), so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from graphwalk_neo4j.decide.learned_fit import Example, fit, make_dir
from graphwalk_neo4j.decide.learned_inputs import DecisionInputs, decision_inputs
from graphwalk_neo4j.decide.linker import fit_linker, template_counts
from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.eval.metaqa import parse_question_line
from graphwalk_neo4j.eval.metrics import answer_set, precision_recall_f1
from graphwalk_neo4j.graph.identity import entity_id, entity_uid
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.store.queries import ENTITIES_BY_ID, EXACT_NAMES, DegreeRow, SpanDegreeRow
from graphwalk_neo4j.walk import prompts
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.entry import best_per_span, question_spans
from graphwalk_neo4j.walk.graph_expander import Neo4jExpander
from graphwalk_neo4j.walk.ports import ExpandRequest, Move, NodeRef, Option
from graphwalk_neo4j.walk.result import PathStep

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore

Split = Literal["train", "val", "test"]
QAFormat = Literal["metaqa", "jsonl"]
VAL_SHARE = 0.1
TEST_SHARE = 0.2
_TOPIC = re.compile(r"\[([^\[\]]+)\]")
_HOPS = re.compile(r"(\d)hop")


@dataclass(frozen=True)
class QAPair:
    id: str
    text: str  # without brackets: what the walk is asked
    topic: str
    answers: tuple[str, ...]
    hops: int = 0  # from the file name (qa_dev_2hop.txt) when known; for reporting only
    raw: str = ""  # the question as written, with its [topic]


def split_of(seed: int, text: str, val: float = VAL_SHARE, test: float = TEST_SHARE) -> Split:
    """``train`` / ``val`` / ``test`` by sha256 of ``"{seed}:{normalised question}"`` (brackets ignored)."""
    key = " ".join(text.replace("[", "").replace("]", "").casefold().split())
    u = int.from_bytes(hashlib.sha256(f"{seed}:{key}".encode()).digest()[:8], "big") / 2**64
    return "test" if u < test else "val" if u < test + val else "train"


def load_qa(paths: Sequence[str | Path], fmt: QAFormat = "metaqa") -> list[QAPair]:
    out: list[QAPair] = []
    for path in paths:
        p = Path(path)
        if not p.is_file():
            raise InputError("no such question file; pass --qa FILE (MetaQA qa_*.txt or JSON lines)", path=p)
        match = _HOPS.search(p.name)
        hops = int(match.group(1)) if match else 0
        for line_no, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            qid = f"{p.stem}:{line_no}"
            if fmt == "metaqa":
                q = parse_question_line(line, split=p.stem, hops=hops, line=line_no, path=p)
                out.append(QAPair(qid, q.text_without_brackets, q.topic, q.answers, hops, q.text))
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(
                    f"not JSON ({exc.msg}); --format jsonl wants one "
                    '{"question", "answers", "topic"} object per line',
                    path=p,
                    line=line_no,
                ) from exc
            question, answers = row.get("question"), row.get("answers")
            if not isinstance(question, str) or not isinstance(answers, list) or not answers:
                raise InputError(
                    'each line needs "question" (text) and "answers" (a non-empty list)', path=p, line=line_no
                )
            topic = row.get("topic")
            if not isinstance(topic, str):
                found = _TOPIC.findall(question)
                if len(found) != 1:
                    raise InputError(
                        'no "topic" and not exactly one [bracketed] entity in the question', path=p, line=line_no
                    )
                topic = found[0]
            raw = question if "[" in question else question.replace(topic, f"[{topic}]", 1)
            out.append(
                QAPair(
                    qid,
                    _TOPIC.sub(lambda m: m.group(1), question),
                    topic.strip(),
                    tuple(str(a) for a in answers),
                    int(row.get("hops") or hops),
                    raw,
                )
            )
    return out


def qa_hash(pairs: Iterable[QAPair]) -> str:
    digest = hashlib.sha256()
    for q in pairs:
        digest.update(json.dumps([q.id, q.text, q.topic, list(q.answers)], ensure_ascii=False).encode())
    return digest.hexdigest()


# -- mining ----------------------------------------------------------------------------------------------


@dataclass
class _Node:
    qi: int
    moves: tuple[tuple[str, str], ...]
    steps: tuple[PathStep, ...]
    current: tuple[NodeRef, ...]
    visited: frozenset[str]
    f1: float = 0.0
    options: list[Option] | None = None  # the legal offers here, once expanded
    via: Option | None = None  # the move that led here, while its far ends are not read yet


@dataclass
class Decision:
    qid: str
    hops: int
    depth: int
    inputs: DecisionInputs
    target: list[float]

    def to_json(self) -> dict[str, Any]:
        return {
            "qid": self.qid,
            "hops": self.hops,
            "depth": self.depth,
            "inputs": self.inputs.to_json(),
            "target": self.target,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        return cls(
            qid=data["qid"],
            hops=int(data["hops"]),
            depth=int(data["depth"]),
            inputs=DecisionInputs.from_json(data["inputs"]),
            target=[float(t) for t in data["target"]],
        )


@dataclass
class MinedQuestion:
    qid: str
    hops: int
    best_f1: float
    gold_paths: list[list[str]] = field(default_factory=list)
    decisions: int = 0
    linked: bool = True


@dataclass
class MiningOptions:
    max_hops: int = 3
    min_f1: float = 0.5
    max_mine_frontier: int = 500
    batch_size: int = 256
    use_hops: bool = True  # gold paths have the question's hop count when it is known
    concurrency: int = 2  # batches in flight at once (Neo4j answers one while Python scores the other)


async def mine_batch(
    store: GraphStore,
    graph: str,
    pairs: Sequence[QAPair],
    config: WalkConfig,
    options: MiningOptions,
    *,
    option_limit: int = 254,
) -> tuple[list[Decision], list[MinedQuestion]]:
    """Mine gold relation paths for ``pairs`` and teacher-force decisions along them (module docstring)."""
    expander = Neo4jExpander(store, graph, None)
    uids = [entity_uid(graph, entity_id(q.topic)) for q in pairs]
    rows = await store.read(ENTITIES_BY_ID, uids=uids, bookkeeping=BOOKKEEPING_TYPES)
    by_id = {
        r["id"]: NodeRef(id=r["id"], name=r["name"], type=r.get("type"), importance=float(r.get("degree") or 0))
        for r in rows
    }
    gold = [answer_set(q.answers) for q in pairs]
    nodes: list[_Node] = []
    starts: dict[int, tuple[NodeRef, ...]] = {}
    for qi, q in enumerate(pairs):
        ref = by_id.get(entity_id(q.topic))
        if ref is not None:
            starts[qi] = (ref,)
            nodes.append(_Node(qi, (), (), (ref,), frozenset({ref.id})))
    done: set[int] = set()
    target = [_target_length(q, options) for q in pairs]

    def excluded(node: _Node) -> frozenset[str]:
        if not config.exclude_visited:
            return frozenset()
        if config.exclude_scope == "start":
            return frozenset(n.id for n in starts[node.qi])
        return node.visited

    def growing(node: _Node) -> bool:
        return node.qi not in done and len(node.moves) < (target[node.qi] or options.max_hops)

    async def read(wanted: Sequence[tuple[_Node, bool]]) -> None:
        """One round trip for ``wanted`` (node, moves): each node's pending move is followed (its frontier read)
        and, with ``moves``, the offers out of where it stands are read. Nodes of questions that share a topic
        and a path prefix stand on the same nodes: they share one request."""
        keyed: dict[tuple[Any, ...], list[_Node]] = {}
        for node, moves in wanted:
            if node.via is not None or moves:
                keyed.setdefault((tuple(n.id for n in starts[node.qi]), node.moves, moves), []).append(node)
        requests = []
        for k, (key, group) in enumerate(keyed.items()):
            node, moves = group[0], key[2]
            requests.append(
                ExpandRequest(
                    beam_key=str(k),
                    hop_mode="relation",
                    node_ids=tuple(n.id for n in node.current),
                    exclude_ids=tuple(sorted(excluded(node))),
                    direction=config.direction,
                    limit=min(config.max_neighbors, option_limit),
                    keep=config.prefilter_keep,
                    max_frontier=config.max_frontier,
                    query=pairs[node.qi].text,
                    follow=Move(relation=node.via.relation, direction=node.via.direction) if node.via else None,
                    moves=moves,
                )
            )
        expansions = await expander.expand(requests) if requests else []
        for (key, group), expansion in zip(keyed.items(), expansions, strict=True):
            for node in group:
                if node.via is not None:
                    node.current = tuple(expansion.frontier or ())
                    node.visited = node.visited | {t.id for t in node.current}
                    node.steps = (*node.steps[:-1], node.steps[-1].model_copy(update={"nodes": list(node.current)}))
                    node.f1 = precision_recall_f1([t.name for t in node.current], gold[node.qi]).f1
                    node.via = None
                if key[2]:
                    out = excluded(node)
                    node.options = [
                        o for o in expansion.options if not o.resolved or any(t.id not in out for t in o.targets)
                    ]

    await read([(n, True) for n in nodes])
    frontier = list(nodes)
    for depth in range(1, options.max_hops + 1):
        grown: list[_Node] = []
        for node in frontier:
            if not growing(node) or node.options is None or len(node.current) > options.max_mine_frontier:
                continue
            out = excluded(node)
            for option in node.options:
                targets = tuple(t for t in option.targets if t.id not in out) if option.resolved else ()
                step = PathStep(
                    step_id="",
                    depth=depth,
                    kind="decision",
                    label=None,
                    relation=option.relation,
                    direction=option.direction,
                    from_ids=[n.id for n in node.current],
                    from_names=[n.name for n in node.current],
                    nodes=list(targets),
                )
                child = _Node(
                    node.qi,
                    (*node.moves, (option.relation, option.direction)),
                    (*node.steps, step),
                    targets if option.resolved else node.current,
                    node.visited | {t.id for t in targets},
                    via=None if option.resolved else option,
                )
                if option.resolved:
                    child.f1 = precision_recall_f1([t.name for t in targets], gold[node.qi]).f1
                grown.append(child)
        if not grown:
            break
        nodes.extend(grown)
        # Children that go on need the offers where they stand; the last hop needs only its far ends (answer
        # sets are scored, the STOP offers of the gold paths are read below).
        # A last hop whose far ends are not read yet is read only when it could still be a gold path: its
        # sample already holds S distinct targets, so with g gold answers its F1 is at most 2g / (g + S).
        known: dict[int, float] = {}
        for c in grown:
            if c.via is None and len(c.moves) == (target[c.qi] or options.max_hops):
                known[c.qi] = max(known.get(c.qi, 0.0), c.f1)
        wanted: list[tuple[_Node, bool]] = []
        for c in grown:
            last = len(c.moves) >= (target[c.qi] or options.max_hops)
            if last and c.via is not None:
                g, seen = len(gold[c.qi]), len({t.id for t in c.via.targets} - excluded(c))
                if seen > g and 2 * g / (g + seen) < max(options.min_f1, known.get(c.qi, 0.0)) - 1e-9:
                    continue  # cannot be (one of) the best: left unread, F1 0
            size = c.via.count if c.via is not None else len(c.current)
            wanted.append((c, not last and size <= options.max_mine_frontier))
        await read(wanted)
        for child in grown:
            if child.f1 >= 1.0 - 1e-9 and target[child.qi] in (None, len(child.moves)):
                done.add(child.qi)
        frontier = [c for c in grown if c.options is not None]
    # The ends of every question's gold paths: their STOP decision needs the offers there.
    best = _best_by_question(nodes, options, target)
    await read([(n, True) for n in nodes if n.options is None and n.moves in best.get(n.qi, set())])
    return _decisions(pairs, nodes, starts, config, options, target)


def _target_length(q: QAPair, options: MiningOptions) -> int | None:
    """The path length a question's gold paths must have: its hop count when known (a MetaQA file name, a
    ``hops`` field) and ``options.use_hops``; otherwise any length up to ``max_hops`` (the shortest wins)."""
    return min(q.hops, options.max_hops) if options.use_hops and q.hops > 0 else None


def _best_by_question(
    nodes: Sequence[_Node],
    options: MiningOptions,
    target: Sequence[int | None],
) -> dict[int, set[tuple[tuple[str, str], ...]]]:
    top: dict[int, float] = {}
    for n in nodes:
        if n.moves and target[n.qi] in (None, len(n.moves)):
            top[n.qi] = max(top.get(n.qi, 0.0), n.f1)
    best: dict[int, set[tuple[tuple[str, str], ...]]] = {}
    for qi, f1 in top.items():
        if f1 < options.min_f1:
            continue
        paths = [
            n for n in nodes if n.qi == qi and n.moves and n.f1 >= f1 - 1e-9 and target[qi] in (None, len(n.moves))
        ]
        shortest = min(len(n.moves) for n in paths)
        best[qi] = {n.moves for n in paths if len(n.moves) == shortest}
    return best


def _decisions(
    pairs: Sequence[QAPair],
    nodes: list[_Node],
    starts: dict[int, tuple[NodeRef, ...]],
    config: WalkConfig,
    options: MiningOptions,
    target: Sequence[int | None],
) -> tuple[list[Decision], list[MinedQuestion]]:
    best = _best_by_question(nodes, options, target)
    by_key = {(n.qi, n.moves): n for n in nodes}
    decisions: list[Decision] = []
    mined: list[MinedQuestion] = []
    for qi, q in enumerate(pairs):
        top = max((n.f1 for n in nodes if n.qi == qi and n.moves and target[qi] in (None, len(n.moves))), default=0.0)
        record = MinedQuestion(qid=q.id, hops=q.hops, best_f1=top, linked=qi in starts)
        mined.append(record)
        gold_paths = sorted(best.get(qi, set()))
        record.gold_paths = [[f"{r}|{d}" for r, d in p] for p in gold_paths]
        prefixes = sorted({p[:k] for p in gold_paths for k in range(len(p) + 1)}, key=lambda m: (len(m), m))
        for prefix in prefixes:
            node = by_key.get((qi, prefix))
            if node is None or node.options is None:
                continue
            stop_allowed = config.allow_stop_at_start or bool(prefix)
            offered = node.options
            if not offered or (len(offered) == 1 and not stop_allowed):
                continue  # a forced STOP or a forced move: the walk asks nothing here
            labels = prompts.option_labels(offered, config)
            context = prompts.build_context(
                q.text,
                current=node.current,
                start=starts[qi],
                steps=node.steps,
                labelled=list(zip(labels, offered, strict=True)),
                stop_allowed=stop_allowed,
                config=config,
            )
            right = [
                1.0
                if (*prefix, (o.relation, o.direction))
                in {p[: len(prefix) + 1] for p in gold_paths if len(p) > len(prefix)}
                else 0.0
                for o in offered
            ]
            if stop_allowed:
                right.append(1.0 if prefix in gold_paths else 0.0)
            total = sum(right)
            if total == 0:
                continue  # the gold move was not offered (pruned): nothing to learn here
            decisions.append(
                Decision(
                    qid=q.id,
                    hops=q.hops,
                    depth=len(prefix) + 1,
                    inputs=decision_inputs(context),
                    target=[r / total for r in right],
                )
            )
            record.decisions += 1
    return decisions, mined


# -- the dataset on disk (resumable) ---------------------------------------------------------------------


DECISIONS_FILE = "decisions.jsonl"
MINED_FILE = "mined.jsonl"


def _complete_lines(path: Path) -> list[str]:
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):  # cut short by an interruption: drop the partial line
        text = text[: text.rfind("\n") + 1]
        path.write_text(text, encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()]


def read_mined(directory: Path) -> tuple[list[Decision], dict[str, dict[str, Any]]]:
    mined = {row["qid"]: row for row in (json.loads(line) for line in _complete_lines(directory / MINED_FILE))}
    decisions = [Decision.from_json(json.loads(line)) for line in _complete_lines(directory / DECISIONS_FILE)]
    return [d for d in decisions if d.qid in mined], mined


async def build_dataset(
    store: GraphStore,
    graph: str,
    pairs: Sequence[QAPair],
    directory: Path,
    config: WalkConfig,
    options: MiningOptions,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Decision], dict[str, dict[str, Any]]]:
    """Mine every pair not yet in ``directory`` (batch by batch, appended as each batch finishes)."""
    make_dir(directory)
    _, mined = read_mined(directory)
    # Questions about the same topic go into the same batch, where they share their expansions.
    todo = sorted((q for q in pairs if q.id not in mined), key=lambda q: (entity_id(q.topic), q.id))
    done = len(pairs) - len(todo)
    if progress:
        progress(done, len(pairs))
    batches = [todo[i : i + options.batch_size] for i in range(0, len(todo), options.batch_size)]
    width = max(1, options.concurrency)
    for i in range(0, len(batches), width):
        group = batches[i : i + width]
        results = await asyncio.gather(*(mine_batch(store, graph, b, config, options) for b in group))
        for batch, (decisions, records) in zip(group, results, strict=True):
            with (directory / DECISIONS_FILE).open("a", encoding="utf-8") as fh:
                for d in decisions:
                    fh.write(json.dumps(d.to_json(), ensure_ascii=False) + "\n")
            with (directory / MINED_FILE).open("a", encoding="utf-8") as fh:
                for r in records:
                    fh.write(json.dumps(r.__dict__, ensure_ascii=False) + "\n")
            done += len(batch)
            if progress:
                progress(done, len(pairs))
    return read_mined(directory)


# -- linking ---------------------------------------------------------------------------------------------


async def mention_candidates(
    store: GraphStore,
    graph: str,
    pairs: Sequence[QAPair],
    batch: int = 256,
) -> list[tuple[str, list[tuple[str, DegreeRow]], int | None]]:
    """Per question: its exact-name mentions (the walk's own spans and look-up, one round trip per batch of
    questions) and the index of the one naming its topic (``None`` when the topic is not among them)."""
    out: list[tuple[str, list[tuple[str, DegreeRow]], int | None]] = []
    for i in range(0, len(pairs), batch):
        part = pairs[i : i + batch]
        spans = [question_spans(q.text) for q in part]
        names = sorted({s for group in spans for s in group})
        rows = await store.read(EXACT_NAMES, graph=graph, names=names, bookkeeping=BOOKKEEPING_TYPES)
        found: dict[str, list[SpanDegreeRow]] = {}
        for row in rows:
            found.setdefault(row["span"], []).append(row)
        for q, group in zip(part, spans, strict=True):
            candidates = best_per_span({s: found[s] for s in group if s in found})
            topic = " ".join(q.topic.lower().split())
            gold = next((k for k, (span, _) in enumerate(candidates) if span == topic), None)
            out.append((q.text, candidates, gold))
    return out


async def train_linker(
    store: GraphStore,
    graph: str,
    train: Sequence[QAPair],
    val: Sequence[QAPair],
) -> tuple[Any, dict[str, Any]]:
    """Fit the mention scorer (:mod:`graphwalk_neo4j.decide.linker`) on the training questions; report its
    linking accuracy (topic first among the exact mentions) on the validation questions, beside
    longest-match-first."""
    outside, inside = template_counts(q.raw for q in train if q.raw)
    seen = await mention_candidates(store, graph, train)
    linker, fitted = fit_linker([(q, c, g) for q, c, g in seen if g is not None], outside, inside)
    checked = await mention_candidates(store, graph, val)
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


Observe = Callable[[str, int, int], None]  # (stage, done, total)


def mining_config(**changes: Any) -> WalkConfig:
    """The walk settings decisions are mined and teacher-forced under (relation hops, no STOP at the start, the
    evaluation frontier), with ``changes`` (e.g. ``exclude_scope``) on top."""
    return WalkConfig(hop_mode="relation", allow_stop_at_start=False, max_frontier=2000, **changes)


def sample_pairs(pairs: Sequence[QAPair], per_file: int | None, seed: int) -> list[QAPair]:
    """At most ``per_file`` questions of every file (the lowest sha256 of ``"{seed}:{id}"``), in file order."""
    if per_file is None:
        return list(pairs)
    by_file: dict[str, list[QAPair]] = {}
    for q in pairs:
        by_file.setdefault(q.id.rsplit(":", 1)[0], []).append(q)
    keep: set[str] = set()
    for group in by_file.values():
        ranked = sorted(group, key=lambda q: hashlib.sha256(f"{seed}:{q.id}".encode()).hexdigest())
        keep.update(q.id for q in ranked[:per_file])
    return [q for q in pairs if q.id in keep]


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
    observe: Observe | None = None,
) -> dict[str, Any]:
    """QA pairs -> mined decisions -> a fitted, calibrated artifact in ``out_dir`` (resumable)."""
    out = Path(out_dir)
    mining = mining or MiningOptions()
    config = config or mining_config()
    pairs = sample_pairs(load_qa(qa_paths, fmt), per_file, seed)
    if not pairs:
        raise InputError("no questions in the --qa files", path=qa_paths[0] if qa_paths else None)
    splits = {q.id: split_of(seed, q.text) for q in pairs}
    usable = [q for q in pairs if splits[q.id] != "test"]
    started = time.perf_counter()
    decisions, mined = await build_dataset(
        store, graph, usable, out / "data", config, mining, (lambda d, t: observe("mine", d, t)) if observe else None
    )
    mine_s = time.perf_counter() - started
    train = [Example(d.inputs, d.target, f"{d.hops}hop", True) for d in decisions if splits.get(d.qid) == "train"]
    val = [Example(d.inputs, d.target, f"{d.hops}hop", True) for d in decisions if splits.get(d.qid) == "val"]
    coverage: dict[str, dict[str, float]] = {}
    for row in mined.values():
        if row["qid"] not in splits:
            continue
        c = coverage.setdefault(f"{row['hops']}hop", {"questions": 0, "with_gold_path": 0, "best_f1_sum": 0.0})
        c["questions"] += 1
        c["with_gold_path"] += 1 if row["gold_paths"] else 0
        c["best_f1_sum"] += row["best_f1"]
    for c in coverage.values():
        c["mean_best_f1"] = round(c.pop("best_f1_sum") / max(1, c["questions"]), 4)
    meta = {
        "graph": graph,
        "source": "qa",
        "qa_files": [str(p) for p in qa_paths],
        "qa_format": fmt,
        "qa_sha256": qa_hash(pairs),
        "split": {"seed": seed, "val": VAL_SHARE, "test": TEST_SHARE, "by": "question"},
        "questions": {s: sum(1 for v in splits.values() if v == s) for s in ("train", "val", "test")},
        "per_file": per_file,
        "walk_config": config.model_dump(mode="json"),
        "mining": mining.__dict__,
        "mining_coverage": coverage,
    }
    metrics = await fit(train, val, embedder, out, options=fit_options, meta=meta, progress=observe)
    metrics["seconds"]["mine"] = round(mine_s, 1)
    metrics["mining_coverage"] = coverage
    started = time.perf_counter()
    linker, linking = await train_linker(
        store, graph, [q for q in usable if splits[q.id] == "train"], [q for q in usable if splits[q.id] == "val"]
    )
    linker.save(out)
    metrics["linking"] = linking
    metrics["seconds"]["linker"] = round(time.perf_counter() - started, 1)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2), encoding="utf-8")
    return metrics
