"""The most one request may ask for, the same at every door (the CLI's option ranges, HTTP's and MCP's schemas).

Walk options have theirs in :mod:`graphwalk_neo4j.walk.config`; these are the read-only lookups'. They live in
the bottom layer, beside :mod:`graphwalk_neo4j.identifiers`, so that a command's ``--help`` and its argument
errors can state them without importing the Neo4j driver (:mod:`graphwalk_neo4j.graph.search` and
:mod:`graphwalk_neo4j.stored_walks.read`, which enforce them, re-export them).
"""

from __future__ import annotations

MAX_SEARCH_HITS = 200  # the most hits one search returns (every door's k)
MAX_LISTED_WALKS = 1000  # the most walks one listing returns (every door's limit)
