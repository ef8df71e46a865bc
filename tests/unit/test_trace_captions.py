"""Caption properties of stored walks and steps (graphwalk_neo4j.walk.neo4j_trace_sink): exact strings."""

from __future__ import annotations

from typing import Any

import pytest

from graphwalk_neo4j.walk.neo4j_trace_sink import (
    MAX_CAPTION_RELATION,
    MAX_WALK_CAPTION,
    short_p,
    step_captions,
    walk_caption,
)

DECISION: dict[str, Any] = {
    "depth": 1,
    "beam": "b0",
    "kind": "decision",
    "kept": True,
    "chosen": "o2",
    "is_stop": False,
    "chosen_relation": "directed_by",
    "chosen_direction": "in",
    "p": 0.891,
    "option_relations": ["written_by", "directed_by", ""],
    "option_directions": ["out", "in", ""],
    "probs": [0.05, 0.891, 0.059],
    "pruned": '[{"relation": "release_year", "direction": "out", "reason": "hub", "count": 37}]',
}


@pytest.mark.parametrize(
    ("p", "text"), [(0.891, ".89"), (0.05, ".05"), (0.0, ".00"), (0.999, "1"), (1.0, "1"), (0.5, ".50")]
)
def test_short_p(p: float, text: str) -> None:
    assert short_p(p) == text


def test_decision_step() -> None:
    assert step_captions(DECISION) == {
        "caption": "d1 directed_by ← p .89",
        "hop": "directed_by ← .89",
        "option_captions": ["written_by → .05", "directed_by ← .89", "STOP .06"],
        "pruned_captions": ["release_year → 37 pruned"],
    }


def test_a_move_truncated_by_the_frontier_cap_says_how_much_it_kept() -> None:
    truncated = {**DECISION, "truncated": True, "n_chosen_targets": 2000, "total": 41259}
    assert step_captions(truncated)["caption"] == "d1 directed_by ← p .89 · 2,000 of 41,259"
    assert step_captions({**truncated, "kept": False})["caption"] == "d1 directed_by ← p .89 · 2,000 of 41,259 ✗"
    assert step_captions({**truncated, "truncated": False})["caption"] == "d1 directed_by ← p .89"


def test_other_kinds_of_step() -> None:
    forced_move = {**DECISION, "kind": "forced_move", "p": None, "chosen_direction": "out", "probs": [], "pruned": []}
    assert step_captions(forced_move)["caption"] == "d1 directed_by → forced"
    assert step_captions(forced_move)["hop"] == "directed_by → forced"
    assert step_captions(forced_move)["option_captions"] == ["written_by → –", "directed_by ← –", "STOP –"]
    stop = {"depth": 3, "beam": "b0", "kind": "decision", "kept": True, "chosen": "STOP", "is_stop": True, "p": 0.9}
    assert step_captions(stop) == {
        "caption": "d3 STOP p .90",
        "hop": None,
        "option_captions": [],
        "pruned_captions": [],
    }
    forced_stop = {**stop, "kind": "forced_stop", "p": 1.0, "beam": "b1", "kept": False}
    assert step_captions(forced_stop)["caption"] == "d3 b1 STOP forced ✗"
    dead = {"depth": 1, "beam": "b0", "kind": "dead_end", "kept": False, "chosen": None}
    assert step_captions(dead) == {
        "caption": "d1 dead end ✗",
        "hop": None,
        "option_captions": [],
        "pruned_captions": [],
    }


def test_walk_caption_is_the_question_shortened() -> None:
    assert walk_caption("Who  directed\nMemento?") == "Who directed Memento?"
    long = "what genres are the films whose director also directed the film that starred " * 2
    caption = walk_caption(long)
    assert len(caption) <= MAX_WALK_CAPTION
    assert caption.endswith("…")
    assert long.startswith(caption[:-1])


def test_a_long_relation_name_is_cut_in_captions_and_kept_whole_beside_them() -> None:
    long = "/film/film/" + "x" * 100
    captions = step_captions({**DECISION, "chosen_relation": long, "option_relations": [long, "directed_by", ""]})
    cut = long[: MAX_CAPTION_RELATION - 1] + "…"
    assert captions["hop"] == f"{cut} ← .89"
    assert captions["option_captions"] == [f"{cut} → .05", "directed_by ← .89", "STOP .06"]
