"""The MetaQA KB loaded three ways in one run, triples/s each (``python -m bench.loadpath``, issue 16):

* ours — ``ingest_file`` (what ``gw-neo4j ingest`` runs) into a fresh graph of the running Neo4j, schema included;
* offline — ``neo4j-admin database import full`` from CSV files of the same entities and relationships into a
  scratch database directory under a temporary NEO4J_HOME (never the live database); JVM start included, since a
  user pays it too;
* peer — neo4j-graphrag's ``Neo4jWriter`` (the KG writer of its pipelines) with the same nodes and relationships,
  into the running Neo4j (extra ``neo4j-graphrag``; skipped without it). Its nodes are deleted afterwards.

Run it against a Neo4j of your own (``GW_NEO4J_URI``), not a shared one: the peer writes outside our namespace
(its own labels) before it is cleaned up.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import neo4j
from graphwalk_neo4j.graph.identity import entity_id
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.ingest.structured import ingest_file
from graphwalk_neo4j.localserver import default_home
from graphwalk_neo4j.resources import metaqa_type_map
from graphwalk_neo4j.schema import apply_schema
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore

ROOT = Path(__file__).resolve().parents[1]
KB = ROOT.parent / "shared" / "datasets" / "metaqa" / "kb.txt"
GRAPH = "loadpath_metaqa"


def read_triples(kb: Path) -> list[tuple[str, str, str]]:
    rows = (line.split("|") for line in kb.read_text(encoding="utf-8").splitlines() if line.strip())
    return [(s.strip(), r.strip(), o.strip()) for s, r, o in rows]


def node_types(triples: list[tuple[str, str, str]]) -> dict[str, str]:
    """name -> type from the packaged MetaQA type map ((subject type, object type) per relation)."""
    type_map = metaqa_type_map()
    types: dict[str, str] = {}
    for s, r, o in triples:
        subject, obj = type_map.get(r, (None, None))
        types.setdefault(s, subject or "Entity")
        types.setdefault(o, obj or "Entity")
    return types


async def load_ours(store: GraphStore, kb: Path) -> dict[str, Any]:
    await drop_graph(store, GRAPH)
    started = time.perf_counter()
    await apply_schema(store)
    report = await ingest_file(store, kb, graph=GRAPH, type_map=metaqa_type_map())
    seconds = time.perf_counter() - started
    await drop_graph(store, GRAPH)
    return {"seconds": round(seconds, 2), "status": getattr(report, "status", None)}


def load_offline(triples: list[tuple[str, str, str]], types: dict[str, str], dist: Path) -> dict[str, Any]:
    """CSV files, then neo4j-admin database import full into a scratch NEO4J_HOME."""
    home = Path(tempfile.mkdtemp(prefix="gw-import-"))
    try:
        (home / "conf").mkdir()
        (home / "conf" / "neo4j.conf").write_text(
            f"server.directories.data={home / 'data'}\nserver.directories.logs={home / 'logs'}\n"
        )
        started = time.perf_counter()
        nodes, rels = home / "nodes.csv", home / "relationships.csv"
        with nodes.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["uid:ID", "id", "name", "type", "graph", ":LABEL"])
            for name, type_ in types.items():
                eid = entity_id(name)
                w.writerow([f"{GRAPH}:{eid}", eid, name, type_, GRAPH, "Entity"])
        with rels.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow([":START_ID", ":END_ID", ":TYPE"])
            for s, r, o in dict.fromkeys(triples):
                w.writerow([f"{GRAPH}:{entity_id(s)}", f"{GRAPH}:{entity_id(o)}", r])
        csv_s = time.perf_counter() - started
        env = dict(os.environ, NEO4J_HOME=str(home), NEO4J_CONF=str(home / "conf"))
        cmd = [
            "java",
            "-cp",
            f"{dist / 'plugins'}/*:{dist / 'lib'}/*",
            "org.neo4j.cli.AdminTool",
            "database",
            "import",
            "full",
            f"--nodes={nodes}",
            f"--relationships={rels}",
            "--overwrite-destination=true",
            f"--report-file={home / 'import.report'}",
            "neo4j",
        ]
        started = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
        import_s = time.perf_counter() - started
        if proc.returncode != 0:
            return {"error": (proc.stderr or proc.stdout).strip().splitlines()[-1:]}
        return {"seconds": round(csv_s + import_s, 2), "csv_s": round(csv_s, 2), "import_s": round(import_s, 2)}
    finally:
        shutil.rmtree(home, ignore_errors=True)


async def load_peer(settings: Settings, triples: list[tuple[str, str, str]], types: dict[str, str]) -> dict[str, Any]:
    try:
        from neo4j_graphrag.components.kg_writer import Neo4jWriter
        from neo4j_graphrag.components.types import Neo4jGraph, Neo4jNode, Neo4jRelationship
    except ImportError:
        return {"skipped": "neo4j-graphrag is not installed (pip install neo4j-graphrag)"}
    graph = Neo4jGraph(
        nodes=[Neo4jNode(id=name, label=type_, properties={"name": name}) for name, type_ in types.items()],
        relationships=[Neo4jRelationship(start_node_id=s, end_node_id=o, type=r) for s, r, o in dict.fromkeys(triples)],
    )
    driver = neo4j.GraphDatabase.driver(settings.uri, auth=(settings.user, settings.password.get_secret_value()))
    try:
        started = time.perf_counter()
        result = await Neo4jWriter(driver, neo4j_database=settings.database).run(graph)
        seconds = time.perf_counter() - started
        with driver.session(database=settings.database) as session:  # CALL IN TRANSACTIONS needs an implicit one
            session.run("MATCH (n:__Entity__) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS").consume()
    finally:
        driver.close()
    if result.status != "SUCCESS":
        return {"error": result.metadata}
    return {"seconds": round(seconds, 2)}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kb", default=str(KB))
    parser.add_argument("--neo4j-home", default=str(default_home()))
    args = parser.parse_args()
    triples = read_triples(Path(args.kb))
    types = node_types(triples)
    n = len(dict.fromkeys(triples))
    settings = Settings()
    out: dict[str, Any] = {"triples": n, "entities": len(types), "load_avg_1m": round(os.getloadavg()[0], 2)}
    async with GraphStore(settings) as store:
        out["ours"] = await load_ours(store, Path(args.kb))
    out["offline"] = load_offline(triples, types, Path(args.neo4j_home) / "dist")
    print(json.dumps(out), flush=True)  # the two figures so far, in case the peer fails
    out["peer"] = await load_peer(settings, triples, types)
    for key in ("ours", "offline", "peer"):
        if "seconds" in out[key]:
            out[key]["triples_per_s"] = round(n / out[key]["seconds"])
    if "seconds" in out["ours"] and "seconds" in out["offline"]:
        out["ours_vs_offline"] = round(out["offline"]["seconds"] / out["ours"]["seconds"], 3)
    if "seconds" in out["ours"] and "seconds" in out["peer"]:
        out["ours_vs_peer"] = round(out["peer"]["seconds"] / out["ours"]["seconds"], 3)
    out["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
