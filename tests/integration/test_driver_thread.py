"""``GraphStore(driver_thread=True)`` (the service's store) against the real Neo4j: the driver runs on a loop of its
own in one thread, and through it every kind of call answers as the default store does, errors are translated
the same, a cancelled caller cancels the server's work, and :meth:`GraphStore.close` joins the thread."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any

import pytest
from neo4j.exceptions import CypherSyntaxError

from graphwalk_neo4j.errors import QueryError
from graphwalk_neo4j.store import GraphStore, run_template

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from graphwalk_neo4j.settings import Settings
    from neo4j import AsyncManagedTransaction

VALUES = (
    "RETURN $n + 1 AS n, $xs AS xs, {a: $s, b: [1.5, null, true]} AS m, toUpper($s) AS up, "
    "[x IN range(1, 5) | x * x] AS squares"
)
PARAMS: dict[str, Any] = {"n": 41, "xs": ["a", "ß", "日本"], "s": "mixed Case"}


@pytest.fixture
async def threaded(neo4j_settings: Settings, store: GraphStore) -> AsyncIterator[GraphStore]:
    """A driver-thread store on the same server (``store`` applied the schema and drops the test's graph)."""
    st = GraphStore(neo4j_settings, driver_thread=True)
    await st.connect()
    try:
        yield st
    finally:
        await st.close()


def driver_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "gw-neo4j-driver"]


async def test_every_kind_of_call_answers_as_the_default_store(
    store: GraphStore, threaded: GraphStore, graph_name: str
) -> None:
    assert threaded.info == store.info
    assert await threaded.query(VALUES, PARAMS) == await store.query(VALUES, PARAMS)
    assert await threaded.query(VALUES, PARAMS) == [
        {
            "n": 42,
            "xs": ["a", "ß", "日本"],
            "m": {"a": "mixed Case", "b": [1.5, None, True]},
            "up": "MIXED CASE",
            "squares": [1, 4, 9, 16, 25],
        }
    ]
    assert await threaded.read("server/components") == await store.read("server/components")
    assert await threaded.autocommit("server/components") == await store.autocommit("server/components")

    entities = [
        {"uid": f"{graph_name}:e{i}", "id": f"e{i}", "name": f"n{i}", "name_lc": f"n{i}", "type": None}
        for i in range(3)
    ]
    rows, stats = await threaded.write_stats(
        "graph/merge_entities", rows=entities, graph=graph_name, doc="d", now="t", run="r"
    )
    assert rows == [{"created": 3, "updated": 0, "unchanged": 0}]
    assert stats.nodes_created == 3
    lookup = {"graph": graph_name, "text_lc": "n1", "limit": 5}
    found = await threaded.read("search/exact", **lookup)
    assert found == await store.read("search/exact", **lookup)
    assert [(r["uid"], r["id"], r["name"]) for r in found] == [(f"{graph_name}:e1", "e1", "n1")]


async def test_transactions_and_bookmarks_run_on_the_driver_thread(threaded: GraphStore) -> None:
    caller = asyncio.get_running_loop()
    seen: dict[str, Any] = {}

    async def work(tx: AsyncManagedTransaction) -> int:
        seen["thread"] = threading.current_thread().name
        seen["other loop"] = asyncio.get_running_loop() is not caller
        rows, _ = await run_template(tx, "server/components")
        return len(rows)

    trips = threaded.metrics.round_trips
    assert await threaded.in_write_tx(work) == 1
    assert seen == {"thread": "gw-neo4j-driver", "other loop": True}
    assert threaded.metrics.round_trips == trips + 1  # counted on the caller's side, as before
    marks = await threaded.bookmarks()
    assert marks, "a committed write leaves a bookmark"
    view = threaded.after(marks)
    assert view.read is not threaded.read
    assert await view.read("server/components") == await threaded.read("server/components")
    assert view._thread is threaded._thread  # a view shares the driver and its thread


async def test_an_error_is_translated_as_the_default_store_does(store: GraphStore, threaded: GraphStore) -> None:
    errors = []
    for st in (store, threaded):
        with pytest.raises(QueryError) as caught:
            await st.query("RETURN nonsense(", {})
        errors.append(caught.value)
    assert [type(e) for e in errors] == [QueryError, QueryError]
    assert str(errors[1]) == str(errors[0])
    assert str(errors[1]).startswith("Neo4j query failed [Neo.ClientError.Statement.SyntaxError]: ")
    assert isinstance(errors[1].__cause__, CypherSyntaxError)


async def running(store: GraphStore, marker: str) -> int:
    rows = await store.query(
        "SHOW TRANSACTIONS YIELD currentQuery WHERE currentQuery CONTAINS $m RETURN count(*) AS n", {"m": marker}
    )
    return int(rows[0]["n"])


async def test_a_cancelled_caller_cancels_the_query_on_the_server(store: GraphStore, threaded: GraphStore) -> None:
    marker = f"bounds3-{uuid.uuid4().hex}"
    sleeping = asyncio.ensure_future(threaded.query(f"CALL apoc.util.sleep(60000) RETURN '{marker}' AS m", {}))
    for _ in range(200):
        if await running(store, marker):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the sleeping query never showed in SHOW TRANSACTIONS")
    cancelled_at = time.monotonic()
    sleeping.cancel()
    with pytest.raises(asyncio.CancelledError):
        await sleeping
    while await running(store, marker):  # the driver dropped the connection: the server ends the transaction
        assert time.monotonic() - cancelled_at < 20, "the server still runs the cancelled query"
        await asyncio.sleep(0.1)
    assert await threaded.query("RETURN 7 AS seven", {}) == [{"seven": 7}]  # and the store goes on working


async def test_close_joins_the_thread(neo4j_settings: Settings) -> None:
    before = driver_threads()
    st = GraphStore(neo4j_settings, driver_thread=True)
    await st.connect()
    thread = st._thread
    assert thread is not None
    assert thread.alive
    assert len(driver_threads()) == len(before) + 1
    await st.close()
    assert not thread.alive
    assert thread.loop.is_closed()
    assert driver_threads() == before
    await st.connect()  # a closed store connects again, on a new thread
    assert await st.query("RETURN 1 AS one", {}) == [{"one": 1}]
    await st.close()
    assert driver_threads() == before


async def test_the_default_store_keeps_the_driver_on_the_callers_loop(store: GraphStore) -> None:
    caller = threading.current_thread().name

    async def work(tx: AsyncManagedTransaction) -> str:
        await run_template(tx, "server/components")
        return threading.current_thread().name

    assert store._thread is None
    assert await store.in_write_tx(work) == caller
