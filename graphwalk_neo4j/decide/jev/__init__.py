"""JevBackend: TypeSafe's Jev through the official ``typesafe-sdk`` async client, on either provider.

* ``typesafe``: the SDK's default base URL (``https://api.typesafe.ai``), model ``jev-1.13.0``.
* ``openrouter``: base URL ``https://openrouter.ai/api`` (OpenRouter serves the TypeSafe-compatible
  ``POST /api/v1/systemone``), model ``typesafe/jev-1.13``. OpenRouter adds ``id``, ``provider`` and
  ``usage.cost`` (USD) to the body; :class:`JevWireResponse` reads them.

One :class:`DecisionRequest` becomes one or more ``POST /v1/systemone`` calls: all questions share the
state, and a request is split when it would exceed Jev's documented budgets (see :func:`plan_batches`). The
pieces run concurrently under a semaphore (``concurrency``) and their answers are merged. The SDK's retries
(429 honouring ``Retry-After``, 5xx, timeouts) are kept; what remains becomes this package's errors.
The API key is held in a :class:`SecretStr`, sent only in the ``Authorization`` header and never logged.

Modules: :mod:`.wire` (providers, pinned models, the question body and response types), :mod:`.budget` (the
token planner), :mod:`.listing` (model listing and pinning), :mod:`.translate` (SDK errors to ours) and
:mod:`.backend` (:class:`JevBackend`).
"""

try:  # the SDK is a base dependency; keep the import error readable if it is missing
    import typesafe_sdk  # noqa: F401
except ImportError as _exc:  # pragma: no cover
    raise ImportError("graphwalk_neo4j.decide.jev needs typesafe-sdk>=0.7.2,<0.8") from _exc

from graphwalk_neo4j.decide.jev.backend import JevBackend
from graphwalk_neo4j.decide.jev.budget import (
    CHARS_PER_TOKEN,
    DEFAULT_TOKEN_MARGIN,
    MAX_QUESTION_TOKENS,
    MAX_REQUEST_TOKENS,
    REQUEST_OVERHEAD_TOKENS,
    estimate_tokens,
    plan_batches,
)
from graphwalk_neo4j.decide.jev.listing import check_pinned_model, echoed_matches, listed_model_ids
from graphwalk_neo4j.decide.jev.translate import translate_error
from graphwalk_neo4j.decide.jev.wire import (
    AUTH_HINT,
    DEFAULT_BASE_URLS,
    KEY_ENV,
    MAX_OPTIONS,
    PINNED_MODELS,
    PROVIDERS,
    JevUsage,
    JevWireResponse,
    Provider,
    question_wire,
)

__all__ = [
    "AUTH_HINT",
    "CHARS_PER_TOKEN",
    "DEFAULT_BASE_URLS",
    "DEFAULT_TOKEN_MARGIN",
    "KEY_ENV",
    "MAX_OPTIONS",
    "MAX_QUESTION_TOKENS",
    "MAX_REQUEST_TOKENS",
    "PINNED_MODELS",
    "PROVIDERS",
    "REQUEST_OVERHEAD_TOKENS",
    "JevBackend",
    "JevUsage",
    "JevWireResponse",
    "Provider",
    "check_pinned_model",
    "echoed_matches",
    "estimate_tokens",
    "listed_model_ids",
    "plan_batches",
    "question_wire",
    "translate_error",
]
