"""graphwalk-neo4j: answer questions by walking a Neo4j knowledge graph with a calibrated decision model.

The public API is what ``__all__`` lists; everything else may change between versions.

    >>> from graphwalk_neo4j import GraphStore, Settings, WalkService, get_preset
"""

from graphwalk_neo4j.decide.base import DecisionBackend, DecisionRequest, DecisionResponse
from graphwalk_neo4j.decide.resolve import resolve_backend
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

__version__ = "0.1.0"

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
