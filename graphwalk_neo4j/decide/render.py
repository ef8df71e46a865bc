"""The one renderer: a :class:`~graphwalk_neo4j.decide.request.DecisionContext` -> the text a reading backend
(Jev, an LLM) gets, plus the word helpers every reader of relations shares.

Layout (verified live against Jev):

* ``state`` is ``{"query": <the question>}``, shared by every question of a request; each beam's own context
  lives in its question's ``instructions``.
* ``instructions`` = ``{"task", "stop" (when STOP is offered), "path", "current"}`` (plus
  ``expected_answer_type`` when the answer-type hint is on). ``path`` has one line per hop as the edge is
  stored (``Memento --directed_by--> Christopher Nolan``; a frontier of several nodes reads ``2 nodes``), and
  is empty at the start, where ``current`` is the start entity.
* Labels are ``o1..oN`` in offer order (or readable ``relation`` / ``relation (inverse)`` labels), plus
  ``STOP``.
* Relation mode, an option reads ``GLOSS (--rel-->) — leads to COUNT, e.g. NAMES (of N in all)``: the
  relation in words (inverse hops as ``films directed by this person``), the edge in its stored direction,
  then the first ``sample_names`` target names with types. Entity mode: ``TARGET (type) — GLOSS; edge:
  Memento --directed_by--> Christopher Nolan; SUMMARY``.
* STOP reads ``Stop here: the current node(s) ... is itself / are themselves the answer.``

Nothing here is shaped for a particular decider: the local and learned deciders read the context, not this
text (:func:`coverage_view` gives the local decider its own words from the context).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionRequest, JSONContent
from graphwalk_neo4j.decide.request import DecisionContext, EntityInfo, HopInfo, OptionInfo
from graphwalk_neo4j.identifiers import relation_words as relation_words

if TYPE_CHECKING:
    from collections.abc import Sequence

STOP = "STOP"
ANSWER_TYPE_KEY = "answer_type"
Labels = Literal["short", "readable"]

ENTITY_TASK = (
    "You are walking a knowledge graph one edge at a time and are standing at the current node. "
    "Each option is one edge from the current node to a neighbouring node. "
    "Pick the single option that is the right next step toward the answer to the question. "
    "Judge only this one step from the current node."
)
RELATION_TASK = (
    "You are walking a knowledge graph one relation at a time and are standing at the current set of nodes. "
    "Each option follows one relation from the current nodes and leads to the set of nodes it describes. "
    "Pick the single option that is the right next step toward the answer to the question. "
    "Judge only this one step from the current nodes."
)
ENTITY_STOP = "Choose STOP only if the current node itself is the answer to the question."
RELATION_STOP = "Choose STOP only if the current nodes themselves are the answer to the question."


class Named(Protocol):
    """Anything with a name and a type (a walk's ``NodeRef``, a context's ``EntityInfo``)."""

    @property
    def name(self) -> str: ...

    @property
    def type(self) -> str | None: ...


# -- words -----------------------------------------------------------------------------------------------


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
    relation: str, direction: str, *, source_type: str | None = None, target_type: str | None = None
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


def hop_text(
    relation: str, direction: str, source_type: str | None, target_type: str | None, show_types: bool = True
) -> str:
    """The hop in words with the kinds it joins: forward ``directed by (film to person)``, inverse the gloss
    ``films directed by this person``; without types, the plain gloss."""
    gloss = relation_gloss(relation, direction, source_type=source_type, target_type=target_type)
    if direction == "out" and target_type and source_type and show_types:
        return f"{gloss} ({source_type.lower()} to {target_type.lower()})"
    return gloss


def node_text(node: Named, show_types: bool = True) -> str:
    return f"{node.name} ({node.type})" if show_types and node.type else node.name


def edge_text(relation: str, direction: str, here: str, there: str) -> str:
    """The edge as stored: ``out`` -> ``here --rel--> there``; ``in`` -> ``there --rel--> here``."""
    return f"{here} --{relation}--> {there}" if direction == "out" else f"{there} --{relation}--> {here}"


def arrow_text(relation: str, direction: str) -> str:
    return f"--{relation}-->" if direction == "out" else f"<--{relation}--"


def names_text(nodes: Sequence[Named], limit: int, show_types: bool = True, count: int | None = None) -> str:
    """``"1 node: A (film)"`` / ``"7 nodes, e.g. A (film), B (film)"`` (at most ``limit`` names); ``count``
    overrides ``len(nodes)`` when ``nodes`` is a sample."""
    total = len(nodes) if count is None else count
    shown = ", ".join(node_text(n, show_types) for n in nodes[:limit])
    noun = "node" if total == 1 else "nodes"
    if limit <= 0 or not shown:
        return f"{total} {noun}"
    return f"{total} {noun}: {shown}" if total <= limit else f"{total} {noun}, e.g. {shown}"


def common_type(nodes: Sequence[Named]) -> str | None:
    """The most frequent node type (first seen wins ties); ``None`` if no node has one."""
    counts = Counter(n.type for n in nodes if n.type)
    if not counts:
        return None
    top = max(counts.values())
    return next(n.type for n in nodes if n.type and counts[n.type] == top)


def count_text(nodes: Sequence[Named], show_types: bool = True) -> str:
    """``1 film`` / ``2 films`` / ``3 nodes`` (the type plural when the nodes have one and types are shown)."""
    kind = common_type(nodes) if show_types else None
    return kind_count(len(nodes), kind)


def kind_count(count: int, kind: str | None) -> str:
    noun = kind.lower() if kind else "node"
    return f"{count} {noun if count == 1 else plural(noun)}"


# -- the text for reading backends -----------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The text knobs (``WalkConfig``'s prompt-layout fields)."""

    labels: Labels = "short"
    show_types: bool = True
    relation_glosses: bool = True
    sample_names: int = 5


