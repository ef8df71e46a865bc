"""Extraction: one chunk of text -> entities and relations, through any chat model litellm can reach.

The reply must be one JSON object matching :class:`Extraction` (entities: name, type, description, attributes;
relations: source, type, target). A reply that does not parse or validate is retried once with the validation
error appended to the conversation; a second failure raises :class:`ExtractionError` (the pipeline marks that
chunk failed and its document incomplete).

:func:`clean_extraction` then makes the reply safe and tidy (pure, unit-tested):

* names are canonicalised (:func:`~graphwalk_neo4j.graph.identity.canonical_name`); entities whose names are
  equal ignoring case are merged (first type, first non-empty description, first value of each attribute);
* names keep their letters in any script, accents on Latin letters folded (``Café`` -> ``Cafe``, ``監督`` stays);
* entity types become PascalCase labels that pass :func:`~graphwalk_neo4j.identifiers.type_label`
  (``"sea captain"`` -> ``SeaCaptain``); generic types (``entity``, ``thing``, ``other``, ``unknown``) and
  empty ones become ``None`` (untyped); a reserved label (``Document``) becomes ``ExtractedDocument``;
* relation types become snake_case names that pass :func:`~graphwalk_neo4j.identifiers.relation_type`
  (``"designed by"`` -> ``designed_by``); self-loops and duplicates are dropped; an endpoint that is not
  among the entities is added as an untyped entity;
* attribute keys become snake_case property keys (a key the graph reserves, such as ``name``, gets an
  ``attr_`` prefix); values are kept when scalar (lists of scalars are joined with ``"; "``), else dropped.

:class:`Extractor` bounds the calls in flight with an :class:`asyncio.Semaphore` (default 8). Results are cached
by the pipeline on the chunk node under :func:`cache_key` = sha256(chunk hash, model, :data:`PROMPT_VERSION`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field, SecretStr, ValidationError

from graphwalk_neo4j.errors import ConfigError, ExtractionError, InvalidIdentifierError, LLMError
from graphwalk_neo4j.graph.identity import canonical_name
from graphwalk_neo4j.graph.writes import RESERVED_KEYS
from graphwalk_neo4j.identifiers import RESERVED_LABELS, property_key, relation_type, type_label
from graphwalk_neo4j.llm import LLMClient

PROMPT_VERSION = "extract-1"
# Properties the pipeline itself sets on entities, beyond graph.writes.RESERVED_KEYS.
PIPELINE_KEYS = frozenset({"updated_at", "labels"})
GENERIC_TYPES = frozenset({"entity", "thing", "other", "unknown", "misc", "none", "object"})

SYSTEM_PROMPT = """You extract a knowledge graph from one passage of a document.
Reply with ONE JSON object and nothing else, of this form:
{"entities": [{"name": "...", "type": "...", "description": "...", "attributes": {"key": value}}],
 "relations": [{"source": "...", "type": "...", "target": "..."}]}
Rules:
- entities: every person, organisation, place, object, work or event the passage states facts about.
  name: the fullest name used in the passage. type: a short noun such as Person, Organization, Place,
  Vessel, Building. description: one sentence from the passage about it. attributes: literal facts
  (numbers, dates, short strings) keyed in snake_case, e.g. {"built": 1873}.
- relations: facts linking two entities, type in snake_case, e.g. {"source": "Ada", "type": "works_for",
  "target": "Acme"}. source and target are entity names exactly as listed in entities.
