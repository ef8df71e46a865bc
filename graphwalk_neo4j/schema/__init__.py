"""Schema: constraints, indexes, the fulltext index and the vector index, from ``cypher/schema/``.

Every statement is ``IF NOT EXISTS``, so :func:`apply_schema` is idempotent; it waits for the indexes to come
online so the first query after ``init`` can use them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from graphwalk_neo4j.embed.minilm import MINILM_DIMENSIONS
from graphwalk_neo4j.store import GraphStore, QueryName, names, template

# Of the vector indexes (cypher/schema/05_entity_vector, cypher/adopt/create_vector_index): the packaged model's.
EMBEDDING_DIMENSIONS = MINILM_DIMENSIONS


@dataclass
class SchemaReport:
    applied: list[QueryName]
    created: int  # constraints + indexes that did not exist before
    total: int


def ddl_templates() -> list[QueryName]:
    """The numbered DDL files, in order (``schema/01_...`` ...)."""
    return [cast("QueryName", n) for n in names("schema/") if n.split("/", 1)[1][:2].isdigit()]


async def _schema_objects(store: GraphStore) -> set[str]:
    rows = await store.read("schema/list_objects")
    return {r["name"] for r in rows}


async def apply_schema(store: GraphStore) -> SchemaReport:
    before = await _schema_objects(store)
    applied = []
    for name in ddl_templates():
        fixed = {"dimensions": EMBEDDING_DIMENSIONS} if "dimensions" in template(name).params else {}
        await store.write(name, **fixed)
        applied.append(name)
    await store.write("schema/await_indexes", seconds=300)
    after = await _schema_objects(store)
    return SchemaReport(applied=applied, created=len(after - before), total=len(after))
