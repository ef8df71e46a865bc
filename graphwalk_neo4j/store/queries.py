"""The typed face of the Cypher templates: query names a type checker sees, and the shape of the rows code reads.

* :data:`QueryName` is every template under ``cypher/`` as a ``Literal``: :meth:`GraphStore.read` and its siblings
  take it, so a misspelt name is a type error, not a failure at run time. ``tests/unit/test_queries.py`` checks it
  against the files on disk (and prints the up-to-date list when a file is added or removed).
* A :class:`Query` pairs a name with a ``TypedDict`` of its row: ``await store.read(ENTITIES_BY_ID, ...)`` is a
  ``list[DegreeRow]``. The same test checks that every row type's keys are exactly the template's ``returns:``
  header. Rows stay the plain dicts the driver gives; the types cost nothing at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Literal, TypedDict, TypeVar

R = TypeVar("R")

QueryName = Literal[
    "adopt/count_adopted",
    "adopt/create_fulltext_index",
    "adopt/create_name_index",
    "adopt/create_vector_index",
    "adopt/delete_profile",
    "adopt/delete_traces",
    "adopt/drop_index_embedding",
    "adopt/drop_index_name",
    "adopt/drop_index_names",
    "adopt/get_profile",
    "adopt/ingested_graph_exists",
    "adopt/introspect_labels",
    "adopt/introspect_properties",
    "adopt/introspect_rel_properties",
    "adopt/introspect_relationships",
    "adopt/introspect_unique",
    "adopt/mark_nodes",
    "adopt/node_rows",
    "adopt/put_profile",
    "adopt/release_nodes",
    "adopt/strip_orphans",
    "doctor/scratch_vector_create",
    "doctor/scratch_vector_drop",
    "doctor/scratch_vector_fill",
    "doctor/scratch_vector_query",
    "eval/entity_documents",
    "eval/follow_relation",
    "graph/adopted_embedding_candidates",
    "graph/adopted_relations",
    "graph/adopted_schema",
    "graph/claims_of_document",
    "graph/counts",
    "graph/drop_graph",
    "graph/embedding_candidates",
    "graph/entities_by_id",
    "graph/entities_by_uid",
    "graph/entity_types",
    "graph/entity_uids_of_document",
    "graph/get_graph_model",
    "graph/get_role_types",
    "graph/graph_exists",
    "graph/list_graphs",
    "graph/merge_entities",
    "graph/merge_entity_pair",
    "graph/merge_relations",
    "graph/put_graph_model",
    "graph/put_role_types",
    "graph/relation_types",
    "graph/relations_page",
    "graph/reset_attributes",
    "graph/retract_relations",
    "graph/set_adopted_embeddings",
    "graph/set_claims",
    "graph/set_embeddings",
    "graph/unassert_entities",
    "graph/unassert_relations",
    "ingest/candidate_cards",
    "ingest/delete_chunks",
    "ingest/document_chunks",
    "ingest/finish_document",
    "ingest/link_from_chunk",
    "ingest/link_next_chunks",
    "ingest/merge_mentions",
    "ingest/merge_relations",
    "ingest/orphan_chunk_documents",
    "ingest/set_chunk_status",
    "ingest/write_chunks",
    "ledger/begin_document",
    "ledger/complete_document",
    "ledger/delete_document",
    "ledger/delete_segments",
    "ledger/get_document",
    "ledger/list_documents",
    "ledger/lock_document",
    "ledger/mark_batch",
    "ledger/mark_retracting",
    "ledger/rekey_document",
    "ledger/rekey_entities",
    "ledger/rekey_relations",
    "ledger/segments_by_hash",
    "ledger/set_manifest",
    "ledger/write_segments",
    "recipes/confidence_per_relation",
    "recipes/costliest_walks",
    "recipes/dead_end_walks",
    "recipes/draw_walk",
    "recipes/pruned_steps",
    "recipes/replay_walk",
    "recipes/run_walk",
    "recipes/unsure_steps",
    "recipes/walk_options",
    "schema/01_entity_uid_unique",
    "schema/02_entity_name_index",
    "schema/03_entity_graph_index",
    "schema/04_entity_fulltext",
    "schema/05_entity_vector",
    "schema/06_source_key_unique",
    "schema/07_document_key_unique",
    "schema/08_chunk_key_unique",
    "schema/09_walk_id_unique",
    "schema/10_step_id_unique",
    "schema/11_call_id_unique",
    "schema/12_walk_started_index",
    "schema/13_step_graph_index",
    "schema/14_docsegment_key_unique",
    "schema/15_docsegment_doc_index",
    "schema/await_fulltext_refresh",
    "schema/await_indexes",
    "schema/list_objects",
    "search/adopted_by_id",
    "search/adopted_exact",
    "search/adopted_exact_names",
    "search/adopted_fulltext",
    "search/adopted_vector",
    "search/adopted_vector_cypher25",
    "search/exact",
    "search/exact_names",
    "search/fulltext",
    "search/vector",
    "search/vector_cypher25",
    "server/apoc_version",
    "server/components",
    "stored_walks/finish_walk",
    "stored_walks/get_walk",
    "stored_walks/list_walks",
    "stored_walks/recent_walks",
    "stored_walks/record_depth",
    "stored_walks/set_captions",
    "stored_walks/start_walk",
    "stored_walks/uncaptioned",
    "walk/adopted_embeddings",
    "walk/embeddings_by_element_id",
    "walk/embeddings_by_id",
    "walk/embeddings_page",
    "walk/expand_entities",
    "walk/relation_moves",
]


@dataclass(frozen=True)
class Query(Generic[R]):
    """A template name with the type of its rows."""

    name: QueryName
    row: type[R]


# ---- rows -------------------------------------------------------------------------------------------------------
class EmbeddingRow(TypedDict):
    id: str
    embedding: list[float]


class EmbeddingPageRow(TypedDict):
    uid: str
    id: str
    embedding: list[float]


class ExpandEntitiesRow(TypedDict):
    beam_key: str
    neighbours: list[list[Any]]  # [relation, direction, id, name, type, degree, rel_props]
    values: list[list[Any]]  # [key, value]


class RelationMovesRow(TypedDict):
    beam_key: str
    moved: list[list[Any]] | None  # [id, name, type]
    total: int
    truncated: bool
    moves: list[list[Any]] | None  # [relation, direction, edges, targets, props]
    values: list[list[Any]] | None  # [key, value]
    frontier_size: int
    counted: int  # the frontier nodes the moves were counted on (all of them, or count_nodes spread over it)


class DegreeRow(TypedDict):
    id: str
    name: str
    type: str | None
    degree: int


class GraphModelRow(TypedDict):
    path: str
    source: str | None
    trained_at: str | None


class GraphModelPathRow(TypedDict):
    path: str


class RoleTypesRow(TypedDict):
    sampled: int
    typed: int
    role_types: str | None
    type_links: str | None
    entities: int | None
    relationships: int | None
    version: int | None


class GraphNameRow(TypedDict):
    graph: str


class RelationsPageRow(TypedDict):
    uid: str
    id: str
    name: str
    type: str | None
    relation: str | None
    target: str | None
    target_name: str | None
    target_type: str | None


class SpanDegreeRow(DegreeRow):
    span: str


class SearchRow(TypedDict):
    uid: str
    id: str
    name: str
    type: str | None
    aliases: list[str] | None


class ScoredSearchRow(SearchRow):
    score: float


class CountsRow(TypedDict):
    entities: int
    relationships: int


class ExistsRow(TypedDict):
    exists: bool


class GraphRow(TypedDict):
    graph: str
    entities: int


class TypeCountRow(TypedDict):
    type: str | None
    n: int


class RelationCountRow(TypedDict):
    relation: str
    n: int


class UidRow(TypedDict):
    uid: str


class ClaimsRow(TypedDict):
    uid: str
    claims: list[str]


class EntityRow(TypedDict):
    uid: str
    id: str
    name: str
    type: str | None
    labels: list[str]
    aliases: list[str] | None
    sources: list[str] | None
    claims: list[str] | None
    conflict_keys: list[str] | None
    summary: str | None


class UnassertRow(TypedDict):
    unasserted: int
    deleted: int
    kept: int


class BatchesDoneRow(TypedDict):
    batches_done: int | None


class WalkRow(TypedDict):
    walk: dict[str, Any]  # the :Walk node's properties


class StoredWalkRow(TypedDict):
    walk: dict[str, Any]
    steps: list[dict[str, Any]]
    calls: list[dict[str, Any]]
    answers: list[dict[str, Any]]


# ---- queries ----------------------------------------------------------------------------------------------------
ADOPTED_EMBEDDINGS = Query("walk/adopted_embeddings", EmbeddingRow)
EMBEDDINGS_BY_ELEMENT_ID = Query("walk/embeddings_by_element_id", EmbeddingRow)
EMBEDDINGS_BY_ID = Query("walk/embeddings_by_id", EmbeddingRow)
EMBEDDINGS_PAGE = Query("walk/embeddings_page", EmbeddingPageRow)
EXPAND_ENTITIES = Query("walk/expand_entities", ExpandEntitiesRow)
RELATION_MOVES = Query("walk/relation_moves", RelationMovesRow)

ENTITIES_BY_ID = Query("graph/entities_by_id", DegreeRow)
ENTITIES_BY_UID = Query("graph/entities_by_uid", EntityRow)
COUNTS = Query("graph/counts", CountsRow)
GRAPH_EXISTS = Query("graph/graph_exists", ExistsRow)
LIST_GRAPHS = Query("graph/list_graphs", GraphRow)
ENTITY_TYPES = Query("graph/entity_types", TypeCountRow)
RELATION_TYPES = Query("graph/relation_types", RelationCountRow)
RELATIONS_PAGE = Query("graph/relations_page", RelationsPageRow)
ADOPTED_RELATIONS = Query("graph/adopted_relations", RelationsPageRow)
GET_GRAPH_MODEL = Query("graph/get_graph_model", GraphModelRow)
PUT_GRAPH_MODEL = Query("graph/put_graph_model", GraphModelPathRow)
GET_ROLE_TYPES = Query("graph/get_role_types", RoleTypesRow)
PUT_ROLE_TYPES = Query("graph/put_role_types", GraphNameRow)
ENTITY_UIDS_OF_DOCUMENT = Query("graph/entity_uids_of_document", UidRow)
CLAIMS_OF_DOCUMENT = Query("graph/claims_of_document", ClaimsRow)
UNASSERT_ENTITIES = Query("graph/unassert_entities", UnassertRow)
BEGIN_DOCUMENT = Query("ledger/begin_document", BatchesDoneRow)
LIST_WALKS = Query("stored_walks/list_walks", WalkRow)
RECENT_WALKS = Query("stored_walks/recent_walks", WalkRow)
GET_WALK = Query("stored_walks/get_walk", StoredWalkRow)
ADOPTED_BY_ID = Query("search/adopted_by_id", DegreeRow)
EXACT_NAMES = Query("search/exact_names", SpanDegreeRow)
ADOPTED_EXACT_NAMES = Query("search/adopted_exact_names", SpanDegreeRow)
EXACT = Query("search/exact", SearchRow)
ADOPTED_EXACT = Query("search/adopted_exact", SearchRow)
FULLTEXT = Query("search/fulltext", ScoredSearchRow)
ADOPTED_FULLTEXT = Query("search/adopted_fulltext", ScoredSearchRow)
VECTOR = Query("search/vector", ScoredSearchRow)
ADOPTED_VECTOR = Query("search/adopted_vector", ScoredSearchRow)
# the vector look-ups through Cypher 25's SEARCH clause, on servers that have it (GraphStore.search_clause)
VECTOR_CYPHER25 = Query("search/vector_cypher25", ScoredSearchRow)
ADOPTED_VECTOR_CYPHER25 = Query("search/adopted_vector_cypher25", ScoredSearchRow)
