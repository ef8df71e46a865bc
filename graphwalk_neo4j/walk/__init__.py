"""Walking the graph with a decision model: config and presets, ports (expander, trace sink), the engine and
its results. The engine never touches Neo4j; it talks to an :class:`Expander` and a :class:`TraceSink`, whose
Neo4j implementations (:mod:`.graph_expander`, :mod:`.neo4j_trace_sink`) and the :mod:`.service` that wires
them live beside it.
"""

from graphwalk_neo4j.errors import ExpanderContractError
from graphwalk_neo4j.walk.config import PRESETS, Budget, WalkConfig, get_preset, preset_names
from graphwalk_neo4j.walk.engine import WalkEngine
from graphwalk_neo4j.walk.memory import InMemoryExpander
from graphwalk_neo4j.walk.ports import (
    Expander,
    ExpandRequest,
    Expansion,
    NodeRef,
    Option,
    PrunedOption,
    TraceSink,
)
from graphwalk_neo4j.walk.prompts import relation_gloss
from graphwalk_neo4j.walk.result import Answer, PathStep, Totals, WalkPath, WalkResult
from graphwalk_neo4j.walk.trace_records import CallInfo, DepthRecord, OfferedOption, StepRecord, WalkMeta
from graphwalk_neo4j.walk.trace_sinks import NullTraceSink, RecordingTraceSink

__all__ = [
    "PRESETS",
    "Answer",
    "Budget",
    "CallInfo",
    "DepthRecord",
    "ExpandRequest",
    "Expander",
    "ExpanderContractError",
    "Expansion",
    "InMemoryExpander",
    "NodeRef",
    "NullTraceSink",
    "OfferedOption",
    "Option",
    "PathStep",
    "PrunedOption",
    "RecordingTraceSink",
    "StepRecord",
    "Totals",
    "TraceSink",
    "WalkConfig",
    "WalkEngine",
    "WalkMeta",
    "WalkPath",
    "WalkResult",
    "get_preset",
    "preset_names",
    "relation_gloss",
]
