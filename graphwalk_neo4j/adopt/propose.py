"""From an :class:`~graphwalk_neo4j.adopt.introspect.Introspection` to a proposed :class:`GraphProfile` (pure).

Rules (every one overridable from the command line):

* **Entities**: every label with nodes, unless ``--labels`` names others or ``--exclude-labels`` drops it. Labels
  are ordered by count; a node with several profile labels is of the first one's kind (``gw_type``, linking and
  search), and of the kind its move reaches when a walk reaches it (see **Moves**).
* **Name**: ``--name LABEL=prop,...`` if given; else the string property with the best score, where a well-known
  name key (``name``, ``title``, ...) scores first, then a uniqueness constraint, then fill rate x distinct ratio
  (at least half the sampled nodes must have it); without a string, a number distinct on every node (a
  ``:Year {value: 1999}``) names it. A label without any candidate still walks; its nodes are shown
  as ``<Label without name #id>`` and the table says so.
* **Text** (describes the node; embedded with the name): string properties other than the name whose values
  average at least :data:`TEXT_MIN_LEN` characters.
* **Answers**: every other property filled on at least :data:`ANSWER_MIN_FILL` of the sample, except keys that
  look like identifiers (``id``, ``uuid``, ``*_id``, ``*Id``, ``key``) and values longer than
  :data:`ANSWER_MAX_LEN` characters on average.
* **Left out altogether** (neither text nor answer): provenance keys (``source``, ``dataset``, ``provenance``,
  ``origin``, ``imported_at``, ``loaded_from``, ...: where the data came from, not what a node is) and constant
  properties (one value on every sampled node, at least :data:`CONSTANT_MIN_NODES` of them, such as
  ``dataset = 'metaqa-user'`` on every node: an answer that fits every question and tells no node from another).
* **Moves**: every relationship type joining two profile labels, unless ``--exclude-rels`` drops it; its words are
  the type in lower case (``ACTED_IN`` -> ``acted in``); properties filled on the sample are shown in option
  descriptions; the labels at each end are ordered by how many of its relationships reach them (a ``:Movie:Year``
  node reached along ``RELEASE_YEAR`` is a ``Year``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from graphwalk_neo4j.adopt.introspect import Introspection, LabelStats, PropStats, labels_by_count
from graphwalk_neo4j.errors import ConfigError, InvalidIdentifierError
from graphwalk_neo4j.graph.profile import (
    GraphProfile,
    LabelProfile,
    MoveProfile,
    Skipped,
    relation_words,
)
from graphwalk_neo4j.identifiers import data_name

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

NAME_KEYS = (
    "name",
    "title",
    "fullname",
    "full_name",
    "displayname",
    "display_name",
    "label",
    "caption",
    "username",
    "login",
    "code",
    "term",
)
TEXT_MIN_LEN = 20
ADOPT_FIX = "leave it out with --exclude-labels / --exclude-rels"
CONSTANT_MIN_NODES = 20
NUMBER_NAME_DISTINCT = 0.95
# Keys that say where a node came from rather than what it is: never answers, never text.
_PROVENANCE_KEY = re.compile(
    r"^(source|sources|data_?source|dataset|data_?set|provenance|origin|lineage)$"
    r"|^(imported|loaded|ingested|import|load|ingest|etl)_?(at|by|from|on|run|batch|job|id|source|time)?$",
    re.IGNORECASE,
)
ANSWER_MIN_FILL = 0.05
ANSWER_MAX_LEN = 200
NAME_MIN_FILL = 0.5
_ID_KEY = re.compile(r"(^(id|uuid|guid|key|pk)$)|(_id$)|([a-z]Id$)|(^_)")


def _checked(name: str, kind: str, skipped: list[Skipped], what: str) -> bool:
    try:
        data_name(name, kind, fix=ADOPT_FIX)
    except InvalidIdentifierError as exc:
        skipped.append(Skipped(kind=what, name=name, reason=str(exc)))  # type: ignore[arg-type]
        return False
    return True


def _left_out(p: PropStats) -> str | None:
    """Why a property is neither a name, nor text, nor an answer (provenance or one value everywhere), else None."""
    if _PROVENANCE_KEY.search(p.key):
        return "provenance (where the data came from), not a fact about the node"
    if p.filled == p.sampled >= CONSTANT_MIN_NODES and p.distinct == 1:
        return f"one value on every sampled node ({p.sampled}); it tells no node from another"
    return None


def name_candidates(ls: LabelStats) -> list[PropStats]:
    """String properties that could name the label's nodes, best first (never a provenance or constant one);
    without any, a number that tells every
    node apart (``(:Year {value: 1999})``: distinct on at least :data:`NUMBER_NAME_DISTINCT` of the filled
    sample, and not identifier-like)."""

    def rank(p: PropStats) -> tuple[int, int, float, str]:
        known = NAME_KEYS.index(p.key.lower()) if p.key.lower() in NAME_KEYS else len(NAME_KEYS)
        return (known, 0 if p.unique else 1, -(p.fill * p.distinct_ratio), p.key)

    usable = [
        p for p in ls.props.values() if p.is_string and not p.is_list and p.fill >= NAME_MIN_FILL and not _left_out(p)
    ]
    if not usable:
        usable = [
            p
            for p in ls.props.values()
            if any(t.startswith(("INTEGER", "FLOAT")) for t in p.types)
            and not p.is_list
            and p.fill >= NAME_MIN_FILL
            and p.distinct_ratio >= NUMBER_NAME_DISTINCT
            and not _ID_KEY.search(p.key)
        ]
    return sorted(usable, key=rank)


def _label_profile(ls: LabelStats, names: list[str] | None, type_: str | None, skipped: list[Skipped]) -> LabelProfile:
    if names is not None:
        name_props = names
    else:
        cands = name_candidates(ls)
        name_props = [cands[0].key] if cands else []
        if not cands:
            skipped.append(
                Skipped(
                    kind="property",
                    name=f"{ls.label}.<name>",
                    reason="no string property names most nodes; nodes are shown as "
                    f"<{ls.label} without name #id> (give one with --name {ls.label}=prop)",
                )
            )
    text_props, answer_props = [], []
    for p in sorted(ls.props.values(), key=lambda p: p.key):
        if p.key in name_props or not _checked(p.key, "property key", skipped, "property"):
            continue
        left_out = _left_out(p)
        if left_out:
            skipped.append(Skipped(kind="property", name=f"{ls.label}.{p.key}", reason=left_out))
            continue
        if p.is_string and not p.is_list and (p.avg_len or 0) >= TEXT_MIN_LEN:
            text_props.append(p.key)
        if _ID_KEY.search(p.key):
            skipped.append(Skipped(kind="property", name=f"{ls.label}.{p.key}", reason="looks like an identifier"))
        elif p.fill < ANSWER_MIN_FILL:
            skipped.append(
                Skipped(kind="property", name=f"{ls.label}.{p.key}", reason=f"filled on {p.fill:.0%} of the sample")
            )
        elif (p.avg_len or 0) > ANSWER_MAX_LEN:
            skipped.append(
                Skipped(
                    kind="property",
                    name=f"{ls.label}.{p.key}",
                    reason=f"long text ({p.avg_len:.0f} characters on average); used as text",
                )
            )
        else:
            answer_props.append(p.key)
    return LabelProfile(
        label=ls.label,
        type=type_ or ls.label,
        count=ls.count,
        name_props=name_props,
        text_props=text_props,
        answer_props=answer_props,
    )


def propose(
    intro: Introspection,
    graph: str,
    *,
    labels: Iterable[str] | None = None,
    exclude_labels: Iterable[str] = (),
    exclude_rels: Iterable[str] = (),
    names: Mapping[str, list[str]] | None = None,
    types: Mapping[str, str] | None = None,
    now: str | None = None,
) -> GraphProfile:
    """The proposed profile; raises :class:`ConfigError` when an option names something that is not there or
    nothing walkable is left."""
    names, types = dict(names or {}), dict(types or {})
    present = {ls.label for ls in intro.labels}
    wanted = list(labels) if labels is not None else None
    for lab in [*(wanted or []), *exclude_labels, *names, *types]:
        if lab not in present:
            known = ", ".join(sorted(present)[:20]) or "none"
            raise ConfigError(f"label {lab!r} has no nodes in the database (labels there: {known})")
    rel_types = {rs.type for rs in intro.rels}
    for rel in exclude_rels:
        if rel not in rel_types:
            raise ConfigError(
                f"relationship type {rel!r} does not join the adopted labels "
                f"(types there: {', '.join(sorted(rel_types)) or 'none'})"
            )
    skipped: list[Skipped] = []
    dropped = set(exclude_labels)
    chosen: list[LabelProfile] = []
    for ls in sorted(intro.labels, key=lambda ls: (-ls.count, ls.label)):
        if wanted is not None and ls.label not in wanted:
            continue
        if ls.label in dropped:
            skipped.append(Skipped(kind="label", name=ls.label, reason="--exclude-labels"))
            continue
        if not _checked(ls.label, "label", skipped, "label"):
            continue
        for key in names.get(ls.label, []):
            if key not in ls.props:
                raise ConfigError(
                    f"--name {ls.label}={key}: no sampled {ls.label} node has a {key!r} property "
                    f"(properties: {', '.join(sorted(ls.props)) or 'none'})"
                )
        chosen.append(_label_profile(ls, names.get(ls.label), types.get(ls.label), skipped))
    if not chosen:
        raise ConfigError("nothing to adopt: no label with nodes is left (check --labels / --exclude-labels)")
    kept = {lp.label for lp in chosen}
    moves: list[MoveProfile] = []
    for rs in intro.rels:
        pairs = [(f, t, n) for f, t, n in rs.pairs if kept & set(f) and kept & set(t)]
        if not pairs:
            continue
        if rs.type in set(exclude_rels):
            skipped.append(Skipped(kind="relationship", name=rs.type, reason="--exclude-rels"))
            continue
        if not _checked(rs.type, "relationship type", skipped, "relationship"):
            continue
        props = [k for k in sorted(rs.props) if _checked(k, "property key", skipped, "property")]
        moves.append(
            MoveProfile(
                type=rs.type,
                words=relation_words(rs.type),
                props=props,
                count=sum(n for _, _, n in pairs),
                from_labels=labels_by_count(((f, n) for f, _, n in pairs), kept),
                to_labels=labels_by_count(((t, n) for _, t, n in pairs), kept),
            )
        )
    return GraphProfile(
        graph=graph,
        kind="adopted",
        labels=chosen,
        moves=moves,
        skipped=skipped,
        created_at=now or datetime.now(UTC).isoformat(timespec="seconds"),
    )
