"""Walk admission (graphwalk_neo4j.admission.walk_call), the one check every door runs before a walk: exact
results and the exact one-line refusals the CLI, HTTP and MCP all show."""

from __future__ import annotations

import pytest

from graphwalk_neo4j.admission import WalkCall, walk_call
from graphwalk_neo4j.errors import ConfigError, InputError, InvalidIdentifierError, OptionValueError
from graphwalk_neo4j.walk.config import get_preset


def test_a_call_carries_the_checked_request() -> None:
    call = walk_call(
        "who directed Memento",
        graph="movies",
        start="Memento",
        preset="relation",
        options={"max_depth": 3},
        model="",
        choose_start=True,
    )
    assert call == WalkCall(
        question="who directed Memento",
        graph="movies",
        config=get_preset("relation", budget={"max_depth": 3}),
        start=["Memento"],
        model=None,
        choose_start=True,
    )
    assert walk_call("q").start is None
    assert walk_call("q", start=()).start is None
    assert walk_call("q").config == get_preset("relation")  # the default walk


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"question": " "}, InputError, "the question is empty"),
        ({"question": "q" * 2001}, InputError, "the question is 2,001 characters long; the limit is 2,000"),
        ({"start": ["a"] * 17}, InputError, "17 start entities given; the limit is 16"),
        ({"graph": "no such"}, InvalidIdentifierError, "graph name"),
        ({"preset": "nope"}, ConfigError, "unknown walk preset 'nope'"),
        ({"options": {"beam_width": 65}}, OptionValueError, "invalid walk options: beam_width=65 is over its limit 64"),
    ],
)
def test_a_bad_request_is_refused_before_any_work(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    args = {"question": "who directed Memento", **kwargs}
    with pytest.raises(error, match=message):
        walk_call(**args)  # type: ignore[arg-type]
