"""SQL databases as a source, through SQLAlchemy: tables -> entity types, rows -> entities, FKs -> relationships.

Mapping (:func:`profile_tables`, pure over SQLAlchemy's reflected metadata):

* a table is an entity type: its name singularised by plain English endings (``books`` -> ``Book``,
  ``countries`` -> ``Country``, ``addresses`` -> ``Address``; ``status`` stays) in PascalCase;
* a row is one entity whose id hashes (source, table, primary key), or the whole row when the table has no
  primary key (identical rows of such a table are one entity);
* the entity's name is the first column called ``name``, ``title``, ``label``, ``full_name``, ``display_name``
  or ``username``; when there is none (or it is NULL) it is ``"<Type> <primary key>"``, or ``"<Type> <8 hex
  digits of the row hash>"`` for a table without a primary key;
* every other column that is not part of a foreign key is an attribute (a claim with the table's document as
  source; keys snake_cased, reserved keys such as ``id`` prefixed ``attr_``); NULLs and binary values are left
  out; dates become ISO text, decimals floats;
* each foreign key is a relationship from the row to the row it references, typed by the FK column without
  ``_id`` (``author_id`` -> ``author``), or by the referenced table for composite keys. The referenced entity is
  also merged into the referencing table's document (name and type only), so a relationship survives when only
  the referenced table is re-ingested.

Ledger: one document per table (``<graph>|<source>|<table>``), hashed over its columns and rows. Unchanged
tables are skipped; a changed table is retracted and written again in batches (one transaction each, resumable
like structured ingest); with ``prune`` a table that disappeared is retracted and forgotten.

Each table is read whole into memory (it must be hashed before anything is written); this suits databases up to
a few million rows. Reads run in a worker thread so the event loop stays free.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import decimal
import importlib.util
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import ConfigError, InputError, InvalidIdentifierError
from graphwalk_neo4j.extras import require_extra
from graphwalk_neo4j.graph.identity import canonical_json, content_hash, hashed_entity_id
from graphwalk_neo4j.graph.ledger import (
    begin_document,
    complete_document,
    document_key,
    get_document,
    list_documents,
    now_iso,
    retract_document,
)
from graphwalk_neo4j.graph.rows import ClaimRow, EntityRow, RelationRow
from graphwalk_neo4j.graph.writes import PreparedBatch, WriteCounts, write_batch
from graphwalk_neo4j.identifiers import validate_identifier
from graphwalk_neo4j.ingest.extraction import attribute_key, pascal_label, snake_name

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore

SQL_VERSION = "sql-1"
NAME_COLUMNS = ("name", "title", "label", "full_name", "display_name", "username")


@dataclass
class ForeignKey:
    columns: list[str]
    table: str
    referred: list[str]
    relation: str


@dataclass
class TableProfile:
    name: str
    entity_type: str
    primary_key: list[str]
    name_column: str | None
    attributes: dict[str, str]  # column -> attribute key
    foreign_keys: list[ForeignKey] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.name,
            "type": self.entity_type,
            "primary_key": self.primary_key,
            "name_column": self.name_column,
            "attributes": self.attributes,
            "foreign_keys": [fk.__dict__ for fk in self.foreign_keys],
        }


def singular(word: str) -> str:
    lower = word.lower()
    if lower.endswith("ies") and len(word) > 3:
        return word[:-3] + ("Y" if word[-3].isupper() else "y")
    if lower.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")) and len(word) > 1:
        return word[:-1]
    return word


def engine_url(url: str) -> str:
    """``postgresql://`` uses psycopg (v3) when psycopg2 is not installed; other URLs are left as they are."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        rest = url.split("://", 1)[1]
        if importlib.util.find_spec("psycopg2") is None and importlib.util.find_spec("psycopg") is not None:
            return "postgresql+psycopg://" + rest
        return "postgresql://" + rest
    return url


def need_sqlalchemy() -> None:
    """SQLAlchemy is the sql extra: a one-line MissingExtraError before anything is read or written."""
    require_extra("sqlalchemy", "sql", "ingesting a SQL database (a sqlite:// or postgresql:// URL)")


def safe_url(url: str) -> str:
    need_sqlalchemy()
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]


def default_source(url: str) -> str:
    need_sqlalchemy()
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    database = (parsed.database or "db").replace("\\", "/").rsplit("/", 1)[-1]
    return f"sql:{database}"


