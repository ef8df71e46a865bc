"""GraphwalkRetriever inside the real neo4j-graphrag: search results against the stored walk, and a whole
``GraphRAG`` run whose LLM (neo4j-graphrag's ``OpenAILLM``) is the reader stand-in on loopback."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from neo4j_graphrag.generation import GraphRAG
from neo4j_graphrag.llm import OpenAILLM
from neo4j_graphrag.retrievers.base import Retriever
from neo4j_graphrag.types import RetrieverResult

import neo4j
from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.integrations.neo4j_graphrag import GraphwalkRetriever
from graphwalk_neo4j.stored_walks import get_walk
from tests.integrations.conftest import ADOPTED_QUESTION, NOLAN_MOVIES, QUESTION, WACHOWSKI_MOVIES
from tests.standins.reader import ReaderStandIn, context_lines

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graphwalk_neo4j.integrations.walker import GraphWalker
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore


@pytest.fixture
def driver(neo4j_settings: Settings) -> Iterator[neo4j.Driver]:
    auth = (neo4j_settings.user, neo4j_settings.password.get_secret_value())
    with neo4j.GraphDatabase.driver(neo4j_settings.uri, auth=auth) as d:
        yield d


async def test_search_returns_the_answers_with_their_paths_and_the_walk_id(
    driver: neo4j.Driver, walker: GraphWalker, store: GraphStore
) -> None:
    retriever = GraphwalkRetriever(driver, walker)
    assert isinstance(retriever, Retriever)
    result = retriever.search(query_text=QUESTION, top_k=2)
    assert isinstance(result, RetrieverResult)
    assert result.metadata is not None
    walk_id = result.metadata["walk_id"]
    assert result.metadata == {
        "walk_id": walk_id,
        "graph": walker.graph,
        "status": "ok",
        "stop_reason": "stop: every kept walk stopped",
        "__retriever": "GraphwalkRetriever",
    }
    stored = await get_walk(store, walker.graph, walk_id)
    assert sorted(stored.answer_names) == NOLAN_MOVIES
    path = "Christopher Nolan <--directed_by-- Inception, Memento, The Prestige -> STOP"
    assert [i.content for i in result.items] == [f"{name} (Movie): {path}" for name in stored.answer_names[:2]]
    for rank, item in enumerate(result.items, start=1):
        assert item.metadata is not None
        assert item.metadata["walk_id"] == walk_id
        assert item.metadata["rank"] == rank
        assert item.metadata["node_id"] == stored.answer_ids[rank - 1]
        assert item.metadata["path"] == path
        assert item.metadata["path_steps"] == [
            {
                "depth": 1,
                "relation": "directed_by",
                "direction": "in",
                "from": ["Christopher Nolan"],
                "to": NOLAN_MOVIES,
                "p": 1.0,
            }
        ]


def test_graphrag_answers_from_the_walk(driver: neo4j.Driver, walker: GraphWalker) -> None:
    with ReaderStandIn() as llm_server:
        llm = OpenAILLM(model_name="reader", base_url=llm_server.api_base, api_key="test-key")
        rag = GraphRAG(retriever=GraphwalkRetriever(driver, walker), llm=llm)
        answer = rag.search(QUESTION, retriever_config={"top_k": 3}, return_context=True)
        [request] = llm_server.requests
    assert answer.retriever_result is not None
    names = [item.metadata["name"] for item in answer.retriever_result.items if item.metadata]
    assert sorted(names) == NOLAN_MOVIES
    assert answer.answer == ", ".join(names)  # the reader saw exactly the three answers, in rank order
    prompt = request["messages"][-1]["content"]
    assert context_lines(prompt) == [item.content for item in answer.retriever_result.items]
    assert QUESTION in prompt


def test_search_over_an_adopted_graph(driver: neo4j.Driver, adopted_walker: GraphWalker) -> None:
    result = GraphwalkRetriever(driver, adopted_walker).search(query_text=ADOPTED_QUESTION)
    assert sorted(i.metadata["name"] for i in result.items if i.metadata) == WACHOWSKI_MOVIES
    for item in result.items:
        assert item.metadata is not None
        assert item.metadata["path"].startswith("Lana Wachowski --DIRECTED--> ")
        assert item.metadata["node_id"].startswith("4:")  # the user's own node, by element id


def test_no_start_entity_gives_no_items_and_a_closed_walker_opens_again(
    driver: neo4j.Driver, walker: GraphWalker
) -> None:
    retriever = GraphwalkRetriever(driver, walker)
    for _ in range(2):
        result = retriever.search(query_text="who directed it", start=["Nobody By This Name"])
        assert result.items == []
        assert result.metadata is not None
        assert result.metadata["status"] == "no_start"
        walker.close()


def test_top_k_out_of_bounds_is_refused_before_any_walk(driver: neo4j.Driver, walker: GraphWalker) -> None:
    retriever = GraphwalkRetriever(driver, walker)
    for bad in (0, 101):
        with pytest.raises(InputError, match=rf"top_k is {bad}; it must be a whole number from 1 to 100"):
            retriever.search(query_text=QUESTION, top_k=bad)
    assert walker._service is None  # nothing was opened