def option_labels(
    options: Sequence[tuple[str, str]], hop_mode: str, labels: Labels, targets: Sequence[str] = ()
) -> list[str]:
    """Deterministic, unique labels (never ``STOP``) for ``(relation, direction)`` moves in offer order;
    ``targets`` (entity mode) are the target names."""
    if labels == "short":
        return [f"o{i}" for i in range(1, len(options) + 1)]
    out: list[str] = []
    taken = {STOP}
    for i, (relation, direction) in enumerate(options):
        base = relation if direction == "out" else f"{relation} (inverse)"
        if hop_mode == "entity" and i < len(targets):
            base = f"{base}: {targets[i]}"
        label, k = base, 1
        while label in taken:
            k += 1
            label = f"{base} #{k}"
        taken.add(label)
        out.append(label)
    return out


def _targets(option: OptionInfo) -> list[EntityInfo]:
    types = list(option.types) + [None] * (len(option.names) - len(option.types))
    return [EntityInfo(name=n, type=t) for n, t in zip(option.names, types, strict=False)]


def _here(context: DecisionContext) -> str:
    return context.current[0].name if context.current_count == 1 and context.current else "the current nodes"


def path_line(hop: HopInfo) -> str:
    """A hop as its stored edge: ``Memento --directed_by--> Christopher Nolan``; ``2 nodes`` for a set."""
    here = hop.from_names[0] if hop.from_count == 1 and hop.from_names else f"{hop.from_count} nodes"
    there = hop.names[0] if hop.count == 1 and hop.names else f"{hop.count} nodes"
    return edge_text(hop.relation, hop.direction, here, there)


def option_text(option: OptionInfo, context: DecisionContext, layout: Layout) -> str:
    if option.is_stop:
        return stop_text(context, layout)
    relation, direction = option.relation or "", option.direction or "out"
    gloss = relation_gloss(relation, direction, source_type=option.source_type, target_type=option.target_type)
    targets = _targets(option)
    if context.hop_mode == "entity":
        target = targets[0] if targets else EntityInfo(name="?")
        edge = edge_text(relation, direction, _here(context), target.name)
        head = node_text(target, layout.show_types)
        text = f"{head} — {gloss}; edge: {edge}" if layout.relation_glosses else f"{head} — edge: {edge}"
        if option.summary:
            text += f"; {option.summary}"
    else:
        arrow = arrow_text(relation, direction)
        head = f"{gloss} ({arrow})" if layout.relation_glosses else arrow
        reached = option.reached or len(targets)
        shown = names_text(targets, layout.sample_names, layout.show_types, count=reached)
        text = f"{head} — leads to {shown}"
        if option.count > reached:
            text += f" (of {option.count} in all)"
    if option.description:
        text += f"; {option.description}"
    return text


