"""Records that structured ingest produces, and the deterministic ids and hashes derived from them.

This module owns the *shape* of parsed input (:class:`TripleRecord`, :class:`EntityRecord`) and the identity
rules. It does no I/O and knows nothing about Neo4j.

Identity rules
--------------
* :func:`canonical_name` normalises an entity name: Unicode NFC, leading/trailing whitespace removed,
  inner runs of whitespace collapsed to one space. Case is **kept**: MetaQA has distinct entities that
  differ only in case (the tag ``kate beckinsale`` and the actor ``Kate Beckinsale``), so case-folding
  would merge them.
* :func:`entity_id` is ``"e_"`` + the first 32 hex digits (128 bits) of sha256 over the canonical name.
  When a type is given it is part of the hashed text (``type`` + U+001F + name); when it is ``None`` only
  the name counts. For MetaQA names are the identity, so ids are computed without a type and the same
  name always lands on the same node, whichever relation mentions it.
* :func:`relation_id` is ``"r_"`` + 32 hex digits of sha256 over ``src_id``, relation and ``dst_id``
  joined by U+001F; one (subject, relation, object) triple is one relationship, however often loaded.
* :func:`content_hash` is the full sha256 hex digest of canonical bytes: raw bytes as they are, text as
  UTF-8, anything else as canonical JSON (sorted keys, no spaces, non-ASCII kept, pydantic models dumped
  in JSON mode).
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

AttributeValue = str | int | float | bool
"""Values allowed in :attr:`TripleRecord.attributes` (scalars only: they become node properties)."""

_SEP = "\x1f"  # unit separator: never in a canonical name (Python counts it as whitespace, collapsed to " ")
_WS = re.compile(r"\s+")


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
        """The subject's :func:`entity_id` (typed only when ``subject_type`` is set)."""
        return entity_id(self.subject, self.subject_type)

    def object_id(self) -> str:
        """The object's :func:`entity_id` (typed only when ``object_type`` is set)."""
        return entity_id(self.object, self.object_type)

    def id(self) -> str:
        """The :func:`relation_id` of this triple."""
        return relation_id(self.subject_id(), self.relation, self.object_id())


class EntityRecord(BaseModel):
    """A node to create or merge: its id, display name, optional type label and scalar attributes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    type: str | None = None
    attributes: dict[str, AttributeValue] = Field(default_factory=dict)

    @classmethod
    def from_name(
        cls, name: str, type: str | None = None, attributes: dict[str, AttributeValue] | None = None
    ) -> EntityRecord:
        """Build a record whose ``id`` is :func:`entity_id` of ``name`` (and ``type``)."""
        return cls(
            id=entity_id(name, type), name=canonical_name(name), type=type, attributes=attributes or {}
        )


def canonical_name(name: str) -> str:
    """NFC-normalise, strip and collapse inner whitespace; case is kept (see the module docstring)."""
    return _WS.sub(" ", unicodedata.normalize("NFC", name)).strip()


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def entity_id(name: str, type: str | None = None) -> str:
    """Deterministic id of an entity: ``"e_"`` + 32 hex digits of sha256 over the canonical name.

    ``type`` only takes part when it is not ``None``; ``entity_id("Kismet") != entity_id("Kismet", "Movie")``.
    Raises ``ValueError`` for a name that is empty after normalisation.
    """
    canon = canonical_name(name)
    if not canon:
        raise ValueError("entity name is empty")
    key = canon if type is None else f"{type}{_SEP}{canon}"
    return "e_" + _short_hash(key)


def relation_id(src_id: str, rel: str, dst_id: str) -> str:
    """Deterministic id of one relationship: ``"r_"`` + 32 hex digits of sha256 over ``src|rel|dst``."""
    return "r_" + _short_hash(_SEP.join((src_id, rel, dst_id)))


def canonical_json(value: Any) -> str:
    """JSON with sorted keys, no whitespace and non-ASCII kept; pydantic models are dumped in JSON mode."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def content_hash(value: Any) -> str:
    """Full sha256 hex digest: bytes as is, ``str`` as UTF-8, anything else as :func:`canonical_json`."""
    if isinstance(value, bytes | bytearray | memoryview):
        data = bytes(value)
    elif isinstance(value, str):
        data = value.encode("utf-8")
    else:
        data = canonical_json(value).encode("utf-8")
    return hashlib.sha256(data).hexdigest()
