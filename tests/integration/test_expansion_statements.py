"""A depth whose beams carry many node ids is sent as several expansion statements
(``graph_expander.IDS_PER_STATEMENT``), with the same expansions as one statement: entity and relation requests,
with exclusion lists, a followed move and a frontier cap."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.walk.expansion import ExpandRequest, Move
from graphwalk_neo4j.walk.graph_expander import Neo4jExpander
from tests.integration.kismet_walk import ID, load_kb

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.store import GraphStore

pytestmark = pytest.mark.neo4j


def requests() -> list[ExpandRequest]:
    kismet, angel, marlene = ID["Kismet"], ID["The Blue Angel"], ID["Marlene Dietrich"]
    return [
        ExpandRequest(beam_key="e0", node_ids=(kismet,), exclude_ids=(kismet,)),
        ExpandRequest(beam_key="e1", node_ids=(marlene,), exclude_ids=(marlene, kismet)),
        ExpandRequest(beam_key="e2", node_ids=(angel,), limit=2, keep=1),
        ExpandRequest(beam_key="r0", hop_mode="relation", node_ids=(kismet, angel), exclude_ids=(kismet, angel)),
        ExpandRequest(
            beam_key="r1",
            hop_mode="relation",
            node_ids=(marlene,),
            exclude_ids=(marlene, kismet),
            follow=Move(relation="starred_actors", direction="in"),
        ),
        ExpandRequest(
            beam_key="r2",
            hop_mode="relation",
            node_ids=(marlene,),
            exclude_ids=(marlene,),
            follow=Move(relation="starred_actors", direction="in"),
            max_frontier=1,
        ),
    ]


async def test_a_depth_cut_into_statements_expands_as_one(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    await load_kb(store, graph_name, tmp_path)
    whole = Neo4jExpander(store, graph_name)
    one = await whole.expand(requests())
    assert whole.round_trips == 2  # one statement per hop mode
    assert [e.beam_key for e in one] == ["e0", "e1", "e2", "r0", "r1", "r2"]
    assert {t.id for o in one[0].options for t in o.targets} == {
        ID[n] for n in ("William Dieterle", "Edward Knoblock", "Marlene Dietrich", "1944")
    }
    assert {n.id for n in one[4].frontier or ()} == {ID["The Blue Angel"]}  # Kismet excluded
    assert one[5].frontier_truncated
    assert len(one[5].frontier or ()) == 1
    # ids per request: e0 2, e1 3, e2 1 (node key + exclusions); r0 4, r1 3, r2 2 (node keys + exclusions)
    for limit, trips in ((1, 6), (5, 4), (6, 3)):
        cut = Neo4jExpander(store, graph_name)
        cut.ids_per_statement = limit
        assert await cut.expand(requests()) == one, limit
        assert cut.round_trips == trips, limit


async def test_a_big_frontier_has_its_moves_counted_on_part_of_it(
    store: GraphStore, graph_name: str, tmp_path: Path
) -> None:
    """Above ``counted`` frontier nodes the moves are counted on that many (evenly spread) and scaled: every
    option is unresolved and estimated, and taking one still reads its targets exactly."""
    await load_kb(store, graph_name, tmp_path)
    kismet, angel = ID["Kismet"], ID["The Blue Angel"]
    frontier = ExpandRequest(beam_key="r0", hop_mode="relation", node_ids=(kismet, angel), exclude_ids=(kismet, angel))
    exact = (await Neo4jExpander(store, graph_name).expand([frontier]))[0]
    sampled = (await Neo4jExpander(store, graph_name, counted=1).expand([frontier]))[0]
    # counted on Kismet alone (index 0 of 2): its one edge per move, scaled by 2 / 1
    assert [(o.relation, o.direction, o.count, o.resolved, o.estimated) for o in sampled.options] == [
        ("directed_by", "out", 2, False, True),
        ("release_year", "out", 2, False, True),
        ("starred_actors", "out", 2, False, True),
        ("written_by", "out", 2, False, True),
    ]
    assert [(o.relation, o.count, o.resolved, o.estimated) for o in exact.options] == [
        ("directed_by", 2, True, False),
        ("release_year", 2, True, False),
        ("starred_actors", 1, True, False),
        ("written_by", 1, True, False),
    ]
    follow = frontier.model_copy(update={"follow": Move(relation="directed_by", direction="out")})
    taken = (await Neo4jExpander(store, graph_name, counted=1).expand([follow]))[0]
    assert {n.name for n in taken.frontier or ()} == {"William Dieterle", "Josef von Sternberg"}
    assert taken.frontier_total == 2
    assert not taken.frontier_truncated
