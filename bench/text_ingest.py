"""Text-ingest throughput with the loopback LLM and decision stand-ins (documents/s and where the time goes).

Run by ``python -m bench.run --only text``; the measuring helper is shared with the integration test that checks
extraction runs ahead of routing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.graph.ledger import drop_graph
from tests.integration.test_text_ingest_throughput import measure

if TYPE_CHECKING:
    from pathlib import Path

    from graphwalk_neo4j.store import GraphStore

CASES = [(200, 0.0, 8), (200, 0.5, 8), (200, 0.5, 32)]


async def bench_text(store: GraphStore, workdir: Path) -> list[dict[str, Any]]:
    results = []
    for i, (n_docs, delay_s, concurrency) in enumerate(CASES):
        graph = f"bench_text_{i}"
        await drop_graph(store, graph)
        result = await measure(store, graph, workdir / f"corpus{i}", n_docs, delay_s, concurrency)
        results.append({"n_docs": n_docs, "llm_delay_s": delay_s, "concurrency": concurrency, **result})
        await drop_graph(store, graph)
    return results
