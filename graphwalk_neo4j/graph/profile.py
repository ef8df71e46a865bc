"""Graph profiles: one description of what a walk may treat as an entity, a name, a description, a move and an
answer in one graph.

A graph our own ingest wrote has the built-in *ingested* profile (``:Entity {graph}`` nodes, ``name``, every
relationship between entities of the graph, attributes as answers). A user's own graph gets an *adopted* profile,
proposed by :mod:`graphwalk_neo4j.adopt` and stored as one ``:GwGraphProfile {graph}`` node. Expansion, linking,
search, embeddings and answer types read the profile, so both kinds of graph go through the same code; the
profile's :meth:`GraphProfile.cypher` map is what the Cypher templates receive as ``$profile``.

Adopted nodes are identified by their ``elementId`` and everything graphwalk adds to them lives in one namespace:
the label :data:`NS_LABEL` and the properties in :data:`NS_PROPERTIES` (all ``gw_``-prefixed), behind indexes
named ``gw_adopt_*``. User labels, relationship types and property keys only ever travel as ``$parameters``
(list membership and dynamic labels), never spliced into a statement; they are still checked by
:func:`graphwalk_neo4j.identifiers.data_name` when a profile is built or loaded.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.graph.writes import RESERVED_KEYS
from graphwalk_neo4j.identifiers import ADOPTED_LABEL, RESERVED_LABELS, data_name
from graphwalk_neo4j.identifiers import relation_words as relation_words

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.store import GraphStore

NS_LABEL = ADOPTED_LABEL
PROFILE_LABEL = "GwGraphProfile"
NS_PREFIX = "gw_"
INDEX_PREFIX = "gw_adopt_"
NS_PROPERTIES = ("gw_graph", "gw_name", "gw_name_lc", "gw_type", "gw_text", "gw_hash", "gw_embedding", "gw_embed_hash")
# Nodes carrying any of these labels are graphwalk's own (ingested entities, ledger, traces, profiles, doctor's
# scratch nodes): adopt never takes them in, whatever other labels they carry.
MODEL_LABEL = "GwGraphModel"  # a graph's default learned decider (graph/put_graph_model)
ROLE_TYPES_LABEL = "GwRoleTypes"  # the node types inferred for a graph loaded without them (graph/put_role_types)
MANAGED_LABELS = tuple(sorted(RESERVED_LABELS | {PROFILE_LABEL, MODEL_LABEL, ROLE_TYPES_LABEL}))
# Properties of our own ingested entities that are bookkeeping, not answers (the rest are attributes).
INGESTED_BOOKKEEPING = tuple(sorted(RESERVED_KEYS))
VALUE_PREFIX = "val:"

Kind = Literal["ingested", "adopted"]


class LabelProfile(BaseModel):
    """One walkable label: how its nodes are named, described and what of theirs can be an answer."""

    label: str
    type: str  # the kind shown to the decider (the label unless overridden)
    count: int = 0
    name_props: list[str] = Field(default_factory=list)  # first present one names the node
    text_props: list[str] = Field(default_factory=list)  # describe the node (embedding text)
    answer_props: list[str] = Field(default_factory=list)  # literal properties offered as answers


class MoveProfile(BaseModel):
    """One relationship type the walk may follow, how it reads, and which of its properties are shown."""

    type: str
    words: str
    props: list[str] = Field(default_factory=list)
    count: int = 0
    from_labels: list[str] = Field(default_factory=list)
    to_labels: list[str] = Field(default_factory=list)


class Skipped(BaseModel):
    """Something introspection found and the profile leaves out, with the reason (shown in the table)."""

    kind: Literal["label", "relationship", "property"]
    name: str
    reason: str


class GraphProfile(BaseModel):
    graph: str
    kind: Kind
    labels: list[LabelProfile] = Field(default_factory=list)
    moves: list[MoveProfile] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)
    created_at: str | None = None
    version: int = 1

    @property
    def adopted(self) -> bool:
        return self.kind == "adopted"

    def label(self, name: str) -> LabelProfile | None:
        return next((lp for lp in self.labels if lp.label == name), None)

    def move(self, type_: str) -> MoveProfile | None:
        return next((m for m in self.moves if m.type == type_), None)

    def answer_types(self) -> list[str]:
        """The node kinds of an adopted graph, most numerous first (the answer-type hint)."""
        return [lp.type for lp in sorted(self.labels, key=lambda lp: (-lp.count, lp.label))]

    def cypher(self) -> dict[str, Any]:
        """The ``$profile`` map every profile-aware template receives."""
        return {
            "native": not self.adopted,
            "labels": [lp.label for lp in self.labels],
            "types": {lp.label: lp.type for lp in self.labels},
            "names": {lp.label: lp.name_props for lp in self.labels},
            "texts": {lp.label: lp.text_props for lp in self.labels},
            "answers": {lp.label: lp.answer_props for lp in self.labels},
            "moves": [m.type for m in self.moves],
            "rel_props": {m.type: m.props for m in self.moves},
            # the labels a move reaches, most frequent first: a multi-label target is of the kind its move reaches
            "ends": {m.type: {"out": m.to_labels, "in": m.from_labels} for m in self.moves},
            "managed": list(MANAGED_LABELS),
            "skip_props": list(INGESTED_BOOKKEEPING),
        }

    def validate_names(self) -> GraphProfile:
        """Every label, type and property key passes :func:`data_name`; raises ``InvalidIdentifierError``."""
        for lp in self.labels:
            data_name(lp.label, "label")
            for key in (*lp.name_props, *lp.text_props, *lp.answer_props):
                data_name(key, "property key")
        for m in self.moves:
            data_name(m.type, "relationship type")
            for key in m.props:
                data_name(key, "property key")
        return self

    def to_json(self) -> str:
        return self.model_dump_json()


def ingested_profile(graph: str) -> GraphProfile:
    """The built-in profile of a graph our ingest wrote: ``:Entity {graph}`` nodes named by ``name``, every
    relationship between them a move, attributes (non-bookkeeping properties) as answers."""
    return GraphProfile(
        graph=graph,
        kind="ingested",
        labels=[LabelProfile(label="Entity", type="Entity", name_props=["name"], text_props=["summary"])],
    )


def node_name(name: Any, type_: str | None, node_id: str) -> str:
    """The name shown for a node: its name property, else ``<Type without name #tail>`` (a node missing the
    name property is still walkable, and stays distinguishable from its siblings)."""
    if name is not None and str(name).strip():
        return str(name)
    tail = node_id.rsplit(":", 1)[-1]
    return f"<{type_ or 'node'} without name #{tail}>"


def plain_value(value: Any) -> Any:
    """A property value as JSON-friendly data: temporal and spatial values become their ISO / WKT strings."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain_value(v) for v in value]
    return str(value)


