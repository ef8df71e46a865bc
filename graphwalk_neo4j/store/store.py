"""The one async store: owns the official async driver and runs named Cypher templates.

* One driver per store, opened in :meth:`GraphStore.connect` (never in ``__init__``), closed by :meth:`close` or
  ``async with``. ``connect()`` checks the server: reachable, credentials, version 5.26 or newer, APOC present, and
  notes once whether it has Cypher 25's ``SEARCH`` clause for vector indexes (:attr:`GraphStore.search_clause`, the
  one version gate between ``search/*vector`` and ``search/*vector_cypher25``).
* The database is always named (``database_=``); reads are routed as reads.
* Queries are templates from :mod:`graphwalk_neo4j.store.registry`; values travel only as parameters.
* Driver errors are translated into :mod:`graphwalk_neo4j.errors` with the cause kept and a fix in the message.
* ``GraphStore(settings, driver_thread=True)`` (the service's) runs the driver on a loop of its own in one thread
  (:class:`DriverThread`); by default (CLI, tests, library) it runs on the caller's loop.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import re
import threading
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, overload

import neo4j
from graphwalk_neo4j.errors import (
    BookmarkError,
    CapabilityError,
    QueryError,
    StoreAuthError,
    StoreBusyError,
    StoreError,
    StoreUnavailableError,
)
from graphwalk_neo4j.store.counters import Counters
from graphwalk_neo4j.store.queries import Query, QueryName
from graphwalk_neo4j.store.registry import template
from graphwalk_neo4j.threads import lower_thread_priority
from neo4j import (
    AsyncDriver,
    AsyncGraphDatabase,
    AsyncManagedTransaction,
    Bookmarks,
    RoutingControl,
)
from neo4j import exceptions as nx

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence

    from neo4j.api import AsyncBookmarkManager

    from graphwalk_neo4j.settings import Settings

T = TypeVar("T")
R = TypeVar("R")
Row = dict[str, Any]


def _name(query: Query[Any] | QueryName) -> QueryName:
    return query.name if isinstance(query, Query) else query


# Cypher 25's SEARCH clause covers vector indexes from Neo4j 2026.01. It covers full-text indexes from 2026.09, but
# not eventually consistent ones (2026.09.0 answers 22N69 "index does not exist" for them), and the project's name
# indexes are eventually consistent (schema/04_entity_fulltext), so full-text look-ups stay on the procedure.
SEARCH_CLAUSE_SINCE = (2026, 1)
_RELEASE = re.compile(r"^(\d+)\.(\d+)")


def has_search_clause(version: str) -> bool:
    """Whether a server of ``version`` (``5.26.5``, ``2026.09.0``) runs the vector ``SEARCH`` clause."""
    match = _RELEASE.match(version)
    return match is not None and (int(match.group(1)), int(match.group(2))) >= SEARCH_CLAUSE_SINCE


@dataclass
class ServerInfo:
    version: str
    edition: str
    apoc_version: str | None
    address: str
    search_clause: bool = False


@dataclass
class WriteStats(Counters):
    """Counters summed over the statements a write ran (``add`` takes the driver's summary counters)."""

    nodes_created: int = 0
    nodes_deleted: int = 0
    relationships_created: int = 0
    relationships_deleted: int = 0
    properties_set: int = 0
    labels_added: int = 0


@dataclass
class StoreMetrics:
    round_trips: int = 0
    db_time_s: float = 0.0
    by_template: dict[str, int] = field(default_factory=dict)


class RetryLog(logging.Filter):
    """Counts the driver's "transaction failed and will be retried" warnings (deadlocks and other transient
    errors under concurrent writes) and keeps them off the user's terminal: each one is re-logged at DEBUG on
    ``graphwalk_neo4j.store``, and :func:`transient_retries` says how many there were."""

    def __init__(self) -> None:
        super().__init__("neo4j.session")
        self.count = 0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if "will be retried" not in str(record.msg):
            return True
        with self._lock:
            self.count += 1
        logging.getLogger("graphwalk_neo4j.store").debug("transient error, retried: %s", record.getMessage())
        return False


_RETRY_LOG = RetryLog()


def quiet_driver_retries() -> None:
    """Install :class:`RetryLog` on the driver's session logger (idempotent)."""
    logger = logging.getLogger("neo4j.session")
    if _RETRY_LOG not in logger.filters:
        logger.addFilter(_RETRY_LOG)


def transient_retries() -> int:
    """How many transactions the driver retried after a transient error in this process."""
    return _RETRY_LOG.count


class UnprintedList(list[Any]):
    """A list query parameter whose ``repr`` is its length. The driver (neo4j 5.x and 6.x, ``AsyncBolt5x*.run``)
    formats every statement's parameters for a debug line, ``" ".join(map(repr, fields))``, whether or not debug
    logging is on; for a depth's batch of requests (exclusion lists of 10,000s of ids each) that is one C call of
    up to hundreds of ms holding the interpreter lock, which stalls the service's event loop. Bolt packs a list
    subclass exactly as a list, so the statement and its answer are unchanged."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<list of {len(self)}>"


def unprinted(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with each top-level list as an :class:`UnprintedList` (a nested list is printed only through
    the list that holds it)."""
    return {k: UnprintedList(v) if type(v) is list else v for k, v in params.items()}


def _row(record: neo4j.Record) -> dict[str, Any]:
    """One result row as a plain dict (the same as ``dict(record.items())``, which the driver leaves untyped)."""
    return dict(zip(record.keys(), record.values(), strict=True))


def translate(exc: Exception, uri: str, what: str = "query") -> StoreError:
    """Map a driver exception to the project's error tree, naming the fix."""
    if isinstance(exc, nx.AuthError):
        return StoreAuthError(
            f"Neo4j at {uri} rejected the credentials ({exc.message if hasattr(exc, 'message') else exc}). "
            "Check GW_NEO4J_USER / GW_NEO4J_PASSWORD (the local server's password is set on first `make neo4j-up`)."
        )
    if isinstance(exc, nx.ConnectionAcquisitionTimeoutError):
        return StoreBusyError(
            f"Neo4j at {uri} is busy: no pooled connection came free in time ({exc}). Retry shortly; the pool and "
            "the walk limit are sized together from GW_NEO4J_SERVICE_MAX_WALKS (docs/service.md, Sizing)"
        )
    if isinstance(exc, nx.TransientError):  # still failing after the driver's retries (memory pool, locks)
        return StoreBusyError(
            f"Neo4j at {uri} is overloaded: a transient error outlasted the driver's retries "
            f"[{exc.code or 'Neo.TransientError'}]: {exc.message}. Retry shortly, or admit fewer walks at once "
            "(GW_NEO4J_SERVICE_MAX_WALKS)"
        )
    if isinstance(exc, (nx.ServiceUnavailable, nx.SessionExpired, OSError)):
        return StoreUnavailableError(
            f"Neo4j is not reachable at {uri} ({exc}). Start the local server with `make neo4j-up`, or point "
            "GW_NEO4J_URI at a running Neo4j 5.26."
        )
    if isinstance(exc, nx.Neo4jError) and (exc.code or "").startswith("Neo.ClientError.Transaction.InvalidBookmark"):
        return BookmarkError(
            f"Neo4j at {uri} refused the bookmark it was given ({exc.message}); send the X-Graphwalk-Bookmark value "
            "a response of this service returned, unchanged, or none"
        )
    if isinstance(exc, nx.Neo4jError):
        code = exc.code or "Neo.Unknown"
        return QueryError(f"Neo4j {what} failed [{code}]: {exc.message}")
    if isinstance(exc, nx.DriverError):
        return StoreError(f"Neo4j driver error during {what}: {exc}")
    return StoreError(f"unexpected error during {what}: {exc!r}")


class DriverThread:
    """One daemon thread running an asyncio loop of its own, where a :class:`GraphStore` keeps its driver.

    Why: the async driver does real CPU work in Python (packing a query's parameters, unpacking and converting
    its rows: about 0.3 s at a time for a 64-beam walk's depth), and on the service's loop that work holds every
    other request, ``/healthz`` included. On a loop of its own it only competes for the interpreter lock, which
    the loop gets back every switch interval. :meth:`run` is the one way in. ``nice``: the thread runs that many
    steps nicer than the one that started it (Linux; elsewhere a no-op, :mod:`graphwalk_neo4j.threads`)."""

    def __init__(self, nice: int = 0) -> None:
        self.loop = asyncio.new_event_loop()
        self.nice = nice
        self.native_id: int | None = None
        started = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(started,), name="gw-neo4j-driver", daemon=True)
        self._thread.start()
        started.wait()

    def _serve(self, started: threading.Event) -> None:
        lower_thread_priority(self.nice)
        self.native_id = threading.get_native_id()
        started.set()
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:  # as asyncio.run ends: what still runs is cancelled, so no caller waits on it forever
            left = asyncio.all_tasks(self.loop)
            for task in left:
                task.cancel()
            self.loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.run_until_complete(self.loop.shutdown_default_executor())
            self.loop.close()

    async def run(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on the driver's loop and await it from the caller's; cancelling the caller cancels
        ``work`` there (asyncio chains the cancellation both ways, through the thread-safe future)."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))

    def stop(self) -> None:
        """Stop the loop and join the thread (blocking: call it through :func:`asyncio.to_thread`)."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()


class GraphStore:
    """Async access to one Neo4j database through named templates.

    ``driver_thread=True``: the driver lives in a :class:`DriverThread` started by :meth:`connect` and joined by
    :meth:`close`; every call to the server (queries with their row conversion, transactions, bookmarks) runs
    there, awaited from the caller's loop, while metrics and error translation stay on the caller's side. Views
    from :meth:`after` share the thread. The service uses it; the default runs the driver on the caller's loop.
    With it, use the store's methods only: :attr:`driver` belongs to the driver thread's loop."""

    def __init__(self, settings: Settings, *, driver_thread: bool = False, driver_nice: int = 0) -> None:
        self.settings = settings
        self.database = settings.database
        self.driver_thread = driver_thread
        self.driver_nice = driver_nice  # the DriverThread's niceness step (DriverThread's nice)
        self._thread: DriverThread | None = None
        self._driver: AsyncDriver | None = None
        self.info: ServerInfo | None = None
        self.metrics = StoreMetrics()
        self._bookmark_manager: AsyncBookmarkManager | None = None  # a view's (after()); None: the driver's own

    # ---- lifecycle -------------------------------------------------------------------------------------------
    async def connect(self, *, require_apoc: bool = True) -> ServerInfo:
        s = self.settings
        plan = s.pool_plan()
        quiet_driver_retries()

        async def open_driver() -> AsyncDriver:
            driver = AsyncGraphDatabase.driver(
                s.uri,
                auth=(s.user, s.password.get_secret_value()),
                connection_timeout=s.connect_timeout_s,
                max_connection_pool_size=plan.max_connections,
                connection_acquisition_timeout=plan.acquire_timeout_s,
                notifications_min_severity="OFF",
            )
            try:
                await driver.verify_connectivity()
            except BaseException:
                await driver.close()
                raise
            return driver

        if self.driver_thread and self._thread is None:
            self._thread = DriverThread(self.driver_nice)
        try:
            self._driver = await self._on_driver(open_driver())
            rows = await self.read("server/components")
        except StoreError:
            await self.close()
            raise
        except Exception as exc:  # driver errors translated with the cause kept
            await self.close()
            raise translate(exc, s.uri, "connect") from exc
        version, edition = rows[0]["version"], rows[0]["edition"]
        apoc = None
        try:
            apoc_rows = await self.read("server/apoc_version")
            apoc = apoc_rows[0]["version"]
        except QueryError:
            apoc = None
        self.info = ServerInfo(
            version=version,
            edition=edition,
            apoc_version=apoc,
            address=s.uri,
            search_clause=has_search_clause(version),
        )
        if not version.startswith("5.") and not version.startswith("202"):
            await self.close()
            raise CapabilityError(f"Neo4j {version} is too old: graphwalk-neo4j needs 5.26 or newer")
        if require_apoc and apoc is None:
            await self.close()
            raise CapabilityError(
                "APOC Core is not installed or not allowed on this server. With the local server run "
                "`make neo4j-fetch neo4j-up`; elsewhere add apoc-core to plugins/ and allow apoc.*"
            )
        return self.info

    async def close(self) -> None:
        """Close the driver (on its own loop) and, with a driver thread, stop its loop and join it."""
        driver, self._driver = self._driver, None
        try:
            if driver is not None:
                await self._on_driver(driver.close())
        finally:
            thread, self._thread = self._thread, None
            if thread is not None:
                await asyncio.to_thread(thread.stop)

    async def _on_driver(self, work: Coroutine[Any, Any, T]) -> T:
        """Await ``work`` where the driver lives: the driver thread's loop, or this one."""
        if self._thread is None:
            return await work
        return await self._thread.run(work)

    async def __aenter__(self) -> GraphStore:
        if self._driver is None:
            await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- causal consistency across processes -------------------------------------------------------------
    async def bookmarks(self) -> list[str]:
        """The bookmarks of this process's latest transactions (the driver's query bookmark manager): a reader
        elsewhere that starts :meth:`after` them sees every write this process committed before the call."""
        return sorted(await self._on_driver(self.driver.execute_query_bookmark_manager.get_bookmarks()))

    def after(self, bookmarks: Sequence[str]) -> GraphStore:
        """A view of this store (same driver and pool) whose queries wait until the database has applied the
        transactions ``bookmarks`` name, e.g. a trace another replica wrote. Without bookmarks, this store."""
        if not bookmarks:
            return self
        view = copy.copy(self)
        view._bookmark_manager = AsyncGraphDatabase.bookmark_manager(
            initial_bookmarks=Bookmarks.from_raw_values(bookmarks)
        )
        return view

    def _session(self) -> neo4j.AsyncSession:
        """A session chained to the same bookmarks as :meth:`_execute`'s queries (so :meth:`bookmarks` covers it)."""
        return self.driver.session(database=self.database, bookmark_manager=self._manager())

    def _manager(self) -> AsyncBookmarkManager:
        return self._bookmark_manager or self.driver.execute_query_bookmark_manager

    @property
    def search_clause(self) -> bool:
        """True when the connected server has Cypher 25's ``SEARCH`` clause (see :func:`has_search_clause`)."""
        return self.info is not None and self.info.search_clause

    @property
    def driver(self) -> AsyncDriver:
        if self._driver is None:
            raise StoreError("GraphStore is not connected; call `await store.connect()` first")
        return self._driver

    # ---- running statements ------------------------------------------------------------------------------
    @asynccontextmanager
    async def _measured(self, name: str | None) -> AsyncIterator[None]:
        """Around every call to the server: counts it (per template when named), times it, translates errors."""
        if name is not None:
            self.metrics.by_template[name] = self.metrics.by_template.get(name, 0) + 1
        started = time.perf_counter()
        try:
            yield
        except StoreError:
            raise
        except Exception as exc:
            raise translate(exc, self.settings.uri) from exc
        finally:
            self.metrics.round_trips += 1
            self.metrics.db_time_s += time.perf_counter() - started

    async def _execute(
        self,
        name: str | None,
        text: str,
        params: dict[str, Any],
        *,
        read: bool,
    ) -> tuple[list[dict[str, Any]], neo4j.ResultSummary]:
        async def run() -> tuple[list[dict[str, Any]], neo4j.ResultSummary]:
            records, summary, _ = await self.driver.execute_query(
                text,
                unprinted(params),
                database_=self.database,
                routing_=RoutingControl.READ if read else RoutingControl.WRITE,
                bookmark_manager_=self._manager(),
            )
            return [_row(r) for r in records], summary

        async with self._measured(name):
            return await self._on_driver(run())

    async def query(self, text: str, params: dict[str, Any], *, read: bool = False) -> list[dict[str, Any]]:
        """Run one statement in an auto-retried managed transaction and return its rows as dicts."""
        rows, _ = await self._execute(None, text, params, read=read)
        return rows

    @overload
    async def read(self, query: Query[R], **params: Any) -> list[R]: ...
    @overload
    async def read(self, query: QueryName, **params: Any) -> list[Row]: ...
    async def read(self, query: Query[Any] | QueryName, **params: Any) -> list[Any]:
        """Run the read template ``query`` (a :class:`~.queries.Query` or a name such as ``"search/exact"``)."""
        name = _name(query)
        rows, _ = await self._execute(name, template(name).body, params, read=True)
        return rows

    @overload
    async def write(self, query: Query[R], **params: Any) -> list[R]: ...
    @overload
    async def write(self, query: QueryName, **params: Any) -> list[Row]: ...
    async def write(self, query: Query[Any] | QueryName, **params: Any) -> list[Any]:
        name = _name(query)
        rows, _ = await self._execute(name, template(name).body, params, read=False)
        return rows

    @overload
    async def write_stats(self, query: Query[R], **params: Any) -> tuple[list[R], WriteStats]: ...
    @overload
    async def write_stats(self, query: QueryName, **params: Any) -> tuple[list[Row], WriteStats]: ...
    async def write_stats(self, query: Query[Any] | QueryName, **params: Any) -> tuple[list[Any], WriteStats]:
        """Run a write template and also return the server's update counters."""
        name = _name(query)
        rows, summary = await self._execute(name, template(name).body, params, read=False)
        stats = WriteStats()
        stats.add(summary.counters)
        return rows, stats

    async def autocommit(self, query: Query[Any] | QueryName, **params: Any) -> list[Row]:
        """Run a template as an auto-commit statement (needed by ``CALL {...} IN TRANSACTIONS``)."""
        name = _name(query)

        async def run() -> list[Row]:
            async with self._session() as session:
                result = await session.run(template(name).body, unprinted(params))
                return [_row(r) async for r in result]

        async with self._measured(name):
            return await self._on_driver(run())

    async def in_write_tx(self, work: Callable[[AsyncManagedTransaction], Awaitable[T]]) -> T:
        """Run ``work`` in one managed write transaction (retried by the driver: keep it idempotent, DB-only).

        Counted as one round trip in :attr:`metrics` (the statements inside run through :func:`run_template`).
        With a driver thread ``work`` runs on its loop."""

        async def run() -> T:
            async with self._session() as session:
                return await session.execute_write(work)

        async with self._measured(None):
            return await self._on_driver(run())


async def run_template(
    tx: AsyncManagedTransaction, query: Query[Any] | QueryName, **params: Any
) -> tuple[list[Row], neo4j.SummaryCounters]:
    """Run a template inside a caller's transaction (for multi-statement atomic writes)."""
    result = await tx.run(template(_name(query)).body, unprinted(params))
    rows = [_row(r) async for r in result]
    summary = await result.consume()
    return rows, summary.counters
