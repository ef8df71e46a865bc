"""MetaQA questions: loading ``qa_{split}_{k}hop.txt``, seeded subsets, and the gold relation paths behind
question types for the path-following ceiling. Pure: no database.

File format (see ``datasets/metaqa/README.md``): one question per line, ``text with one [topic]<TAB>a1|a2``.
A ``qa_{split}_{k}hop_qtype.txt`` beside it gives each line's question type (``director_to_movie_to_actor``).

Gold fields: ``answers`` and ``qtype`` on :class:`MetaQAQuestion` are for scoring, reports and the ceiling
only. A system under test gets :meth:`MetaQAQuestion.system_input` and must never read them.

Question types are chains of entity kinds joined by ``_to_``; every hop has a movie on one side. The hop
``movie_to_X`` follows X's relation outgoing (movie -> X), ``X_to_movie`` follows it incoming. The kinds:
see :data:`KIND_RELATIONS`. In 2- and 3-hop questions the topic entity is never an answer and never an
intermediate node, so :func:`follow_path` drops it after every hop of a path of two or more hops.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.qa_format import parse_qa_line

Direction = Literal["out", "in"]

KIND_RELATIONS: dict[str, str] = {
    "actor": "starred_actors",
    "director": "directed_by",
    "writer": "written_by",
    "year": "release_year",
    "language": "in_language",
    "genre": "has_genre",
    "tag": "has_tags",
    "tags": "has_tags",
    "imdbvotes": "has_imdb_votes",
    "imdbrating": "has_imdb_rating",
}
"""Entity kind in a qtype name -> the MetaQA relation linking a movie (subject) to it (object)."""

MOVIE = "movie"


class PathStep(NamedTuple):
    """One hop of a gold path: a relation and which way to follow it from the current node."""

    relation: str
    direction: Direction


class MetaQAQuestion(BaseModel):
    """One MetaQA question. ``answers`` and ``qtype`` are gold: never show them to the system under test."""

    model_config = ConfigDict(frozen=True)

    id: str
    split: str
    hops: int
    line: int
    text: str
    text_without_brackets: str
    topic: str
    answers: tuple[str, ...]
    qtype: str | None = None

    def system_input(self) -> dict[str, str]:
        """What a system under test may see: id, text (with brackets), text without brackets and topic."""
        return {
            "id": self.id,
            "text": self.text,
            "text_without_brackets": self.text_without_brackets,
            "topic": self.topic,
        }


def reword_outside_topic(text: str, rules: Sequence[tuple[str, str]]) -> str:
    """``text`` with every ``(pattern, replacement)`` regex rule applied in order, outside its ``[topic]`` (the
    robustness sets of ``scripts/paraphrase_metaqa.py`` and ``scripts/selection_metaqa.py``)."""
    out = []
    for part in re.split(r"(\[[^\]]*\])", text):
        if not part.startswith("["):
            for pattern, replacement in rules:
                part = re.sub(pattern, replacement, part)
        out.append(part)
    return "".join(out)


def question_file(directory: str | Path, split: str, hops: int) -> Path:
    """``directory/qa_{split}_{hops}hop.txt``, or ``directory/{split}/...`` when only that exists."""
    name = f"qa_{split}_{hops}hop.txt"
    base = Path(directory)
    direct, nested = base / name, base / split / name
    return nested if not direct.exists() and nested.exists() else direct


def parse_question_line(
    text: str,
    *,
    split: str,
    hops: int,
    line: int,
    path: str | Path | None = None,
) -> MetaQAQuestion:
    """Parse one ``question<TAB>answers`` line (:func:`graphwalk_neo4j.qa_format.parse_qa_line`); ``line`` is
    1-based and becomes part of the id."""
    parsed = parse_qa_line(text, line=line, path=path)
    return MetaQAQuestion(
        id=f"{split}-{hops}hop-{line:05d}",
        split=split,
        hops=hops,
        line=line,
        text=parsed.text,
        text_without_brackets=parsed.text_without_brackets,
        topic=parsed.topic,
        answers=parsed.answers,
    )


def load_questions(
    directory: str | Path,
    split: str,
    hops: int,
    *,
    with_qtype: bool = True,
) -> list[MetaQAQuestion]:
    """Load every question of ``qa_{split}_{hops}hop.txt`` (see :func:`question_file`).

    Ids are ``{split}-{hops}hop-{line:05d}`` with the 1-based line number (``dev-2hop-00017`` is line 17).
    With ``with_qtype`` and a ``*_qtype.txt`` beside the file, each question gets its ``qtype``; the qtype
    file must have exactly one non-empty line per question.
    """
    if hops not in (1, 2, 3):
        raise ValueError(f"MetaQA has 1-, 2- and 3-hop questions, not {hops}")
    path = question_file(directory, split, hops)
    if not path.is_file():
        raise InputError(f"no MetaQA question file for split {split!r}, {hops}-hop", path=path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 at byte offset {exc.start}", path=path) from exc
    questions = [
        parse_question_line(t, split=split, hops=hops, line=i, path=path)
        for i, t in enumerate(lines, start=1)
        if t.strip()
    ]
    if not questions:
        raise InputError("is empty; expected at least one question", path=path)
    qtype_path = path.with_name(f"{path.stem}_qtype.txt")
    if with_qtype and qtype_path.is_file():
        qtypes = qtype_path.read_text(encoding="utf-8").splitlines()
        if len(qtypes) < len(lines) or any(t.strip() for t in qtypes[len(lines) :]):
            raise InputError(
                f"has {len(qtypes)} lines but {path.name} has {len(lines)}; they must match line by line",
                path=qtype_path,
            )
        questions = [q.model_copy(update={"qtype": qtypes[q.line - 1].strip() or None}) for q in questions]
    return questions


def _sample_key(seed: int, question_id: str) -> str:
    return hashlib.sha256(f"{seed}:{question_id}".encode()).hexdigest()


def sample(questions: Iterable[MetaQAQuestion], n: int, seed: int) -> list[MetaQAQuestion]:
    """A stable seeded subset of ``n`` questions, returned in (split, hops, line) order.

    Each question is ranked by sha256 of ``"{seed}:{id}"`` and the ``n`` lowest are kept, so the result
    depends only on the ids, ``n`` and ``seed``: not on input order, Python's hash seed or the library
    version. Growing ``n`` only adds questions (the sample for n is inside the sample for n + 1).
    ``n`` larger than the pool returns the whole pool.
    """
    if n < 0:
        raise ValueError(f"sample size must be >= 0, got {n}")
    pool = {q.id: q for q in questions}
    chosen = sorted(pool, key=lambda qid: _sample_key(seed, qid))[:n]
    return sorted((pool[qid] for qid in chosen), key=lambda q: (q.split, q.hops, q.line))


def qtype_path(qtype: str) -> tuple[PathStep, ...]:
    """The gold relation path of a question type, e.g. ``director_to_movie_to_actor`` ->
    ``(directed_by, in), (starred_actors, out)``. Raises :class:`InputError` for a name it cannot map.

    A qtype that starts with ``[`` is the path itself, for question sets on other graphs (the dev sets in
    ``graphwalk_neo4j/data/devsets/``): a JSON list of ``[relation, "out" | "in"]`` pairs, any relation name,
    e.g. ``[["/people/person/employer", "out"], ["/organization/organization/headquarters", "out"]]``."""
    if qtype.lstrip().startswith("["):
        return explicit_path(qtype)
    kinds = qtype.strip().split("_to_")
    if len(kinds) < 2:
        raise InputError(f"question type {qtype!r} is not of the form kind_to_kind[_to_kind...]")
    steps: list[PathStep] = []
    for src, dst in itertools.pairwise(kinds):
        if src == MOVIE and dst in KIND_RELATIONS:
            steps.append(PathStep(KIND_RELATIONS[dst], "out"))
        elif dst == MOVIE and src in KIND_RELATIONS:
            steps.append(PathStep(KIND_RELATIONS[src], "in"))
        else:
            known = ", ".join(sorted(KIND_RELATIONS))
            raise InputError(
                f"question type {qtype!r}: cannot map the hop {src}_to_{dst}; every hop joins "
                f"'movie' and one of {known}"
            )
    return tuple(steps)


def explicit_path(text: str) -> tuple[PathStep, ...]:
    """A gold path written out as JSON (see :func:`qtype_path`)."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"question type {text[:60]!r} starts with '[' but is not JSON: {exc.msg}") from None
    if not (
        isinstance(raw, list)
        and raw
        and all(isinstance(s, list) and len(s) == 2 and isinstance(s[0], str) and s[1] in ("out", "in") for s in raw)
    ):
        raise InputError(
            f'question type {text[:60]!r}: a written-out path is a JSON list of [relation, "out" or "in"] pairs'
        )
    return tuple(PathStep(relation, direction) for relation, direction in raw)


def path_qtype(path: Sequence[PathStep]) -> str:
    """The qtype line that :func:`qtype_path` reads back as ``path``."""
    return json.dumps([[step.relation, step.direction] for step in path], ensure_ascii=False)


Adjacency = Mapping[str, Mapping[PathStep, Iterable[str]]]
"""node name -> (relation, direction) -> neighbour names."""


def build_adjacency(triples: Iterable[tuple[str, str, str]]) -> dict[str, dict[PathStep, set[str]]]:
    """Index ``(subject, relation, object)`` triples both ways for :func:`follow_path`."""
    adj: dict[str, dict[PathStep, set[str]]] = {}
    for s, r, o in triples:
        adj.setdefault(s, {}).setdefault(PathStep(r, "out"), set()).add(o)
        adj.setdefault(o, {}).setdefault(PathStep(r, "in"), set()).add(s)
    return adj


def follow_path(
    adjacency: Adjacency, topic: str, path: Sequence[PathStep], *, exclude_topic: bool | None = None
) -> set[str]:
    """Entities reached from ``topic`` by following ``path`` hop by hop (the ceiling answer set).

    With ``exclude_topic`` (default: ``len(path) >= 2``) the topic entity is dropped from the frontier after
    *every* hop, not only from the final answers: MetaQA's multi-hop questions never route through the
    topic again ("movies whose directors also directed [X]" means movies other than X). On the dev 3-hop
    split this rule makes the ceiling set equal the gold set for 9,412 questions, against 5,476 when the
    topic is only removed at the end, and it reproduces the README's reachability figures.
    """
    exclude = exclude_topic if exclude_topic is not None else len(path) >= 2
    frontier = {topic}
    for step in path:
        nxt: set[str] = set()
        for node in frontier:
            nxt.update(adjacency.get(node, {}).get(step, ()))
        if exclude:
            nxt.discard(topic)
        frontier = nxt
    return frontier
