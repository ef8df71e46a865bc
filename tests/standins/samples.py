"""Shared decision requests for backend tests, shaped like the walk's (state = query, per-beam path)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionRequest, JSONContent

if TYPE_CHECKING:
    from collections.abc import Mapping

STOP_TEXT = "Stop here: the current node answers the query."


def hop_question(key: str, current: str, options: Mapping[str, JSONContent | None]) -> ChoiceQuestion:
    return ChoiceQuestion(
        key=key,
        instructions={
            "task": "Pick the next hop towards the answer, or STOP if the current node answers it.",
            "path": [current],
            "current": current,
        },
        options=dict(options),
    )


def sample_request() -> DecisionRequest:
    return DecisionRequest(
        state={"query": "Who directed Memento?"},
        questions=[
            hop_question(
                "b0",
                "Memento",
                {
                    "o1": "Memento directed_by Christopher Nolan",
                    "o2": "Memento release_year 2000",
                    "o3": "Memento starred_actors Guy Pearce",
                    "STOP": STOP_TEXT,
                },
            ),
            hop_question(
                "b1",
                "Guy Pearce",
                {"o1": "Guy Pearce starred_in Memento", "STOP": STOP_TEXT},
            ),
        ],
    )


def wide_request(n_options: int, key: str = "b0") -> DecisionRequest:
    options: dict[str, str | None] = {f"o{i}": f"option number {i}" for i in range(1, n_options + 1)}
    return DecisionRequest(state="q", questions=[hop_question(key, "X", options)])