- Use only facts stated in the passage. Do not invent."""
RETRY_PROMPT = "Your reply was not valid: {error}. Reply again with the JSON object only, in the form given."

Scalar = str | int | float | bool


class ExtractedEntity(BaseModel):
    name: str = Field(min_length=1)
    type: str | None = None
    description: str | None = None
    attributes: dict[str, Any] = Field(default_factory=dict)


class ExtractedRelation(BaseModel):
    source: str = Field(min_length=1)
    type: str = Field(min_length=1)
    target: str = Field(min_length=1)


class Extraction(BaseModel):
    entities: list[ExtractedEntity] = Field(default_factory=list)
    relations: list[ExtractedRelation] = Field(default_factory=list)


class Mention(BaseModel):
    """A cleaned entity mention: what routing and resolution work with."""

    name: str
    type: str | None = None
    description: str = ""
    attributes: dict[str, Scalar] = Field(default_factory=dict)


class Fact(BaseModel):
    source: str  # a mention name
    type: str
    target: str


class CleanExtraction(BaseModel):
    mentions: list[Mention] = Field(default_factory=list)
    facts: list[Fact] = Field(default_factory=list)
    dropped: list[str] = Field(default_factory=list)  # what cleanup removed, and why


# ---- normalisation (pure) -----------------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_WORD = re.compile(r"[\W_]+")


def _name_words(text: str) -> list[str]:
    """Words of a name in any script, accents on Latin letters folded (``Café`` -> ``Cafe``; ``監督`` and
    ``режиссёр`` stay as they are)."""
    kept: list[str] = []
    for ch in unicodedata.normalize("NFKD", text):
        if not (unicodedata.category(ch) == "Mn" and kept and kept[-1].isascii()):
            kept.append(ch)
    folded = unicodedata.normalize("NFC", "".join(kept))
    return [w for w in _NON_WORD.split(_CAMEL.sub(" ", folded)) if w]


def pascal_label(raw: str | None) -> str | None:
    """An entity type as a PascalCase label, ``None`` when generic or empty (see the module docstring)."""
    if raw is None:
        return None
    words = _name_words(raw)
    if not words or "".join(words).lower() in GENERIC_TYPES:
        return None
    label = "".join(w[:1].upper() + w[1:].lower() for w in words)
    if label[0].isdigit():
        label = "T" + label
    label = label[:64]
    if label in RESERVED_LABELS:
        label = "Extracted" + label
    return type_label(label)


def snake_name(raw: str, *, fallback: str = "related_to", prefix: str = "rel_") -> str:
    """snake_case name from free text: words (any script), lower case, joined by ``_``; at most 64 characters."""
    words = [w.lower() for w in _name_words(raw)]
    name = "_".join(words) or fallback
    if name[0].isdigit():
        name = prefix + name
    return name[:64].rstrip("_")


def relation_name(raw: str) -> str:
    return relation_type(snake_name(raw))


def attribute_key(raw: str) -> str:
    key = snake_name(raw, fallback="value", prefix="attr_")
    if key in RESERVED_KEYS or key in PIPELINE_KEYS:
        key = "attr_" + key
    return property_key(key[:64])


def attribute_value(value: Any) -> Scalar | None:
    """A scalar attribute value, or ``None`` when it cannot be one (objects, empty text, NaN)."""
    if isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, list) and value and all(isinstance(v, str | int | float | bool) for v in value):
        return "; ".join(str(v) for v in value)
    return None


def clean_extraction(raw: Extraction) -> CleanExtraction:
    """Tidy a validated reply (see the module docstring for every rule)."""
    out = CleanExtraction()
    by_key: dict[str, Mention] = {}

    def key_of(name: str) -> str:
        return canonical_name(name).casefold()

    def add(name: str, type_: str | None, description: str | None, attributes: dict[str, Any]) -> None:
        canon = canonical_name(name)
        if not canon:
            out.dropped.append("entity with an empty name")
            return
        try:
            label = pascal_label(type_)
        except InvalidIdentifierError:
            out.dropped.append(f"type {type_!r} of {canon!r}")
            label = None
        mention = by_key.get(key_of(canon))
        if mention is None:
            mention = Mention(name=canon)
            by_key[key_of(canon)] = mention
            out.mentions.append(mention)
        if mention.type is None and label is not None:
            mention.type = label
        if not mention.description and description and description.strip():
            mention.description = " ".join(description.split())
        for k, v in attributes.items():
            value = attribute_value(v)
            if value is None:
                out.dropped.append(f"attribute {k!r} of {canon!r} (not a scalar)")
                continue
            try:
                key = attribute_key(str(k))
            except InvalidIdentifierError:
                out.dropped.append(f"attribute {k!r} of {canon!r} (bad key)")
                continue
            mention.attributes.setdefault(key, value)

    for entity in raw.entities:
        add(entity.name, entity.type, entity.description, entity.attributes)
    seen: set[tuple[str, str, str]] = set()
    for rel in raw.relations:
        src, dst = canonical_name(rel.source), canonical_name(rel.target)
        if not src or not dst:
            out.dropped.append(f"relation {rel.type!r} with an empty endpoint")
            continue
        if key_of(src) == key_of(dst):
            out.dropped.append(f"self-loop {src!r} -{rel.type}-> {dst!r}")
            continue
        for endpoint in (src, dst):
            if key_of(endpoint) not in by_key:
                add(endpoint, None, None, {})
        rtype = relation_name(rel.type)
        s_name, d_name = by_key[key_of(src)].name, by_key[key_of(dst)].name
        if (s_name, rtype, d_name) in seen:
            continue
        seen.add((s_name, rtype, d_name))
        out.facts.append(Fact(source=s_name, type=rtype, target=d_name))
    return out


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


def parse_reply(text: str) -> Extraction:
    """Parse and validate a reply; raises ``ValueError`` with a short, model-readable reason."""
    cleaned = _FENCE.sub("", (text or "").strip())
    start, end = cleaned.find("{"), cleaned.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("the reply contains no JSON object")
    try:
        payload = json.loads(cleaned[start : end + 1])
    except json.JSONDecodeError as exc:
        raise ValueError(f"the reply is not valid JSON ({exc.msg} at character {exc.pos})") from None
    try:
        return Extraction.model_validate(payload)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in exc.errors()[:5])
        raise ValueError(f"the JSON does not match the schema ({problems})") from None


def cache_key(chunk_hash: str, model: str) -> str:
    return hashlib.sha256(f"{chunk_hash}\x1f{model}\x1f{PROMPT_VERSION}".encode()).hexdigest()


# ---- the LLM client ------------------------------------------------------------------------------------------


@dataclass
class ExtractionStats:
    calls: int = 0
    retries: int = 0
    failures: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0  # summed call time (calls overlap, so this exceeds wall time)
    errors: list[str] = field(default_factory=list)


class Extractor:
    """Calls ``litellm.acompletion`` for one chunk at a time, at most ``concurrency`` at once."""

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | SecretStr | None = None,
        concurrency: int = 8,
        timeout_s: float = 60.0,
        num_retries: int = 2,
        max_tokens: int = 2000,
    ) -> None:
        if not model or not model.strip():
            raise ConfigError(
                "text ingest needs an extraction model: pass --llm-model (a litellm model name, "
                "e.g. openai/gpt-4o-mini)"
            )
        if concurrency < 1:
            raise ConfigError("extraction concurrency must be >= 1")
        self.model = model
        self.api_base = api_base
        self._client = LLMClient(
            model,
            api_base=api_base,
            api_key=api_key,
            timeout_s=timeout_s,
            num_retries=num_retries,
            label="extraction model",
        )
        self.timeout_s = timeout_s
        self.num_retries = num_retries
        self.max_tokens = max_tokens
        self.concurrency = concurrency
        self.semaphore = asyncio.Semaphore(concurrency)
        self.stats = ExtractionStats()

    @classmethod
    def from_settings(cls, settings: Any, model: str, *, concurrency: int = 8) -> Extractor:
        return cls(model, api_base=settings.llm_api_base, api_key=settings.llm_api_key, concurrency=concurrency)

    async def _complete(self, messages: list[dict[str, str]]) -> str:
        try:
            reply = await self._client.complete(
                messages, max_tokens=self.max_tokens, response_format={"type": "json_object"}
            )
        except LLMError as exc:
            raise ExtractionError(str(exc)) from None
        self.stats.input_tokens += reply.input_tokens
        self.stats.output_tokens += reply.output_tokens
        return reply.content

    async def extract(self, text: str, *, label: str = "chunk") -> CleanExtraction:
        """Extract from one passage; one retry with the validation error, then :class:`ExtractionError`."""
        async with self.semaphore:
            started = time.perf_counter()
            try:
                messages = [
                    {"role": "system", "content": SYSTEM_PROMPT},
                    {"role": "user", "content": f"Passage:\n\n{text}"},
                ]
                problem = ""
                for attempt in range(2):
                    self.stats.calls += 1
                    reply = await self._complete(messages)
                    try:
                        return clean_extraction(parse_reply(reply))
                    except ValueError as exc:
                        problem = str(exc)
                    if attempt == 0:
                        self.stats.retries += 1
                        messages = [
                            *messages,
                            {"role": "assistant", "content": reply[:4000]},
                            {"role": "user", "content": RETRY_PROMPT.format(error=problem)},
                        ]
                self.stats.failures += 1
                raise ExtractionError(
                    f"extraction model {self.model} gave an invalid reply twice for {label}: {problem}"
                )
            finally:
                self.stats.seconds += time.perf_counter() - started
