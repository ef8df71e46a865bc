"""neo4j-graphrag: :class:`GraphwalkRetriever`, a :class:`neo4j_graphrag.retrievers.base.Retriever` whose search
walks the graph. ``GraphRAG(retriever=GraphwalkRetriever(driver, walker), llm=...)`` hands the LLM the answers and
the paths that reached them. Needs the ``[graphrag]`` extra.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from neo4j_graphrag.retrievers.base import Retriever
from neo4j_graphrag.types import RawSearchResult, RetrieverResultItem

import neo4j
from graphwalk_neo4j.integrations.walker import GraphWalker, check_top_k, retrieved_answers, walk_metadata

if TYPE_CHECKING:
    from collections.abc import Callable


class GraphwalkRetriever(Retriever):
    """Answers a question by a walk over ``walker``'s graph. ``driver`` is the synchronous driver every
    neo4j-graphrag retriever takes (it checks the server version with it); the walk itself runs on the walker's
    own connection, to the database named by the walker's settings (``GW_NEO4J_DATABASE``).

    Each :class:`~neo4j_graphrag.types.RetrieverResultItem` is one answer: ``content`` is the answer and the path
    that reached it (``Memento (Movie): Christopher Nolan <--directed_by-- Memento, Inception -> STOP``),
    ``metadata`` holds ``walk_id``, ``rank``, ``score``, ``path``, ``path_steps`` and the answer's node id, type
    and value. The result's metadata has the walk id, status and stop reason.
    """

    def __init__(self, driver: neo4j.Driver, walker: GraphWalker) -> None:
        super().__init__(driver, neo4j_database=walker.settings.database)
        self.walker = walker

    def get_search_results(self, query_text: str, top_k: int = 5, start: list[str] | None = None) -> RawSearchResult:
        """Walk toward the answer of ``query_text`` and return its best ``top_k`` answers (1–100), each with its
        path and the walk id. ``start`` names start entities (default: linked from the question)."""
        check_top_k(top_k)  # before the walk, so a bad value costs nothing
        outcome = self.walker.walk(query_text, start=start)
        items = retrieved_answers(outcome, self.walker.graph, top_k)
        # neo4j.Record.__new__ carries no annotations
        records = [neo4j.Record({"content": i.text, "metadata": i.metadata}) for i in items]  # type: ignore[no-untyped-call]
        return RawSearchResult(records=records, metadata=walk_metadata(outcome, self.walker.graph))

    def get_result_formatter(self) -> Callable[[neo4j.Record], RetrieverResultItem]:
        return _item


def _item(record: neo4j.Record) -> RetrieverResultItem:
    return RetrieverResultItem(content=record["content"], metadata=record["metadata"])
