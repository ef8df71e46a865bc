"""WalkConfig validation, the max_depth shorthand, overrides, and the named presets."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.walk.config import PRESETS, Budget, WalkConfig, get_preset, preset_names


def test_defaults() -> None:
    config = WalkConfig()
    assert config.strategy == "greedy"
    assert config.hop_mode == "entity"
    assert config.direction == "both"
    assert config.exclude_visited is True
    assert config.allow_stop_at_start is False
    assert config.prob_floor == 1e-3
    assert config.length_alpha == 1.0
    assert config.max_neighbors == 50
    assert config.prefilter_keep == 30
    assert config.max_frontier == 2000
    assert config.budget == Budget(max_depth=4, max_decision_calls=12, max_input_tokens=None)
    assert config.max_depth == 4


def test_max_depth_shorthand_goes_into_budget() -> None:
    config = WalkConfig.model_validate({"max_depth": 2, "budget": {"max_decision_calls": 5}})
    assert config.budget == Budget(max_depth=2, max_decision_calls=5)
    assert config.max_depth == 2


def test_with_overrides_merges_partial_budget_and_validates() -> None:
    config = WalkConfig().with_overrides(strategy="beam", budget={"max_input_tokens": 900})
    assert config.strategy == "beam"
    assert config.budget == Budget(max_depth=4, max_decision_calls=12, max_input_tokens=900)
    assert config.with_overrides(max_depth=7).budget.max_depth == 7
    with pytest.raises(ValidationError):
        config.with_overrides(top_p=0.0)


def test_width_per_strategy() -> None:
    assert WalkConfig(strategy="greedy", beam_width=5).width == 1
    assert WalkConfig(strategy="beam", beam_width=5).width == 5
    assert WalkConfig(strategy="sample", n_samples=4).width == 4


@pytest.mark.parametrize(
    "fields",
    [
        {"prefilter_keep": 60},  # more than max_neighbors
        {"n_samples": 3},  # sampling several walks needs strategy="sample"
        {"prob_floor": 0.0},
        {"temperature": -1.0},
        {"strategy": "random"},
        {"unknown_knob": 1},
    ],
)
def test_invalid_configs_are_rejected(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        WalkConfig(**fields)  # type: ignore[arg-type]


def test_config_is_frozen() -> None:
    with pytest.raises(ValidationError):
        WalkConfig().strategy = "beam"  # type: ignore[misc]


def test_presets_follow_m5_setup() -> None:
    assert preset_names() == list(PRESETS)
    assert {"greedy", "beam", "relation", "relation-beam", "sample"} <= set(PRESETS)
    for name in PRESETS:
        config = get_preset(name)
        assert config.allow_stop_at_start is False, name
        assert config.max_frontier == 2000, name
        assert config.budget.max_depth == 4, name
        assert config.budget.max_decision_calls == 12, name
    assert get_preset("greedy").strategy == "greedy"
    assert get_preset("greedy").hop_mode == "entity"
    assert get_preset("beam").strategy == "beam"
    assert get_preset("beam").beam_width == 3
    assert get_preset("relation").hop_mode == "relation"
    assert get_preset("relation").strategy == "greedy"
    assert get_preset("relation-beam").hop_mode == "relation"
    assert get_preset("relation-beam").width == 3
    assert get_preset("sample").strategy == "sample"
    assert get_preset("sample").n_samples == 4
    assert get_preset("relation-hint").answer_type == "hint"
    # the former names stay accepted aliases of the same presets
    assert get_preset("relation-v2") == get_preset("relation-hint")
    assert get_preset("relation-beam-v2") == get_preset("relation-beam-hint")
    assert preset_names(aliases=True) == [*PRESETS, "relation-v2", "relation-beam-v2"]


def test_get_preset_with_overrides() -> None:
    config = get_preset("beam", beam_width=5, max_depth=3)
    assert config.beam_width == 5
    assert config.budget.max_depth == 3
    assert config.budget.max_decision_calls == 12


def test_unknown_preset_lists_valid_names() -> None:
    with pytest.raises(ConfigError) as info:
        get_preset("beems")
    message = str(info.value)
    assert "'beems'" in message
    for name in PRESETS:
        assert name in message
