"""The mined decisions on disk, resumable: ``DIR/decisions.jsonl`` is appended batch by batch, with
``DIR/mined.jsonl`` listing every question done, so an interrupted run resumes where it stopped."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.learned.fit import make_dir
from graphwalk_neo4j.learned.mining import Decision, MiningOptions, mine_batch

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from graphwalk_neo4j.graph.profile import GraphProfile
    from graphwalk_neo4j.learned.qa import QAPair
    from graphwalk_neo4j.progress import Progress
    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.walk.config import WalkConfig


DECISIONS_FILE = "decisions.jsonl"
MINED_FILE = "mined.jsonl"


def _complete_lines(path: Path) -> list[str]:
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):  # cut short by an interruption: drop the partial line
        text = text[: text.rfind("\n") + 1]
        path.write_text(text, encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()]


def read_mined(directory: Path) -> tuple[list[Decision], dict[str, dict[str, Any]]]:
    mined = {row["qid"]: row for row in (json.loads(line) for line in _complete_lines(directory / MINED_FILE))}
    decisions = [Decision.from_json(json.loads(line)) for line in _complete_lines(directory / DECISIONS_FILE)]
    return [d for d in decisions if d.qid in mined], mined


async def build_dataset(
    store: GraphStore,
    graph: str,
    pairs: Sequence[QAPair],
    directory: Path,
    config: WalkConfig,
    options: MiningOptions,
    progress: Progress | None = None,
    profile: GraphProfile | None = None,
) -> tuple[list[Decision], dict[str, dict[str, Any]]]:
    """Mine every pair not yet in ``directory`` (batch by batch, appended as each batch finishes); ``progress``
    hears ``("mine", pairs done, pairs)``."""
    make_dir(directory)
    _, mined = read_mined(directory)
    # Questions about the same topic go into the same batch, where they share their expansions.
    todo = sorted((q for q in pairs if q.id not in mined), key=lambda q: (q.start_id, q.id))
    done = len(pairs) - len(todo)
    if progress:
        progress.advance("mine", done, len(pairs))
    batches = [todo[i : i + options.batch_size] for i in range(0, len(todo), options.batch_size)]
    width = max(1, options.concurrency)
    for i in range(0, len(batches), width):
        group = batches[i : i + width]
        results = await asyncio.gather(*(mine_batch(store, graph, b, config, options, profile=profile) for b in group))
        for batch, (decisions, records) in zip(group, results, strict=True):
            with (directory / DECISIONS_FILE).open("a", encoding="utf-8") as fh:
                for d in decisions:
                    fh.write(json.dumps(d.to_json(), ensure_ascii=False) + "\n")
            with (directory / MINED_FILE).open("a", encoding="utf-8") as fh:
                for r in records:
                    fh.write(json.dumps(r.__dict__, ensure_ascii=False) + "\n")
            done += len(batch)
            if progress:
                progress.advance("mine", done, len(pairs))
    return read_mined(directory)
