"""Decision backends: one contract (:mod:`.base`), one normaliser, and Jev / local / LLM / fake backends.

Heavy dependencies load lazily: ``litellm`` on the first LLM call, sentence-transformers on the first MiniLM
encode. Pick a backend with :func:`graphwalk_neo4j.backends.resolve_backend`.
"""

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
from graphwalk_neo4j.decide.jev import (
    MAX_OPTIONS,
    PINNED_MODELS,
    JevBackend,
    estimate_tokens,
    plan_batches,
)
from graphwalk_neo4j.decide.llm import LLMBackend
from graphwalk_neo4j.decide.local import LocalDecider
from graphwalk_neo4j.decide.normalize import check_request, make_result, normalize_distribution, top_label

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
