"""The selection set the learned decider's robustness changes were chosen on (docs/eval.md, "Reworded questions").

    python scripts/selection_metaqa.py --data ../shared/datasets/metaqa --out results/metaqa_select

Takes 300 questions per hop from the *validation* split that ``gw-neo4j decider train --per-file 10000`` uses
(seed 0), and writes them twice: ``qa_select_{k}hop.txt`` reworded with this script's own word list, and
``qa_orig_{k}hop.txt`` as written, each with its qtype file and a link to ``kb.txt``, so ``gw-neo4j eval metaqa
--data OUT --split select`` (or ``--split orig``) walks them with the ceiling. The list is neither
``learned/augment.py``'s (training) nor ``scripts/paraphrase_metaqa.py``'s (the reported reworded eval); it
shares the words ``cast`` and ``picture(s)`` with the latter and ``debut`` with the former. Score artifacts on
it with ``scripts/decision_accuracy.py``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from graphwalk_neo4j.eval.metaqa import reword_outside_topic
from graphwalk_neo4j.learned.qa import load_qa, sample_pairs, split_of

RULES: list[tuple[str, str]] = [
    (r"\bdirected\b", "steered"),
    (r"\bdirect\b", "steer"),
    (r"\bdirectors?\b", "auteur"),
    (r"\bwritten\b", "composed"),
    (r"\bwrote\b", "composed"),
    (r"\bwrite\b", "compose"),
    (r"\bscreenwriters?\b", "screenplay creator"),
    (r"\bwriters?\b", "screenplay creator"),
    (r"\bstarred\b", "was cast in"),
    (r"\bstarring\b", "casting"),
    (r"\bactors\b", "ensemble"),
    (r"\bactor\b", "cast"),
    (r"\bacted\b", "was cast"),
    (r"\bact\b", "be cast"),
    (r"\bmovies\b", "motion pictures"),
    (r"\bmovie\b", "motion picture"),
    (r"\bfilms\b", "works of cinema"),
    (r"\bfilm\b", "work of cinema"),
    (r"\bgenres?\b", "sort"),
    (r"\breleased\b", "came out"),
    (r"\brelease\b", "debut"),
    (r"\blanguages?\b", "dialect"),
    (r"\btypes\b", "varieties"),
    (r"\babout\b", "dealing with"),
]


def reword(text: str) -> str:
    """Apply every rule outside the ``[topic]``."""
    return reword_outside_topic(text, RULES)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="the MetaQA directory (with dev/qa_dev_{k}hop.txt)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--per-file", type=int, default=10000, help="as in `decider train --per-file`")
    ap.add_argument("--seed", type=int, default=0, help="as in `decider train --seed`")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    kb = out / "kb.txt"
    if not kb.exists():
        kb.symlink_to((Path(args.data) / "kb.txt").resolve())
    for hops in (1, 2, 3):
        source = Path(args.data) / "dev" / f"qa_dev_{hops}hop.txt"
        qtypes = source.with_name(f"qa_dev_{hops}hop_qtype.txt").read_text(encoding="utf-8").splitlines()
        pairs = sample_pairs(load_qa([source]), args.per_file, args.seed)
        val = [q for q in pairs if split_of(args.seed, q.text) == "val"]
        random.Random(args.seed).shuffle(val)
        chosen = val[: args.n]
        kinds = "".join(f"{qtypes[int(q.id.rsplit(':', 1)[1]) - 1]}\n" for q in chosen)
        for split, text in (("select", reword), ("orig", str)):
            (out / f"qa_{split}_{hops}hop.txt").write_text(
                "".join(f"{text(q.raw)}\t{'|'.join(q.answers)}\n" for q in chosen), encoding="utf-8"
            )
            (out / f"qa_{split}_{hops}hop_qtype.txt").write_text(kinds, encoding="utf-8")
        print(f"{hops}-hop: {len(chosen)} of {len(val)} validation questions")


if __name__ == "__main__":
    main()
