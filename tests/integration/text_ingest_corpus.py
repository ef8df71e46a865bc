"""A synthetic text corpus for text ingest: each document two chunks, each chunk three people and a place drawn
from small pools (so most mentions meet candidates and get a decision), with the extraction scripts that answer
it. Used by the overlap test and by ``bench/text_ingest.py``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

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
