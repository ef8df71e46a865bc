"""LlamaIndex: :class:`GraphwalkRetriever`, a ``llama_index.core`` retriever whose nodes are a walk's answers.
It plugs in wherever LlamaIndex takes a retriever (``RetrieverQueryEngine.from_args(retriever, llm=...)``, a
router, an agent tool). Needs the ``[llamaindex]`` extra (llama-index-core only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.schema import NodeWithScore, TextNode

from graphwalk_neo4j.integrations.walker import GraphWalker, check_top_k, retrieved_answers

if TYPE_CHECKING:
    from llama_index.core.schema import QueryBundle

    from graphwalk_neo4j.walk.service import WalkOutcome


class GraphwalkRetriever(BaseRetriever):
    """``GraphwalkRetriever(walker, top_k=5)``: ``retrieve(question)`` (and ``aretrieve``) walk the graph and
    return one :class:`~llama_index.core.schema.NodeWithScore` per answer, best first. The node's text is the
    answer and its path, its metadata has ``walk_id``, ``rank``, ``path``, ``path_steps`` and the answer's node
    id, type and value (kept out of what the LLM and embedders read), its id is ``WALK_ID:RANK``, and the score
    is the relevance in (0, 1]. ``top_k``: 1–100."""

    def __init__(self, walker: GraphWalker, top_k: int = 5, **kwargs: Any) -> None:
        self.walker = walker
        self.top_k = check_top_k(top_k)
        super().__init__(**kwargs)

    def _nodes(self, outcome: WalkOutcome) -> list[NodeWithScore]:
        out = []
        for item in retrieved_answers(outcome, self.walker.graph, self.top_k):
            hidden = list(item.metadata)
            node = TextNode(
                id_=f"{item.metadata['walk_id']}:{item.metadata['rank']}",
                text=item.text,
                metadata=item.metadata,
                excluded_llm_metadata_keys=hidden,
                excluded_embed_metadata_keys=hidden,
            )
            out.append(NodeWithScore(node=node, score=item.relevance))
        return out

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return self._nodes(self.walker.walk(query_bundle.query_str))

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return self._nodes(await self.walker.awalk(query_bundle.query_str))
