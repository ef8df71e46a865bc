"""The row models of graph writes: one class per kind of row the write templates take, built in one place.

Structured ingest reads files into :class:`TripleRecord`; every writer (structured files, text documents, SQL
tables) turns its input into :class:`EntityRow`, :class:`RelationRow` and :class:`ClaimRow` through the
constructors here, so the uid rule, ``name_lc``, the relation id and the claim text are computed once. ``param()``
gives the plain mapping a Cypher template receives in ``$rows`` (the keys its header documents).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphwalk_neo4j.graph.identity import entity_id, entity_uid, id_of_uid, relation_id

AttributeValue = str | int | float | bool
"""Values allowed in :attr:`TripleRecord.attributes` (scalars only: they become node properties)."""


class TripleRecord(BaseModel):
    """One ``subject -relation-> object`` statement read from an input file.

    ``attributes`` describe the *subject* (e.g. extra CSV columns). ``source`` and ``line`` point back at
    where the record came from (1-based line; for a CSV record spanning lines, its first line).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject: str
    relation: str
    object: str
    subject_type: str | None = None
    object_type: str | None = None
    attributes: dict[str, AttributeValue] = Field(default_factory=dict)
    source: str | None = None
    line: int | None = None

    def subject_id(self) -> str:
        """The subject's :func:`~.identity.entity_id` (typed only when ``subject_type`` is set)."""
        return entity_id(self.subject, self.subject_type)

    def object_id(self) -> str:
        """The object's :func:`~.identity.entity_id` (typed only when ``object_type`` is set)."""
        return entity_id(self.object, self.object_type)

    def id(self) -> str:
        """The :func:`~.identity.relation_id` of this triple."""
        return relation_id(self.subject_id(), self.relation, self.object_id())


@dataclass(slots=True)
class EntityRow:
    """One entity to merge (``graph/merge_entities``; ``ingest/merge_mentions`` also reads summary and aliases)."""

    uid: str
    id: str
    name: str
    type: str | None = None
    summary: str | None = None
    aliases: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, graph: str, eid: str, name: str, type: str | None = None, summary: str | None = None) -> EntityRow:
        """The row of entity ``eid`` of ``graph`` (its uid built by :func:`~.identity.entity_uid`)."""
        return cls(uid=entity_uid(graph, eid), id=eid, name=name, type=type, summary=summary)

    def param(self) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "id": self.id,
            "name": self.name,
            "name_lc": self.name.lower(),
            "type": self.type,
            "summary": self.summary,
            "aliases": self.aliases,
        }


@dataclass(slots=True)
class RelationRow:
    """One relationship between two entity uids; its id is :func:`~.identity.relation_id` of the two ids.

    ``chunk`` and ``confidence`` are set by text ingest (``ingest/merge_relations``) and ``None`` otherwise.
    """

    src: str
    dst: str
    type: str
    id: str
    chunk: str | None = None
    confidence: float | None = None

    @classmethod
    def of(
        cls,
        src: str,
        type: str,
        dst: str,
        chunk: str | None = None,
        confidence: float | None = None,
    ) -> RelationRow:
        return cls(
            src=src,
            dst=dst,
            type=type,
            id=relation_id(id_of_uid(src), type, id_of_uid(dst)),
            chunk=chunk,
            confidence=confidence,
        )

    def param(self) -> dict[str, Any]:
        return {
            "src": self.src,
            "dst": self.dst,
            "type": self.type,
            "id": self.id,
            "chunk": self.chunk,
            "confidence": self.confidence,
        }


def claim_text(key: str, value: Any, source: str) -> str:
    """The JSON text stored in ``claims`` for one (key, value, source)."""
    return json.dumps({"key": key, "value": value, "source": source}, sort_keys=True, ensure_ascii=False)


@dataclass(slots=True)
class ClaimRow:
    """One attribute claim on an entity uid (``graph/set_claims``)."""

    uid: str
    key: str
    value: Any
    claim: str

    @classmethod
    def of(cls, uid: str, key: str, value: Any, source: str) -> ClaimRow:
        return cls(uid=uid, key=key, value=value, claim=claim_text(key, value, source))

    def param(self) -> dict[str, Any]:
        return {"uid": self.uid, "key": self.key, "value": self.value, "claim": self.claim}


def params(rows: list[EntityRow] | list[RelationRow] | list[ClaimRow]) -> list[dict[str, Any]]:
    """The ``$rows`` parameter of a write template."""
    return [row.param() for row in rows]
