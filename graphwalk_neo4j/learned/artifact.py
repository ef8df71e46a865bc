"""A learned decider's artifact directory: its file names, format version, and what its ``config.json`` records.

``model.npz`` (weights, :mod:`.model`), ``config.json`` (vocabularies, sizes, temperature, embedder, graph,
training source and data hash, the walk settings it was trained under), ``metrics.json`` (:mod:`.fit`), and
``linker.json`` when a mention scorer was trained (:mod:`.linker`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Mapping

# 11: which way a relation named as owned runs (EXTRA 25); 10: a relation named again (24); 9: the way back (23);
# 8: the kind the question word asks for (22); 7: the least-matched word (20); 6: words claimed, the asked kind
# (18); 5: nearness (14); 4: moves by their words (12); 3: 10
FORMAT_VERSION = 11
# older artifacts still load (their first 10, 12, 14, 18, 20, 22, 23 or 24 extras only)
READABLE_FORMATS = (3, 4, 5, 6, 7, 8, 9, 10, 11)
# A model trained from its graph alone walks beside the model trained on other graphs (``general``), their
# probabilities averaged with this weight on the companion's (config.json ``companion``, ``companion_weight``;
# docs/eval.md): the graph's own questions teach its words, the other graphs' the chains its own paths seldom show.
COMPANION_WEIGHT = 0.5
# The companion re-ranks only the moves the graph's own model finds plausible: where the own model gives a move less
# than this fraction of its most likely move's probability, the companion's probability on it is left out of the
# mean (config.json ``companion_plausible``). The own model knows the graph's words; the companion, which never saw
# them, may break its near-ties but not bring back a move it rules out (docs/eval.md).
COMPANION_PLAUSIBLE = 0.1
MODEL_FILE = "model.npz"
CONFIG_FILE = "config.json"
METRICS_FILE = "metrics.json"
# The recorded walk settings (config.json "walk_config") a walk takes over unless its caller chose them: the
# exclusion rule decides which options the model saw in training. Strategy, hop mode and budgets stay the
# preset's: they are how a caller searches, not what the model learned from.
TRAINED_WALK_FIELDS = ("exclude_visited", "exclude_scope")


def read_artifact_config(directory: str | Path) -> dict[str, Any]:
    path = Path(directory) / CONFIG_FILE
    if not path.is_file():
        raise ConfigError(
            f"{directory} is not a learned-decider directory (no {CONFIG_FILE}); "
            "train one with `gw-neo4j decider train`"
        )
    config: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if config.get("format") not in READABLE_FORMATS:
        raise ConfigError(
            f"{directory}: artifact format {config.get('format')!r}, this version reads "
            f"{' and '.join(map(str, READABLE_FORMATS))}; retrain with `gw-neo4j decider train`"
        )
    return config


def recorded_companion_plausible(config: Mapping[str, Any]) -> Any:
    """The companion's plausibility floor an artifact's ``config.json`` records (``companion_plausible``, as
    written there), or :data:`COMPANION_PLAUSIBLE` for one that records none (trained before it was recorded)."""
    recorded = config.get("companion_plausible")
    return COMPANION_PLAUSIBLE if recorded is None else recorded


def trained_walk_defaults(config: Mapping[str, Any]) -> dict[str, Any]:
    """The :data:`TRAINED_WALK_FIELDS` an artifact's ``config.json`` recorded under ``walk_config`` (none for an
    artifact distilled from traces, which records no walk settings)."""
    recorded = config.get("walk_config")
    if not isinstance(recorded, dict):
        return {}
    return {k: recorded[k] for k in TRAINED_WALK_FIELDS if k in recorded}
