"""Decision backends: one contract (:mod:`.base`), one normaliser, and Jev / local / LLM / fake backends.

Heavy dependencies load lazily: ``litellm`` on the first LLM call, sentence-transformers on the first MiniLM
encode, and the Jev and LLM backends' modules (the typesafe-sdk client, httpx) when one of their names is first
read from this package. Pick a backend with :func:`graphwalk_neo4j.backends.resolve_backend`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.decide.base import (
    ChoiceQuestion,
    ChoiceResult,
    DecisionBackend,
    DecisionRequest,
    DecisionResponse,
    JSONContent,
    Usage,
)
from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.decide.local import LocalDecider
from graphwalk_neo4j.decide.normalize import check_request, make_result, normalize_distribution, top_label
from graphwalk_neo4j.extras import exported

if TYPE_CHECKING:
    from graphwalk_neo4j.decide.jev import MAX_OPTIONS, PINNED_MODELS, JevBackend, estimate_tokens, plan_batches
    from graphwalk_neo4j.decide.llm import LLMBackend

_DEFERRED = {
    **dict.fromkeys(
        ("MAX_OPTIONS", "PINNED_MODELS", "JevBackend", "estimate_tokens", "plan_batches"), "graphwalk_neo4j.decide.jev"
    ),
    "LLMBackend": "graphwalk_neo4j.decide.llm",
}

__all__ = [
    "MAX_OPTIONS",
    "PINNED_MODELS",
    "ChoiceQuestion",
    "ChoiceResult",
    "DecisionBackend",
    "DecisionRequest",
    "DecisionResponse",
    "FakeBackend",
    "JSONContent",
    "JevBackend",
    "LLMBackend",
    "LocalDecider",
    "Usage",
    "check_request",
    "estimate_tokens",
    "make_result",
    "normalize_distribution",
    "plan_batches",
    "top_label",
]


def __getattr__(name: str) -> Any:
    return exported(__name__, _DEFERRED, globals(), name)
