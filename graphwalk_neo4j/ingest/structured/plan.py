"""Phase 1 of structured ingest, before any write: read, hash and validate a file and decide what to do with it
(load, resume, diff against the stored segments, reload, or nothing). See :mod:`graphwalk_neo4j.ingest.structured`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import InputError, InvalidIdentifierError
from graphwalk_neo4j.graph.identity import entity_id, entity_uid, relation_id
from graphwalk_neo4j.graph.ledger import (
    document_id,
    document_key,
    get_document,
    legacy_document_key,
)
from graphwalk_neo4j.graph.rows import TripleRecord, claim_text
from graphwalk_neo4j.graph.writes import (
    WriteCounts,
)
from graphwalk_neo4j.identifiers import graph_name, relation_type, type_label
from graphwalk_neo4j.ingest import segments as seg
from graphwalk_neo4j.ingest.parsers import (
    Format,
    OnError,
    ParseProblem,
    ParseReport,
    check_head,
    detect_format,
    parse_bytes,
    triple_separator,
)

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore

PARSER_VERSION = "structured-1"
DIFF_TX_LIMIT = 20_000  # changed elements a diff applies in one transaction; beyond, batches (manifest last)
MAX_FILTER_TOKENS = 2_000  # candidates beyond which every unchanged line is parsed instead of filtered
TypeMap = Mapping[str, tuple[str | None, str | None]]


@dataclass
class FileResult:
    path: str
    document: str
    status: str  # "loaded" | "unchanged" | "resumed" | "reloaded" | "updated" | "migrated"
    doc_id: str = ""
    rows: int = 0
    skipped: int = 0
    batches: int = 0
    resumed_from_batch: int = 0
    counts: WriteCounts = field(default_factory=WriteCounts)
    removed: dict[str, int] = field(default_factory=dict)
    changed_segments: int = 0
    problems: list[ParseProblem] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "doc_id": self.doc_id,
            "document": self.document,
            "status": self.status,
            "rows": self.rows,
            "skipped": self.skipped,
            "batches": self.batches,
            "resumed_from_batch": self.resumed_from_batch,
            "counts": self.counts.as_dict(),
            "removed": dict(self.removed),
            "changed_segments": self.changed_segments,
            "problems": [str(p) for p in self.problems],
            "seconds": round(self.seconds, 3),
        }


@dataclass
class Diff:
    """The exact difference between a document's stored version and the new bytes."""

    add: list[TripleRecord] = field(default_factory=list)  # records to (re)assert: added relations or claims
    remove_relations: list[dict[str, str]] = field(default_factory=list)  # {src, dst, type, id}
    remove_entities: list[str] = field(default_factory=list)  # uids
    remove_claims: dict[str, set[str]] = field(default_factory=dict)  # uid -> claim texts
    drop_segments: list[str] = field(default_factory=list)  # stored segment hashes no longer in the file
    new_segments: list[seg.Segment] = field(default_factory=list)  # segments to store

    @property
    def size(self) -> int:
        return (
            len(self.add)
            + len(self.remove_relations)
            + len(self.remove_entities)
            + sum(len(v) for v in self.remove_claims.values())
        )


@dataclass
class Plan:
    path: Path
    doc_id: str
    key: str
    data: bytes
    content_hash: str
    mode: str  # "unchanged" | "load" | "resume" | "reload" | "diff" | "manifest"
    fmt: Format | None = None
    sep: str | None = None
    manifest: str = ""
    segments: list[seg.Segment] = field(default_factory=list)
    existing: dict[str, Any] | None = None
    rekey_from: str | None = None  # a legacy key to migrate first
    rows: int = 0
    skipped: int = 0
    problems: list[ParseProblem] = field(default_factory=list)
    diff: Diff | None = None
    on_error: OnError = "fail"
    batch_size: int = 5000
    type_map: TypeMap | None = None
    graph: str = ""
    source: str = ""


def file_hash(path: Path, extra: str = "") -> str:
    return content_hash_of(path.read_bytes(), extra)


def content_hash_of(data: bytes, extra: str = "") -> str:
    digest = hashlib.sha256()
    digest.update(f"{PARSER_VERSION}\x1f{extra}\x1f".encode())
    digest.update(data)
    return digest.hexdigest()