def value_text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def value_id(key: str, value: Any) -> str:
    """The walk's id of a literal answer: the same (property, value) is one node for the walk wherever it was
    read, so a relation hop over a frontier collects distinct values."""
    return f"{VALUE_PREFIX}{key}:{json.dumps(plain_value(value), ensure_ascii=False, sort_keys=True)}"


def is_value_id(node_id: str) -> bool:
    return node_id.startswith(VALUE_PREFIX)


def parse_name_overrides(items: Sequence[str]) -> dict[str, list[str]]:
    """``["Person=name,fullName", "Movie=title"]`` -> ``{"Person": ["name", "fullName"], "Movie": ["title"]}``."""
    out: dict[str, list[str]] = {}
    for item in items:
        label, sep, props = item.partition("=")
        keys = [p.strip() for p in props.split(",") if p.strip()]
        if not sep or not label.strip() or not keys:
            raise ConfigError(f"--name {item!r} is not LABEL=prop[,prop...]; e.g. --name Movie=title")
        out[data_name(label.strip(), "label")] = [data_name(k, "property key") for k in keys]
    return out


async def load_profile(store: GraphStore, graph: str) -> GraphProfile:
    """The stored profile of an adopted graph, else the built-in ingested profile."""
    rows = await store.read("adopt/get_profile", graph=graph)
    if not rows:
        return ingested_profile(graph)
    return GraphProfile.model_validate_json(rows[0]["profile"]).validate_names()


async def stored_profile(store: GraphStore, graph: str) -> GraphProfile | None:
    rows = await store.read("adopt/get_profile", graph=graph)
    return GraphProfile.model_validate_json(rows[0]["profile"]) if rows else None


async def save_profile(store: GraphStore, profile: GraphProfile) -> None:
    await store.write(
        "adopt/put_profile",
        graph=profile.graph,
        profile=profile.to_json(),
        labels=[lp.label for lp in profile.labels],
        moves=[m.type for m in profile.moves],
        created_at=profile.created_at,
    )


async def graph_schema(store: GraphStore, graph: str, profile: GraphProfile | None = None) -> dict[str, Any]:
    """``{"entity_types": [{type, count}], "relation_types": [{relation, count}]}`` of a graph as walks see it,
    most frequent first: an ingested graph's entity types and the relationships between its entities, or an
    adopted graph's profile kinds and moves counted over the user's data (live, not only the nodes adopt
    marked)."""
    profile = profile or await load_profile(store, graph)
    if profile.adopted:
        [row] = await store.read("graph/adopted_schema", graph=graph, profile=profile.cypher())
        kinds: dict[str, int] = {}
        for type_, n in row["types"]:  # two labels may share a kind (--type)
            kinds[type_] = kinds.get(type_, 0) + int(n)
        types = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
        relations = [(str(r), int(n)) for r, n in row["relations"]]
    else:
        types = [(t["type"], int(t["n"])) for t in await store.read("graph/entity_types", graph=graph)]
        relations = [(r["relation"], int(r["n"])) for r in await store.read("graph/relation_types", graph=graph)]
    return {
        "entity_types": [{"type": t, "count": n} for t, n in types if n],
        "relation_types": [{"relation": r, "count": n} for r, n in relations if n],
    }


async def graph_counts(store: GraphStore, graph: str, profile: GraphProfile | None = None) -> dict[str, int]:
    """``{"entities", "relationships"}`` of a graph as walks see it: an ingested graph's ``:Entity`` nodes and the
    relationships between them, or an adopted graph's walkable user nodes and profile moves (see
    :func:`graph_schema`)."""
    profile = profile or await load_profile(store, graph)
    if profile.adopted:
        schema = await graph_schema(store, graph, profile)
        return {
            "entities": sum(t["count"] for t in schema["entity_types"]),
            "relationships": sum(r["count"] for r in schema["relation_types"]),
        }
    rows = await store.read("graph/counts", graph=graph)
    return {"entities": int(rows[0]["entities"]), "relationships": int(rows[0]["relationships"])}


async def list_graphs(store: GraphStore) -> list[dict[str, Any]]:
    """Every graph in the database with its counts as walks see them (:func:`graph_counts`):
    ``[{graph, entities, relationships}]``, the same for ``gw-neo4j graphs``, ``GET /v1/graphs`` and MCP."""
    out = []
    for row in await store.read("graph/list_graphs"):
        out.append({"graph": row["graph"], **await graph_counts(store, row["graph"])})
    return out


async def delete_profile(store: GraphStore, graph: str) -> int:
    rows = await store.write("adopt/delete_profile", graph=graph)
    return int(rows[0]["deleted"]) if rows else 0
