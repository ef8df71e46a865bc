"""Measure LearnedDecider's time per choice question: ``python -m bench.learned_decider DIR [--questions N]``.

Builds walk-shaped relation-mode questions (with their structure) from the artifact's own move vocabulary: each
offers every move plus STOP after a one-hop path. Times, per question:

* load: reading the artifact and loading the embedder (once per process);
* cold: the first decision of a new question (embeds the question; the moves' words are embedded once);
* warm: the same questions again (everything cached: the network's NumPy forward pass and a softmax).

Prints one JSON object with the milliseconds of each phase.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import time

from graphwalk_neo4j.decide.base import DecisionRequest
from graphwalk_neo4j.embed import FakeEmbedder, MiniLMEmbedder
from graphwalk_neo4j.learned.inputs import STOP_TOKEN
from graphwalk_neo4j.learned.model import LearnedDecider
from graphwalk_neo4j.walk.choice_questions import build_question
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.ports import NodeRef, Option
from graphwalk_neo4j.walk.result import PathStep


def questions(decider: LearnedDecider, n: int) -> list[DecisionRequest]:
    moves = [t for t in decider.vocab.tokens if "|" in t and t != STOP_TOKEN]
    start = NodeRef(id="s", name="Some Person", type="Person")
    films = [NodeRef(id=f"f{i}", name=f"Film {i}", type="Movie") for i in range(3)]
    step = PathStep(
        step_id="p",
        depth=1,
        kind="decision",
        label="o1",
        relation=moves[0].split("|")[0],
        direction="in",
        from_ids=["s"],
        from_names=["Some Person"],
        nodes=films,
    )
    options = [
        Option(
            relation=m.split("|")[0],
            direction=m.split("|")[1],  # type: ignore[arg-type]
            targets=(NodeRef(id=f"t{k}", name=f"T{k}", type="Person"),),
        )
        for k, m in enumerate(moves)
    ]
    out = []
    for i in range(n):
        q, _ = build_question(
            "b0",
            current=films,
            start=[start],
            steps=[step],
            options=options,
            stop_allowed=True,
            config=WalkConfig(hop_mode="relation"),
            question=f"which person directed the films of Some Person number {i}",
        )
        out.append(DecisionRequest(state={"query": "x"}, questions=[q]))
    return out


async def run(args: argparse.Namespace) -> dict[str, object]:
    started = time.perf_counter()
    embedder = FakeEmbedder() if args.fake else MiniLMEmbedder()
    decider = LearnedDecider.load(args.directory, embedder)
    await embedder.embed(["warm-up"])
    load_s = time.perf_counter() - started
    requests = questions(decider, args.questions)
    t = time.perf_counter()
    for r in requests:
        await decider.decide(r)
    cold = (time.perf_counter() - t) / len(requests)
    t = time.perf_counter()
    for _ in range(args.repeat):
        for r in requests:
            await decider.decide(r)
    warm = (time.perf_counter() - t) / (len(requests) * args.repeat)
    return {
        "artifact": str(args.directory),
        "embedder": embedder.model_id,
        "questions": len(requests),
        "options_per_question": len(requests[0].questions[0].options),
        "load_s": round(load_s, 2),
        "cold_ms_per_question": round(cold * 1000, 3),
        "warm_ms_per_question": round(warm * 1000, 3),
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("directory")
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--fake", action="store_true", help="the hashing embedder (no model load)")
    print(json.dumps(asyncio.run(run(ap.parse_args())), indent=2))


if __name__ == "__main__":
    main()
