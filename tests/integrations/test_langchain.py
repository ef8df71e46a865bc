"""The LangChain retriever and tool on the real langchain-core: sync and async documents against the stored walk,
concurrent ``ainvoke``, a chain, and the tool called with a tool call (content and artifact)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest
from langchain_core.documents import Document
from langchain_core.messages import ToolMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import BaseTool

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.integrations.langchain import GraphwalkRetriever, graphwalk_tool
from graphwalk_neo4j.stored_walks import get_walk
from tests.integrations.conftest import ADOPTED_QUESTION, NOLAN_MOVIES, QUESTION, WACHOWSKI_MOVIES

if TYPE_CHECKING:
    from graphwalk_neo4j.integrations.walker import GraphWalker
    from graphwalk_neo4j.store import GraphStore

NOLAN_PATH = "Christopher Nolan <--directed_by-- Inception, Memento, The Prestige -> STOP"


async def test_documents_sync_and_async_match_the_stored_walk(walker: GraphWalker, store: GraphStore) -> None:
    retriever = GraphwalkRetriever(walker=walker, top_k=3)
    docs = await asyncio.to_thread(retriever.invoke, QUESTION)  # the blocking door, off this test's loop
    also = await retriever.ainvoke(QUESTION)
    for found in (docs, also):
        assert all(isinstance(d, Document) for d in found)
        stored = await get_walk(store, walker.graph, found[0].metadata["walk_id"])
        assert [d.metadata["name"] for d in found] == stored.answer_names
        assert sorted(stored.answer_names) == NOLAN_MOVIES
        assert [d.page_content for d in found] == [f"{n} (Movie): {NOLAN_PATH}" for n in stored.answer_names]
        assert [d.id for d in found] == [f"{stored.id}:{rank}" for rank in (1, 2, 3)]
        assert [d.metadata["node_id"] for d in found] == stored.answer_ids
        for d in found:
            assert d.metadata["path"] == NOLAN_PATH
            assert 0 < d.metadata["relevance"] <= 1
    assert docs[0].metadata["walk_id"] != also[0].metadata["walk_id"]  # two walks, both stored


async def test_concurrent_ainvoke_and_a_chain(walker: GraphWalker) -> None:
    retriever = GraphwalkRetriever(walker=walker, top_k=1)
    first, second = await asyncio.gather(retriever.ainvoke(QUESTION), retriever.ainvoke(QUESTION))
    assert first[0].metadata["walk_id"] != second[0].metadata["walk_id"]
    assert first[0].page_content == second[0].page_content  # the same deterministic decider, the same answer

    def names(docs: list[Document]) -> list[str]:
        return [d.metadata["name"] for d in docs]

    chain = retriever | RunnableLambda(names)
    assert await chain.ainvoke(QUESTION) == [first[0].metadata["name"]]


def test_adopted_graph_documents(adopted_walker: GraphWalker) -> None:
    docs = GraphwalkRetriever(walker=adopted_walker).invoke(ADOPTED_QUESTION)
    assert sorted(d.metadata["name"] for d in docs) == WACHOWSKI_MOVIES
    assert all(
        d.page_content.endswith("(Movie): Lana Wachowski --DIRECTED--> " + ", ".join(WACHOWSKI_MOVIES) + " -> STOP")
        for d in docs
    )


async def test_tool_gives_the_model_text_and_the_caller_an_artifact(walker: GraphWalker) -> None:
    tool = graphwalk_tool(walker, top_k=2)
    assert isinstance(tool, BaseTool)
    assert tool.name == "graphwalk"
    assert set(tool.args) == {"question", "start"}
    call = {"name": "graphwalk", "args": {"question": QUESTION}, "id": "call-1", "type": "tool_call"}
    message = await tool.ainvoke(call)
    assert isinstance(message, ToolMessage)
    artifact = message.artifact
    names = [a["name"] for a in artifact["answers"]]
    assert len(names) == 2
    assert set(names) < set(NOLAN_MOVIES)
    assert message.content == "\n".join(
        [f"{n}. {name} (Movie): {NOLAN_PATH}" for n, name in enumerate(names, start=1)]
        + [f"walk id: {artifact['walk_id']}"]
    )
    given = await asyncio.to_thread(tool.invoke, {"question": "who made it", "start": ["Memento"]})
    assert given.splitlines()[0].startswith("1. Christopher Nolan (")  # from the given start, along directed_by
    assert given.splitlines()[-1].startswith("walk id: ")
    missing = await tool.ainvoke({"question": "who directed it", "start": ["Nobody By This Name"]})
    assert missing.startswith("No answer (no_start: linking: ")


def test_top_k_bounds(walker: GraphWalker) -> None:
    with pytest.raises(InputError, match=r"top_k is 0; it must be a whole number from 1 to 100"):
        GraphwalkRetriever(walker=walker, top_k=0)
    with pytest.raises(InputError, match=r"top_k is 101; it must be a whole number from 1 to 100"):
        graphwalk_tool(walker, top_k=101)
