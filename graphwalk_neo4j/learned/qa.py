"""Question–answer pairs for training the learned decider: reading them, the split, and sampling.

``question<TAB>answer1|answer2`` lines with one ``[topic]`` (``--format metaqa``) or JSON lines
``{"question", "answers", "topic"?}`` (``--format jsonl``; without ``topic`` the ``[bracketed]`` span is the
topic). Each question falls in ``train``, ``val`` or ``test`` by a hash of ``(seed, question text)``
(:func:`split_of`): a fixed-seed split *by question*, so the same wording never lands on two sides. ``val``
chooses the epoch and fits the temperature; ``test`` is never trained on (``eval metaqa --heldout DIR``
evaluates on it).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.graph.identity import entity_id
from graphwalk_neo4j.qa_format import parse_qa_line

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

Split = Literal["train", "val", "test"]
QAFormat = Literal["metaqa", "jsonl"]
VAL_SHARE = 0.1
TEST_SHARE = 0.2
_TOPIC = re.compile(r"\[([^\[\]]+)\]")
_HOPS = re.compile(r"(\d)hop")


@dataclass(frozen=True)
class QAPair:
    id: str
    text: str  # without brackets: what the walk is asked
    topic: str
    answers: tuple[str, ...]
    hops: int = 0  # from the file name (qa_dev_2hop.txt) when known; for reporting only
    raw: str = ""  # the question as written, with its [topic]
    topic_id: str | None = None  # the topic's entity id when known (questions written from the graph)

    @property
    def start_id(self) -> str:
        """The id of the entity the question is about: ``topic_id``, else the id of the topic's name."""
        return self.topic_id or entity_id(self.topic)


def split_of(seed: int, text: str, val: float = VAL_SHARE, test: float = TEST_SHARE) -> Split:
    """``train`` / ``val`` / ``test`` by sha256 of ``"{seed}:{normalised question}"`` (brackets ignored)."""
    key = " ".join(text.replace("[", "").replace("]", "").casefold().split())
    u = int.from_bytes(hashlib.sha256(f"{seed}:{key}".encode()).digest()[:8], "big") / 2**64
    return "test" if u < test else "val" if u < test + val else "train"


def load_qa(paths: Sequence[str | Path], fmt: QAFormat = "metaqa") -> list[QAPair]:
    out: list[QAPair] = []
    for path in paths:
        p = Path(path)
        if not p.is_file():
            raise InputError("no such question file; pass --qa FILE (MetaQA qa_*.txt or JSON lines)", path=p)
        match = _HOPS.search(p.name)
        hops = int(match.group(1)) if match else 0
        for line_no, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            qid = f"{p.stem}:{line_no}"
            if fmt == "metaqa":
                q = parse_qa_line(line, line=line_no, path=p)
                out.append(QAPair(qid, q.text_without_brackets, q.topic, q.answers, hops, q.text))
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(
                    f"not JSON ({exc.msg}); --format jsonl wants one "
                    '{"question", "answers", "topic"} object per line',
                    path=p,
                    line=line_no,
                ) from exc
            question, answers = row.get("question"), row.get("answers")
            if not isinstance(question, str) or not isinstance(answers, list) or not answers:
                raise InputError(
                    'each line needs "question" (text) and "answers" (a non-empty list)', path=p, line=line_no
                )
            topic = row.get("topic")
            if not isinstance(topic, str):
                found = _TOPIC.findall(question)
                if len(found) != 1:
                    raise InputError(
                        'no "topic" and not exactly one [bracketed] entity in the question', path=p, line=line_no
                    )
                topic = found[0]
            raw = question if "[" in question else question.replace(topic, f"[{topic}]", 1)
            out.append(
                QAPair(
                    qid,
                    _TOPIC.sub(lambda m: m.group(1), question),
                    topic.strip(),
                    tuple(str(a) for a in answers),
                    int(row.get("hops") or hops),
                    raw,
                )
            )
    return out


def qa_hash(pairs: Iterable[QAPair]) -> str:
    digest = hashlib.sha256()
    for q in pairs:
        digest.update(json.dumps([q.id, q.text, q.topic, list(q.answers)], ensure_ascii=False).encode())
    return digest.hexdigest()


def sample_pairs(pairs: Sequence[QAPair], per_file: int | None, seed: int) -> list[QAPair]:
    """At most ``per_file`` questions of every file (the lowest sha256 of ``"{seed}:{id}"``), in file order."""
    if per_file is None:
        return list(pairs)
    by_file: dict[str, list[QAPair]] = {}
    for q in pairs:
        by_file.setdefault(q.id.rsplit(":", 1)[0], []).append(q)
    keep: set[str] = set()
    for group in by_file.values():
        ranked = sorted(group, key=lambda q: hashlib.sha256(f"{seed}:{q.id}".encode()).hexdigest())
        keep.update(q.id for q in ranked[:per_file])
    return [q for q in pairs if q.id in keep]
