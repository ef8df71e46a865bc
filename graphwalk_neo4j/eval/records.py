"""The eval's value types: what a run asks (:class:`MetaQAOptions`, :class:`RunSpec`) and one scored answer
(:class:`QuestionRecord`, built by :func:`make_record`). No I/O: the runner and the report both read them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from graphwalk_neo4j.eval.metrics import score_answers
from graphwalk_neo4j.qa_format import answer_set

if TYPE_CHECKING:
    from graphwalk_neo4j.eval.answers import SystemAnswer
    from graphwalk_neo4j.eval.metaqa import MetaQAQuestion

CEILING = "ceiling"
"""The system name of the path ceiling (an oracle that follows the gold relation path)."""


class MetaQAOptions(BaseModel):
    """Everything ``gw-neo4j eval metaqa`` decides (see the command's help)."""

    data_dir: str
    split: str = "dev"
    hops: list[int] = Field(default_factory=lambda: [1, 2, 3])
    n: int | None = None
    seed: int = 0
    system: str = "graphwalk"  # graphwalk | vector | all
    presets: list[str] = Field(default_factory=lambda: ["relation"])
    overrides: dict[str, Any] = Field(default_factory=dict)
    model: str | None = None
    linking: str = "gold"
    concurrency: int = 4
    run_id: str
    graph: str = "metaqa"
    trace: bool = False
    vector_k: int | None = None
    llm_model: str | None = None
    results_dir: str = "results"
    cache_dir: str = ".cache/graphwalk/eval"
    heldout: str | None = None
    type_map: str | None = None  # none | metaqa | a JSON file; default: runner.choose_type_map


class RunSpec(BaseModel):
    """What questions a run asks and where: everything except the systems' own settings."""

    run_id: str
    dataset: str = "metaqa"
    data_dir: str
    split: str
    hops: list[int]
    n: int | None = None
    seed: int = 0
    graph: str
    linking: str = "gold"
    concurrency: int = 4
    trace: bool = False
    heldout: str | None = None  # a learned decider's directory: only its held-out test questions
    type_map: str | None = None  # as asked (--type-map); the map used is in results.json's preparation


class QuestionRecord(BaseModel):
    """One system's answer to one question, scored."""

    system: str
    question_id: str
    hops: int
    line: int
    qtype: str | None = None
    text: str
    topic: str
    gold: list[str]
    answers: list[str]
    ranked: list[str] = Field(default_factory=list)
    hits_at_1: float
    exact_match: float
    precision: float
    recall: float
    f1: float
    answered: bool
    linking_ok: bool | None = None
    status: str
    stop_reason: str = ""
    path: str | None = None
    walk_id: str | None = None
    linked: list[str] | None = None
    decision_calls: int = 0
    llm_calls: int = 0
    round_trips: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    latency_s: float = 0.0
    extra: dict[str, Any] = Field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return self.system, self.question_id


def make_record(system: str, question: MetaQAQuestion, answer: SystemAnswer, latency_s: float) -> QuestionRecord:
    """Score ``answer`` against the question's gold answers. Linking counts as correct when the system started
    from the topic entity (by normalised name); systems that report no start get ``linking_ok=None``."""
    scores = score_answers(answer.answers, question.answers)
    linking_ok = None
    if answer.linked is not None:
        linking_ok = bool(answer_set([question.topic]) & answer_set(answer.linked))
    return QuestionRecord(
        system=system,
        question_id=question.id,
        hops=question.hops,
        line=question.line,
        qtype=question.qtype,
        text=question.text,
        topic=question.topic,
        gold=list(question.answers),
        answers=answer.answers,
        ranked=answer.ranked,
        hits_at_1=scores.hits_at_1,
        exact_match=scores.exact_match,
        precision=scores.precision,
        recall=scores.recall,
        f1=scores.f1,
        answered=bool(answer.answers),
        linking_ok=linking_ok,
        status=answer.status,
        stop_reason=answer.stop_reason,
        path=answer.path,
        walk_id=answer.walk_id,
        linked=answer.linked,
        decision_calls=answer.decision_calls,
        llm_calls=answer.llm_calls,
        round_trips=answer.round_trips,
        input_tokens=answer.input_tokens,
        output_tokens=answer.output_tokens,
        cost_usd=answer.cost_usd,
        latency_s=latency_s,
        extra=answer.extra,
    )
