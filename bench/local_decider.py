"""Measure LocalDecider's time per question: ``python -m bench.local_decider [--fake]``.

Builds walk-shaped requests (state = a question, per-beam path context, ``--options`` hop options plus STOP with
relation/node descriptions), then times three phases separately:

* load: loading the embedder (MiniLM: import + weights, once per process);
* cold: ``decide`` on requests whose texts were never seen (includes embedding them, batched per request);
* warm: the same requests again (every text cached: dot products and softmax only).

Prints one JSON object with the per-question milliseconds of each phase.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import time

from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionRequest, JSONContent
from graphwalk_neo4j.decide.local import LocalDecider
from graphwalk_neo4j.embed import FakeEmbedder, MiniLMEmbedder

RELATIONS = ["directed_by", "written_by", "starred_actors", "release_year", "in_language", "has_genre", "has_tags"]


def make_requests(n_requests: int, questions_per_request: int, options: int) -> list[DecisionRequest]:
    requests = []
    for r in range(n_requests):
        questions = []
        for q in range(questions_per_request):
            current = f"Film {r}-{q}"
            opts: dict[str, JSONContent | None] = {
                f"o{i}": {
                    "relation": RELATIONS[i % len(RELATIONS)],
                    "node": f"Entity {r}-{q}-{i}",
                    "type": "person" if i % 2 else "film",
                }
                for i in range(1, options + 1)
            }
            opts["STOP"] = "Stop here: the current node answers the query."
            questions.append(
                ChoiceQuestion(
                    key=f"b{q}",
                    instructions={
                        "task": "Pick the next hop towards the answer, or STOP if the current node answers it.",
                        "path": [f"Start {r}", current],
                        "current": current,
                    },
                    options=opts,
                )
            )
        requests.append(DecisionRequest(state={"query": f"Who directed the film number {r}?"}, questions=questions))
    return requests


async def run(args: argparse.Namespace) -> dict[str, object]:
    started = time.perf_counter()
    if args.fake:
        embedder: FakeEmbedder | MiniLMEmbedder = FakeEmbedder()
    else:
        embedder = MiniLMEmbedder(batch_size=args.batch_size)
        embedder.load()
    load_s = time.perf_counter() - started
    decider = LocalDecider(embedder)
    requests = make_requests(args.requests, args.questions, args.options)
    n_questions = args.requests * args.questions
    started = time.perf_counter()
    for request in requests:
        await decider.decide(request)
    cold_s = time.perf_counter() - started
    timings = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        for request in requests:
            await decider.decide(request)
        timings.append(time.perf_counter() - started)
    warm_s = min(timings)
    return {
        "embedder": embedder.model_id,
        "requests": args.requests,
        "questions_per_request": args.questions,
        "options_per_question": args.options + 1,
        "load_s": round(load_s, 3),
        "cold_ms_per_question": round(1000 * cold_s / n_questions, 3),
        "warm_ms_per_question": round(1000 * warm_s / n_questions, 3),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--questions", type=int, default=3, help="questions (beams) per request")
    parser.add_argument("--options", type=int, default=20, help="hop options per question, STOP not counted")
    parser.add_argument("--repeat", type=int, default=3, help="warm passes; the fastest is reported")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--fake", action="store_true", help="use the hashing FakeEmbedder instead of MiniLM")
    print(json.dumps(asyncio.run(run(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
