"""Stored walk traces: typed read access to the :Walk / :Step / :Call nodes that
:class:`~graphwalk_neo4j.walk.neo4j_trace_sink.Neo4jTraceSink` writes (schema in ``docs/walk-schema.md``).

``list_walks`` / ``get_walk`` return :class:`StoredWalk` models; ``replay_snippet`` gives the Browser commands
that draw one walk, ``browser_line`` the one-line ``:guide`` command; ``backfill_captions`` captions old traces.
Ready-to-paste analysis queries live in ``cypher/recipes/`` (``docs/cypher-recipes.md``).
"""

from graphwalk_neo4j.errors import WalkNotFoundError
from graphwalk_neo4j.stored_walks.captions import CaptionBackfill, backfill_captions
from graphwalk_neo4j.stored_walks.models import StoredAnswer, StoredCall, StoredOption, StoredStep, StoredWalk
from graphwalk_neo4j.stored_walks.read import (
    browser_line,
    get_walk,
    guide_url,
    list_walks,
    recent_walks,
    replay_snippet,
)

__all__ = [
    "CaptionBackfill",
    "StoredAnswer",
    "StoredCall",
    "StoredOption",
    "StoredStep",
    "StoredWalk",
    "WalkNotFoundError",
    "backfill_captions",
    "browser_line",
    "get_walk",
    "guide_url",
    "list_walks",
    "recent_walks",
    "replay_snippet",
]
