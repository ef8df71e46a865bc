"""graphwalk inside the GenAI frameworks Neo4j users already build with (docs/integrations/).

Each adapter is its own module and needs its framework, an optional extra: ``neo4j_graphrag`` (``[graphrag]``),
``langchain`` (``[langchain]``), ``llamaindex`` (``[llamaindex]``); the retrievers all walk through one
:class:`~graphwalk_neo4j.integrations.walker.GraphWalker`, the composition the CLI, HTTP and MCP share.
``neo4j_viz`` (``[notebook]``) draws a walk with neo4j-viz.
Importing this package loads no framework.
"""
