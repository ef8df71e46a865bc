"""Neo4j access: the async :class:`GraphStore` and the Cypher template registry."""

from graphwalk_neo4j.store.counters import Counters
from graphwalk_neo4j.store.queries import Query, QueryName
from graphwalk_neo4j.store.registry import Template, names, template
from graphwalk_neo4j.store.store import GraphStore, ServerInfo, WriteStats, run_template, translate

__all__ = [
    "Counters",
    "GraphStore",
    "Query",
    "QueryName",
    "ServerInfo",
    "Template",
    "WriteStats",
    "names",
    "run_template",
    "template",
    "translate",
]
