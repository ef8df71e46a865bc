"""A run killed for real resumes cleanly; embeddings and search over the real vector and fulltext indexes."""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.graph.ledger import get_document
from graphwalk_neo4j.graph.search import search_entities
from graphwalk_neo4j.ingest.structured import ingest_file
from tests.hostile.procs import start_paused

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore


def write_big_kb(path: Path, n: int) -> None:
    with path.open("w") as fh:
        for i in range(n):
            fh.write(f"Film {i}|directed_by|Director {i % 97}\nFilm {i}|has_genre|Genre {i % 13}\n")


async def test_killed_ingest_leaves_whole_batches_and_resumes(
    store: GraphStore, graph_name: str, neo4j_settings: Settings, tmp_path: Path
) -> None:
    kb = tmp_path / "big.txt"
    write_big_kb(kb, 20_000)  # 40,000 rows, 40 batches of 1,000
    # The run stops at the pause point after its third committed batch (an event read from its stderr, not a
    # sleep), so the kill lands at exactly that state whatever the machine's speed.
    paused = await start_paused(
        neo4j_settings,
        ["ingest", str(kb), "--graph", graph_name, "--batch-size", "1000", "--root", str(tmp_path)],
        "ingest.batch@3",
    )
    paused.proc.send_signal(signal.SIGKILL)
    await paused.proc.wait()
    key = f"{graph_name}|files|big.txt"
    doc = await get_document(store, key)
    assert doc is not None
    assert doc["complete"] is False, "the run was killed before it finished"
    batches_done = doc["batches_done"]
    assert batches_done == 3
    # Whole batches only: every relationship written belongs to one of the first `batches_done` batches.
    rels = (await store.read("graph/counts", graph=graph_name))[0]["relationships"]
    assert rels == batches_done * 1000
    result = await ingest_file(store, kb, graph=graph_name, root=tmp_path, batch_size=1000)
    assert result.status == "resumed"
    assert result.resumed_from_batch == batches_done
    assert result.batches == 40 - batches_done
    counts = (await store.read("graph/counts", graph=graph_name))[0]
    assert counts == {"entities": 20_000 + 97 + 13, "relationships": 40_000}
    again = await ingest_file(store, kb, graph=graph_name, root=tmp_path, batch_size=1000)
    assert again.status == "unchanged"


async def test_embed_only_what_changed_and_search_reasons(store: GraphStore, graph_name: str, tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(
        "Kismet|directed_by|William Dieterle\nThe Blue Angel|directed_by|Josef von Sternberg\n"
        "Kismet|starred_actors|Marlene Dietrich\n"
    )
    await ingest_file(store, kb, graph=graph_name, root=tmp_path)
    embedder = FakeEmbedder()
    first = await embed_graph(store, embedder, graph_name, batch_size=2)
    assert (first.scanned, first.embedded, first.skipped) == (5, 5, 0)
    second = await embed_graph(store, embedder, graph_name)
    assert (second.embedded, second.skipped) == (0, 5)
    await store.query("MATCH (n:Entity {graph: $g, name: 'Kismet'}) SET n.summary = 'a 1944 film'", {"g": graph_name})
    third = await embed_graph(store, embedder, graph_name)
    assert third.embedded == 1
    await store.write("schema/await_indexes", seconds=60)
    hits = await search_entities(store, graph_name, "kismet", k=3, embedder=embedder)
    assert hits[0].name == "Kismet"
    assert hits[0].reasons[0] == "exact name"
    assert any(r.startswith("fulltext") for r in hits[0].reasons)
    assert any(r.startswith("vector") for r in hits[0].reasons)
    fuzzy = await search_entities(store, graph_name, "Sternberg", k=3)
    assert fuzzy[0].name == "Josef von Sternberg"
    assert fuzzy[0].reasons[0].startswith("fulltext")
    hostile = await search_entities(store, graph_name, 'Kismet") OR name:* AND [', k=3)
    assert all(h.name for h in hostile)  # escaped: no Lucene syntax error
