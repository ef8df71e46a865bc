"""The MetaQA KB in a user's own schema, then ``adopt`` + ``embed`` timed (docs/benchmarks.md), and the graph the
adopted-vs-ingested quality comparison walks (docs/eval.md).

``python -m bench.adopt_metaqa --kb ../shared/datasets/metaqa/kb.txt [--graph adopt_metaqa] [--schema by-name]
[--prefix P] [--keep] [--no-embed]``

The load is plain Cypher, as a user would write it, never our ingest, in one of three schemas (``--schema``):

* ``by-name``: one node per distinct name with the labels MetaQA's relations imply (``:Movie {title}``,
  ``:Person {name}``, ``:Year {name}``, ``:Genre``, ``:Language``, ``:Tag``, ``:Rating``, ``:Votes``; a name that
  is both a movie and a person carries both labels and both properties), one typed relationship per triple from
  the movie (``DIRECTED_BY``, ``STARRED_ACTORS``, ...);
* ``user``: one node per kind and name (as ``MERGE (p:Person {name})`` makes them), people point at movies
  (``DIRECTOR_OF``, ``WRITER_OF``, ``STARRED_IN``), years are integer-valued nodes ``:Year {value: 1999}``, and
  every node carries a provenance tag ``dataset = 'metaqa-user'``;
* ``props``: as ``user`` without the tag, and the movie's years, ratings and votes are its properties
  (``released``, a list when MetaQA gives several; ``imdb_rating``, ``imdb_votes``) instead of nodes.

``--prefix`` puts a prefix on every label (``UMovie``) so copies can sit side by side; the decider still sees
the kinds (``Movie``). Then ``adopt_graph`` (introspection included) and ``embed_graph`` are timed with the peak
RSS of this process and of the Neo4j JVM. Without ``--keep`` the user graph is removed at the end (undo first,
then the nodes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.run import jvm_peak_rss_mb, machine, self_peak_rss_mb
from graphwalk_neo4j.adopt.apply import adopt_graph, undo_graph
from graphwalk_neo4j.adopt.introspect import introspect
from graphwalk_neo4j.adopt.propose import propose
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.resources import metaqa_type_map
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore

BATCH = 5000
KINDS = ("Movie", "Person", "Year", "Language", "Tag", "Genre", "Rating", "Votes")
SCHEMAS = ("by-name", "user", "props")
PROVENANCE = "metaqa-user"
# user / props: (type, people first?) per MetaQA relation: a Neo4j user points people at the films they made.
# (Not the Movies example's ACTED_IN / DIRECTED / WROTE, nor a test's RELEASED_IN: adopt introspects the whole
# database, so a copy left in place must not change what the tests' own small graphs look like.)
USER_RELATIONS = {
    "directed_by": ("DIRECTOR_OF", True),
    "written_by": ("WRITER_OF", True),
    "starred_actors": ("STARRED_IN", True),
    "release_year": ("RELEASED", False),
    "in_language": ("IN_LANGUAGE", False),
    "has_tags": ("TAGGED", False),
    "has_genre": ("IN_GENRE", False),
    "has_imdb_rating": ("RATED", False),
    "has_imdb_votes": ("VOTED", False),
}
# props: these relations become properties of the movie (a list where a movie has several values).
PROPERTY_RELATIONS = {"release_year": "released", "has_imdb_rating": "imdb_rating", "has_imdb_votes": "imdb_votes"}


def labels_of(prefix: str) -> dict[str, str]:
    """The user's label of each MetaQA kind (``prefix`` keeps copies apart in one database)."""
    return {kind: f"{prefix}{kind}" for kind in KINDS}


def read_kb(path: Path) -> list[tuple[str, str, str]]:
    triples = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and all(parts):
            triples.append((parts[0], parts[1], parts[2]))
    return triples


