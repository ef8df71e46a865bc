"""Text-ingest throughput with the loopback LLM and decision stand-ins (documents/s and where the time goes).

Run by ``python -m bench.run --only text``. The corpus is the overlap test's (tests/integration/
text_ingest_corpus.py); the extraction stand-in answers after a simulated latency (``latency_s``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.ingest.documents import TextIngest
from graphwalk_neo4j.ingest.extraction import Extractor
from graphwalk_neo4j.ingest.routing import Router
from tests.integration.text_ingest_corpus import make_corpus
from tests.integration.text_ingest_support import MODEL, reader_answer
from tests.standins.extraction import ExtractionStandIn

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.store import GraphStore

CASES = [(200, 0.0, 8), (200, 0.5, 8), (200, 0.5, 32)]


async def measure(
    store: Any, graph: str, folder: Path, n_docs: int, delay_s: float, concurrency: int
) -> dict[str, Any]:
    scripts = make_corpus(folder, n_docs)
    standin = ExtractionStandIn(scripts).start()
    standin.latency_s = delay_s
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


async def bench_text(
    store: GraphStore, workdir: Path, cases: list[tuple[int, float, int]] = CASES, graph_prefix: str = "bench_text"
) -> list[dict[str, Any]]:
    """Each case (documents, simulated LLM latency in s, extraction concurrency) into a graph of its own."""
    results = []
    for i, (n_docs, delay_s, concurrency) in enumerate(cases):
        graph = f"{graph_prefix}_{i}"
        await drop_graph(store, graph)
        result = await measure(store, graph, workdir / f"corpus{i}", n_docs, delay_s, concurrency)
        results.append({"n_docs": n_docs, "llm_delay_s": delay_s, "concurrency": concurrency, **result})
        await drop_graph(store, graph)
    return results
