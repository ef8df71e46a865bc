"""The LlamaIndex retriever on the real llama-index-core: nodes of ``retrieve`` and ``aretrieve`` against the
stored walk, and a ``RetrieverQueryEngine`` whose LLM (llama-index's ``MockLLM``, which answers with its prompt)
shows what the model would read."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode, NodeWithScore

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.integrations.llamaindex import GraphwalkRetriever
from graphwalk_neo4j.stored_walks import get_walk
from tests.integrations.conftest import ADOPTED_QUESTION, NOLAN_MOVIES, QUESTION, WACHOWSKI_MOVIES

if TYPE_CHECKING:
    from graphwalk_neo4j.integrations.walker import GraphWalker
    from graphwalk_neo4j.store import GraphStore

NOLAN_PATH = "Christopher Nolan <--directed_by-- Inception, Memento, The Prestige -> STOP"


async def test_nodes_sync_and_async_match_the_stored_walk(walker: GraphWalker, store: GraphStore) -> None:
    retriever = GraphwalkRetriever(walker, top_k=3)
    assert isinstance(retriever, BaseRetriever)
    found_sync = await asyncio.to_thread(retriever.retrieve, QUESTION)
    found_async = await retriever.aretrieve(QUESTION)
    for found in (found_sync, found_async):
        assert all(isinstance(n, NodeWithScore) for n in found)
        stored = await get_walk(store, walker.graph, found[0].node.metadata["walk_id"])
        assert sorted(stored.answer_names) == NOLAN_MOVIES
        assert [n.node.metadata["name"] for n in found] == stored.answer_names
        assert [n.node.node_id for n in found] == [f"{stored.id}:{rank}" for rank in (1, 2, 3)]
        assert [n.node.get_content() for n in found] == [
            f"{name} (Movie): {NOLAN_PATH}" for name in stored.answer_names
        ]
        # the LLM reads the answer and its path, not the metadata
        assert [n.node.get_content(MetadataMode.LLM) for n in found] == [n.node.get_content() for n in found]
        assert all(n.score is not None and 0 < n.score <= 1 for n in found)
    assert found_sync[0].node.metadata["walk_id"] != found_async[0].node.metadata["walk_id"]


def test_query_engine_hands_the_walk_to_the_llm(walker: GraphWalker) -> None:
    engine = RetrieverQueryEngine.from_args(GraphwalkRetriever(walker, top_k=3), llm=MockLLM())
    response = engine.query(QUESTION)
    names = [n.node.metadata["name"] for n in response.source_nodes]
    assert sorted(names) == NOLAN_MOVIES
    for name in names:
        assert f"{name} (Movie): {NOLAN_PATH}" in str(response)  # MockLLM answers with the prompt it was given
    assert QUESTION in str(response)


def test_adopted_graph_nodes(adopted_walker: GraphWalker) -> None:
    found = GraphwalkRetriever(adopted_walker).retrieve(ADOPTED_QUESTION)
    assert sorted(n.node.metadata["name"] for n in found) == WACHOWSKI_MOVIES


def test_top_k_bounds(walker: GraphWalker) -> None:
    with pytest.raises(InputError, match=r"top_k is 0; it must be a whole number from 1 to 100"):
        GraphwalkRetriever(walker, top_k=0)
