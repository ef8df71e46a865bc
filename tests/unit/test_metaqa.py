"""Unit tests for graphwalk_neo4j.eval.metaqa: loading, seeded sampling, qtype paths, in-memory ceiling."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.eval.metaqa import (
    KIND_RELATIONS,
    MetaQAQuestion,
    PathStep,
    build_adjacency,
    follow_path,
    load_questions,
    parse_question_line,
    qtype_path,
    question_file,
    sample,
)
from graphwalk_neo4j.ingest.parsers import parse_file
from tests.helpers import shared_dir

DATA = Path(__file__).resolve().parents[1] / "data" / "metaqa"
METAQA = shared_dir() / "datasets" / "metaqa"

DEV_QTYPES = [
    "actor_to_movie",
    "actor_to_movie_to_actor",
    "actor_to_movie_to_director",
    "actor_to_movie_to_genre",
    "actor_to_movie_to_language",
    "actor_to_movie_to_writer",
    "actor_to_movie_to_year",
    "director_to_movie",
    "director_to_movie_to_actor",
    "director_to_movie_to_director",
    "director_to_movie_to_genre",
    "director_to_movie_to_language",
    "director_to_movie_to_writer",
    "director_to_movie_to_year",
    "movie_to_actor",
    "movie_to_actor_to_movie",
    "movie_to_actor_to_movie_to_director",
    "movie_to_actor_to_movie_to_genre",
    "movie_to_actor_to_movie_to_language",
    "movie_to_actor_to_movie_to_writer",
    "movie_to_actor_to_movie_to_year",
    "movie_to_director",
    "movie_to_director_to_movie",
    "movie_to_director_to_movie_to_actor",
    "movie_to_director_to_movie_to_genre",
    "movie_to_director_to_movie_to_language",
    "movie_to_director_to_movie_to_writer",
    "movie_to_director_to_movie_to_year",
    "movie_to_genre",
    "movie_to_imdbrating",
    "movie_to_imdbvotes",
    "movie_to_language",
    "movie_to_tags",
    "movie_to_writer",
    "movie_to_writer_to_movie",
    "movie_to_writer_to_movie_to_actor",
    "movie_to_writer_to_movie_to_director",
    "movie_to_writer_to_movie_to_genre",
    "movie_to_writer_to_movie_to_language",
    "movie_to_writer_to_movie_to_year",
    "movie_to_year",
    "tag_to_movie",
    "writer_to_movie",
    "writer_to_movie_to_actor",
    "writer_to_movie_to_director",
    "writer_to_movie_to_genre",
    "writer_to_movie_to_language",
    "writer_to_movie_to_writer",
    "writer_to_movie_to_year",
]
METAQA_RELATIONS = {
    "directed_by",
    "written_by",
    "starred_actors",
    "release_year",
    "in_language",
    "has_tags",
    "has_genre",
    "has_imdb_votes",
    "has_imdb_rating",
}


def _kb_adjacency() -> dict[str, Any]:
    batches, _ = parse_file(DATA / "kb.txt")
    return build_adjacency((r.subject, r.relation, r.object) for b in batches for r in b)


# --- loading -------------------------------------------------------------------------------------------


def test_parse_question_line() -> None:
    text = "what movies did [Temuera Morrison] act in\tOnce Were Warriors|Tracker|River Queen\n"
    q = parse_question_line(text, split="dev", hops=1, line=1)
    assert q.id == "dev-1hop-00001"
    assert q.text == "what movies did [Temuera Morrison] act in"
    assert q.text_without_brackets == "what movies did Temuera Morrison act in"
    assert q.topic == "Temuera Morrison"
    assert q.answers == ("Once Were Warriors", "Tracker", "River Queen")
    assert q.qtype is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("no tab here", "expected 'question<TAB>answer1|answer2|...', found 1"),
        ("who directed Kismet\tWilliam Dieterle", r"exactly one \[topic entity\].*found 0"),
        ("is [A] like [B]\tC", r"exactly one \[topic entity\].*found 2"),
        ("who directed [Kismet]\t | ", "no answers"),
    ],
)
def test_bad_question_lines(line: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        parse_question_line(line, split="dev", hops=1, line=7, path="qa.txt")
    assert (info.value.path, info.value.line) == ("qa.txt", 7)


def test_load_questions_with_qtype() -> None:
    qs = load_questions(DATA, "dev", 2)
    assert [q.id for q in qs] == ["dev-2hop-00001", "dev-2hop-00002", "dev-2hop-00003"]
    assert [q.qtype for q in qs] == [
        "director_to_movie_to_actor",
        "movie_to_actor_to_movie",
        "actor_to_movie_to_year",
    ]
    assert qs[1].topic == "Kismet"
    assert qs[1].answers == ("Blonde Venus", "Random Harvest")
    assert (qs[0].split, qs[0].hops, qs[0].line) == ("dev", 2, 1)


def test_system_input_hides_gold() -> None:
    q = load_questions(DATA, "dev", 1)[0]
    seen = q.system_input()
    assert set(seen) == {"id", "text", "text_without_brackets", "topic"}
    assert "actor_to_movie" not in seen.values()
    assert "Kismet" not in seen.values()


def test_load_questions_without_qtype_and_nested_layout(tmp_path: Path) -> None:
    (tmp_path / "dev").mkdir()
    line = "who directed [Kismet]\tWilliam Dieterle"
    (tmp_path / "dev" / "qa_dev_1hop.txt").write_text("\n".join([line] * 3))
    assert question_file(tmp_path, "dev", 1) == tmp_path / "dev" / "qa_dev_1hop.txt"
    qs = load_questions(tmp_path, "dev", 1)
    assert [q.id for q in qs] == ["dev-1hop-00001", "dev-1hop-00002", "dev-1hop-00003"]
    assert all(q.qtype is None for q in qs)
    assert all(q.qtype is None for q in load_questions(DATA, "dev", 1, with_qtype=False))


def test_load_questions_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no MetaQA question file"):
        load_questions(tmp_path, "dev", 1)
    with pytest.raises(ValueError, match="not 4"):
        load_questions(DATA, "dev", 4)
    (tmp_path / "qa_dev_1hop.txt").write_text("who directed [Kismet]\tW D\nwho wrote [Kismet]\tX\n")
    (tmp_path / "qa_dev_1hop_qtype.txt").write_text("movie_to_director\n")
    with pytest.raises(InputError, match=r"qa_dev_1hop_qtype\.txt: has 1 lines but qa_dev_1hop\.txt has 2"):
        load_questions(tmp_path, "dev", 1)
    (tmp_path / "qa_dev_1hop.txt").write_text("who directed [Kismet]\tWilliam Dieterle\nwho [wrote\tX\n")
    with pytest.raises(InputError, match=r"qa_dev_1hop.txt:2: expected exactly one \[topic entity\]"):
        load_questions(tmp_path, "dev", 1)
    (tmp_path / "qa_dev_1hop.txt").write_bytes(b"")
    with pytest.raises(InputError, match="is empty"):
        load_questions(tmp_path, "dev", 1)


# --- sampling ------------------------------------------------------------------------------------------


def _pool(n: int) -> list[MetaQAQuestion]:
    lines = [f"who directed [M{i}]\tD{i}" for i in range(1, n + 1)]
    return [parse_question_line(t, split="dev", hops=2, line=i) for i, t in enumerate(lines, start=1)]


def test_sample_is_stable_and_order_independent() -> None:
    pool = _pool(200)
    first = sample(pool, 20, seed=13)
    shuffled = pool[:]
    random.Random(99).shuffle(shuffled)
    assert [q.id for q in sample(shuffled, 20, seed=13)] == [q.id for q in first]
    assert [q.line for q in first] == sorted(q.line for q in first)
    assert len({q.id for q in first}) == 20
    assert [q.id for q in sample(pool, 20, seed=14)] != [q.id for q in first]


def test_sample_grows_by_adding() -> None:
    pool = _pool(100)
    small = {q.id for q in sample(pool, 10, seed=1)}
    assert small < {q.id for q in sample(pool, 11, seed=1)}


def test_sample_pinned_values() -> None:
    # pins the ranking rule (sha256 of "seed:id"): change it only on purpose, it reshuffles every subset
    got = [q.id for q in sample(_pool(30), 3, seed=0)]
    assert got == ["dev-2hop-00021", "dev-2hop-00022", "dev-2hop-00028"]


def test_sample_edges() -> None:
    pool = _pool(5)
    assert len(sample(pool, 50, seed=0)) == 5
    assert sample(pool, 0, seed=0) == []
    with pytest.raises(ValueError, match="sample size must be >= 0, got -1"):
        sample(pool, -1, seed=0)


# --- qtype -> gold path --------------------------------------------------------------------------------


def test_qtype_paths() -> None:
    assert qtype_path("director_to_movie_to_actor") == (
        PathStep("directed_by", "in"),
        PathStep("starred_actors", "out"),
    )
    assert qtype_path("movie_to_tags") == (PathStep("has_tags", "out"),)
    assert qtype_path("tag_to_movie") == (PathStep("has_tags", "in"),)
    assert qtype_path("movie_to_imdbrating") == (PathStep("has_imdb_rating", "out"),)
    assert qtype_path("movie_to_writer_to_movie_to_language") == (
        PathStep("written_by", "out"),
        PathStep("written_by", "in"),
        PathStep("in_language", "out"),
    )


@pytest.mark.parametrize("bad", ["movie", "actor_to_director", "movie_to_budget", "movie_to_movie", ""])
def test_qtype_path_rejects_unknown(bad: str) -> None:
    with pytest.raises(InputError):
        qtype_path(bad)


def test_every_known_dev_qtype_maps() -> None:
    for qtype in DEV_QTYPES:
        path = qtype_path(qtype)
        assert len(path) == qtype.count("_to_")
        assert {step.relation for step in path} <= METAQA_RELATIONS
    assert set(KIND_RELATIONS.values()) == METAQA_RELATIONS


def test_every_dev_qtype_file_maps() -> None:
    seen: set[str] = set()
    for k in (1, 2, 3):
        lines = (METAQA / "dev" / f"qa_dev_{k}hop_qtype.txt").read_text(encoding="utf-8").splitlines()
        for qtype in {line.strip() for line in lines if line.strip()}:
            assert len(qtype_path(qtype)) == k, qtype
            seen.add(qtype)
    assert seen == set(DEV_QTYPES)


# --- in-memory ceiling ---------------------------------------------------------------------------------


def test_follow_path_on_fixture_questions_matches_gold() -> None:
    adj = _kb_adjacency()
    for k in (1, 2, 3):
        for q in load_questions(DATA, "dev", k):
            assert q.qtype is not None
            assert follow_path(adj, q.topic, qtype_path(q.qtype)) == set(q.answers), q.id


def test_follow_path_topic_rules() -> None:
    adj = _kb_adjacency()
    shares_actors = qtype_path("movie_to_actor_to_movie")
    assert follow_path(adj, "Kismet", shares_actors) == {"Blonde Venus", "Random Harvest"}
    assert "Kismet" in follow_path(adj, "Kismet", shares_actors, exclude_topic=False)
    # 3-hop: the topic is not an intermediate node either (no 1944 via Kismet itself)
    years = qtype_path("movie_to_director_to_movie_to_year")
    assert follow_path(adj, "Kismet", years) == {"1940"}
    assert follow_path(adj, "Kismet", years, exclude_topic=False) == {"1940", "1944"}
    # 1-hop keeps the topic (MetaQA has "which films are about [9/11]" -> "9/11")
    self_loop = build_adjacency([("9/11", "has_tags", "9/11")])
    assert follow_path(self_loop, "9/11", qtype_path("tag_to_movie")) == {"9/11"}
    assert follow_path(adj, "Nobody", years) == set()
    assert follow_path(adj, "Kismet", [PathStep("directed_by", "out")]) == {"William Dieterle"}


def test_ceiling_reproduces_readme_reachability_on_dev_2hop() -> None:
    batches, _ = parse_file(METAQA / "kb.txt")
    adj = build_adjacency((r.subject, r.relation, r.object) for b in batches for r in b)
    qs = load_questions(METAQA / "dev", "dev", 2)
    full = sum(set(q.answers) <= follow_path(adj, q.topic, qtype_path(q.qtype or "")) for q in qs)
    assert round(100 * full / len(qs), 1) == 84.1  # README: 84.1% of dev 2-hop questions fully reachable
