"""graphwalk-neo4j: answer questions by walking a Neo4j knowledge graph with a calibrated decision model.

The public API is what ``__all__`` lists; everything else may change between versions. Names are imported
lazily, so ``import graphwalk_neo4j`` stays cheap and ``python -m graphwalk_neo4j.localserver`` runs on a bare
Python before the virtualenv has any dependency.

    >>> from graphwalk_neo4j import GraphStore, Settings, WalkService, get_preset
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.extras import exported

__version__ = "0.1.0"

_EXPORTS = {
    "DecisionBackend": "graphwalk_neo4j.decide.base",
    "DecisionRequest": "graphwalk_neo4j.decide.base",
    "DecisionResponse": "graphwalk_neo4j.decide.base",
    "Embedder": "graphwalk_neo4j.embed.base",
    "GraphStore": "graphwalk_neo4j.store",
    "GraphwalkError": "graphwalk_neo4j.errors",
    "Settings": "graphwalk_neo4j.settings",
    "WalkConfig": "graphwalk_neo4j.walk.config",
    "WalkOutcome": "graphwalk_neo4j.walk.service",
    "WalkResult": "graphwalk_neo4j.walk.result",
    "WalkService": "graphwalk_neo4j.walk.service",
    "apply_schema": "graphwalk_neo4j.schema",
    "embed_graph": "graphwalk_neo4j.graph.embeddings",
    "get_preset": "graphwalk_neo4j.walk.config",
    "ingest_file": "graphwalk_neo4j.ingest.structured",
    "make_embedder": "graphwalk_neo4j.embed.factory",
    "resolve_backend": "graphwalk_neo4j.backends",
    "search_entities": "graphwalk_neo4j.graph.search",
}

__all__ = [
    "DecisionBackend",
    "DecisionRequest",
    "DecisionResponse",
    "Embedder",
    "GraphStore",
    "GraphwalkError",
    "Settings",
    "WalkConfig",
    "WalkOutcome",
    "WalkResult",
    "WalkService",
    "__version__",
    "apply_schema",
    "embed_graph",
    "get_preset",
    "ingest_file",
    "make_embedder",
    "resolve_backend",
    "search_entities",
]


def __getattr__(name: str) -> Any:
    return exported(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:
    from graphwalk_neo4j.backends import resolve_backend
    from graphwalk_neo4j.decide.base import DecisionBackend, DecisionRequest, DecisionResponse
    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.embed.factory import make_embedder
    from graphwalk_neo4j.errors import GraphwalkError
    from graphwalk_neo4j.graph.embeddings import embed_graph
    from graphwalk_neo4j.graph.search import search_entities
    from graphwalk_neo4j.ingest.structured import ingest_file
    from graphwalk_neo4j.schema import apply_schema
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.walk.config import WalkConfig, get_preset
    from graphwalk_neo4j.walk.result import WalkResult
    from graphwalk_neo4j.walk.service import WalkOutcome, WalkService
