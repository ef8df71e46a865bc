"""Re-ingest against the real Neo4j: document identity, the exact difference applied (element ids, embeddings and
trace links of the untouched part kept), atomic versions, legacy ledgers migrated, concurrent ingests."""

from __future__ import annotations

import asyncio
import json
import signal
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.graph.identity import entity_id
from graphwalk_neo4j.graph.ledger import document_key, drop_graph, get_document, list_documents
from graphwalk_neo4j.ingest.structured import ingest_file, ingest_files
from graphwalk_neo4j.stored_walks import get_walk
from graphwalk_neo4j.walk.config import get_preset
from graphwalk_neo4j.walk.service import WalkService
from tests.hostile.graphstate import checksum, element_ids, embeddings, snapshot
from tests.hostile.procs import run_cli, start_paused

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

FILLER = "".join(
    f"Film {i}|directed_by|Director {i % 50}\nFilm {i}|release_year|{1900 + i % 90}\n" for i in range(1500)
)
HEAD = (
    "Old Film|directed_by|Gone Director\n"
    "Kismet|directed_by|William Dieterle\n"
    "Kismet|release_year|Nineteen Forty-Four\n"
    "The Blue Angel|directed_by|Josef von Sternberg\n"
)
TAIL = "The Blue Angel|directed_by|Josef von Sternberg\n"  # said twice: removing one copy keeps it


async def counts(store: GraphStore, graph: str) -> dict[str, int]:
    return (await store.read("graph/counts", graph=graph))[0]


