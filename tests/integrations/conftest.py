"""Fixtures of the framework adapter tests: the packaged demo movie graph ingested under the test's own graph
name, the Movies fixture adopted, a deterministic decider that takes the "directed" move and stops, and a
:class:`GraphWalker` over either graph (real Neo4j; the fake embedder keeps torch out of these tests)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.adopt.apply import adopt_graph, undo_graph
from graphwalk_neo4j.adopt.introspect import introspect
from graphwalk_neo4j.adopt.propose import propose
from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.ingest.structured import ingest_file
from graphwalk_neo4j.integrations.walker import GraphWalker
from graphwalk_neo4j.resources import data_file, metaqa_type_map
from tests.integration.movies_fixture import create_movies, drop_movies

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator

    from graphwalk_neo4j.decide.base import ChoiceQuestion
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

QUESTION = "which movies did Christopher Nolan direct"
NOLAN_MOVIES = ["Inception", "Memento", "The Prestige"]  # the demo graph's directed_by edges into Nolan
ADOPTED_QUESTION = "which movies did Lana Wachowski direct"
WACHOWSKI_MOVIES = ["The Matrix", "The Matrix Reloaded", "The Matrix Revolutions"]


def directed_then_stop(question: ChoiceQuestion, _state: object) -> str:
    """Take the move along "directed" (``directed_by`` ingested, ``DIRECTED`` adopted), then stop."""
    if isinstance(question.instructions, dict) and question.instructions.get("path"):
        return "STOP"
    return next(label for label, text in question.options.items() if "directed" in str(text).lower())


@pytest.fixture
async def demo_graph(store: GraphStore, graph_name: str) -> str:
    movies = data_file("demo_movies.txt")
    await ingest_file(store, movies, graph=graph_name, source="demo", type_map=metaqa_type_map(), root=movies.parent)
    await embed_graph(store, FakeEmbedder(), graph_name)
    return graph_name  # the store fixture drops it


@pytest.fixture
async def adopted_graph(store: GraphStore, graph_name: str) -> AsyncIterator[str]:
    g = await create_movies(store, graph_name)
    intro = await introspect(store, labels=g.labels)
    await adopt_graph(store, propose(intro, graph_name, labels=g.labels, types=g.types))
    try:
        yield graph_name
    finally:
        await undo_graph(store, graph_name)
        await drop_movies(store, g)


def make_walker(settings: Settings, graph: str) -> GraphWalker:
    return GraphWalker(
        graph, settings=settings, backend=FakeBackend(answer=directed_then_stop), embedder=FakeEmbedder()
    )


@pytest.fixture
def walker(neo4j_settings: Settings, demo_graph: str) -> Iterator[GraphWalker]:
    with make_walker(neo4j_settings, demo_graph) as w:
        yield w


@pytest.fixture
def adopted_walker(neo4j_settings: Settings, adopted_graph: str) -> Iterator[GraphWalker]:
    with make_walker(neo4j_settings, adopted_graph) as w:
        yield w