def plan_by_name(
    triples: list[tuple[str, str, str]], labels: dict[str, str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One node per distinct name with every label MetaQA's relations imply (``:Movie:Year`` for "2012"), movie
    first relationships typed as the relation in upper case."""
    types = metaqa_type_map()
    kinds: dict[str, set[str]] = defaultdict(set)
    for s, rel, o in triples:
        s_kind, o_kind = types[rel]
        assert s_kind is not None
        assert o_kind is not None
        kinds[s].add(s_kind)
        kinds[o].add(o_kind)
    nodes = [
        {"key": name, "labels": sorted(labels[k] for k in ks), "props": {"title" if "Movie" in ks else "name": name}}
        | ({"props": {"title": name, "name": name}} if "Movie" in ks and len(ks) > 1 else {})
        for name, ks in kinds.items()
    ]
    rels = [{"from": s, "to": o, "type": rel.upper()} for s, rel, o in triples]
    return nodes, rels


def plan_user(
    triples: list[tuple[str, str, str]], labels: dict[str, str], *, properties: bool
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One node per (kind, name) as ``MERGE (p:Person {name})`` makes them; people point at movies; years are
    integer-valued nodes ``:Year {value}``; every node carries the provenance tag ``dataset``. With
    ``properties``, years, ratings and votes are properties of the movie instead (a list when several)."""
    types = metaqa_type_map()
    nodes: dict[tuple[str, str], dict[str, Any]] = {}

    def node(kind: str, name: str) -> str:
        key = f"{kind}|{name}"
        if (kind, name) not in nodes:
            if kind == "Movie":
                props: dict[str, Any] = {"title": name}
            elif kind == "Year" and name.isdigit():
                props = {"value": int(name)}
            else:
                props = {"name": name}
            if not properties:
                props["dataset"] = PROVENANCE
            nodes[(kind, name)] = {"key": key, "labels": [labels[kind]], "props": props}
        return key

    rels = []
    for s, rel, o in triples:
        s_kind, o_kind = types[rel]
        assert s_kind is not None
        assert o_kind is not None
        movie = node(s_kind, s)
        if properties and rel in PROPERTY_RELATIONS:
            key = PROPERTY_RELATIONS[rel]
            value: Any = int(o) if rel == "release_year" and o.isdigit() else o
            props = nodes[(s_kind, s)]["props"]
            props[key] = (
                sorted({*(props[key] if isinstance(props.get(key), list) else [props[key]]), value}, key=str)
                if key in props
                else value
            )
            continue
        other = node(o_kind, o)
        rel_type, people_first = USER_RELATIONS[rel]
        rels.append(
            {"from": other, "to": movie, "type": rel_type}
            if people_first
            else {"from": movie, "to": other, "type": rel_type}
        )
    return list(nodes.values()), rels


async def load_user_graph(store: GraphStore, kb: Path, schema: str, prefix: str) -> dict[str, Any]:
    """Write the KB in a user's schema with plain Cypher (``CREATE`` by batches, a user index per label)."""
    started = time.perf_counter()
    labels = labels_of(prefix)
    triples = read_kb(kb)
    if schema == "by-name":
        nodes, rels = plan_by_name(triples, labels)
    else:
        nodes, rels = plan_user(triples, labels, properties=schema == "props")
    key = f"{prefix}_load_key"  # the loader's own handle on its nodes, removed after the load
    for label in labels.values():
        # The user's own indexes (a user who loads by key has them); names are this script's constants.
        await store.query(f"CREATE INDEX {label.lower()}_load IF NOT EXISTS FOR (n:{label}) ON (n.{key})", {})
    await store.query("CALL db.awaitIndexes(300)", {})
    for i in range(0, len(nodes), BATCH):
        await store.query(
            "UNWIND $rows AS r CREATE (n:$(r.labels)) SET n = r.props, n[$key] = r.key",
            {"rows": nodes[i : i + BATCH], "key": key},
        )
    label_of = {n["key"]: n["labels"][0] for n in nodes}
    by_shape: dict[tuple[str, str, str], list[list[str]]] = defaultdict(list)
    for r in rels:
        by_shape[(label_of[r["from"]], r["type"], label_of[r["to"]])].append([r["from"], r["to"]])
    for (a_label, rel, b_label), pairs in by_shape.items():
        for i in range(0, len(pairs), BATCH):
            # static labels (this script's), so the lookups use the index; the type is a parameter
            await store.query(
                f"UNWIND $rows AS r MATCH (a:{a_label} {{{key}: r[0]}}) MATCH (b:{b_label} {{{key}: r[1]}}) "
                "CREATE (a)-[:$($rel)]->(b)",
                {"rows": pairs[i : i + BATCH], "rel": rel},
            )
    for label in labels.values():
        await store.query(f"DROP INDEX {label.lower()}_load IF EXISTS", {})
        while (
            await store.query(
                f"MATCH (n:{label}) WHERE n.{key} IS NOT NULL WITH n LIMIT {BATCH} REMOVE n.{key} RETURN count(*) AS n",
                {},
            )
        )[0]["n"]:
            pass
    return {
        "schema": schema,
        "nodes": len(nodes),
        "relationships": len(rels),
        "seconds": round(time.perf_counter() - started, 1),
    }


async def remove_user_graph(store: GraphStore, prefix: str) -> None:
    for label in labels_of(prefix).values():
        while (
            await store.query(
                f"MATCH (n:{label}) WHERE NOT n:Entity WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n", {}
            )
        )[0]["n"]:
            pass


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kb", default="../shared/datasets/metaqa/kb.txt")
    parser.add_argument("--graph", default="adopt_metaqa")
    parser.add_argument("--schema", choices=SCHEMAS, default="by-name", help="How the user modelled the KB.")
    parser.add_argument("--prefix", default="", help="Label prefix, to keep several copies in one database.")
    parser.add_argument("--keep", action="store_true", help="Leave the adopted user graph in place (for eval).")
    parser.add_argument("--no-embed", action="store_true")
    args = parser.parse_args()
    settings = Settings()
    labels = labels_of(args.prefix)
    async with GraphStore(settings) as store:
        out: dict[str, Any] = {"machine": machine()}
        movie = labels["Movie"]
        exists = await store.query(f"MATCH (n:{movie}) WHERE NOT n:Entity RETURN count(n) AS n", {}, read=True)
        if exists[0]["n"]:
            out["load"] = {"skipped": f"{exists[0]['n']} user :{movie} nodes already there"}
        else:
            out["load"] = await load_user_graph(store, Path(args.kb), args.schema, args.prefix)
        started = time.perf_counter()
        intro = await introspect(store, labels=list(labels.values()))
        kinds = {label: kind for kind, label in labels.items()} if args.prefix else None
        profile = propose(intro, args.graph, labels=list(labels.values()), types=kinds)
        out["introspect_s"] = round(time.perf_counter() - started, 2)
        out["left_out"] = [s.model_dump() for s in profile.skipped]
        report = await adopt_graph(store, profile, batch_size=5000)
        out["adopt"] = report.as_dict()
        out["adopt_total_s"] = round(time.perf_counter() - started, 2)
        again = await adopt_graph(store, profile, batch_size=5000)
        out["adopt_again"] = {"marked": again.marked, "unchanged": again.unchanged, "seconds": round(again.seconds, 2)}
        if not args.no_embed:
            embedder = make_embedder(settings)
            out["embed"] = (await embed_graph(store, embedder, args.graph)).as_dict()
        out["peak_rss_mb"] = {"python": round(self_peak_rss_mb()), "neo4j_jvm": jvm_peak_rss_mb()}
        if not args.keep:
            await undo_graph(store, args.graph)
            await remove_user_graph(store, args.prefix)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