async def test_same_base_name_in_two_folders_are_two_documents(
    store: GraphStore, graph_name: str, tmp_path: Path
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = tmp_path / "a" / "data.txt", tmp_path / "b" / "data.txt"
    a.write_text("Alpha|rel|One\n")
    b.write_text("Beta|rel|Two\n")
    first = await ingest_files(store, [a, b], graph=graph_name, root=tmp_path)
    assert [r.doc_id for r in first] == ["a/data.txt", "b/data.txt"]
    assert [r.status for r in first] == ["loaded", "loaded"]
    again = await ingest_files(store, [a, b], graph=graph_name, root=tmp_path)
    assert [r.status for r in again] == ["unchanged", "unchanged"]  # nobody "reloads" the other
    names = {
        r["name"] for r in await store.query("MATCH (n:Entity {graph: $g}) RETURN n.name AS name", {"g": graph_name})
    }
    assert names == {"Alpha", "One", "Beta", "Two"}


async def test_pipes_in_source_and_file_names_do_not_collide(
    store: GraphStore, graph_name: str, tmp_path: Path
) -> None:
    assert document_key(graph_name, "a", "b|c.txt") != document_key(graph_name, "a|b", "c.txt")
    one = tmp_path / "b|c.txt"
    one.write_text("One|rel|X\n")
    (tmp_path / "d").mkdir()
    two = tmp_path / "d" / "c.txt"
    two.write_text("Two|rel|Y\n")
    await ingest_file(store, one, graph=graph_name, source="a", root=tmp_path)
    await ingest_file(store, two, graph=graph_name, source="a|b", root=tmp_path / "d")
    docs = await list_documents(store, graph_name)
    assert sorted((d["source"], d["doc_id"]) for d in docs) == [("a", "b|c.txt"), ("a|b", "c.txt")]
    assert len({d["key"] for d in docs}) == 2
    assert (await counts(store, graph_name))["relationships"] == 2


async def test_a_legacy_ledger_entry_is_migrated_in_place(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    kb = tmp_path / "data" / "kb.txt"
    kb.write_text(HEAD)
    # Before paths were the identity, the key was <graph>|<source>|<base name>, with no manifest.
    await ingest_file(store, kb, graph=graph_name, root=tmp_path / "data")
    legacy = f"{graph_name}|files|kb.txt"
    await store.query("MATCH (d:Document {key: $k}) REMOVE d.segments, d.manifest, d.identity", {"k": legacy})
    before = await element_ids(store, graph_name)
    result = await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert result.status == "migrated"
    assert result.doc_id == "data/kb.txt"
    assert await element_ids(store, graph_name) == before  # nothing recreated
    new_key = document_key(graph_name, "files", "data/kb.txt")
    sources = await store.query("MATCH (n:Entity {graph: $g}) RETURN DISTINCT n.sources AS s", {"g": graph_name})
    assert sources == [{"s": [new_key]}]
    assert await get_document(store, legacy) is None
    again = await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert again.status == "unchanged"
    kb.write_text(HEAD.replace("Four", "Five"))
    changed = await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert changed.status == "updated"  # the migrated entry has a manifest now: a diff, not a reload


async def test_a_changed_file_applies_only_the_difference(
    store: GraphStore, graph_name: str, tmp_path: Path, neo4j_settings: Settings
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(HEAD + FILLER + TAIL)
    await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    embedder = FakeEmbedder()
    await embed_graph(store, embedder, graph_name)
    # A walk that starts at the entity the edit retracts, and one whose links stay untouched.
    service = WalkService(store, graph_name, FakeBackend(seed=1))
    gone_walk = await service.walk("who did Gone Director direct", get_preset("relation"), start=["Gone Director"])
    kept_walk = await service.walk("what did Director 7 direct", get_preset("relation"), start=["Director 7"])
    links = (
        "MATCH (w:Walk {id: $w}) RETURN COUNT { (w)-[:STARTED_AT|ANSWERED]->() } + "
        "COUNT { (w)-[:HAS_STEP]->()-[:AT|CHOSE]->() } AS n"
    )
    kept_links = (await store.query(links, {"w": kept_walk.result.walk_id}))[0]["n"]
    gone_links = (await store.query(links, {"w": gone_walk.result.walk_id}))[0]["n"]
    ids_before = await element_ids(store, graph_name)
    vectors_before = await embeddings(store, graph_name)

    edited = (
        HEAD.replace("Old Film|directed_by|Gone Director\n", "")
        .replace("Forty-Four", "Forty-Five")
        .replace("The Blue Angel|directed_by|Josef von Sternberg\n", "")
    )
    kb.write_text(edited + FILLER + TAIL)
    result = await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert result.status == "updated"
    assert result.changed_segments <= 2
    c = result.counts
    assert (c.nodes_created, c.rels_created) == (1, 1)  # the new year, and Kismet -release_year-> it
    assert result.removed == {"relationships": 2, "entities": 1, "entities_kept_for_traces": 2, "claims": 0}

    ids_after = await element_ids(store, graph_name)
    gone = {entity_id("Old Film"), entity_id("Gone Director"), entity_id("Nineteen Forty-Four")}
    changed = set(ids_before) ^ set(ids_after)
    assert {entity_id("Nineteen Forty-Five")} <= changed
    assert gone <= changed
    untouched = set(ids_before) & set(ids_after)
    assert all(ids_before[k] == ids_after[k] for k in untouched)  # same elements, not recreated
    assert len(untouched) == len(ids_before) - 3 - 2  # 3 entities and 2 relationships went
    vectors_after = await embeddings(store, graph_name)
    assert all(vectors_after[k] == vectors_before[k] for k in vectors_after if k in vectors_before)
    assert len(vectors_after) == len(vectors_before) - 3  # kept ones keep their vector; the new one has none yet
    # The kept walk lost nothing; the other keeps its links, to :RetractedEntity nodes, and is marked.
    assert (await store.query(links, {"w": kept_walk.result.walk_id}))[0]["n"] == kept_links
    assert (await store.query(links, {"w": gone_walk.result.walk_id}))[0]["n"] == gone_links
    marked = await store.query(
        "MATCH (w:Walk {id: $w}) RETURN w.retracted_ids AS ids, w.retracted_names AS names",
        {"w": gone_walk.result.walk_id},
    )
    assert "Gone Director" in marked[0]["names"]
    assert entity_id("Gone Director") in marked[0]["ids"]
    retracted = await store.query(
        "MATCH (n:RetractedEntity {graph: $g}) RETURN n.name AS name, labels(n) AS l ORDER BY name", {"g": graph_name}
    )
    assert [r["name"] for r in retracted] == ["Gone Director", "Old Film"]
    assert all(r["l"] == ["RetractedEntity"] for r in retracted)
    stored = await get_walk(store, graph_name, gone_walk.result.walk_id)
    assert len(stored.answers) == len(gone_walk.result.answers[:100])
    assert "Gone Director" in stored.retracted_names
    code, shown, _ = await run_cli(neo4j_settings, ["walks", "show", gone_walk.result.walk_id, "--graph", graph_name])
    changed_line = next(line for line in shown.splitlines() if line.startswith("data changed since:"))
    assert code == 0
    assert "Gone Director" in changed_line
    assert "retracted by a later ingest" in shown
    # The same graph as a clean load of the new file.
    clean = f"{graph_name}_clean"
    try:
        await ingest_file(store, kb, graph=clean, root=tmp_path)
        assert checksum(await snapshot(store, graph_name)) == checksum(await snapshot(store, clean))
    finally:
        await drop_graph(store, clean)


async def test_attribute_claims_follow_the_difference(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.jsonl"
    rows = [
        {
            "subject": f"Film {i}",
            "relation": "directed_by",
            "object": f"Director {i % 9}",
            "attributes": {"runtime": 90 + i},
        }
        for i in range(400)
    ]
    kb.write_text("".join(json.dumps(r) + "\n" for r in rows))
    await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    rows[10]["attributes"] = {"runtime": 1}
    kb.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert result.status == "updated"
    assert result.removed["claims"] == 1
    row = await store.query(
        "MATCH (n:Entity {uid: $u}) RETURN n.runtime AS r, n.claims AS c", {"u": f"{graph_name}:{entity_id('Film 10')}"}
    )
    assert row[0]["r"] == 1
    assert len(row[0]["c"]) == 1
    clean = f"{graph_name}_clean"
    try:
        await ingest_file(store, kb, graph=clean, root=tmp_path)
        assert checksum(await snapshot(store, graph_name)) == checksum(await snapshot(store, clean))
    finally:
        await drop_graph(store, clean)


async def test_readers_see_the_old_version_until_the_diff_commits_and_kill_9_keeps_it(
    store: GraphStore, graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(HEAD + FILLER)
    await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    old = checksum(await snapshot(store, graph_name))
    kb.write_text(HEAD.replace("Four", "Five") + FILLER + "New Film|directed_by|New Director\n")
    paused = await start_paused(
        neo4j_settings, ["ingest", str(kb), "--graph", graph_name, "--root", str(tmp_path)], "ingest.diff_tx"
    )
    # Every change is written inside the open transaction: a reader still sees exactly the old version.
    assert checksum(await snapshot(store, graph_name)) == old
    paused.proc.send_signal(signal.SIGKILL)
    await paused.finish()
    assert checksum(await snapshot(store, graph_name)) == old  # nothing half-applied survives the kill
    result = await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    assert result.status == "updated"
    clean = f"{graph_name}_clean"
    try:
        await ingest_file(store, kb, graph=clean, root=tmp_path)
        assert checksum(await snapshot(store, graph_name)) == checksum(await snapshot(store, clean))
    finally:
        await drop_graph(store, clean)


@pytest.mark.parametrize("same_file", [True, False])
async def test_concurrent_ingests_end_in_the_clean_state(
    store: GraphStore, graph_name: str, tmp_path: Path, same_file: bool
) -> None:
    files = []
    for i in range(6):
        f = tmp_path / f"kb{i}.txt"
        f.write_text("".join(f"Film {j}|directed_by|Director {(j + i) % 11}\n" for j in range(300)))
        files.append(f)
    targets = [files[0]] * 6 if same_file else files
    results = await asyncio.gather(
        *(ingest_file(store, f, graph=graph_name, root=tmp_path, batch_size=50) for f in targets)
    )
    assert all(r.status in ("loaded", "resumed", "unchanged") for r in results)
    clean = f"{graph_name}_clean"
    try:
        await ingest_files(store, sorted(set(targets)), graph=clean, root=tmp_path, batch_size=50)
        assert checksum(await snapshot(store, graph_name)) == checksum(await snapshot(store, clean))
    finally:
        await drop_graph(store, clean)
