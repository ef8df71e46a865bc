"""Builds what the decider sees for one depth (pure functions, no I/O).

Jev reads instructions literally and is weak at multi-hop indirection, so each hop is asked as a precise local
judgment: ``state`` is the question only (shared by every question in the request); each beam gets one choice
question whose ``instructions`` carry its own path so far and current node(s); options are the edges out of
here with real descriptions (target name and type, a readable relation gloss with direction, the stored edge),
plus a ``STOP`` option meaning "the current node(s) are the answer". Labels are deterministic: ``o1..oN`` in
offer order (``labels="short"``) or readable, de-duplicated ``relation: target`` labels
(``labels="readable"``).

Layout contract (``relation_glosses=True``, the default), relied on by backends that read texts by similarity
(:class:`~graphwalk_neo4j.decide.local.LocalDecider`):

* ``start`` lists the start entities as ``name (type)``; ``path`` has one line per hop, in words, as
  ``MOVE: REACHED``: ``films directed by this person: 2 films`` (relation mode: the gloss, then how many nodes
  of which kind it reached) or ``directed by (film to person): Christopher Nolan (person)`` (entity mode);
* each option description is ``HEAD — DETAILS``. Relation mode: the head is the move in the same words
  (``release year (film to year) (--release_year-->)``), the details are evidence (counts, sample names).
  Entity mode: the head is the node it leads to (``Inception (film)``) and the details open with the move's
  gloss up to the first ``;`` (``films directed by this person; edge: ...; summary``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionRequest, JSONContent
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.ports import EdgeDirection, NodeRef, Option
from graphwalk_neo4j.walk.result import PathStep

STOP = "STOP"
ANSWER_TYPE_KEY = "answer_type"

_ENTITY_TASK = (
    "You are walking a knowledge graph one edge at a time and are standing at the current node. "
    "Each option is one edge from the current node to a neighbouring node. "
    "Pick the single option that is the right next step toward the answer to the question. "
    "Judge only this one step from the current node."
)
_RELATION_TASK = (
    "You are walking a knowledge graph one relation at a time and are standing at the current set of nodes. "
    "Each option follows one relation from the current nodes and leads to the set of nodes it describes. "
    "Pick the single option that is the right next step toward the answer to the question. "
    "Judge only this one step from the current nodes."
)
_ENTITY_STOP = "Choose STOP only if the current node itself is the answer to the question."
_RELATION_STOP = "Choose STOP only if the current nodes themselves are the answer to the question."


def relation_words(relation: str) -> str:
    """``directed_by`` / ``DIRECTED_BY`` / ``directedBy`` / ``directed-by`` -> ``directed by``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", relation)
    return " ".join(w for w in re.split(r"[\s_\-]+", spaced.lower()) if w)


def plural(noun: str) -> str:
    """A naive English plural (``film`` -> ``films``, ``city`` -> ``cities``, ``genus`` -> ``genuses``)."""
    if not noun:
        return noun
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and len(noun) > 1 and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def relation_gloss(
    relation: str, direction: EdgeDirection, *, source_type: str | None = None, target_type: str | None = None
) -> str:
    """Readable text for following ``relation`` in ``direction`` from a ``source_type`` node to a
    ``target_type`` one.

    ``out`` reads forward: ``directed_by`` -> ``"directed by"``. ``in`` reads inverse:
    ``relation_gloss("directed_by", "in", source_type="person", target_type="film")`` ->
    ``"films directed by this person"`` (``"nodes directed by this node"`` without types).
    """
    words = relation_words(relation)
    if direction == "out":
        return words
    subject = plural(target_type.lower()) if target_type else "nodes"
    return f"{subject} {words} this {source_type.lower() if source_type else 'node'}"


def node_text(node: NodeRef, show_types: bool = True) -> str:
    return f"{node.name} ({node.type})" if show_types and node.type else node.name


def edge_text(relation: str, direction: EdgeDirection, here: str, there: str) -> str:
    """The edge as stored: ``out`` -> ``here --rel--> there``; ``in`` -> ``there --rel--> here``."""
    return f"{here} --{relation}--> {there}" if direction == "out" else f"{there} --{relation}--> {here}"


