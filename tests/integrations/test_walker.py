"""GraphWalker's own contract on the real Neo4j: a walk whose decider fails raises WalkFailedError naming the
stored walk; blocking walks from several threads share the one walker; without a preset it walks the default walk."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.errors import DecisionError, WalkFailedError
from graphwalk_neo4j.integrations.walker import GraphWalker
from graphwalk_neo4j.stored_walks import get_walk
from graphwalk_neo4j.walk.config import build_config
from tests.integrations.conftest import NOLAN_MOVIES, QUESTION

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore


async def test_a_failed_walk_raises_with_its_id(neo4j_settings: Settings, demo_graph: str, store: GraphStore) -> None:
    backend = FakeBackend()
    backend.fail_with(DecisionError("the decider is down"))
    walker = GraphWalker(demo_graph, settings=neo4j_settings, backend=backend, embedder=FakeEmbedder())
    with walker, pytest.raises(WalkFailedError, match=r"^walk [0-9a-f]{32} failed: .*the decider is down") as caught:
        await walker.awalk(QUESTION)
    walk_id = str(caught.value).split()[1]
    assert (await get_walk(store, demo_graph, walk_id)).status == "error"


async def test_blocking_walks_from_threads_share_one_walker(walker: GraphWalker) -> None:
    outcomes = await asyncio.gather(*(asyncio.to_thread(walker.walk, QUESTION) for _ in range(3)))
    assert len({o.result.walk_id for o in outcomes}) == 3
    assert all(sorted(o.result.answer_names) == NOLAN_MOVIES for o in outcomes)


def test_the_walker_walks_the_default_walk_unless_a_preset_is_named() -> None:
    """Without a preset the framework adapters walk what ``gw-neo4j walk`` walks: relation hops, the search left
    to the decider (a learned model's beam, docs/decision-backends.md); a named preset sets it."""
    default = GraphWalker("g").config
    assert default.model_dump() == build_config(None).model_dump()
    assert "strategy" not in default.model_fields_set
    named = GraphWalker("g", preset="relation").config
    assert (named.strategy, "strategy" in named.model_fields_set) == ("greedy", True)
