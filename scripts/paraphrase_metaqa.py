"""Rewrite held-out MetaQA questions in words MetaQA's templates do not use, for a robustness check.

    python scripts/paraphrase_metaqa.py --data ../shared/datasets/metaqa --split dev \
        --heldout DIR --n 300 --seed 0 --out results/metaqa_para

Picks the first ``--n`` questions per hop (seeded, as ``eval metaqa --n`` does) among a learned decider's
held-out test split, rewrites each with fixed word substitutions (``directed`` -> ``helmed``, ``actors`` ->
``cast members``, ``released`` -> ``premiered``, ``movies``/``films`` -> ``pictures``, ...), and writes
``qa_para_{k}hop.txt`` with the qtype files and a link to ``kb.txt``, so ``gw-neo4j eval metaqa --data OUT
--split para`` runs on them (with the ceiling). The rewrites keep the meaning and the ``[topic]``; a question
none of whose words is substituted is kept as it is (and counted).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from graphwalk_neo4j.eval.metaqa import load_questions, reword_outside_topic, sample
from graphwalk_neo4j.eval.runner import heldout_filter

RULES: list[tuple[str, str]] = [
    (r"\bwho's\b", "who is"),
    (r"\bscreenwriters?\b", "scriptwriter"),
    (r"\bwriters\b", "authors"),
    (r"\bwriter\b", "author"),
    (r"\bwritten\b", "penned"),
    (r"\bwrote\b", "penned"),
    (r"\bwrite\b", "pen"),
    (r"\bdirectors\b", "filmmakers"),
    (r"\bdirector\b", "filmmaker"),
    (r"\bdirected\b", "helmed"),
    (r"\bdirect\b", "helm"),
    (r"\bactors\b", "cast members"),
    (r"\bactor\b", "cast member"),
    (r"\bacted\b", "performed"),
    (r"\bact\b", "perform"),
    (r"\bstarred\b", "featured"),
    (r"\bstars\b", "features"),
    (r"\bstar\b", "feature"),
    (r"\brelease dates?\b", "premiere year"),
    (r"\brelease years?\b", "premiere year"),
    (r"\breleased\b", "premiered"),
    (r"\brelease\b", "premiere"),
    (r"\bmovies\b", "pictures"),
    (r"\bfilms\b", "pictures"),
    (r"\bmovie\b", "picture"),
    (r"\bfilm\b", "picture"),
    (r"\bgenres\b", "categories"),
    (r"\bgenre\b", "category"),
    (r"\blanguages\b", "tongues"),
    (r"\blanguage\b", "tongue"),
    (r"\btopics\b", "themes"),
    (r"\bdescribed\b", "characterized"),
]


def paraphrase(text: str) -> str:
    """Apply every rule outside the ``[topic]``."""
    return reword_outside_topic(text, RULES)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--split", default="dev")
    ap.add_argument("--heldout", required=True, help="learned decider directory (its test split is used)")
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    keep = heldout_filter(args.heldout)
    kb = out / "kb.txt"
    if not kb.exists():
        kb.symlink_to(Path(args.data).resolve() / "kb.txt")
    for hops in (1, 2, 3):
        pool = [q for q in load_questions(args.data, args.split, hops) if keep(q)]
        chosen = sample(pool, args.n, args.seed)
        lines, qtypes, unchanged = [], [], 0
        for q in chosen:
            text = paraphrase(q.text)
            unchanged += text == q.text
            lines.append(f"{text}\t{'|'.join(q.answers)}")
            qtypes.append(q.qtype or "")
        (out / f"qa_para_{hops}hop.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (out / f"qa_para_{hops}hop_qtype.txt").write_text("\n".join(qtypes) + "\n", encoding="utf-8")
        print(f"{hops}-hop: {len(lines)} questions, {unchanged} unchanged")


if __name__ == "__main__":
    main()
