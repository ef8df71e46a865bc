"""A decision backend's training walk settings merged into a walk's config (pure, exact values): WalkConfig's
defaults < the backend's < what the caller set; which rule applied and where it came from; the one-line warning."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pytest

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.decide.local import LocalDecider
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.learned.artifact import trained_walk_defaults
from graphwalk_neo4j.learned.model import SEARCH_DEFAULTS, LearnedDecider, Vocab, Weights
from graphwalk_neo4j.walk.config import WalkConfig, build_config, get_preset, with_backend_defaults

if TYPE_CHECKING:
    from typing import Any

TRAINED = {"exclude_visited": True, "exclude_scope": "start"}


def learned(config: dict[str, Any]) -> LearnedDecider:
    z = np.zeros((1, 1), dtype=np.float32)
    weights = Weights(tok=z, typ=z, pos=np.zeros((3, 1, 1), dtype=np.float32), w1=z, b1=z[0], w2=z[0], b2=z[0, 0])
    return LearnedDecider(
        weights, Vocab(tokens=["<pad>", "<unk>", "STOP"], types=["<unk>"]), FakeEmbedder(8), config=config
    )


def test_with_overrides_keeps_unset_fields_unset() -> None:
    preset = get_preset("relation")
    assert "exclude_scope" not in preset.model_fields_set
    assert "hop_mode" in preset.model_fields_set  # a preset's own fields count as chosen
    changed = preset.with_overrides(strategy="beam", budget={"max_input_tokens": 9})
    assert changed.model_fields_set == preset.model_fields_set | {"strategy", "budget"}
    assert "exclude_scope" not in changed.model_fields_set
    assert changed.budget.max_depth == 4  # the preset's budget is kept under a partial one
    assert changed.budget.max_input_tokens == 9
    assert "exclude_scope" in preset.with_overrides(exclude_scope="visited").model_fields_set


def test_no_backend_defaults_leave_the_config_as_it_is() -> None:
    config = get_preset("relation")
    configured = with_backend_defaults(config, {})
    assert configured.config is config
    assert configured.taken == {}
    assert configured.kept == {}
    assert configured.rule() == {"exclude_visited": True, "exclude_scope": "visited", "source": "default"}
    assert configured.warning("local") is None


def test_the_backend_rule_applies_where_the_caller_chose_none() -> None:
    configured = with_backend_defaults(build_config("relation", {"max_depth": 3}), TRAINED)
    assert configured.config.exclude_scope == "start"
    assert configured.config.hop_mode == "relation"
    assert configured.config.budget.max_depth == 3
    assert configured.taken == TRAINED
    assert configured.kept == {}
    assert configured.rule() == {"exclude_visited": True, "exclude_scope": "start", "source": "model"}
    assert configured.warning("learned:art") is None
    again = with_backend_defaults(configured.config, TRAINED)  # applying it twice changes nothing
    assert again.config == configured.config
    assert (again.taken, again.kept) == ({}, {})


def test_an_explicit_choice_wins_and_is_reported() -> None:
    chosen = build_config(None, {"hop_mode": "relation", "exclude_scope": "visited"})
    configured = with_backend_defaults(chosen, TRAINED)
    assert configured.config.exclude_scope == "visited"
    assert configured.taken == {"exclude_visited": True}
    assert configured.kept == {"exclude_scope": ("start", "visited")}
    assert configured.source("exclude_scope") == "chosen"
    assert configured.source("exclude_visited") == "model"
    assert configured.source("strategy") == "default"  # the default walk leaves it to the backend
    assert configured.source("hop_mode") == "chosen"
    assert configured.source("temperature") == "default"
    assert configured.rule() == {"exclude_visited": True, "exclude_scope": "visited", "source": "chosen"}
    assert configured.warning("learned:art") == (
        "warning: learned:art was trained under another walk rule; this walk uses exclude_scope=visited "
        "(trained with start) as chosen"
    )
    same = with_backend_defaults(WalkConfig(exclude_scope="start"), TRAINED)  # chosen and equal: no warning
    assert same.kept == {}
    assert same.rule() == {"exclude_visited": True, "exclude_scope": "start", "source": "chosen"}


def test_only_walkconfig_fields_are_taken_and_bad_values_are_refused() -> None:
    configured = with_backend_defaults(WalkConfig(), {"exclude_scope": "start", "no_such_field": 1})
    assert configured.taken == {"exclude_scope": "start"}
    with pytest.raises(ConfigError, match="recorded walk settings"):
        with_backend_defaults(WalkConfig(), {"exclude_scope": "everything"})


def test_backends_report_their_training_settings() -> None:
    recorded = {"walk_config": {**WalkConfig(hop_mode="relation", exclude_scope="start").model_dump(mode="json")}}
    assert trained_walk_defaults(recorded) == TRAINED  # the exclusion rule only, not hop_mode or the budget
    assert trained_walk_defaults({"source": "traces"}) == {}
    assert learned(recorded).walk_defaults == {**SEARCH_DEFAULTS, **TRAINED}
    assert learned({}).walk_defaults == {"strategy": "beam", "beam_width": 3}  # its search, no training rule
    assert FakeBackend().walk_defaults == {}
    assert LocalDecider(FakeEmbedder(8)).walk_defaults == {}


def test_a_learned_model_searches_with_a_beam_where_the_caller_named_no_preset_or_strategy() -> None:
    defaults = learned({"walk_config": {"exclude_visited": True, "exclude_scope": "start"}}).walk_defaults
    default_walk = with_backend_defaults(build_config(None, {"max_depth": 3}), defaults)
    assert (default_walk.config.strategy, default_walk.config.beam_width) == ("beam", 3)
    assert (default_walk.config.hop_mode, default_walk.config.budget.max_depth) == ("relation", 3)
    assert default_walk.taken == {"strategy": "beam", "beam_width": 3, **TRAINED}
    assert default_walk.source("strategy") == "model"
    assert default_walk.search() == {"strategy": "beam", "width": 3, "source": "model"}
    assert default_walk.rule() == {"exclude_visited": True, "exclude_scope": "start", "source": "model"}
    # a named preset or strategy decides, and choosing another search is not a choice against the training
    for chosen in (build_config("relation"), build_config(None, {"strategy": "greedy"})):
        configured = with_backend_defaults(chosen, defaults)
        assert configured.config.strategy == "greedy"
        assert configured.source("strategy") == "chosen"
        assert configured.search() == {"strategy": "greedy", "width": 1, "source": "chosen"}
        assert configured.kept == {}
        assert configured.warning("learned:art") is None
    wider = with_backend_defaults(build_config(None, {"beam_width": 5}), defaults)
    assert (wider.config.strategy, wider.config.beam_width) == ("beam", 5)
    # entity hops without a preset are the greedy preset, whose strategy is its own
    assert with_backend_defaults(build_config(None, {"hop_mode": "entity"}), defaults).config.strategy == "greedy"
    # a backend without a search preference walks the default walk greedy, as the relation preset does
    plain = with_backend_defaults(build_config(None), LocalDecider(FakeEmbedder(8)).walk_defaults)
    assert plain.config.model_dump() == get_preset("relation").model_dump()
    assert plain.source("strategy") == "default"
    assert plain.search() == {"strategy": "greedy", "width": 1, "source": "default"}
