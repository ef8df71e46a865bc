"""Text ingest throughput with the stand-ins: documents/s and where the time goes.

A synthetic corpus (each document two chunks, each chunk four mentions drawn from a pool of 60 names, so most
mentions meet candidates and get a decision) is ingested with the extraction stand-in answering after a simulated
latency. The small default run checks that extraction calls overlap (the stand-in sees several at once). With
``GW_NEO4J_BENCH=1`` it runs the sizes reported in docs/ingest-documents.md and prints a JSON line per run
(``-s`` to see them).
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.ingest.documents import TextIngest
from graphwalk_neo4j.ingest.extraction import Extractor
from graphwalk_neo4j.ingest.routing import Router
from tests.integration.test_text_ingest_support import MODEL, ExtractionStandIn, reader_answer

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.neo4j

FIRST = ["Ada", "Bram", "Cora", "Dov", "Edda", "Finn", "Gala", "Hugo", "Ines", "Jory"]
LAST = ["Quill", "Renn", "Marsh", "Tallow", "Vane", "Wick"]
PLACES = [f"{p} {k}" for p in ("North", "South", "Kestle", "Harrow") for k in ("Quay", "Mill", "Point")]
FILLER = (
    "The ledger records the weather, the tides and the catch, in a careful hand that rarely changes. "
    "Nothing else of note is written on this page, apart from a list of repairs to the slipway. "
)


def make_corpus(folder: Path, n_docs: int, seed: int = 7) -> list[dict[str, Any]]:
    """Write ``n_docs`` two-chunk documents; return the extraction scripts that the stand-in answers with."""
    rng = random.Random(seed)
    people = [f"{first} {last}" for first in FIRST for last in LAST][:48]
    scripts = []
    folder.mkdir(parents=True, exist_ok=True)
    for d in range(n_docs):
        parts = []
        for c in range(2):
            marker = f"Record {d:04d}-{c}"
            who = rng.sample(people, 3)
            where = rng.choice(PLACES)
            parts.append(f"{marker}. {who[0]} met {who[1]} and {who[2]} at {where}. " + FILLER * 6)
            scripts.append(
                {
                    "needle": marker,
                    "reply": {
                        "entities": [{"name": p, "type": "Person", "attributes": {"seen": d}} for p in who]
                        + [{"name": where, "type": "Place"}],
                        "relations": [
                            {"source": who[0], "type": "met", "target": who[1]},
                            {"source": who[0], "type": "met", "target": who[2]},
                            {"source": who[1], "type": "visited", "target": where},
                        ],
                    },
                }
            )
        (folder / f"doc-{d:04d}.txt").write_text("\n\n".join(parts), encoding="utf-8")
    return scripts


async def measure(
    store: Any, graph: str, folder: Path, n_docs: int, delay_s: float, concurrency: int
) -> dict[str, Any]:
    scripts = make_corpus(folder, n_docs)
    standin = ExtractionStandIn(scripts).start()
    standin.delay_s = delay_s
    try:
        extractor = Extractor(
            MODEL, api_base=standin.api_base, api_key="sk-test", concurrency=concurrency, num_retries=0
        )
        await extractor.extract("warm-up: import litellm before the clock starts")
        standin.passages.clear()
        extractor.stats.calls = 0
        extractor.stats.seconds = 0.0
        router = Router(store, graph, decider=FakeBackend(answer=reader_answer(unsure=False)))
        started = time.perf_counter()
        report = await TextIngest(store, graph=graph, extractor=extractor, router=router).run([folder])
        wall = time.perf_counter() - started
    finally:
        standin.stop()
    assert report.ok
    assert len(standin.passages) == 2 * n_docs
    out = report.as_dict()
    return {
        "documents": n_docs,
        "chunks": 2 * n_docs,
        "llm_delay_s": delay_s,
        "concurrency": concurrency,
        "wall_s": round(wall, 2),
        "documents_per_s": round(n_docs / wall, 2),
        "timings_s": out["timings"],
        "extraction_call_s": out["extraction"]["call_seconds"],
        "max_in_flight": standin.max_in_flight,
        "mentions": out["routing"]["mentions"],
        "decision_questions": out["routing"]["questions"],
        "merged": out["routing"]["merged"],
        "new": out["routing"]["new"],
    }


async def test_extraction_runs_ahead(store: Any, graph_name: str, tmp_path: Path) -> None:
    result = await measure(store, graph_name, tmp_path / "corpus", n_docs=12, delay_s=0.2, concurrency=8)
    # Overlap is shown by the stand-in seeing several calls at once; how much faster that makes the run is a
    # benchmark figure (GW_NEO4J_BENCH=1, docs/ingest-documents.md), not a timed assertion.
    assert result["max_in_flight"] > 1, result
    assert result["chunks"] == 24
    assert result["mentions"] > 0
