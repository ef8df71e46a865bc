"""Does the work budget's default change a MetaQA walk? (docs/eval.md, "The work budget on MetaQA")

    python scripts/work_budget_check.py --data ../shared/datasets/metaqa --graph metaqa --per-hop 30

Walks the first ``--per-hop`` dev questions of each hop from their gold topic, under each preset twice: with the
default budget and with the work budget at its ceiling (``max_nodes_read`` 1,000,000, ``max_memory_mb`` 1,024),
and prints per preset how many walks answered the same, how many the default work budget cut, and the most nodes
one walk read. Local decider, no trace written.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from graphwalk_neo4j.backends import resolve_backend
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore
from graphwalk_neo4j.walk.config import MAX_MEMORY_MB, MAX_NODES_READ, get_preset
from graphwalk_neo4j.walk.service import WalkService

PRESETS = ("relation", "relation-beam", "greedy", "beam")
CEILING = {"max_nodes_read": MAX_NODES_READ, "max_memory_mb": MAX_MEMORY_MB}


def questions(data: Path, per_hop: int) -> list[tuple[str, str]]:
    """``(question without brackets, topic)`` for the first ``per_hop`` dev questions of each hop."""
    out = []
    for hop in (1, 2, 3):
        for line in (data / "dev" / f"qa_dev_{hop}hop.txt").read_text(encoding="utf-8").splitlines()[:per_hop]:
            question = line.split("\t")[0]
            topic = question[question.index("[") + 1 : question.index("]")]
            out.append((question.replace("[", "").replace("]", ""), topic))
    return out


async def check(data: Path, graph: str, per_hop: int) -> None:
    settings = Settings(model="local")
    store = GraphStore(settings)
    await store.connect()
    try:
        embedder = make_embedder(settings)
        backend = resolve_backend(settings, "local", embedder_factory=lambda _s: embedder)
        service = WalkService(store, graph, backend, embedder=embedder, trace=False, preload_embeddings=True)
        await service.ready()
        asked = questions(data, per_hop)
        for preset in PRESETS:
            same = cut = widest = 0
            started = time.perf_counter()
            for question, topic in asked:
                default = (await service.walk(question, get_preset(preset), start=[topic])).result
                ceiling = (await service.walk(question, get_preset(preset, budget=CEILING), start=[topic])).result
                same += [a.name for a in default.answers] == [a.name for a in ceiling.answers]
                cut += default.stop_reason.startswith(("max_nodes_read", "max_memory_mb"))
                widest = max(widest, default.totals.nodes_read, ceiling.totals.nodes_read)
            print(
                f"{preset}: {same}/{len(asked)} answers identical, {cut} cut by the default work budget, "
                f"most nodes read by one walk {widest:,} ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="MetaQA folder (kb.txt, dev/qa_dev_*hop.txt)")
    parser.add_argument("--graph", default="metaqa", help="graph holding the MetaQA KB")
    parser.add_argument("--per-hop", type=int, default=30)
    args = parser.parse_args()
    asyncio.run(check(args.data, args.graph, args.per_hop))


if __name__ == "__main__":
    main()