def profile_tables(metadata: Any, tables: list[str] | None = None) -> list[TableProfile]:
    """Map reflected tables to entity types (see the module docstring); raises on names that cannot be labels."""
    profiles = []
    for table in metadata.sorted_tables:
        if tables and table.name not in tables:
            continue
        label = pascal_label(singular(table.name)) or pascal_label(table.name + "_row")
        assert label is not None
        pk = [c.name for c in table.primary_key.columns]
        fk_columns: set[str] = set()
        fks = []
        for constraint in sorted(table.foreign_key_constraints, key=lambda c: [col.name for col in c.columns]):
            cols = [c.name for c in constraint.columns]
            fk_columns.update(cols)
            referred = constraint.referred_table.name
            raw = (
                cols[0][:-3]
                if len(cols) == 1 and cols[0].lower().endswith("_id")
                else (cols[0][:-2] if len(cols) == 1 and cols[0].lower().endswith("id") and len(cols[0]) > 2 else "")
            )
            relation = snake_name(raw or singular(referred), fallback=snake_name(singular(referred)))
            fks.append(
                ForeignKey(
                    columns=cols,
                    table=referred,
                    referred=[e.column.name for e in constraint.elements],
                    relation=relation,
                )
            )
        names = {c.name.lower(): c.name for c in table.columns}
        name_column = next((names[n] for n in NAME_COLUMNS if n in names and names[n] not in fk_columns), None)
        attributes = {}
        for column in table.columns:
            if column.name in fk_columns or column.name == name_column:
                continue
            try:
                attributes[column.name] = attribute_key(column.name)
            except InvalidIdentifierError as exc:
                raise InputError(f"column {table.name}.{column.name} cannot be an attribute: {exc}") from None
        profiles.append(
            TableProfile(
                name=table.name,
                entity_type=label,
                primary_key=pk,
                name_column=name_column,
                attributes=attributes,
                foreign_keys=fks,
            )
        )
    return profiles


def plain_value(value: Any) -> Any:
    """A column value as something Neo4j and JSON can hold (``None`` to leave it out)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes | bytearray | memoryview):
        return None
    if isinstance(value, uuid.UUID):
        return str(value)
    return str(value)


@dataclass
class TableData:
    profile: TableProfile
    rows: list[dict[str, Any]]
    hash: str
    indexes: dict[tuple[str, ...], dict[str, list[dict[str, Any]]]] = field(default_factory=dict)


def row_key(profile: TableProfile, row: dict[str, Any]) -> list[Any]:
    if profile.primary_key:
        return [row[c] for c in profile.primary_key]
    return [row[c] for c in sorted(row)]


def entity_id_for(source: str, table: str, key: list[Any]) -> str:
    return hashed_entity_id(canonical_json([source, table, key]))


def read_tables(url: str, *, schema: str | None = None, tables: list[str] | None = None) -> list[TableData]:
    """Reflect the database and read every table (sorted by primary key). Blocking: run it in a thread."""
    need_sqlalchemy()
    from sqlalchemy import MetaData, create_engine, select
    from sqlalchemy.exc import SQLAlchemyError

    try:
        engine = create_engine(engine_url(url))
    except (SQLAlchemyError, ImportError, ValueError) as exc:
        raise ConfigError(f"cannot open database {safe_url(url)}: {exc}") from None
    try:
        metadata = MetaData(schema=schema)
        with engine.connect() as conn:
            metadata.reflect(conn)
            profiles = profile_tables(metadata, tables)
            if tables:
                missing = sorted(set(tables) - {p.name for p in profiles})
                if missing:
                    raise InputError(f"no such table(s) in {safe_url(url)}: {', '.join(missing)}")
            out = []
            for profile in profiles:
                table = next(t for t in metadata.sorted_tables if t.name == profile.name)
                order = [table.c[c] for c in (profile.primary_key or [c.name for c in table.columns])]
                rows = [
                    {k: plain_value(v) for k, v in r._mapping.items()}
                    for r in conn.execute(select(table).order_by(*order))
                ]
                digest = content_hash([SQL_VERSION, profile.as_dict(), rows])
                out.append(TableData(profile=profile, rows=rows, hash=digest))
            return out
    except SQLAlchemyError as exc:
        raise InputError(
            f"cannot read database {safe_url(url)}: {type(exc).__name__}: {str(exc).splitlines()[0][:300]}"
        ) from None
    finally:
        engine.dispose()


@dataclass
class TableResult:
    table: str
    document: str
    status: str  # loaded | reloaded | resumed | unchanged | retracted
    rows: int = 0
    batches: int = 0
    counts: WriteCounts = field(default_factory=WriteCounts)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "document": self.document,
            "status": self.status,
            "rows": self.rows,
            "batches": self.batches,
            "counts": self.counts.as_dict(),
            "seconds": round(self.seconds, 3),
        }


def _entity(graph: str, source: str, profile: TableProfile, row: dict[str, Any]) -> EntityRow:
    key = row_key(profile, row)
    eid = entity_id_for(source, profile.name, key)
    name = row.get(profile.name_column) if profile.name_column else None
    if name is None or not str(name).strip():
        shown = " ".join(str(k) for k in key) if profile.primary_key else eid[2:10]
        name = f"{profile.entity_type} {shown}"
    name = " ".join(str(name).split())
    return EntityRow.of(graph, eid, name, profile.entity_type)


def prepare_rows(
    graph: str, source: str, doc: str, data: TableData, by_table: dict[str, TableData], rows: list[dict[str, Any]]
) -> PreparedBatch:
    """Entities, FK relationships and attribute claims for one batch of a table's rows (pure)."""
    batch = PreparedBatch()
    seen: set[str] = set()
    profile = data.profile

    def add(entity: EntityRow) -> None:
        if entity.uid not in seen:
            seen.add(entity.uid)
            batch.entities.append(entity)

    for row in rows:
        entity = _entity(graph, source, profile, row)
        add(entity)
        for column, key in profile.attributes.items():
            value = row.get(column)
            if value is not None:
                batch.claims.append(ClaimRow.of(entity.uid, key, value, doc))
        for fk in profile.foreign_keys:
            values = [row.get(c) for c in fk.columns]
            if any(v is None for v in values):
                continue
            target_data = by_table.get(fk.table)
            target_row = None
            if target_data is not None:
                target_row = next((r for r in _index(target_data, fk.referred).get(canonical_json(values), [])), None)
            if target_data is not None and target_row is not None:
                target = _entity(graph, source, target_data.profile, target_row)
            else:  # a dangling reference, or a table outside the selection: key it by the referenced values
                tlabel = pascal_label(singular(fk.table)) or "Row"
                eid = entity_id_for(source, fk.table, values)
                tname = f"{tlabel} {' '.join(str(v) for v in values)}"
                target = EntityRow.of(graph, eid, tname, tlabel)
            add(target)
            batch.relations.append(RelationRow.of(entity.uid, fk.relation, target.uid))
    return batch


