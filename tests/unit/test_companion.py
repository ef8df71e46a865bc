"""A model trained from its graph alone walks beside the shipped general one (learned.model.with_companion,
backends.resolve_backend): the weighted mean of the two calibrated distributions, the companion's counted only on
the moves the own model finds plausible, exact values."""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

import numpy as np
import pytest

from graphwalk_neo4j.backends import general_model_dir, resolve_backend
from graphwalk_neo4j.decide.request import DecisionContext
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.learned.artifact import COMPANION_PLAUSIBLE, COMPANION_WEIGHT, recorded_companion_plausible
from graphwalk_neo4j.learned.model import LearnedDecider
from graphwalk_neo4j.settings import Settings
from tests.unit.test_walk_backend_defaults import learned

if TYPE_CHECKING:
    from pathlib import Path


def answering(probs: list[float]) -> LearnedDecider:
    """A decider whose own distribution, for any decision, is ``probs``."""
    decider = learned({})

    async def own(context: DecisionContext) -> np.ndarray:
        return np.asarray(probs)

    decider._probabilities = own  # type: ignore[method-assign]
    return decider


async def test_the_companion_s_distribution_is_averaged_in_by_its_weight() -> None:
    context = DecisionContext(question="q")
    own, other = answering([0.8, 0.2]), answering([0.2, 0.8])
    assert np.allclose(await own.with_companion(other).probabilities(context), [0.5, 0.5])
    assert np.allclose(await own.with_companion(other, 0.25).probabilities(context), [0.65, 0.35])
    assert np.allclose(await own.probabilities(context), [0.8, 0.2])  # the model itself is not changed
    assert own.companion is None


async def test_the_companion_counts_only_on_the_moves_the_own_model_finds_plausible() -> None:
    context = DecisionContext(question="q")
    own, other = answering([0.7, 0.2, 0.1]), answering([0.1, 0.1, 0.8])
    # 0.1 < 0.2 * 0.7: the companion's 0.8 on the third move is left out; (0.35 + 0.05, 0.1 + 0.05, 0.05) / 0.6
    assert np.allclose(await own.with_companion(other, 0.5, 0.2).probabilities(context), [2 / 3, 0.25, 1 / 12])
    # a floor of 0 counts it everywhere: the plain weighted mean
    assert np.allclose(await own.with_companion(other, 0.5, 0.0).probabilities(context), [0.4, 0.15, 0.45])
    # a near-tie the companion breaks: both moves are plausible, (0.3 + 0.05, 0.2 + 0.45)
    assert np.allclose(
        await answering([0.6, 0.4]).with_companion(answering([0.1, 0.9])).probabilities(context), [0.35, 0.65]
    )


@pytest.mark.parametrize("plausible", [-0.1, 1.5])
def test_a_companion_s_plausibility_floor_is_between_0_and_1(plausible: float) -> None:
    with pytest.raises(ValueError, match="plausibility floor is between 0 and 1"):
        answering([1.0]).with_companion(answering([1.0]), 0.5, plausible)


@pytest.mark.parametrize("weight", [0.0, 1.0, -0.5, 2.0])
def test_a_companion_s_weight_is_strictly_between_0_and_1(weight: float) -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        answering([1.0]).with_companion(answering([1.0]), weight)


def own_model(tmp_path: Path, **config: object) -> str:
    """A copy of the shipped artifact standing in for a graph's own model, with ``config`` merged into its
    config.json."""
    directory = tmp_path / "own"
    shutil.copytree(general_model_dir(), directory)
    path = directory / "config.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **config}))
    return f"learned:{directory}"


def test_a_model_trained_beside_the_general_one_is_loaded_with_it(tmp_path: Path) -> None:
    decider = resolve_backend(Settings(embedder="minilm"), own_model(tmp_path, companion="general"))
    assert isinstance(decider, LearnedDecider)
    assert decider.companion is not None
    assert decider.companion.directory == general_model_dir()
    assert decider.companion_weight == COMPANION_WEIGHT
    assert decider.companion.embedder is decider.embedder  # one embedder, one vector cache each
    assert decider.companion_plausible == COMPANION_PLAUSIBLE == 0.1  # recorded by none: today's floor
    assert "companion='general' at 0.5 on moves at 0.1 of the top" in repr(decider)


def test_the_plausibility_floor_an_artifact_records_is_the_one_it_walks_with(tmp_path: Path) -> None:
    decider = resolve_backend(
        Settings(embedder="minilm"), own_model(tmp_path, companion="general", companion_plausible=0)
    )
    assert isinstance(decider, LearnedDecider)
    assert (decider.companion_weight, decider.companion_plausible) == (COMPANION_WEIGHT, 0.0)


def test_an_artifact_without_a_recorded_floor_walks_with_today_s() -> None:
    assert recorded_companion_plausible({"companion_plausible": 0}) == 0
    assert recorded_companion_plausible({"companion_plausible": 0.3}) == 0.3
    assert recorded_companion_plausible({}) == COMPANION_PLAUSIBLE == 0.1
    assert recorded_companion_plausible({"companion_plausible": None}) == 0.1


@pytest.mark.parametrize(
    ("config", "said"),
    [
        ({"companion_plausible": 1.5}, "plausibility floor is between 0 and 1"),
        ({"companion_plausible": "high"}, "could not convert string to float"),
        ({"companion_weight": 2}, "weight is between 0 and 1"),
    ],
)
def test_a_companion_setting_out_of_range_is_a_config_error(
    tmp_path: Path, config: dict[str, object], said: str
) -> None:
    with pytest.raises(ConfigError, match=f"config.json's companion_weight / companion_plausible: .*{said}.*retrain"):
        resolve_backend(Settings(embedder="minilm"), own_model(tmp_path, companion="general", **config))


def test_a_model_without_a_companion_walks_alone(tmp_path: Path) -> None:
    alone = resolve_backend(Settings(embedder="minilm"), own_model(tmp_path))
    assert isinstance(alone, LearnedDecider)
    assert alone.companion is None
