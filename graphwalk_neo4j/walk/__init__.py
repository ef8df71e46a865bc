"""Walking the graph with a decision model: config and presets, ports (expander, trace sink), the engine and
its results. The engine never touches Neo4j; it talks to an :class:`Expander` and a :class:`TraceSink`, whose
Neo4j implementations (:mod:`.graph_expander`, :mod:`.neo4j_trace_sink`) and the :mod:`.service` that wires
them live beside it.

The package itself imports nothing, so that ``graphwalk_neo4j.walk.config`` (pydantic only) can be read without
loading the engine, the decision backends and the Neo4j driver (the CLI's option choices come from it); import
from the modules, or take the public names from :mod:`graphwalk_neo4j`.
"""
