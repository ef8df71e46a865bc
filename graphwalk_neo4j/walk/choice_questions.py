"""What the decider is asked at one depth (pure functions, no I/O): the walk's beams, options and path turned
into a :class:`~graphwalk_neo4j.decide.request.DecisionContext` per beam, rendered to text by the one
renderer, :mod:`graphwalk_neo4j.decide.render` (whose docstring describes the layout Jev gets).

Jev reads instructions literally and is weak at multi-hop indirection, so each hop is asked as a precise local
judgment: ``state`` is the question only (shared by every question in the request); each beam gets one choice
question whose ``instructions`` carry its own path so far and current node(s); options are the edges out of
here with real descriptions, plus a ``STOP`` option meaning "the current node(s) are the answer". Labels are
deterministic: ``o1..oN`` in offer order (``labels="short"``) or readable, de-duplicated labels
(``labels="readable"``). Every question also carries its context, which structure-reading deciders (local,
learned) use instead of the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.decide.render import (
    ANSWER_TYPE_KEY,
    STOP,
    Layout,
    answer_type_question,
    common_type,
    count_text,
    edge_text,
    hop_text,
    names_text,
    node_text,
    path_line,
    plural,
    relation_gloss,
    relation_words,
    render_question,
    render_request,
)
from graphwalk_neo4j.decide.render import option_labels as _labels
from graphwalk_neo4j.decide.request import DecisionContext, EntityInfo, HopInfo, OptionInfo

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionRequest
    from graphwalk_neo4j.walk.config import WalkConfig
    from graphwalk_neo4j.walk.ports import NodeRef, Option
    from graphwalk_neo4j.walk.result import PathStep

__all__ = [
    "ANSWER_TYPE_KEY",
    "STOP",
    "answer_type_question",
    "build_context",
    "build_question",
    "build_request",
    "common_type",
    "count_text",
    "edge_text",
    "hop_text",
    "layout",
    "names_text",
    "node_text",
    "option_labels",
    "path_hops",
    "path_lines",
    "plural",
    "relation_gloss",
    "relation_words",
    "start_names",
]

CONTEXT_NAMES = 10  # names kept per frontier / option in a context (the text shows config.sample_names)


def layout(config: WalkConfig) -> Layout:
    return Layout(
        labels=config.labels,
        show_types=config.show_types,
        relation_glosses=config.relation_glosses,
        sample_names=config.sample_names,
    )


def entity(node: NodeRef) -> EntityInfo:
    return EntityInfo(name=node.name, type=node.type, id=node.id, summary=node.summary)


def start_names(start: Sequence[NodeRef], config: WalkConfig, limit: int = 10) -> list[str]:
    """The start entities as ``name (type)`` strings (at most ``limit``; the count says if there are more)."""
    names = [node_text(n, config.show_types) for n in start[:limit]]
    if len(start) > limit:
        names.append(f"(+{len(start) - limit} more)")
    return names


def path_hops(start: Sequence[NodeRef], steps: Sequence[PathStep]) -> list[HopInfo]:
    """The path so far as structure: one :class:`HopInfo` per hop (STOPs skipped)."""
    hops: list[HopInfo] = []
    current: Sequence[NodeRef] = start
    for step in steps:
        if step.is_stop or step.relation is None or step.direction is None:
            continue
        hops.append(
            HopInfo(
                relation=step.relation,
                direction=step.direction,
                source_type=common_type(current),
                target_type=common_type(step.nodes),
                count=len(step.nodes),
                names=tuple(n.name for n in step.nodes[:CONTEXT_NAMES]),
                from_names=tuple(step.from_names[:CONTEXT_NAMES]),
                from_count=len(step.from_names),
            )
        )
        current = step.nodes or current
    return hops


def path_lines(start: Sequence[NodeRef], steps: Sequence[PathStep], config: WalkConfig | None = None) -> list[str]:
    """The path so far as the decider reads it: one stored edge per hop (``Memento --directed_by--> Christopher
    Nolan``, ``2 nodes --directed_by--> Christopher Nolan``). Empty at the start."""
    return [path_line(hop) for hop in path_hops(start, steps)]


def option_labels(options: Sequence[Option], config: WalkConfig) -> list[str]:
    """Deterministic, unique labels (never ``STOP``) for ``options`` in offer order."""
    return _labels(
        [(o.relation, o.direction) for o in options],
        config.hop_mode,
        config.labels,
        [o.target.name for o in options] if config.hop_mode == "entity" else (),
    )


def option_info(label: str, option: Option, current_type: str | None) -> OptionInfo:
    """``option`` as the decider's context shows it; ``current_type`` is ``common_type`` of the nodes it leaves."""
    shown = option.targets[:CONTEXT_NAMES]
    return OptionInfo(
        label=label,
        relation=option.relation,
        direction=option.direction,
        source_type=current_type,
        target_type=common_type(option.targets),
        count=option.count,
        # an unresolved relation move (targets not read yet) shows a sample, and its edge count as what it reaches
        reached=len(option.targets) if option.resolved else option.count,
        names=tuple(t.name for t in shown),
        types=tuple(t.type for t in shown),
        summary=option.target.summary if len(option.targets) == 1 else None,
        description=option.description,
    )


def build_context(
    question: str,
    *,
    current: Sequence[NodeRef],
    start: Sequence[NodeRef],
    steps: Sequence[PathStep],
    labelled: Sequence[tuple[str, Option]],
    stop_allowed: bool,
    config: WalkConfig,
    answer_type_hint: str | None = None,
) -> DecisionContext:
    # one count over the frontier (up to max_frontier nodes), not one per option
    current_type = common_type(current)
    options = [option_info(label, option, current_type) for label, option in labelled]
    if stop_allowed:
        options.append(OptionInfo(label=STOP, is_stop=True, source_type=current_type, count=len(current)))
    return DecisionContext(
        question=question,
        hop_mode=config.hop_mode,
        start=tuple(entity(n) for n in start),
        path=tuple(path_hops(start, steps)),
        current=tuple(entity(n) for n in current[:CONTEXT_NAMES]),
        current_count=len(current),
        current_type=current_type,
        options=tuple(options),
        stop_allowed=stop_allowed,
        answer_type_hint=answer_type_hint,
    )


def build_question(
    key: str,
    *,
    current: Sequence[NodeRef],
    start: Sequence[NodeRef],
    steps: Sequence[PathStep],
    options: Sequence[Option],
    stop_allowed: bool,
    config: WalkConfig,
    answer_type_hint: str | None = None,
    question: str = "",
) -> tuple[ChoiceQuestion, dict[str, Option | None]]:
    """One beam's choice question (text and context) and its label -> option map (``STOP`` -> ``None``), in
    offer order."""
    labels = option_labels(options, config)
    mapping: dict[str, Option | None] = dict(zip(labels, options, strict=True))
    context = build_context(
        question,
        current=current,
        start=start,
        steps=steps,
        labelled=list(zip(labels, options, strict=True)),
        stop_allowed=stop_allowed,
        config=config,
        answer_type_hint=answer_type_hint,
    )
    if stop_allowed:
        mapping[STOP] = None
    return render_question(key, context, layout(config)), mapping


def build_request(question: str, questions: Sequence[ChoiceQuestion]) -> DecisionRequest:
    """``state`` is ``{"query": question}``; every beam's context lives in its own instructions."""
    return render_request(question, questions)
