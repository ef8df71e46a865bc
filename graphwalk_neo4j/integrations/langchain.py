"""LangChain: :class:`GraphwalkRetriever`, a ``langchain_core`` retriever whose documents are a walk's answers,
and :func:`graphwalk_tool`, the same walk as a tool an agent can call. Needs the ``[langchain]`` extra
(langchain-core only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import StructuredTool
from pydantic import BaseModel, Field, field_validator

from graphwalk_neo4j.integrations.walker import GraphWalker, check_top_k, retrieved_answers, walk_metadata

if TYPE_CHECKING:
    from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun

    from graphwalk_neo4j.walk.service import WalkOutcome

TOOL_NAME = "graphwalk"
TOOL_DESCRIPTION = (
    "Answer a question about the Neo4j knowledge graph by walking it hop by hop from the entities the question "
    "names. Returns the answers, the path that reached each, and the id of the stored walk."
)


def _documents(outcome: WalkOutcome, graph: str, top_k: int) -> list[Document]:
    return [
        Document(
            page_content=i.text,
            metadata={**i.metadata, "relevance": i.relevance},
            id=f"{i.metadata['walk_id']}:{i.metadata['rank']}",
        )
        for i in retrieved_answers(outcome, graph, top_k)
    ]


class GraphwalkRetriever(BaseRetriever):
    """``GraphwalkRetriever(walker=GraphWalker("demo"), top_k=5)``: ``invoke(question)`` (and ``ainvoke``)
    walk the graph and return one :class:`~langchain_core.documents.Document` per answer, best first:
    ``page_content`` is the answer and its path, ``metadata`` has ``walk_id``, ``rank``, ``path``,
    ``path_steps``, ``relevance`` (in (0, 1]) and the answer's node id, type and value. ``top_k``: 1–100."""

    walker: GraphWalker
    top_k: int = 5

    @field_validator("top_k")
    @classmethod
    def _bounded(cls, value: int) -> int:
        return check_top_k(value)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return _documents(self.walker.walk(query), self.walker.graph, self.top_k)

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        return _documents(await self.walker.awalk(query), self.walker.graph, self.top_k)


class WalkQuestion(BaseModel):
    """The tool's arguments."""

    question: str = Field(description="The question, in plain words, e.g. 'which movies did Christopher Nolan direct'")
    start: list[str] | None = Field(
        default=None, description="Entity names to start from; leave out to find them in the question"
    )


def _tool_reply(outcome: WalkOutcome, graph: str, top_k: int) -> tuple[str, dict[str, Any]]:
    items = retrieved_answers(outcome, graph, top_k)
    meta = walk_metadata(outcome, graph)
    if items:
        lines = [f"{n}. {i.text}" for n, i in enumerate(items, start=1)]
    else:
        lines = [f"No answer ({meta['status']}: {meta['stop_reason']})."]
    text = "\n".join([*lines, f"walk id: {meta['walk_id']}"])
    return text, {**meta, "answers": [i.metadata for i in items]}


def graphwalk_tool(walker: GraphWalker, top_k: int = 5) -> StructuredTool:
    """The walk as a LangChain tool (``name="graphwalk"``): the model sees the numbered answers with their paths
    and the walk id; the tool message's ``artifact`` holds the walk's metadata and every answer's (call it with a
    tool call to get it). Works with ``invoke`` and ``ainvoke``. ``top_k``: 1–100."""
    check_top_k(top_k)

    def run(question: str, start: list[str] | None = None) -> tuple[str, dict[str, Any]]:
        return _tool_reply(walker.walk(question, start=start), walker.graph, top_k)

    async def arun(question: str, start: list[str] | None = None) -> tuple[str, dict[str, Any]]:
        return _tool_reply(await walker.awalk(question, start=start), walker.graph, top_k)

    return StructuredTool.from_function(
        func=run,
        coroutine=arun,
        name=TOOL_NAME,
        description=TOOL_DESCRIPTION,
        args_schema=WalkQuestion,
        response_format="content_and_artifact",
    )