def _index(data: TableData, columns: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Rows of ``data`` keyed by the JSON of ``columns`` (built once per table and column set)."""
    key = tuple(columns)
    if key not in data.indexes:
        index: dict[str, list[dict[str, Any]]] = {}
        for row in data.rows:
            index.setdefault(canonical_json([row.get(c) for c in columns]), []).append(row)
        data.indexes[key] = index
    return data.indexes[key]


async def ingest_sql(
    store: GraphStore,
    url: str,
    *,
    graph: str,
    source: str | None = None,
    schema: str | None = None,
    tables: list[str] | None = None,
    batch_size: int = 1000,
    prune: bool = False,
) -> list[TableResult]:
    """Ingest a database (see the module docstring). Returns one result per table (and per pruned table)."""
    validate_identifier(graph, "graph name")
    source = source or default_source(url)
    datas = await asyncio.to_thread(read_tables, url, schema=schema, tables=tables)
    by_table = {d.profile.name: d for d in datas}
    results: list[TableResult] = []
    run = uuid.uuid4().hex
    for data in datas:
        results.append(
            await _ingest_table(store, data, by_table, graph=graph, source=source, batch_size=batch_size, run=run)
        )
    if prune:
        present = {d.profile.name for d in datas}
        for row in await list_documents(store, graph):
            if row["source"] == source and row["doc_id"] not in present:
                await retract_document(store, graph=graph, key=row["key"], forget=True)
                results.append(TableResult(table=row["doc_id"], document=row["key"], status="retracted"))
    return results


async def _ingest_table(
    store: GraphStore,
    data: TableData,
    by_table: dict[str, TableData],
    *,
    graph: str,
    source: str,
    batch_size: int,
    run: str,
) -> TableResult:
    started = time.perf_counter()
    table = data.profile.name
    key = document_key(graph, source, table)
    result = TableResult(table=table, document=key, status="loaded", rows=len(data.rows))
    existing = await get_document(store, key)
    if existing and existing["content_hash"] == data.hash and existing["complete"]:
        result.status = "unchanged"
        result.seconds = time.perf_counter() - started
        return result
    if existing and (existing["content_hash"] != data.hash or existing["status"] == "retracting"):
        await retract_document(store, graph=graph, key=key)
        result.status = "reloaded"
    done_before = await begin_document(
        store,
        graph=graph,
        source=source,
        key=key,
        doc_id=table,
        content_hash=data.hash,
        batch_size=batch_size,
        kind="sql",
        now=now_iso(),
    )
    if done_before:
        result.status = "resumed"
    for number, start in enumerate(range(0, len(data.rows), batch_size), start=1):
        if number <= done_before:
            continue
        batch = prepare_rows(graph, source, key, data, by_table, data.rows[start : start + batch_size])
        counts = await write_batch(store, batch, graph=graph, doc=key, now=now_iso(), run=run, batch_number=number)
        result.counts.add(counts)
        result.batches += 1
    await complete_document(store, key=key, rows=len(data.rows), skipped=0, now=now_iso())
    result.seconds = time.perf_counter() - started
    return result


def describe(url: str, *, schema: str | None = None) -> list[dict[str, Any]]:
    """The mapping that :func:`ingest_sql` would use, per table (for ``--json`` dry looks and docs)."""
    return [d.profile.as_dict() | {"rows": len(d.rows)} for d in read_tables(url, schema=schema)]


__all__ = [
    "ForeignKey",
    "TableProfile",
    "TableResult",
    "default_source",
    "describe",
    "ingest_sql",
    "profile_tables",
    "read_tables",
    "singular",
]
