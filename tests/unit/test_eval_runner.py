"""The eval runner without a database: record scoring, run directories, resume, failures and round-trip counts."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.errors import ConfigError, LinkingError, StoreUnavailableError
from graphwalk_neo4j.eval.answers import CountingStore, SystemAnswer, count_round_trips
from graphwalk_neo4j.eval.metaqa import MetaQAQuestion, parse_question_line
from graphwalk_neo4j.eval.records import QuestionRecord, RunSpec, make_record
from graphwalk_neo4j.eval.runner import RunDir, answer_one, run_systems, settings_diff
from tests.standins.progress import RecordingProgress

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path


def _question(
    line: int, text: str = "who directed [Kismet]\tWilliam Dieterle|Josef von Sternberg", hops: int = 1
) -> MetaQAQuestion:
    return parse_question_line(text, split="dev", hops=hops, line=line)


QUESTIONS = [_question(i) for i in range(1, 6)]


class Interrupted(RuntimeError):
    """Stands in for Ctrl-C (a KeyboardInterrupt would stop pytest itself)."""


class ScriptedSystem:
    """Answers from a table; can fail after a number of answers (to simulate an interruption)."""

    def __init__(self, name: str = "s", fail_after: int | None = None, error: BaseException | None = None) -> None:
        self.name = name
        self.asked: list[str] = []
        self.fail_after = fail_after
        self.error = error

    def describe(self) -> dict[str, Any]:
        return {"kind": "scripted"}

    async def answer(self, question: Mapping[str, str]) -> SystemAnswer:
        if self.fail_after is not None and len(self.asked) >= self.fail_after:
            raise self.error or Interrupted()
        self.asked.append(question["id"])
        await asyncio.sleep(0)
        return SystemAnswer(answers=["William Dieterle", "Marlene Dietrich"], linked=["kismet"], decision_calls=2)


def test_make_record_scores_and_checks_linking() -> None:
    answer = SystemAnswer(answers=["William Dieterle", "Marlene Dietrich"], linked=["KISMET"], decision_calls=3)
    record = make_record("gw", QUESTIONS[0], answer, 0.25)
    assert (record.hits_at_1, record.exact_match, record.precision, record.recall) == (1.0, 0.0, 0.5, 0.5)
    assert record.f1 == 0.5
    assert record.linking_ok is True
    assert record.answered is True
    assert record.key == ("gw", "dev-1hop-00001")
    assert record.latency_s == 0.25
    assert record.decision_calls == 3
    missed = make_record("gw", QUESTIONS[0], SystemAnswer(answers=[], linked=["Blonde Venus"]), 0.0)
    assert (missed.linking_ok, missed.answered, missed.f1) == (False, False, 0.0)
    assert make_record("v", QUESTIONS[0], SystemAnswer(answers=[]), 0.0).linking_ok is None


def _spec(**changes: Any) -> RunSpec:
    base = {"run_id": "r1", "data_dir": "/d", "split": "dev", "hops": [1], "graph": "g"}
    return RunSpec(**{**base, **changes})


def test_run_dir_open_resume_and_mismatch(tmp_path: Path) -> None:
    run_dir = RunDir(tmp_path, "r1")
    assert run_dir.open(_spec(), {"s": {"k": 1}}, {"git_revision": "abc"}) is False
    stored = json.loads(run_dir.run_json.read_text())
    assert stored["spec"]["run_id"] == "r1"
    assert stored["environment"] == {"git_revision": "abc"}
    assert run_dir.open(_spec(concurrency=9, trace=True), {"s": {"k": 1}}, {}) is True  # volatile only
    with pytest.raises(ConfigError, match=r"spec.seed: 0 -> 7"):
        run_dir.open(_spec(seed=7), {"s": {"k": 1}}, {})
    with pytest.raises(ConfigError, match=r"systems.s.k: 1 -> 2"):
        run_dir.open(_spec(), {"s": {"k": 2}}, {})
    with pytest.raises(ConfigError, match="invalid run id"):
        RunDir(tmp_path, "../escape")


def test_settings_diff_lists_nested_paths() -> None:
    a = {"spec": {"seed": 1, "concurrency": 2}, "systems": {"x": {"k": 3}}, "environment": {"git": "a"}}
    b = {"spec": {"seed": 2, "concurrency": 8}, "systems": {"x": {"k": 3}, "y": {}}, "environment": {"git": "b"}}
    assert settings_diff(a, b) == ["spec.seed: 1 -> 2", "systems.y: None -> {}"]


def test_load_drops_a_partial_last_line(tmp_path: Path) -> None:
    run_dir = RunDir(tmp_path, "r1")
    run_dir.path.mkdir(parents=True)
    record = make_record("s", QUESTIONS[0], SystemAnswer(answers=["William Dieterle"]), 0.1)
    whole = record.model_dump_json() + "\n"
    run_dir.questions.write_text(whole + whole.replace("dev-1hop-00001", "dev-1hop-00002")[:40])
    loaded = run_dir.load()
    assert list(loaded) == [("s", "dev-1hop-00001")]
    assert run_dir.questions.read_text() == whole  # truncated back to the last complete line


async def test_run_systems_writes_lines_and_resumes_after_interruption(tmp_path: Path) -> None:
    run_dir = RunDir(tmp_path, "r1")
    run_dir.open(_spec(), {}, {})
    first = ScriptedSystem(fail_after=2)
    with pytest.raises(Interrupted):
        await run_systems([first], QUESTIONS, run_dir, concurrency=1)
    assert first.asked == ["dev-1hop-00001", "dev-1hop-00002"]
    assert len(run_dir.questions.read_text().splitlines()) == 2
    progress = RecordingProgress()
    second = ScriptedSystem()
    records = await run_systems([second], QUESTIONS, run_dir, concurrency=3, progress=progress)
    seen = progress.of("questions")
    assert second.asked == ["dev-1hop-00003", "dev-1hop-00004", "dev-1hop-00005"]  # only the missing ones
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert [r.question_id for r in records] == [q.id for q in QUESTIONS]
    assert all(r.f1 == 0.5 and r.decision_calls == 2 for r in records)
    again = ScriptedSystem()
    assert len(await run_systems([again], QUESTIONS, run_dir)) == 5
    assert again.asked == []
    lines = run_dir.questions.read_text().splitlines()
    assert len(lines) == 5
    assert all(QuestionRecord.model_validate_json(line) for line in lines)


async def test_answer_one_records_errors_but_aborts_on_an_unreachable_store() -> None:
    failing = ScriptedSystem(fail_after=0, error=LinkingError("no entity named 'x'"))
    record = await answer_one(failing, QUESTIONS[0])
    assert record.status == "error"
    assert record.stop_reason == "LinkingError: no entity named 'x'"
    assert (record.answered, record.f1) == (False, 0.0)
    with pytest.raises(StoreUnavailableError):
        await answer_one(ScriptedSystem(fail_after=0, error=StoreUnavailableError("down")), QUESTIONS[0])


class FakeStore:
    def __init__(self) -> None:
        self.reads = 0
        self.info = "server"

    async def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.reads += 1
        await asyncio.sleep(0)
        return [{"name": name}]

    async def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return []


async def test_round_trips_are_counted_per_task() -> None:
    store = CountingStore(FakeStore())  # type: ignore[arg-type]

    async def work(n: int) -> int:
        with count_round_trips() as trips:
            for _ in range(n):
                await store.read("graph/counts")
            await store.write("graph/drop_graph")  # FakeStore runs nothing
            return trips[0]

    assert list(await asyncio.gather(work(1), work(3), work(5))) == [2, 4, 6]
    assert store.info == "server"  # everything else is forwarded
    assert await store.read("graph/counts") == [{"name": "graph/counts"}]  # outside a count: not counted