def check_type_map(type_map: TypeMap | None, where: str | Path | None = None) -> None:
    """Every relation name and label of a type map must pass the identifier rules (before anything is written)."""
    for relation, types in (type_map or {}).items():
        try:
            relation_type(relation)
            for label in types:
                if label is not None:
                    type_label(label)
        except InvalidIdentifierError as exc:
            raise InputError(f"type map entry {relation!r}: {exc}", path=where) from None


def type_map_key(type_map: TypeMap | None) -> str:
    """The text that stands for a type map in a document's hash and manifest: no map and ``{}`` are the same."""
    return repr(sorted((type_map or {}).items()))


def manifest_of(settings: str, on_error: str, type_map: TypeMap | None) -> str:
    """What a document's stored segments were cut and read under: the segment settings, the error policy and,
    last, the :func:`type_map_key` (:func:`manifest_type_map_key` reads it back)."""
    return f"{settings}{on_error}\x1f{type_map_key(type_map)}"


def manifest_type_map_key(manifest: str) -> str:
    """The :func:`type_map_key` a stored manifest (:func:`manifest_of`) was written with: its last field (``repr``
    escapes the separator inside names)."""
    return manifest.rsplit("\x1f", 1)[-1]


def read_type_map(path: str | Path) -> dict[str, tuple[str | None, str | None]]:
    """A JSON file ``{relation: [subject_type, object_type]}`` giving labels to untyped data (MetaQA, the dev sets),
    checked whole before anything is written; a bad file or label raises :class:`InputError` naming the file."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read the type map: {exc}", path=path) from exc
    if not isinstance(raw, dict) or not all(isinstance(v, list) and len(v) == 2 for v in raw.values()):
        raise InputError('type map must be {"relation": ["SubjectType", "ObjectType"], ...}', path=path)
    if not all(isinstance(t, str | None) for v in raw.values() for t in v):
        raise InputError(
            'type map labels must be strings or null, as in {"directed_by": ["Movie", "Person"]}', path=path
        )
    type_map = {k: (v[0], v[1]) for k, v in raw.items()}
    check_type_map(type_map, where=path)
    return type_map


async def plan_file(
    store: GraphStore,
    path: str | Path,
    *,
    graph: str,
    source: str = "files",
    root: str | Path | None = None,
    fmt: str | None = None,
    on_error: OnError = "fail",
    batch_size: int = 5000,
    type_map: TypeMap | None = None,
    claimed_legacy: set[str] | None = None,
) -> Plan:
    """Read, hash, validate and diff one file; writes nothing. Raises :class:`InputError` for bad input."""
    graph_name(graph)
    check_type_map(type_map)
    p = Path(path)
    try:
        data = await asyncio.to_thread(p.read_bytes)
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", path=p) from None
    type_extra = type_map_key(type_map)
    digest = content_hash_of(data, f"{fmt}|{on_error}|{type_extra}")
    doc_id = document_id(p, root)
    key = document_key(graph, source, doc_id)
    plan = Plan(
        path=p,
        doc_id=doc_id,
        key=key,
        data=data,
        content_hash=digest,
        mode="load",
        on_error=on_error,
        batch_size=batch_size,
        type_map=type_map,
        graph=graph,
        source=source,
    )
    plan.existing = await get_document(store, key)
    if plan.existing is None:
        legacy = legacy_document_key(graph, source, p.name)
        if legacy != key and (claimed_legacy is None or legacy not in claimed_legacy):
            plan.existing = await get_document(store, legacy)
            if plan.existing is not None:
                plan.rekey_from = legacy
                if claimed_legacy is not None:
                    claimed_legacy.add(legacy)
    existing = plan.existing
    chosen = detect_format(p, fmt)
    plan.fmt = chosen
    plan.sep = triple_separator(data) if chosen == "triples" else None
    settings = seg.salt(chosen, plan.sep)
    plan.manifest = manifest_of(settings, on_error, type_map)
    plan.segments = seg.split(data, chosen, settings)
    if existing and existing["content_hash"] == digest and existing["complete"]:
        plan.mode = "unchanged" if existing.get("segments") is not None else "manifest"
        plan.rows, plan.skipped = int(existing["rows"] or 0), int(existing.get("skipped") or 0)
        return plan
    if (
        existing
        and existing["complete"]
        and existing.get("segments") is not None
        and existing.get("manifest") == plan.manifest
        and plan.rekey_from is None
    ):
        plan.mode = "diff"
        await _plan_diff(store, plan)
        return plan
    # Validate the whole snapshot (also counts the rows for the progress bar).
    batches, report = parse_bytes(data, p, chosen, on_error=on_error, batch_size=batch_size)
    for _ in batches:
        pass
    plan.rows, plan.skipped, plan.problems = report.records, report.skipped, list(report.problems)
    if existing is None:
        plan.mode = "load"
    elif (
        existing["content_hash"] == digest
        and existing["status"] != "retracting"
        and existing.get("batch_size") == batch_size
    ):
        plan.mode = "resume"
    else:
        plan.mode = "reload"
    return plan


def _parse_part(
    plan: Plan, data: bytes, first_line: int, *, on_error: OnError, whole_file: bool
) -> tuple[list[TripleRecord], ParseReport]:
    assert plan.fmt is not None
    batches, report = parse_bytes(
        data,
        plan.path,
        plan.fmt,
        on_error=on_error,
        batch_size=10_000,
        first_line=first_line,
        sep=plan.sep,
        whole_file=whole_file,
    )
    return [r for batch in batches for r in batch], report


@dataclass
class _Keys:
    relations: Counter[str] = field(default_factory=Counter)
    entities: Counter[str] = field(default_factory=Counter)
    claims: Counter[tuple[str, str]] = field(default_factory=Counter)  # (uid, claim text)


@dataclass
class _Names:
    """What the candidates say, for the token filter and the rows to remove."""

    relations: dict[str, dict[str, str]] = field(default_factory=dict)  # rid -> {src, dst, type, id}
    triples: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # rid -> (subject, relation, object)
    entities: dict[str, str] = field(default_factory=dict)  # uid -> name
    claims: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)  # -> (subject, attribute)


def _record_keys(
    graph: str, doc: str, records: Iterable[TripleRecord], keys: _Keys, names: _Names | None = None
) -> None:
    for rec in records:
        s_id, o_id = entity_id(rec.subject, rec.subject_type), entity_id(rec.object, rec.object_type)
        s_uid, o_uid = entity_uid(graph, s_id), entity_uid(graph, o_id)
        rid = relation_id(s_id, rec.relation, o_id)
        keys.relations[rid] += 1
        keys.entities[s_uid] += 1
        keys.entities[o_uid] += 1
        if names is not None:
            names.relations.setdefault(rid, {"src": s_uid, "dst": o_uid, "type": rec.relation, "id": rid})
            names.triples.setdefault(rid, (rec.subject, rec.relation, rec.object))
            names.entities.setdefault(s_uid, rec.subject)
            names.entities.setdefault(o_uid, rec.object)
        for attr, value in rec.attributes.items():
            claim = (s_uid, claim_text(attr, value, doc))
            keys.claims[claim] += 1
            if names is not None:
                names.claims.setdefault(claim, (rec.subject, attr))


async def _plan_diff(store: GraphStore, plan: Plan) -> None:
    """Fill ``plan.diff`` (see the module docstring). Reads stored segments; writes nothing."""
    assert plan.existing is not None
    assert plan.fmt is not None
    graph, doc = plan.graph, plan.key
    check_head(plan.path, plan.data[:8192], len(plan.data))  # the file-level checks, on the whole snapshot
    old_hashes = Counter(plan.existing["segments"])
    new_hashes = Counter(s.hash for s in plan.segments)
    drop = old_hashes - new_hashes  # stored segments (with multiplicity) the new version no longer has
    available = Counter(old_hashes)
    changed_new: list[seg.Segment] = []
    unchanged: list[seg.Segment] = []
    for s in plan.segments:  # a segment also in the old version (as often as there) is unchanged
        if available[s.hash] > 0:
            available[s.hash] -= 1
            unchanged.append(s)
        else:
            changed_new.append(s)
    whole = plan.fmt == "csv"
    new_records: list[TripleRecord] = []
    new_skipped = 0
    problems: list[ParseProblem] = []
    for s in changed_new:  # validated now, with the run's on_error
        records, report = _parse_part(
            plan, plan.data[s.start : s.end], s.first_line, on_error=plan.on_error, whole_file=whole
        )
        new_records += records
        new_skipped += report.skipped
        problems += report.problems
    old_records: list[TripleRecord] = []
    old_skipped = 0
    rows = await store.read("ledger/segments_by_hash", doc=doc, hashes=sorted(drop)) if drop else []
    stored = {r["hash"]: bytes(r["data"]) for r in rows}
    missing = sorted(set(drop) - set(stored))
    if missing:  # the manifest names segments that are not stored: not a diffable version
        plan.mode = "reload"
        batches, report = parse_bytes(
            plan.data, plan.path, plan.fmt, on_error=plan.on_error, batch_size=plan.batch_size
        )
        for _ in batches:
            pass
        plan.rows, plan.skipped, plan.problems = report.records, report.skipped, list(report.problems)
        return
    for h, count in drop.items():
        records, report = _parse_part(plan, stored[h], 1, on_error="skip", whole_file=False)
        old_records += records * count
        old_skipped += report.skipped * count
    old_keys, new_keys, names = _Keys(), _Keys(), _Names()
    _record_keys(graph, doc, old_records, old_keys, names)
    _record_keys(graph, doc, new_records, new_keys, names)
    cand_rel = {
        k
        for k in old_keys.relations.keys() | new_keys.relations.keys()
        if (k in old_keys.relations) != (k in new_keys.relations)
    }
    cand_ent = {
        k
        for k in old_keys.entities.keys() | new_keys.entities.keys()
        if (k in old_keys.entities) != (k in new_keys.entities)
    }
    cand_claim = {
        k for k in old_keys.claims.keys() | new_keys.claims.keys() if (k in old_keys.claims) != (k in new_keys.claims)
    }
    # Which candidates an unchanged line still asserts: parse only the lines that may mention one.
    still = _Keys()
    if (cand_rel or cand_ent or cand_claim) and unchanged:
        tokens: set[bytes] = set()
        for k in cand_rel:
            subject, relation, obj = names.triples[k]
            tokens.update(seg.filter_tokens(subject, obj) or [relation.encode()])
        for k in cand_ent:
            tokens.update(seg.filter_tokens(names.entities[k]) or [b""])
        for c in cand_claim:
            subject, attr = names.claims[c]
            tokens.update(seg.filter_tokens(subject) or [attr.encode()])
        lines = _lines_to_check(plan.data, unchanged, tokens)
        if lines:
            records, _ = _parse_part(plan, b"\n".join(lines) + b"\n", 1, on_error="skip", whole_file=False)
            _record_keys(graph, doc, records, still)
    diff = Diff(drop_segments=sorted(h for h in drop if new_hashes[h] == 0), new_segments=changed_new)
    added_rel = {k for k in cand_rel if k in new_keys.relations and k not in still.relations}
    added_claim = {k for k in cand_claim if k in new_keys.claims and k not in still.claims}
    for rec in new_records:
        s_id, o_id = entity_id(rec.subject, rec.subject_type), entity_id(rec.object, rec.object_type)
        s_uid = entity_uid(graph, s_id)
        if relation_id(s_id, rec.relation, o_id) in added_rel or any(
            (s_uid, claim_text(a, v, doc)) in added_claim for a, v in rec.attributes.items()
        ):
            diff.add.append(rec)
    diff.remove_relations = [
        names.relations[k] for k in sorted(cand_rel) if k in old_keys.relations and k not in still.relations
    ]
    diff.remove_entities = sorted(k for k in cand_ent if k in old_keys.entities and k not in still.entities)
    for u, text in sorted(cand_claim):
        if (u, text) in old_keys.claims and (u, text) not in still.claims:
            diff.remove_claims.setdefault(u, set()).add(text)
    plan.diff = diff
    plan.rows = int(plan.existing["rows"] or 0) - len(old_records) + len(new_records)
    plan.skipped = int(plan.existing.get("skipped") or 0) - old_skipped + new_skipped
    plan.problems = problems


def _lines_to_check(data: bytes, unchanged: list[seg.Segment], tokens: set[bytes]) -> list[bytes]:
    """Lines of the unchanged segments that may mention a candidate (:func:`segments.may_mention`)."""
    if b"" in tokens or len(tokens) > MAX_FILTER_TOKENS:  # no usable filter: every line
        return [line for s in unchanged for line in data[s.start : s.end].split(b"\n") if line.strip()]
    pattern = re.compile(b"|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True)))
    out: list[bytes] = []
    for s in unchanged:
        part = data[s.start : s.end]
        plain = part.isascii() and b"\\" not in part
        if plain and pattern.search(part) is None:
            continue
        for line in part.split(b"\n"):
            if line.strip() and (not line.isascii() or b"\\" in line or pattern.search(line) is not None):
                out.append(line)
    return out
