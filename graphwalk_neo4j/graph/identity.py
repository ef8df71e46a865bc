"""Identity rules of the graph model: canonical names, deterministic ids, uids and content hashes.

Pure functions, no I/O. Every node the project writes is keyed by :func:`entity_uid` (``<graph>:<id>``); this
module is the only place that builds or splits one, in Python, and the Cypher files receive finished uids as
parameters instead of concatenating them.

* :func:`canonical_name` normalises an entity name: Unicode NFC, leading/trailing whitespace removed, inner runs of
  whitespace collapsed to one space. Case is **kept**: MetaQA has distinct entities that differ only in case (the
  tag ``kate beckinsale`` and the actor ``Kate Beckinsale``), so case-folding would merge them.
* :func:`entity_id` is ``"e_"`` + the first 32 hex digits (128 bits) of sha256 over the canonical name. When a type
  is given it is part of the hashed text (``type`` + U+001F + name); when it is ``None`` only the name counts. For
  MetaQA names are the identity, so ids are computed without a type and the same name always lands on the same
  node, whichever relation mentions it.
* :func:`hashed_entity_id` is the same ``"e_"`` + 32 hex digits over any other identifying text (a document's
  mention, a table row's key), for sources where the name alone is not the identity.
* :func:`relation_id` is ``"r_"`` + 32 hex digits of sha256 over ``src_id``, relation and ``dst_id`` joined by
  U+001F; one (subject, relation, object) triple is one relationship, however often loaded.
* :func:`content_hash` is the full sha256 hex digest of canonical bytes: raw bytes as they are, text as UTF-8,
  anything else as canonical JSON (sorted keys, no spaces, non-ASCII kept, pydantic models dumped in JSON mode).
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any

from pydantic import BaseModel

SEP = "\x1f"
"""Unit separator joining the parts of a hashed key: never in a canonical name (Python counts it as whitespace,
collapsed to a space)."""
_WS = re.compile(r"\s+")


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
    key = canon if type is None else f"{type}{SEP}{canon}"
    return "e_" + _short_hash(key)


def hashed_entity_id(key: str) -> str:
    """``"e_"`` + 32 hex digits of sha256 over ``key``: the id of an entity identified by more than its name."""
    return "e_" + _short_hash(key)


def relation_id(src_id: str, rel: str, dst_id: str) -> str:
    """Deterministic id of one relationship: ``"r_"`` + 32 hex digits of sha256 over ``src|rel|dst``."""
    return "r_" + _short_hash(SEP.join((src_id, rel, dst_id)))


def entity_uid(graph: str, entity: str) -> str:
    """The unique key of entity ``entity`` of graph ``graph``: ``"<graph>:<id>"``."""
    return f"{graph}:{entity}"


def id_of_uid(uid: str) -> str:
    """The entity id inside a uid built by :func:`entity_uid` (everything after the first ``:``)."""
    return uid.split(":", 1)[1]


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