def current_text(context: DecisionContext, layout: Layout) -> str:
    if context.hop_mode == "entity" and context.current_count == 1 and context.current:
        return node_text(context.current[0], layout.show_types)
    return names_text(context.current, layout.sample_names, layout.show_types, count=context.current_count)


def stop_text(context: DecisionContext, layout: Layout) -> str:
    if context.hop_mode == "entity" and context.current:
        return f"Stop here: the current node, {node_text(context.current[0], layout.show_types)}, is itself the answer."
    verb = "is itself" if context.current_count == 1 else "are themselves"
    shown = names_text(context.current, layout.sample_names, layout.show_types, count=context.current_count)
    return f"Stop here: the current {shown} {verb} the answer."


def render_instructions(context: DecisionContext, layout: Layout) -> dict[str, Any]:
    entity = context.hop_mode == "entity"
    instructions: dict[str, Any] = {"task": ENTITY_TASK if entity else RELATION_TASK}
    if context.stop_allowed:
        instructions["stop"] = ENTITY_STOP if entity else RELATION_STOP
    instructions["path"] = [path_line(hop) for hop in context.path]
    instructions["current"] = current_text(context, layout)
    if context.answer_type_hint:
        instructions["expected_answer_type"] = f"The answer is probably a {context.answer_type_hint}."
    return instructions


def render_question(key: str, context: DecisionContext, layout: Layout | None = None) -> ChoiceQuestion:
    """The choice question a reading backend gets for ``context`` (which it carries along)."""
    layout = layout or Layout()
    described: dict[str, JSONContent | None] = {
        option.label: option_text(option, context, layout) for option in context.options
    }
    return ChoiceQuestion(
        key=key, instructions=render_instructions(context, layout), options=described, context=context
    )


def render_state(question: str) -> dict[str, str]:
    return {"query": question}


def render_request(question: str, questions: Sequence[ChoiceQuestion]) -> DecisionRequest:
    """One request: ``state`` is the question only; every beam's context lives in its own instructions."""
    return DecisionRequest(state=render_state(question), questions=list(questions))


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


# -- words for structure-reading deciders ----------------------------------------------------------------


@dataclass(frozen=True)
class CoverageView:
    """What the local coverage decider reads, taken from the context: the start names and the start's kind
    words, each hop as ``(move, reached)`` in words, and each option's move (``""`` for STOP)."""

    start_names: tuple[str, ...]
    start_kind: str  # "Kismet (1944) (Movie)" style text whose kind the decider takes
    hops: tuple[tuple[str, str], ...]
    moves: tuple[str, ...]


def hop_move(relation: str, direction: str, source_type: str | None, target_type: str | None) -> str:
    """A move in words with the kinds it joins (``directed by (film to person)``, ``films directed by this
    person``): the words structure-reading deciders compare with the question."""
    return hop_text(relation, direction, source_type, target_type, True)


def coverage_view(context: DecisionContext) -> CoverageView:
    starts = context.start[:10]
    hops: list[tuple[str, str]] = []
    for hop in context.path:
        move = hop_move(hop.relation, hop.direction, hop.source_type, hop.target_type)
        if context.hop_mode == "entity" and hop.count == 1 and hop.names:
            reached = node_text(EntityInfo(name=hop.names[0], type=hop.target_type))
        else:
            reached = kind_count(hop.count, hop.target_type)
        hops.append((move, reached))
    moves: list[str] = []
    for option in context.options:
        if option.is_stop:
            moves.append("")
            continue
        move = hop_move(option.relation or "", option.direction or "out", option.source_type, option.target_type)
        if context.hop_mode == "entity":
            target = _targets(option)
            head = node_text(target[0]) if target else option.label
            gloss = relation_gloss(
                option.relation or "",
                option.direction or "out",
                source_type=option.source_type,
                target_type=option.target_type,
            )
            move = f"{gloss}: {head}"
        moves.append(move)
    return CoverageView(
        start_names=tuple(s.name for s in starts),
        start_kind=node_text(starts[0]) if starts else "",
        hops=tuple(hops),
        moves=tuple(moves),
    )
