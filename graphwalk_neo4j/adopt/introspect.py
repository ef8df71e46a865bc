"""Introspection of a user's graph: labels with counts, property keys per label (fill rate, value types,
distinct values, string length) from a sample of nodes, uniqueness constraints, relationship types with their
endpoint labels, counts and (sampled) property keys. Read-only; nodes graphwalk manages are never counted.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.graph.profile import MANAGED_LABELS, NS_LABEL, NS_PREFIX

if TYPE_CHECKING:
    from collections.abc import Container, Iterable, Sequence

    from graphwalk_neo4j.store import GraphStore

SAMPLE = 1000


@dataclass
class PropStats:
    key: str
    filled: int
    sampled: int
    distinct: int
    types: list[str] = field(default_factory=list)
    avg_len: float | None = None
    unique: bool = False  # a uniqueness constraint holds it

    @property
    def fill(self) -> float:
        return self.filled / self.sampled if self.sampled else 0.0

    @property
    def distinct_ratio(self) -> float:
        return self.distinct / self.filled if self.filled else 0.0

    @property
    def is_string(self) -> bool:
        return any(t.startswith("STRING") for t in self.types)

    @property
    def is_list(self) -> bool:
        return any(t.startswith("LIST") for t in self.types)

    @property
    def type_text(self) -> str:
        return "|".join(sorted({t.replace(" NOT NULL", "") for t in self.types})) or "?"


@dataclass
class LabelStats:
    label: str
    count: int
    sampled: int = 0
    props: dict[str, PropStats] = field(default_factory=dict)


@dataclass
class RelStats:
    type: str
    count: int = 0
    pairs: list[tuple[list[str], list[str], int]] = field(default_factory=list)
    props: dict[str, float] = field(default_factory=dict)  # key -> fill rate in the sample

    @property
    def from_labels(self) -> list[str]:
        return labels_by_count((f, n) for f, _, n in self.pairs)

    @property
    def to_labels(self) -> list[str]:
        return labels_by_count((t, n) for _, t, n in self.pairs)


def labels_by_count(ends: Iterable[tuple[Sequence[str], int]], keep: Container[str] | None = None) -> list[str]:
    """The labels seen at one end of a relationship type, the one on most of its relationships first (ties by
    name): ``[(["Movie", "Year"], 5), (["Year"], 90)]`` -> ``["Year", "Movie"]``. ``keep`` limits the labels."""
    counts: Counter[str] = Counter()
    for labels, n in ends:
        for label in labels:
            if keep is None or label in keep:
                counts[label] += n
    return sorted(counts, key=lambda label: (-counts[label], label))


@dataclass
class Introspection:
    labels: list[LabelStats]
    rels: list[RelStats]

    def label(self, name: str) -> LabelStats | None:
        return next((ls for ls in self.labels if ls.label == name), None)

    def as_dict(self) -> dict[str, Any]:
        return {
            "labels": [
                {
                    "label": ls.label,
                    "count": ls.count,
                    "sampled": ls.sampled,
                    "properties": [
                        {
                            "key": p.key,
                            "fill": round(p.fill, 3),
                            "type": p.type_text,
                            "distinct": round(p.distinct_ratio, 3),
                            "unique": p.unique,
                        }
                        for p in ls.props.values()
                    ],
                }
                for ls in self.labels
            ],
            "relationships": [
                {
                    "type": r.type,
                    "count": r.count,
                    "from": r.from_labels,
                    "to": r.to_labels,
                    "properties": sorted(r.props),
                }
                for r in self.rels
            ],
        }


def _user_labels(labels: list[str]) -> list[str]:
    return [lab for lab in labels if lab != NS_LABEL]


async def introspect(store: GraphStore, *, labels: list[str] | None = None, sample: int = SAMPLE) -> Introspection:
    """Read the shape of the database (``labels`` limits the property and relationship reads to those)."""
    managed = list(MANAGED_LABELS)
    counts = [
        (r["label"], int(r["n"]))
        for r in await store.read("adopt/introspect_labels", managed=managed)
        if r["label"] != NS_LABEL
    ]
    stats = [LabelStats(label=lab, count=n) for lab, n in counts if labels is None or lab in labels]
    unique = {(r["label"], r["key"]) for r in await store.read("adopt/introspect_unique")}
    by_label = {ls.label: ls for ls in stats}
    names = [ls.label for ls in stats]
    if names:
        for r in await store.read("adopt/introspect_properties", labels=names, managed=managed, sample=sample):
            ls = by_label[r["label"]]
            ls.sampled = int(r["sampled"])
            if r["key"].startswith(NS_PREFIX):
                continue
            ls.props[r["key"]] = PropStats(
                key=r["key"],
                filled=int(r["filled"]),
                sampled=int(r["sampled"]),
                distinct=int(r["distinct"]),
                types=list(r["types"] or []),
                avg_len=r["avg_len"],
                unique=(r["label"], r["key"]) in unique,
            )
    rels: dict[str, RelStats] = {}
    if names:
        for r in await store.read("adopt/introspect_relationships", labels=names, managed=managed):
            rs = rels.setdefault(r["type"], RelStats(type=r["type"]))
            rs.count += int(r["n"])
            rs.pairs.append((_user_labels(r["from_labels"]), _user_labels(r["to_labels"]), int(r["n"])))
    if rels:
        for r in await store.read(
            "adopt/introspect_rel_properties", types=list(rels), labels=names, managed=managed, sample=sample
        ):
            if r["sampled"]:
                rels[r["type"]].props[r["key"]] = int(r["filled"]) / int(r["sampled"])
    ordered = sorted(rels.values(), key=lambda rs: (-rs.count, rs.type))
    return Introspection(labels=stats, rels=ordered)