def names_text(nodes: Sequence[NodeRef], limit: int, show_types: bool = True) -> str:
    """``"1 node: A (film)"`` / ``"7 nodes, e.g. A (film), B (film)"`` (at most ``limit`` names)."""
    count = len(nodes)
    shown = ", ".join(node_text(n, show_types) for n in nodes[:limit])
    noun = "node" if count == 1 else "nodes"
    if limit <= 0 or not shown:
        return f"{count} {noun}"
    return f"{count} {noun}: {shown}" if count <= limit else f"{count} {noun}, e.g. {shown}"


def common_type(nodes: Sequence[NodeRef]) -> str | None:
    """The most frequent node type (first seen wins ties); ``None`` if no node has one."""
    counts = Counter(n.type for n in nodes if n.type)
    if not counts:
        return None
    top = max(counts.values())
    return next(n.type for n in nodes if n.type and counts[n.type] == top)


def hop_text(relation: str, direction: EdgeDirection, source_type: str | None, target_type: str | None,
             show_types: bool = True) -> str:
    """The hop in words with the kinds it joins: forward ``directed by (film to person)`` (the relation words
    first, so a description still starts with them), inverse the gloss ``films directed by this person``;
    without types, the plain gloss."""
    gloss = relation_gloss(relation, direction, source_type=source_type, target_type=target_type)
    if direction == "out" and target_type and source_type and show_types:
        return f"{gloss} ({source_type.lower()} to {target_type.lower()})"
    return gloss


def count_text(nodes: Sequence[NodeRef], show_types: bool = True) -> str:
    """``1 film`` / ``2 films`` / ``3 nodes`` (the type plural when the nodes have one and types are shown)."""
    kind = common_type(nodes) if show_types else None
    noun = kind.lower() if kind else "node"
    return f"{len(nodes)} {noun if len(nodes) == 1 else plural(noun)}"


def start_names(start: Sequence[NodeRef], config: WalkConfig, limit: int = 10) -> list[str]:
    """The start entities as ``name (type)`` strings (at most ``limit``; the count says if there are more)."""
    names = [node_text(n, config.show_types) for n in start[:limit]]
    if len(start) > limit:
        names.append(f"(+{len(start) - limit} more)")
    return names


def path_lines(start: Sequence[NodeRef], steps: Sequence[PathStep], config: WalkConfig) -> list[str]:
    """The path so far from the start entities, one line per hop. With ``relation_glosses`` a hop reads as words
    (``films directed by this person: 2 films``, ``directed by: Christopher Nolan (person)``); without, as the
    stored edge (``Memento --directed_by--> Christopher Nolan``). Empty at the start."""
    lines: list[str] = []
    current: Sequence[NodeRef] = start
    for step in steps:
        if step.is_stop or step.relation is None or step.direction is None:
            continue
        if config.relation_glosses:
            gloss = hop_text(step.relation, step.direction, common_type(current), common_type(step.nodes),
                             config.show_types)
            if config.hop_mode == "entity" and len(step.nodes) == 1:
                lines.append(f"{gloss}: {node_text(step.nodes[0], config.show_types)}")
            else:
                lines.append(f"{gloss}: {count_text(step.nodes, config.show_types)}")
        else:
            here = step.from_names[0] if len(step.from_names) == 1 else f"{len(step.from_names)} nodes"
            there = step.nodes[0].name if len(step.nodes) == 1 else f"{len(step.nodes)} nodes"
            lines.append(edge_text(step.relation, step.direction, here, there))
        current = step.nodes or current
    return lines


def option_labels(options: Sequence[Option], config: WalkConfig) -> list[str]:
    """Deterministic, unique labels (never ``STOP``) for ``options`` in offer order."""
    if config.labels == "short":
        return [f"o{i}" for i in range(1, len(options) + 1)]
    labels: list[str] = []
    taken = {STOP}
    for option in options:
        base = option.relation if option.direction == "out" else f"{option.relation} (inverse)"
        if config.hop_mode == "entity":
            base = f"{base}: {option.target.name}"
        label, k = base, 1
        while label in taken:
            k += 1
            label = f"{base} #{k}"
        taken.add(label)
        labels.append(label)
    return labels


