"""Jev's wire: providers and their pinned models, the question body sent, and the response read back.

OpenRouter adds ``id``, ``provider`` and ``usage.cost`` (USD) to the TypeSafe body; :class:`JevWireResponse`
reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import typesafe_sdk
from pydantic import Field
from typesafe_sdk import SystemOneResponse
from typesafe_sdk import Usage as SDKUsage

if TYPE_CHECKING:
    from graphwalk_neo4j.decide.base import ChoiceQuestion

Provider = Literal["typesafe", "openrouter"]
PROVIDERS: tuple[Provider, ...] = ("typesafe", "openrouter")
PINNED_MODELS: dict[str, str] = {"typesafe": "jev-1.13.0", "openrouter": "typesafe/jev-1.13"}
DEFAULT_BASE_URLS: dict[str, str] = {
    "typesafe": typesafe_sdk.constants.DEFAULT_BASE_URL,
    "openrouter": "https://openrouter.ai/api",
}
KEY_ENV = {"typesafe": "TYPESAFE_API_KEY", "openrouter": "OPENROUTER_API_KEY"}
AUTH_HINT = "check TYPESAFE_API_KEY / OPENROUTER_API_KEY"

MAX_OPTIONS = 255  # Jev's Choice limit


class JevUsage(SDKUsage):
    """The SDK's usage plus OpenRouter's ``usage.cost`` (USD)."""

    cost: float | None = None


class JevWireResponse(SystemOneResponse):
    """``SystemOneResponse`` (answers, model, request id) plus OpenRouter's top-level ``id`` and ``provider``.

    The extras use Python names that can't collide with question names: the SDK copies an answer into a
    top-level field when a question has that field's name."""

    usage: JevUsage
    generation_id: str | None = Field(default=None, alias="id")
    served_by: str | None = Field(default=None, alias="provider")


def question_wire(question: ChoiceQuestion) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "choice", "criteria": dict(question.options)}
    if question.instructions is not None:
        body["instructions"] = question.instructions
    return body
