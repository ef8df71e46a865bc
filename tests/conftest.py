"""Test fixtures.

Neo4j: a session fixture uses ``GW_NEO4J_URI`` when set; otherwise it starts the project's local server through
the same launcher as ``make neo4j-up``. On a machine with a Docker engine, ``GW_NEO4J_TESTCONTAINERS=1`` runs
Neo4j 5.26 + APOC in a container instead. Tests are isolated by a graph name of their own (every node the
project writes carries ``graph``) and clean up only that graph, never the whole database.
"""

from __future__ import annotations

import os
import uuid
from typing import TYPE_CHECKING

import pytest
from pydantic import SecretStr

from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.localserver import LocalServer
from graphwalk_neo4j.schema import apply_schema
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator


def _testcontainers_settings() -> Iterator[Settings]:
    from testcontainers.neo4j import Neo4jContainer  # needs a Docker engine

    password = "graphwalk-test"
    container = Neo4jContainer("neo4j:5.26-community", password=password).with_env("NEO4J_PLUGINS", '["apoc"]')
    with container:
        yield Settings(uri=container.get_connection_url(), password=SecretStr(password))


@pytest.fixture(scope="session")
def neo4j_settings() -> Iterator[Settings]:
    if os.environ.get("GW_NEO4J_TESTCONTAINERS") == "1":
        yield from _testcontainers_settings()
        return
    if not os.environ.get("GW_NEO4J_URI"):
        LocalServer().up()
    yield Settings()  # noqa: PT022 - a generator because the testcontainers branch above tears down


@pytest.fixture
def graph_name() -> str:
    return f"t_{uuid.uuid4().hex[:12]}"


@pytest.fixture
async def store(neo4j_settings: Settings, graph_name: str) -> AsyncIterator[GraphStore]:
    st = GraphStore(neo4j_settings)
    await st.connect()
    await apply_schema(st)
    try:
        yield st
    finally:
        await drop_graph(st, graph_name)
        await st.close()
