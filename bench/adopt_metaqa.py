"""The MetaQA KB in a user's own schema, then ``adopt`` + ``embed`` timed (docs/benchmarks.md), and the graph the
adopted-vs-ingested quality comparison walks (docs/eval.md).

``python -m bench.adopt_metaqa --kb ../shared/datasets/metaqa/kb.txt [--graph adopt_metaqa] [--keep] [--no-embed]``

The load is plain Cypher, as a user would write it, never our ingest: one node per distinct name with the labels
MetaQA's relations imply (``:Movie {title}``, ``:Person {name}``, ``:Year {name}``, ``:Genre``, ``:Language``,
``:Tag``, ``:Rating``, ``:Votes``; a name that is both a movie and a person carries both labels and both
properties), a user index per label, and one typed relationship per triple (``DIRECTED_BY``, ``STARRED_ACTORS``,
...). Then ``adopt_graph`` (introspection included) and ``embed_graph`` are timed with the peak RSS of this process
and of the Neo4j JVM. Without ``--keep`` the user graph is removed at the end (undo first, then the nodes).
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
from graphwalk_neo4j.identifiers import type_label
from graphwalk_neo4j.resources import metaqa_type_map
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore

BATCH = 5000
LABELS = ("Movie", "Person", "Year", "Language", "Tag", "Genre", "Rating", "Votes")


def read_kb(path: Path) -> tuple[dict[str, set[str]], list[tuple[str, str, str, str]]]:
    """name -> labels, and (subject, TYPE, object, object label) per triple."""
    types = metaqa_type_map()
    labels: dict[str, set[str]] = defaultdict(set)
    triples: list[tuple[str, str, str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3 or not all(parts):
            continue
        s, rel, o = parts
        s_label, o_label = types[rel]
        assert s_label is not None
        assert o_label is not None
        labels[s].add(s_label)
        labels[o].add(o_label)
        triples.append((s, rel.upper(), o, o_label))
    return labels, triples


async def load_user_graph(store: GraphStore, kb: Path) -> dict[str, Any]:
    started = time.perf_counter()
    labels, triples = read_kb(kb)
    for label in LABELS:
        key = "title" if label == "Movie" else "name"
        # The user's own indexes (a user who loads by name has them); names are this script's constants.
        await store.query(f"CREATE INDEX user_{label.lower()}_{key} IF NOT EXISTS FOR (n:{label}) ON (n.{key})", {})
    await store.query("CALL db.awaitIndexes(300)", {})
    rows = [{"labels": sorted(ls), "name": name} for name, ls in labels.items()]
    for i in range(0, len(rows), BATCH):
        await store.query(
            "UNWIND $rows AS r CREATE (n:$(r.labels)) "
            "SET n.title = CASE WHEN 'Movie' IN r.labels THEN r.name END, "
            "    n.name = CASE WHEN r.labels <> ['Movie'] THEN r.name END",
            {"rows": rows[i : i + BATCH]},
        )
    by_type: dict[tuple[str, str], list[list[str]]] = defaultdict(list)
    for s, rel, o, o_label in triples:
        by_type[(rel, o_label)].append([s, o])
    for (rel, o_label), pairs in by_type.items():
        for i in range(0, len(pairs), BATCH):
            # a static label (one of LABELS), so the lookup uses the user's index; the type is a parameter
            await store.query(
                f"UNWIND $rows AS r MATCH (a:Movie {{title: r[0]}}) MATCH (b:{type_label(o_label)} {{name: r[1]}}) "
                "CREATE (a)-[:$($rel)]->(b)",
                {"rows": pairs[i : i + BATCH], "rel": rel},
            )
    return {"nodes": len(rows), "relationships": len(triples), "seconds": round(time.perf_counter() - started, 1)}


async def remove_user_graph(store: GraphStore) -> None:
    for label in LABELS:
        while (
            await store.query(
                f"MATCH (n:{label}) WHERE NOT n:Entity WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n", {}
            )
        )[0]["n"]:
            pass
        key = "title" if label == "Movie" else "name"
        await store.query(f"DROP INDEX user_{label.lower()}_{key} IF EXISTS", {})


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kb", default="../shared/datasets/metaqa/kb.txt")
    parser.add_argument("--graph", default="adopt_metaqa")
    parser.add_argument("--keep", action="store_true", help="Leave the adopted user graph in place (for eval).")
    parser.add_argument("--no-embed", action="store_true")
    args = parser.parse_args()
    settings = Settings()
    async with GraphStore(settings) as store:
        out: dict[str, Any] = {"machine": machine()}
        exists = await store.query("MATCH (n:Movie) WHERE NOT n:Entity RETURN count(n) AS n", {}, read=True)
        if exists[0]["n"]:
            out["load"] = {"skipped": f"{exists[0]['n']} user :Movie nodes already there"}
        else:
            out["load"] = await load_user_graph(store, Path(args.kb))
        started = time.perf_counter()
        intro = await introspect(store, labels=list(LABELS))
        profile = propose(intro, args.graph, labels=list(LABELS))
        out["introspect_s"] = round(time.perf_counter() - started, 2)
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
            await remove_user_graph(store)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
