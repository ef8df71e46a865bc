"""The decision the decider unit tests share: a relation walk that went from Sharon Tate to her two films along
``starred_actors`` and now asks what to do next, built by the walk's own ``build_question``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.walk.choice_questions import build_question
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.ports import NodeRef
from graphwalk_neo4j.walk.result import PathStep

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.decide.base import ChoiceQuestion
    from graphwalk_neo4j.walk.ports import Option

TATE = NodeRef(id="t", name="Sharon Tate", type="person")
FILMS = [NodeRef(id=f"f{i}", name=f"Film {i}", type="film") for i in range(2)]
YEARS = (NodeRef(id="y1", name="1967", type="year"), NodeRef(id="y2", name="1968", type="year"))
STEP = PathStep(
    step_id="s",
    depth=1,
    kind="decision",
    label="o1",
    relation="starred_actors",
    direction="in",
    from_ids=["t"],
    from_names=["Sharon Tate"],
    nodes=FILMS,
)
QUESTION = "the films starred by Sharon Tate were released in which years"


def tate_decision(options: Sequence[Option], key: str = "b0") -> ChoiceQuestion:
    """The question at the films, offering ``options`` and STOP."""
    return question_at(FILMS, [STEP], options, QUESTION, key)


def first_decision(options: Sequence[Option], question: str, key: str = "b0") -> ChoiceQuestion:
    """The question at Sharon Tate herself, before any hop, offering ``options`` and STOP."""
    return question_at([TATE], [], options, question, key)


def question_at(
    current: list[NodeRef], steps: list[PathStep], options: Sequence[Option], question: str, key: str = "b0"
) -> ChoiceQuestion:
    """The question at ``current`` after ``steps`` from Sharon Tate, offering ``options`` and STOP."""
    built, _ = build_question(
        key,
        current=current,
        start=[TATE],
        steps=steps,
        options=list(options),
        stop_allowed=True,
        config=WalkConfig(hop_mode="relation"),
        question=question,
    )
    return built