def option_description(option: Option, current: Sequence[NodeRef], config: WalkConfig) -> str:
    here = _current_name(current)
    source_type = common_type(current)
    target_type = common_type(option.targets)
    gloss = relation_gloss(option.relation, option.direction, source_type=source_type, target_type=target_type)
    if config.hop_mode == "entity":
        target = option.target
        edge = edge_text(option.relation, option.direction, here, target.name)
        head = node_text(target, config.show_types)
        text = f"{head} — {gloss}; edge: {edge}" if config.relation_glosses else f"{head} — edge: {edge}"
        if target.summary:
            text += f"; {target.summary}"
    else:
        arrow = f"--{option.relation}-->" if option.direction == "out" else f"<--{option.relation}--"
        hop = hop_text(option.relation, option.direction, source_type, target_type, config.show_types)
        head = f"{hop} ({arrow})" if config.relation_glosses else arrow
        text = f"{head} — leads to {names_text(option.targets, config.sample_names, config.show_types)}"
        if option.count > len(option.targets):
            text += f" (of {option.count} in all)"
    if option.description:
        text += f"; {option.description}"
    return text


def stop_description(current: Sequence[NodeRef], config: WalkConfig) -> str:
    if config.hop_mode == "entity":
        return f"Stop here: the current node, {node_text(current[0], config.show_types)}, is itself the answer."
    verb = "is itself" if len(current) == 1 else "are themselves"
    return f"Stop here: the current {names_text(current, config.sample_names, config.show_types)} {verb} the answer."


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
) -> tuple[ChoiceQuestion, dict[str, Option | None]]:
    """One beam's choice question and its label -> option map (``STOP`` -> ``None``), in offer order."""
    entity = config.hop_mode == "entity"
    instructions: dict[str, Any] = {"task": _ENTITY_TASK if entity else _RELATION_TASK}
    if stop_allowed:
        instructions["stop"] = _ENTITY_STOP if entity else _RELATION_STOP
    instructions["start"] = start_names(start, config)
    instructions["path"] = path_lines(start, steps, config)
    instructions["current"] = _current_text(current, config)
    if answer_type_hint:
        instructions["expected_answer_type"] = f"The answer is probably a {answer_type_hint}."
    labels = option_labels(options, config)
    mapping: dict[str, Option | None] = dict(zip(labels, options, strict=True))
    described: dict[str, JSONContent | None] = {
        label: option_description(o, current, config) for label, o in zip(labels, options, strict=True)
    }
    if stop_allowed:
        mapping[STOP] = None
        described[STOP] = stop_description(current, config)
    return ChoiceQuestion(key=key, instructions=instructions, options=described), mapping


def answer_type_question(types: Sequence[str], limit: int) -> ChoiceQuestion | None:
    """The speculative "what type is the answer?" question; ``None`` with fewer than two distinct types."""
    distinct = list(dict.fromkeys(t for t in types if t))[:limit]
    if len(distinct) < 2:
        return None
    return ChoiceQuestion(
        key=ANSWER_TYPE_KEY,
        instructions="Which type of node is the answer to the question? Judge only the kind of thing asked.",
        options={t: f"the answer is a {t}" for t in distinct},
    )


def build_request(question: str, questions: Sequence[ChoiceQuestion]) -> DecisionRequest:
    """``state`` is the question only; every beam's context lives in its own instructions."""
    return DecisionRequest(state=question, questions=list(questions))


def _current_name(current: Sequence[NodeRef]) -> str:
    return current[0].name if len(current) == 1 else "the current nodes"


def _current_text(current: Sequence[NodeRef], config: WalkConfig) -> str:
    if config.hop_mode == "entity" and len(current) == 1:
        return node_text(current[0], config.show_types)
    return names_text(current, config.sample_names, config.show_types)
