"""POST /v1/walk with a caller-named ``learned:DIR`` (allowed by GW_NEO4J_SERVICE_LEARNED_DIRS), over real HTTP
against the real app and the real Neo4j: the walk takes the model's training rule unless the request's
``config`` chooses one; the response's ``walk_rule`` and the stored trace say which rule was walked, and its
``search`` how the walk searched (a learned model's beam where the request names no preset)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import httpx

from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.learned.fit import Example, FitOptions, fit
from graphwalk_neo4j.learned.inputs import DecisionInputs
from graphwalk_neo4j.learned.model import LearnedDecider
from graphwalk_neo4j.service.context import ServiceContext
from graphwalk_neo4j.walk.config import WalkConfig
from tests.service.conftest import ServedApp, service_settings

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings


def tiny_artifact(directory: Path) -> None:
    """A one-epoch model whose config.json records training under ``exclude_scope="start"`` (as
    ``decider train --exclude start`` writes it); what it learned does not matter here."""
    inputs = DecisionInputs(
        question="who directed item",
        path=(),
        tokens=("directed_by|out", "STOP"),
        types=("person", "film"),
        counts=(1, 1),
        moves=("directed by", "the answer is these 1 films"),
    )
    examples = [Example(inputs, [1.0, 0.0]), Example(inputs, [0.0, 1.0])]
    trained = WalkConfig(hop_mode="relation", allow_stop_at_start=False, exclude_scope="start")
    asyncio.run(
        fit(
            examples,
            [],
            FakeEmbedder(),
            directory,
            options=FitOptions(epochs=1, hidden=8, augment=0),
            meta={"walk_config": trained.model_dump(mode="json")},
        )
    )


def walk(client: httpx.Client, graph: str, model: str, **extra: Any) -> dict[str, Any]:
    r = client.post(
        "/v1/walk",
        json={"question": "who directed Memento", "graph": graph, "start": "Memento", "preset": "relation"}
        | {"model": model}
        | extra,
    )
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    stored = client.get(f"/v1/walks/{body['walk_id']}", params={"graph": graph})
    assert stored.status_code == 200, stored.text
    body["stored_config"] = stored.json()["walk"]["config"]
    return body


def test_a_learned_model_walks_under_its_training_rule_unless_the_request_chooses(
    neo4j_settings: Settings, movie_graph: str, tmp_path: Path
) -> None:
    art = tmp_path / "models" / "art"
    tiny_artifact(art)
    settings = service_settings(neo4j_settings, movie_graph, service_learned_dirs=str(tmp_path / "models"))
    app = ServedApp(settings).start()
    try:
        with httpx.Client(base_url=app.url, timeout=60) as client:
            own = walk(client, movie_graph, f"learned:{art}")
            assert own["bundle"]["walk_rule"] == {"exclude_visited": True, "exclude_scope": "start", "source": "model"}
            assert own["stored_config"]["exclude_scope"] == "start"
            assert own["bundle"]["search"] == {"strategy": "greedy", "width": 1, "source": "chosen"}  # the preset
            searched = walk(client, movie_graph, f"learned:{art}", preset=None)  # no preset: the model's beam
            assert searched["bundle"]["search"] == {"strategy": "beam", "width": 3, "source": "model"}
            assert (searched["stored_config"]["strategy"], searched["stored_config"]["beam_width"]) == ("beam", 3)
            chosen = walk(client, movie_graph, f"learned:{art}", config={"exclude_scope": "visited"})
            assert chosen["bundle"]["walk_rule"] == {
                "exclude_visited": True,
                "exclude_scope": "visited",
                "source": "chosen",
            }
            assert chosen["stored_config"]["exclude_scope"] == "visited"
            other = walk(client, movie_graph, "fake")  # a backend without training settings: the default
            assert other["bundle"]["walk_rule"] == {
                "exclude_visited": True,
                "exclude_scope": "visited",
                "source": "default",
            }
            assert other["stored_config"]["exclude_scope"] == "visited"
            plain = walk(client, movie_graph, "fake", preset=None)  # a backend without a search preference
            assert plain["bundle"]["search"] == {"strategy": "greedy", "width": 1, "source": "default"}
    finally:
        app.stop()


def test_the_service_reads_a_graph_for_its_model_while_it_warms(
    neo4j_settings: Settings, movie_graph: str, tmp_path: Path
) -> None:
    """Warming a graph loaded without types whose walks take a learned model it was not trained on infers the
    graph's types then (stored in its :GwRoleTypes node), so the first walk does not."""
    art = tmp_path / "art"
    tiny_artifact(art)
    asyncio.run(warms_the_graphs_types(service_settings(neo4j_settings, movie_graph, model=f"learned:{art}")))


async def warms_the_graphs_types(settings: Settings) -> None:
    graph = str(settings.service_graphs)
    ctx = ServiceContext(settings)
    await ctx.start()
    try:
        stored = await ctx.store.query(
            "MATCH (t:GwRoleTypes {graph: $graph}) RETURN t.entities AS entities, t.relationships AS relationships",
            {"graph": graph},
            read=True,
        )
        assert stored == [{"entities": 7, "relationships": 6}]
        walked = await ctx.walker(graph).graph_backend(await ctx.walk_backend(graph, None))
        assert isinstance(walked, LearnedDecider)
        assert walked.role_types["directed_by|object"] == "director"
    finally:
        await ctx.close()
