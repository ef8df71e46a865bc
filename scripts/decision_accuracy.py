"""Teacher-forced decision accuracy of learned-decider artifacts on question–answer files.

    python scripts/decision_accuracy.py --graph learned_metaqa --qa FILE... --mined DIR ART [ART...]

Mines the questions' gold relation paths in Neo4j with the training pipeline's own miner (the rule the first
artifact was trained under; kept in ``--mined DIR``, so a second call reads them back), then scores every
decision along them with each artifact: accuracy (its first choice is one of the right moves) by hop, NLL of
the right set, and how many wrong choices were an early STOP. This is how the robustness changes in
docs/eval.md were compared on ``scripts/selection_metaqa.py``'s set; it needs no walks, so it takes seconds.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from pathlib import Path

import numpy as np

from graphwalk_neo4j.embed import make_embedder
from graphwalk_neo4j.learned.artifact import read_artifact_config, trained_walk_defaults
from graphwalk_neo4j.learned.dataset import build_dataset
from graphwalk_neo4j.learned.fit import decision_metrics
from graphwalk_neo4j.learned.inputs import STOP_TOKEN
from graphwalk_neo4j.learned.mining import Decision, MiningOptions, mining_config
from graphwalk_neo4j.learned.model import LearnedDecider, softmax
from graphwalk_neo4j.learned.qa import load_qa
from graphwalk_neo4j.settings import load_settings
from graphwalk_neo4j.store import GraphStore


async def mine(graph: str, files: list[str], directory: Path, artifact: str) -> list[Decision]:
    config = mining_config(**trained_walk_defaults(read_artifact_config(artifact)))
    store = GraphStore(load_settings())
    await store.connect()
    try:
        decisions, _ = await build_dataset(store, graph, load_qa(files), directory, config, MiningOptions())
    finally:
        await store.close()
    return decisions


async def score(artifact: str, decisions: list[Decision]) -> str:
    decider = LearnedDecider.load(artifact, make_embedder())
    width = max(len(d.target) for d in decisions)
    probs = np.zeros((len(decisions), width))
    target = np.zeros((len(decisions), width))
    mask = np.zeros((len(decisions), width), dtype=bool)
    early: Counter[int] = Counter()
    for i, d in enumerate(decisions):
        k = len(d.target)
        probs[i, :k] = softmax(await decider.scores(d.inputs), decider.temperature)
        target[i, :k], mask[i, :k] = d.target, True
        top = int(probs[i].argmax())
        if d.target[top] <= 0 and d.inputs.tokens[top] == STOP_TOKEN:
            early[d.hops] += 1
    hops = np.asarray([d.hops for d in decisions])
    sets = np.ones(len(decisions), dtype=bool)  # QA-mined targets mark a set of right moves
    every = decision_metrics(probs, target, mask, sets)

    def accuracy(rows: np.ndarray) -> float:
        return decision_metrics(probs[rows], target[rows], mask[rows], sets[rows])["accuracy"]

    by_hop = " ".join(f"{h}-hop {accuracy(hops == h):.3f}" for h in sorted(set(hops.tolist())))
    return (
        f"{artifact}: accuracy {every['accuracy']:.4f} ({by_hop}), NLL {every['nll']:.4f}, "
        f"early STOPs {dict(sorted(early.items()))}, {len(decisions)} decisions"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graph", required=True)
    ap.add_argument("--qa", action="append", required=True, help="MetaQA-format question file (repeat)")
    ap.add_argument("--mined", required=True, help="directory for the mined decisions (reused when present)")
    ap.add_argument("artifacts", nargs="+", help="learned-decider directories")
    args = ap.parse_args()
    decisions = asyncio.run(mine(args.graph, args.qa, Path(args.mined), args.artifacts[0]))
    for artifact in args.artifacts:
        print(asyncio.run(score(artifact, decisions)), flush=True)


if __name__ == "__main__":
    main()
