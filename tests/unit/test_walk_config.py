"""WalkConfig validation, the max_depth shorthand, overrides, the named presets, and the limits of every knob."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graphwalk_neo4j.errors import ConfigError, InputError, OptionValueError
from graphwalk_neo4j.walk.config import (
    MAX_BEAM_WIDTH,
    MAX_DEPTH,
    PRESETS,
    Budget,
    WalkConfig,
    build_config,
    check_starts,
    field_range,
    get_preset,
    preset_names,
)


def test_defaults() -> None:
    config = WalkConfig()
    assert config.strategy == "greedy"
    assert config.hop_mode == "relation"  # the mode that answers best (docs/eval.md)
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
    assert preset_names() == list(PRESETS)
    # the former names are refused with the new one
    with pytest.raises(
        ConfigError, match=r"^unknown walk preset 'relation-v2' \(it was renamed 'relation-hint'\); valid"
    ):
        get_preset("relation-v2")
    with pytest.raises(ConfigError, match=r"^unknown walk preset 'nope'; valid presets: greedy, beam, "):
        get_preset("nope")


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


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"strategy": "beam", "beam_width": 65}, "beam_width=65 is over its limit 64"),
        ({"max_depth": 9}, "budget.max_depth=9 is over its limit 8"),
        ({"max_frontier": 10_001}, "max_frontier=10001 is over its limit 10000"),
        ({"max_neighbors": 201}, "max_neighbors=201 is over its limit 200"),
        ({"strategy": "sample", "n_samples": 65}, "n_samples=65 is over its limit 64"),
        ({"budget": {"max_nodes_read": 1_000_001}}, "budget.max_nodes_read=1000001 is over its limit 1000000"),
        ({"budget": {"max_memory_mb": 0}}, "budget.max_memory_mb=0 is under its minimum 1"),
        ({"budget": {"max_decision_calls": 257}}, "budget.max_decision_calls=257 is over its limit 256"),
        ({"temperature": 11.0}, "temperature=11.0 is over its limit 10.0"),
        ({"beam": 3}, "beam is not a walk option (they are listed in docs/surface.md)"),
        ({"budget": 5}, "budget: Input should be a valid dictionary or instance of Budget"),
        ({"n_samples": 2}, "n_samples=2 needs strategy='sample' (got 'greedy')"),
    ],
)
def test_a_value_past_its_limit_is_refused_naming_the_limit(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(OptionValueError) as caught:
        build_config(None, overrides)
    assert str(caught.value) == f"invalid walk options: {message}"


def test_field_ranges_are_read_from_the_fields() -> None:
    assert field_range("beam_width") == (1, MAX_BEAM_WIDTH) == (1, 64)
    assert field_range("max_depth") == (1, MAX_DEPTH) == (1, 8)
    assert field_range("max_nodes_read") == (1, 1_000_000)
    with pytest.raises(KeyError):
        field_range("strategy")


def test_every_default_and_preset_lies_inside_the_limits_and_the_work_budget_defaults() -> None:
    assert WalkConfig().budget.max_nodes_read == 200_000
    assert WalkConfig().budget.max_memory_mb == 256
    for name in preset_names():
        config = get_preset(name)
        assert config.width <= MAX_BEAM_WIDTH, name
        assert config.max_depth <= MAX_DEPTH, name


def test_start_entities_are_bounded() -> None:
    assert check_starts(None) is None
    assert check_starts(["Memento"]) == ["Memento"]
    with pytest.raises(InputError, match="17 start entities given; the limit is 16"):
        check_starts(["x"] * 17)
    with pytest.raises(InputError, match="is empty or longer than 200 characters"):
        check_starts(["x" * 201])


def test_the_default_walk_is_relation_greedy_and_entity_hops_mean_the_greedy_preset() -> None:
    assert build_config(None).model_dump() == get_preset("relation").model_dump()
    assert build_config(None).model_dump() == WalkConfig().model_dump()
    assert "strategy" not in build_config(None).model_fields_set  # left to the decision backend's preference
    assert "strategy" in get_preset("relation").model_fields_set
    assert build_config(None, {"hop_mode": "entity"}).model_dump() == get_preset("greedy").model_dump()
    beam = build_config(None, {"strategy": "beam"})
    assert (beam.hop_mode, beam.strategy, beam.beam_width) == ("relation", "beam", 3)
