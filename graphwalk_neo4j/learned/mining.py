"""Mining training decisions from question–answer pairs over a Neo4j graph (weak supervision).

1. **Path mining** (:func:`mine_batch`). For a batch of questions, the walk's own relation expander
   (:class:`~graphwalk_neo4j.walk.graph_expander.Neo4jExpander`) expands every open path of every question
   in ONE Cypher round trip per hop, with the walk's rules (visited nodes excluded, the same option limits). Each
   path's end set is scored against the gold answers (answer-set F1). When a question's hop count is known
   (MetaQA's file names, a ``hops`` field) its gold paths have exactly that length: otherwise short cuts win
   (a film's language is often the language of the films that share its director, so a 3-hop question would be
   learnt as 1 hop). Without it, paths grow up to ``max_hops`` and a question stops growing once a path
   reaches F1 = 1. Frontiers above ``max_mine_frontier`` nodes are not expanded further (hub paths are never
   the precise answer). The gold paths are those with the best F1 (at least ``min_f1``), shortest first.
2. **Teacher forcing.** Along every gold path, each state the walk would have asked about (at least two
   legal options, or one and STOP) becomes a decision with the real graph's offers, STOP included (STOP is
   right at the end of a gold path), built with the walk's own
   :func:`~graphwalk_neo4j.walk.choice_questions.build_context`.
   The target spreads evenly over every option that continues some gold path (ties are common: a film's
   director is often its writer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.graph.identity import entity_uid
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES
from graphwalk_neo4j.learned.inputs import DecisionInputs, decision_inputs
from graphwalk_neo4j.qa_format import answer_set, precision_recall_f1
from graphwalk_neo4j.store.queries import ADOPTED_BY_ID, ADOPTED_EXACT_NAMES, ENTITIES_BY_ID, DegreeRow
from graphwalk_neo4j.walk import choice_questions
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.entry import best_candidate, node_ref
from graphwalk_neo4j.walk.graph_expander import Neo4jExpander
from graphwalk_neo4j.walk.ports import ExpandRequest, Move, NodeRef, Option
from graphwalk_neo4j.walk.result import PathStep

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.graph.profile import GraphProfile
    from graphwalk_neo4j.learned.qa import QAPair
    from graphwalk_neo4j.store import GraphStore


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


async def start_refs(
    store: GraphStore, graph: str, pairs: Sequence[QAPair], profile: GraphProfile | None = None
) -> list[NodeRef | None]:
    """Each question's start node, or ``None`` where the graph has none. An ingested graph's start is the
    entity of the question's ``start_id``. An adopted graph's is the node whose element id a question written
    from the graph carries (``topic_id``), else the node named like the topic (case-insensitive; among several,
    the one spelled as the topic, then the one of highest degree, as the walk's own linking picks)."""
    if profile is None or not profile.adopted:
        uids = [entity_uid(graph, q.start_id) for q in pairs]
        rows = await store.read(ENTITIES_BY_ID, uids=uids, bookkeeping=BOOKKEEPING_TYPES)
        by_id = {r["id"]: node_ref(r) for r in rows}
        return [by_id.get(q.start_id) for q in pairs]
    ids = sorted({q.topic_id for q in pairs if q.topic_id})
    by_element = {r["id"]: node_ref(r) for r in await store.read(ADOPTED_BY_ID, graph=graph, ids=ids)} if ids else {}
    names = sorted({" ".join(q.topic.lower().split()) for q in pairs if not q.topic_id})
    found: dict[str, list[DegreeRow]] = {}
    for row in await store.read(ADOPTED_EXACT_NAMES, graph=graph, names=names) if names else []:
        found.setdefault(row["span"], []).append(row)
    out: list[NodeRef | None] = []
    for q in pairs:
        if q.topic_id:
            out.append(by_element.get(q.topic_id))
        else:
            named = found.get(" ".join(q.topic.lower().split()))
            out.append(node_ref(best_candidate(q.topic, named)) if named else None)
    return out


async def mine_batch(
    store: GraphStore,
    graph: str,
    pairs: Sequence[QAPair],
    config: WalkConfig,
    options: MiningOptions,
    *,
    option_limit: int = 254,
    profile: GraphProfile | None = None,
) -> tuple[list[Decision], list[MinedQuestion]]:
    """Mine gold relation paths for ``pairs`` and teacher-force decisions along them (module docstring). With
    an adopted graph's ``profile`` the walk's moves and ids are those of the adopted graph."""
    expander = Neo4jExpander(store, graph, None, profile=profile)
    refs = await start_refs(store, graph, pairs, profile)
    gold = [answer_set(q.answers) for q in pairs]
    nodes: list[_Node] = []
    starts: dict[int, tuple[NodeRef, ...]] = {}
    for qi, ref in enumerate(refs):
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
            labels = choice_questions.option_labels(offered, config)
            context = choice_questions.build_context(
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


def mining_config(**changes: Any) -> WalkConfig:
    """The walk settings decisions are mined and teacher-forced under (relation hops, no STOP at the start, the
    evaluation frontier), with ``changes`` (e.g. ``exclude_scope``) on top."""
    return WalkConfig(hop_mode="relation", allow_stop_at_start=False, max_frontier=2000, **changes)
