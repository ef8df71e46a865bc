"""graphwalk-neo4j: answer questions by walking a Neo4j knowledge graph with a calibrated decision model."""

from graphwalk_neo4j.errors import GraphwalkError
from graphwalk_neo4j.settings import Settings

__version__ = "0.1.0"

__all__ = ["GraphwalkError", "Settings", "__version__"]
