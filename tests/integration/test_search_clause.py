"""The one version gate for vector search, against the real server: Cypher 25's ``SEARCH`` clause where the server has
it (Neo4j 2026.01+), ``db.index.vector.queryNodes`` where it does not; full-text stays on the procedure, which is the
only form that serves the project's eventually consistent name indexes (checked here too). CI runs this file on
5.26 LTS and on 2026.x, so both sides of the gate are exercised."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.errors import QueryError
from graphwalk_neo4j.graph.embeddings import vector_params
from graphwalk_neo4j.graph.search import search_entities, search_queries
from graphwalk_neo4j.schema import EMBEDDING_DIMENSIONS
from graphwalk_neo4j.store.registry import template
from graphwalk_neo4j.store.store import has_search_clause

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore, Query
    from graphwalk_neo4j.store.queries import ScoredSearchRow

NAMES = ["Keanu Reeves", "Keanu Charles", "Carrie-Anne Moss", "Laurence Fishburne", "The Matrix Reloaded"]
EMBEDDER = FakeEmbedder(EMBEDDING_DIMENSIONS)


async def seed(store: GraphStore, graph: str, *, adopted: bool) -> None:
    vectors = await EMBEDDER.embed(NAMES)
    if adopted:
        await store.write("adopt/create_fulltext_index")
        await store.write("adopt/create_vector_index", dimensions=EMBEDDING_DIMENSIONS)
        await store.query(
            "UNWIND $rows AS row CREATE (:GwAdopted {gw_graph: $graph, gw_name: row.name, gw_name_lc: "
            "toLower(row.name), gw_type: 'Person', gw_embedding: row.vector})",
            {"graph": graph, "rows": [{"name": n, "vector": v.tolist()} for n, v in zip(NAMES, vectors, strict=True)]},
        )
    else:
        rows = [
            {"uid": f"{graph}:e{i}", "id": f"e{i}", "name": n, "name_lc": n.lower(), "type": None}
            for i, n in enumerate(NAMES)
        ]
        await store.write("graph/merge_entities", rows=rows, graph=graph, doc="d", now="t", run="r")
        await store.write(
            "graph/set_embeddings",
            **vector_params([str(r["uid"]) for r in rows], vectors, ["h"] * len(rows)),
        )
    await store.write("schema/await_indexes", seconds=120)
    await store.write("schema/await_fulltext_refresh")


async def drop_adopted(store: GraphStore, graph: str) -> None:
    await store.query("MATCH (n:GwAdopted {gw_graph: $graph}) DETACH DELETE n", {"graph": graph})


def ranked(rows: list[ScoredSearchRow]) -> list[tuple[str, float]]:
    """Candidates in score order, ties by id (two forms may order equal Lucene scores differently)."""
    return sorted(((r["id"], round(r["score"], 6)) for r in rows), key=lambda p: (-p[1], p[0]))


def test_the_gate_opens_at_2026_01() -> None:
    assert [has_search_clause(v) for v in ("5.26.5", "5.26.19", "2025.10.1", "2025.12.1")] == [False] * 4
    assert [has_search_clause(v) for v in ("2026.01.4", "2026.09.0", "2027.01.0")] == [True] * 3
    assert has_search_clause("not a version") is False


@pytest.mark.parametrize("adopted", [False, True], ids=["ingested", "adopted"])
async def test_vector_search_uses_the_form_the_server_has_and_both_give_the_same_candidates(
    store: GraphStore, graph_name: str, adopted: bool
) -> None:
    assert store.info is not None
    assert store.search_clause is (int(store.info.version.split(".")[0]) >= 2026)
    await seed(store, graph_name, adopted=adopted)
    try:
        _, fulltext, procedure = search_queries(adopted=adopted, search_clause=False)
        _, fulltext_too, clause = search_queries(adopted=adopted, search_clause=True)
        assert fulltext == fulltext_too  # full-text has one form
        chosen, other = (clause, procedure) if store.search_clause else (procedure, clause)
        if not adopted:  # (an adopted graph's walk needs its stored profile; the templates are compared below)
            before = dict(store.metrics.by_template)
            hits = await search_entities(store, graph_name, "Keanu Reeves", k=3, embedder=EMBEDDER)
            assert hits[0].name == "Keanu Reeves"
            assert hits[0].reasons[0] == "exact name"
            assert any(r.startswith("vector ") for r in hits[0].reasons)
            used = {n for n, c in store.metrics.by_template.items() if c > before.get(n, 0)}
            assert {chosen.name, fulltext.name} <= used
            assert other.name not in used

        vector = (await EMBEDDER.embed(["Keanu Reeves"]))[0].tolist()
        params = {"graph": graph_name, "vector": vector, "k": 100, "limit": 5}
        if not store.search_clause:
            # a 5.x server has no SEARCH clause at all: the gate is what keeps this form away from it
            with pytest.raises(QueryError):
                await store.read(clause, **params)
            return
        by_procedure, by_clause = await store.read(procedure, **params), await store.read(clause, **params)
        assert ranked(by_clause) == ranked(by_procedure)
        # the k nearest are taken over the whole database, then filtered to this graph: how many of them are this
        # graph's depends on the other graphs there, but the exact vector of "Keanu Reeves" always comes first
        assert by_clause
        assert (by_clause[0]["name"], round(by_clause[0]["score"], 4)) == ("Keanu Reeves", 1.0)
        # the server plans the clause as an index search, where the procedure form is a procedure call
        assert "NodeVectorIndexSearch" in await plan_operators(store, clause, params)
        assert "ProcedureCall" in await plan_operators(store, procedure, params)
    finally:
        if adopted:
            await drop_adopted(store, graph_name)


async def test_the_search_clause_does_not_serve_the_eventually_consistent_name_index(store: GraphStore) -> None:
    """Why full-text stays on db.index.fulltext.queryNodes on every release (see store.SEARCH_CLAUSE_SINCE)."""
    if not store.search_clause:
        pytest.skip("the server has no SEARCH clause (Neo4j before 2026.01); nothing to check")
    with pytest.raises(QueryError, match="22N69"):
        await store.query(
            "CYPHER 25 MATCH (node:Entity) SEARCH node IN (FULLTEXT INDEX entity_names FOR 'keanu' LIMIT 5) "
            "SCORE AS score RETURN node.id AS id",
            {},
        )


async def plan_operators(store: GraphStore, query: Query[Any], params: dict[str, Any]) -> set[str]:
    """The operators of the server's plan for a template (EXPLAIN: planned, not run), without the ``@db`` suffix."""
    _, summary, _ = await store.driver.execute_query(
        "EXPLAIN " + template(query.name).body, params, database_=store.database
    )
    found: set[str] = set()
    pending = [summary.plan or {}]
    while pending:
        step = pending.pop()
        found.add(str(step.get("operatorType", "")).split("@")[0])
        pending.extend(step.get("children", []))
    return found
