"""SQL ingest against the real Neo4j: a small library database in SQLite (always) and in a throwaway PostgreSQL
cluster (when the server binaries and a driver are here), asserted exactly; re-ingest without writes; an edited
table reloaded alone; a dropped table pruned; the mapping rules.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import sqlalchemy as sa

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.ingest.dispatch import choose_pipeline, is_sql_url
from graphwalk_neo4j.ingest.sql import default_source, engine_url, entity_id_for, ingest_sql, singular
from tests.helpers import missing_service

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.neo4j

SCHEMA = [
    "CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born INTEGER)",
    "CREATE TABLE publishers (id INTEGER PRIMARY KEY, name TEXT, city TEXT)",
    "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER, price NUMERIC(6, 2), "
    "author_id INTEGER REFERENCES authors(id), publisher_id INTEGER REFERENCES publishers(id))",
    "CREATE TABLE reviews (book_id INTEGER REFERENCES books(id), stars INTEGER, note TEXT)",
]
ROWS = [
    "INSERT INTO authors VALUES (1, 'Marta Quill', 1841), (2, 'Tobias Renn', NULL)",
    "INSERT INTO publishers VALUES (1, 'Harbour Press', 'Saltmere')",
    "INSERT INTO books VALUES (1, 'Keeping the Harrow Light', 1901, 12.50, 1, 1), "
    "(2, 'Granite and Tide', 1880, NULL, 2, NULL), (3, 'Notes on Lamps', 1885, 4.00, 2, 1)",
    "INSERT INTO reviews VALUES (1, 5, 'Moving'), (3, 4, NULL)",
]


def build_library(url: str) -> None:
    engine = sa.create_engine(engine_url(url))
    with engine.begin() as conn:
        for statement in SCHEMA + ROWS:
            conn.execute(sa.text(statement))
    engine.dispose()


def execute(url: str, *statements: str) -> None:
    engine = sa.create_engine(engine_url(url))
    with engine.begin() as conn:
        for statement in statements:
            conn.execute(sa.text(statement))
    engine.dispose()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'library.db'}"
    build_library(url)
    return url


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a loopback port in a temporary folder, stopped and deleted at the end."""
    bindirs = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True)
    bindir = bindirs[0] if bindirs else Path("/usr/lib/postgresql/15/bin")
    initdb = shutil.which("initdb") or str(bindir / "initdb")
    pg_ctl = shutil.which("pg_ctl") or str(bindir / "pg_ctl")
    if not (Path(initdb).exists() and Path(pg_ctl).exists()):
        missing_service("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    if importlib.util.find_spec("psycopg") is None and importlib.util.find_spec("psycopg2") is None:
        missing_service("no PostgreSQL driver for SQLAlchemy (pip install 'psycopg[binary]')")
    prefix: list[str] = []
    owner = None
    if os.geteuid() == 0:  # initdb refuses to run as root: run the cluster as the 'postgres' user
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            missing_service("running as root and there is no 'postgres' user to own a PostgreSQL cluster")
        prefix = ["runuser", "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="gw-pg-"))
    if owner is not None:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    data, port = root / "data", _free_port()
    run: dict[str, Any] = {"check": True, "capture_output": True, "text": True, "timeout": 120}
    try:
        subprocess.run([*prefix, initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"], **run)
        subprocess.run(
            [
                *prefix,
                pg_ctl,
                "-D",
                str(data),
                "-l",
                str(root / "log"),
                "-w",
                "-t",
                "60",
                "-o",
                f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off",
                "start",
            ],
            **run,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        shutil.rmtree(root, ignore_errors=True)
        missing_service(f"could not start a throwaway PostgreSQL cluster: {getattr(exc, 'stderr', exc)}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True, timeout=60
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: str, graph_name: str) -> Iterator[str]:
    """A fresh database per test in the module's cluster."""
    admin = sa.create_engine(engine_url(postgres_server), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{graph_name}"'))
    url = postgres_server.rsplit("/", 1)[0] + f"/{graph_name}"
    build_library(url)
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE "{graph_name}" WITH (FORCE)'))
        admin.dispose()


async def graph_of(store: Any, graph: str) -> tuple[dict[str, Any], set[tuple[str, str, str, tuple[str, ...]]]]:
    ents = await store.query(
        "MATCH (n:Entity {graph: $g}) RETURN n.name AS name, n.type AS type, labels(n) AS labels, "
        "[s IN n.sources | split(s, '|')[2]] AS sources, n.conflict_keys AS conflicts, "
        "apoc.map.removeKeys(properties(n), ['uid','id','graph','name','name_lc','aliases','aliases_text','sources',"
        "'confidence','created_at','created_run','updated_at','type','conflict_keys','claims']) AS attributes",
        {"g": graph},
        read=True,
    )
    rels = await store.query(
        "MATCH (a:Entity {graph: $g})-[r]->(b:Entity) RETURN a.name AS a, type(r) AS t, b.name AS b, "
        "[s IN r.sources | split(s, '|')[2]] AS sources",
        {"g": graph},
        read=True,
    )
    entities = {
        e["name"]: {
            "type": e["type"],
            "labels": sorted(e["labels"]),
            "sources": sorted(e["sources"]),
            "attributes": e["attributes"],
            "conflicts": e["conflicts"],
        }
        for e in ents
    }
    return entities, {(r["a"], r["t"], r["b"], tuple(sorted(r["sources"]))) for r in rels}


def expected_library(source: str) -> tuple[dict[str, Any], set[tuple[str, str, str, tuple[str, ...]]]]:
    def ent(type_: str, sources: list[str], **attributes: Any) -> dict[str, Any]:
        return {
            "type": type_,
            "labels": sorted(["Entity", type_]),
            "sources": sorted(sources),
            "attributes": attributes,
            "conflicts": [],
        }

    review_1 = "Review " + entity_id_for(source, "reviews", [1, "Moving", 5])[2:10]
    review_3 = "Review " + entity_id_for(source, "reviews", [3, None, 4])[2:10]
    entities = {
        "Marta Quill": ent("Author", ["authors", "books"], attr_id=1, born=1841),
        "Tobias Renn": ent("Author", ["authors", "books"], attr_id=2),
        "Harbour Press": ent("Publisher", ["publishers", "books"], attr_id=1, city="Saltmere"),
        "Keeping the Harrow Light": ent("Book", ["books", "reviews"], attr_id=1, year=1901, price=12.5),
        "Granite and Tide": ent("Book", ["books"], attr_id=2, year=1880),
        "Notes on Lamps": ent("Book", ["books", "reviews"], attr_id=3, year=1885, price=4.0),
        review_1: ent("Review", ["reviews"], stars=5, note="Moving"),
        review_3: ent("Review", ["reviews"], stars=4),
    }
    relations: set[tuple[str, str, str, tuple[str, ...]]] = {
        ("Keeping the Harrow Light", "author", "Marta Quill", ("books",)),
        ("Keeping the Harrow Light", "publisher", "Harbour Press", ("books",)),
        ("Granite and Tide", "author", "Tobias Renn", ("books",)),
        ("Notes on Lamps", "author", "Tobias Renn", ("books",)),
        ("Notes on Lamps", "publisher", "Harbour Press", ("books",)),
        (review_1, "book", "Keeping the Harrow Light", ("reviews",)),
        (review_3, "book", "Notes on Lamps", ("reviews",)),
    }
    return entities, relations


def statuses(results: list[Any]) -> dict[str, str]:
    return {r.table: r.status for r in results}


async def check_library(store: Any, graph: str, url: str) -> None:
    source = default_source(url)
    results = await ingest_sql(store, url, graph=graph)
    assert statuses(results) == {t: "loaded" for t in ("authors", "publishers", "books", "reviews")}
    assert {r.table: r.rows for r in results} == {"authors": 2, "publishers": 1, "books": 3, "reviews": 2}
    assert await graph_of(store, graph) == expected_library(source)
    docs = await store.query(
        "MATCH (s:Source)-[:HAS_DOCUMENT]->(d:Document {graph: $g}) RETURN s.name AS s, "
        "d.doc_id AS d, d.kind AS kind, d.status AS status ORDER BY d",
        {"g": graph},
        read=True,
    )
    assert docs == [
        {"s": source, "d": t, "kind": "sql", "status": "complete"}
        for t in ("authors", "books", "publishers", "reviews")
    ]


async def test_sqlite_library_exactly(store: Any, graph_name: str, sqlite_url: str) -> None:
    await check_library(store, graph_name, sqlite_url)


async def test_postgres_library_exactly(store: Any, graph_name: str, postgres_url: str) -> None:
    await check_library(store, graph_name, postgres_url)


async def test_reingest_unchanged_writes_nothing(store: Any, graph_name: str, sqlite_url: str) -> None:
    await ingest_sql(store, sqlite_url, graph=graph_name)
    before = dict(store.metrics.by_template)
    results = await ingest_sql(store, sqlite_url, graph=graph_name)
    used = {name for name, n in store.metrics.by_template.items() if n != before.get(name, 0)}
    assert set(statuses(results).values()) == {"unchanged"}
    assert used == {"ledger/get_document"}


async def test_changed_table_is_reloaded_alone(store: Any, graph_name: str, sqlite_url: str) -> None:
    await ingest_sql(store, sqlite_url, graph=graph_name)
    execute(
        sqlite_url,
        "UPDATE books SET year = 1886, publisher_id = NULL WHERE id = 3",
        "INSERT INTO authors VALUES (3, 'Ilse Quill', 1870)",
    )
    results = await ingest_sql(store, sqlite_url, graph=graph_name)
    assert statuses(results) == {
        "authors": "reloaded",
        "publishers": "unchanged",
        "books": "reloaded",
        "reviews": "unchanged",
    }
    entities, relations = await graph_of(store, graph_name)
    expected_entities, expected_relations = expected_library(default_source(sqlite_url))
    expected_entities["Notes on Lamps"]["attributes"]["year"] = 1886
    expected_entities["Ilse Quill"] = {
        "type": "Author",
        "labels": ["Author", "Entity"],
        "sources": ["authors"],
        "attributes": {"attr_id": 3, "born": 1870},
        "conflicts": [],
    }
    expected_relations.discard(("Notes on Lamps", "publisher", "Harbour Press", ("books",)))
    assert entities == expected_entities
    assert relations == expected_relations


async def test_dropped_table_is_pruned(store: Any, graph_name: str, sqlite_url: str) -> None:
    await ingest_sql(store, sqlite_url, graph=graph_name)
    execute(sqlite_url, "DROP TABLE reviews")
    results = await ingest_sql(store, sqlite_url, graph=graph_name, prune=True)
    assert statuses(results)["reviews"] == "retracted"
    entities, relations = await graph_of(store, graph_name)
    assert {e["type"] for e in entities.values()} == {"Author", "Publisher", "Book"}
    assert entities["Notes on Lamps"]["sources"] == ["books"]
    assert all(r[1] != "book" for r in relations)


async def test_bad_database_inputs(store: Any, graph_name: str, sqlite_url: str, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such table"):
        await ingest_sql(store, sqlite_url, graph=graph_name, tables=["authors", "nope"])
    (tmp_path / "not-a-db.sqlite").write_text("plain text, not a database")
    with pytest.raises(InputError, match="cannot read database sqlite:///"):
        await ingest_sql(store, f"sqlite:///{tmp_path / 'not-a-db.sqlite'}", graph=graph_name)


def test_mapping_rules() -> None:
    assert [singular(w) for w in ("books", "Categories", "addresses", "boxes", "class", "status", "analysis")] == [
        "book",
        "Category",
        "address",
        "box",
        "class",
        "status",
        "analysis",
    ]
    assert is_sql_url("sqlite:///x.db")
    assert is_sql_url("postgresql+psycopg://u@h/db")
    assert not is_sql_url("https://example.org/x.db")
    assert not is_sql_url("notes.txt")
    assert choose_pipeline(["postgresql://u@h/db"], None) == "sql"
    assert choose_pipeline(["kb.txt"], None) == "structured"
    assert choose_pipeline(["kb.txt"], "text") == "text"
    assert choose_pipeline(["notes.md"], None) == "text"
    assert default_source("sqlite:////tmp/data/library.db") == "sql:library.db"
    assert default_source("postgresql://u:secret@h:5432/shop") == "sql:shop"
