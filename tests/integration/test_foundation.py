"""The ground floor against the real Neo4j: server, APOC, schema, vector index."""

from __future__ import annotations

import numpy as np

from graphwalk_neo4j.graph.embeddings import vector_params
from graphwalk_neo4j.schema import EMBEDDING_DIMENSIONS, apply_schema
from graphwalk_neo4j.store import GraphStore, run_template


async def test_server_is_526_or_2026_with_apoc(store: GraphStore) -> None:
    assert store.info is not None
    assert store.info.version.startswith(("5.26.", "2026."))  # the LTS and the current line, both run in CI
    assert store.info.apoc_version is not None
    assert store.info.apoc_version.startswith("5.26")  # also on 2026.x (docs/neo4j.md, APOC)


async def test_apoc_procedures_really_run(store: GraphStore) -> None:
    rows = await store.query("RETURN apoc.coll.toSet([3, 1, 3, 2]) AS s, apoc.text.join(['a', 'b'], '-') AS j", {})
    assert sorted(rows[0]["s"]) == [1, 2, 3]
    assert rows[0]["j"] == "a-b"
    rows = await store.query("CALL apoc.help('apoc.coll.toSet') YIELD name, type RETURN name, type", {})
    assert rows == [{"name": "apoc.coll.toSet", "type": "function"}]


async def test_every_kind_of_call_is_measured(store: GraphStore) -> None:
    before_trips, before_time = store.metrics.round_trips, store.metrics.db_time_s
    before_counts = dict(store.metrics.by_template)
    await store.read("server/components")
    await store.autocommit("server/components")

    async def work(tx: object) -> int:
        rows, _ = await run_template(tx, "server/components")  # type: ignore[arg-type]
        return len(rows)

    assert await store.in_write_tx(work) == 1
    assert store.metrics.round_trips == before_trips + 3
    assert store.metrics.db_time_s > before_time
    assert store.metrics.by_template["server/components"] == before_counts.get("server/components", 0) + 2


async def test_schema_is_idempotent(store: GraphStore) -> None:
    first = await apply_schema(store)  # the fixture applied it once already
    again = await apply_schema(store)
    assert first.created == 0
    assert again.created == 0
    assert again.total == first.total >= 12
    states = {r["name"]: r["state"] for r in await store.read("schema/list_objects")}
    for name in ("entity_uid", "entity_names", "entity_embedding", "walk_id", "document_key"):
        assert states[name] == "ONLINE"


async def test_vector_index_is_created_and_queried(store: GraphStore, graph_name: str) -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(3, EMBEDDING_DIMENSIONS)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    entities = [
        {"uid": f"{graph_name}:e{i}", "id": f"e{i}", "name": f"n{i}", "name_lc": f"n{i}", "type": None}
        for i in range(3)
    ]
    await store.write("graph/merge_entities", rows=entities, graph=graph_name, doc="d", now="t", run="r")
    await store.write(
        "graph/set_embeddings",
        **vector_params([str(e["uid"]) for e in entities], vectors, ["h"] * len(entities)),
    )
    await store.write("schema/await_indexes", seconds=60)
    query = (vectors[1] + 0.05 * vectors[0]).tolist()
    # The index is shared by every graph in the database; the template filters to this test's graph.
    rows = await store.read("search/vector", graph=graph_name, vector=query, k=50, limit=3)
    assert rows[0]["id"] == "e1"
    assert rows[0]["score"] > 0.99
    # Neo4j reports cosine as (1 + cos) / 2: unrelated random vectors score near 0.5, well under e1's.
    assert all(0.3 < r["score"] < 0.65 for r in rows[1:])
