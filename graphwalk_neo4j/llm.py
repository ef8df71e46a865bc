"""The one chat-model client: every litellm call of the package goes through :class:`LLMClient`.

It owns what the LLM decision backend, text-ingest extraction and the eval reader used to repeat each on its own:

* litellm's process settings, applied once, before its first import: the local price list
  (``LITELLM_LOCAL_MODEL_COST_MAP``, so nothing is fetched from the network) and no debug banners;
* credentials: the API key is a ``SecretStr`` and is only unwrapped for the call itself;
* usage: input/output tokens from the response's ``usage``, the cost from ``litellm.completion_cost`` (``None``
  when litellm has no price for the model);
* failures: every exception becomes one :class:`~graphwalk_neo4j.errors.LLMError` whose ``kind`` says what went
  wrong (``auth``, ``rate_limit``, ``timeout``, ``connection``, ``other``) and whose text never holds the key
  (:meth:`LLMClient.redact`); callers turn it into their own error (a decision or an extraction error).
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from graphwalk_neo4j.errors import LLMError
from graphwalk_neo4j.extras import require_extra

if TYPE_CHECKING:
    from types import ModuleType

REDACTED = "***"


@functools.cache
def litellm_module() -> ModuleType:
    """litellm, imported once with the package's settings (the import is slow, so it waits for the first call)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch the price list
    # deferred: importing litellm costs about a second; it is the llm extra
    litellm = require_extra("litellm", "llm", "an LLM model (decision backend or text extraction)")
    litellm.suppress_debug_info = True  # type: ignore[attr-defined]  # litellm ships no stubs
    return litellm


def provider_of(model: str) -> str | None:
    """The provider litellm routes ``model`` to, or ``None`` when it cannot tell (offline; no request is made)."""
    litellm = litellm_module()  # without the llm extra: MissingExtraError, not "unknown model"
    try:
        return str(litellm.get_llm_provider(model)[1])
    except Exception:  # litellm raises its BadRequestError with a banner
        return None


def secret(value: str | SecretStr | None) -> SecretStr | None:
    """An API key as a ``SecretStr`` (an empty string means none)."""
    if isinstance(value, SecretStr):
        return value if value.get_secret_value() else None
    return SecretStr(value) if value else None


@dataclass(frozen=True)
class LLMReply:
    """One completion: its text, token counts and cost, and litellm's response (for logprobs)."""

    content: str
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    response: Any


class LLMClient:
    """Calls one chat model (a litellm model name) at ``api_base`` with ``api_key``.

    ``label`` names the caller in messages (``"LLM"``, ``"extraction model"``, ``"reader"``): a failure reads
    ``"<label> <model> at <api_base> failed: ..."``.
    """

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | SecretStr | None = None,
        timeout_s: float = 60.0,
        num_retries: int = 2,
        label: str = "LLM",
    ) -> None:
        self.model = model
        self.api_base = api_base
        self._api_key = secret(api_key)
        self.timeout_s = timeout_s
        self.num_retries = num_retries
        self.label = label

    def __repr__(self) -> str:
        return f"LLMClient(model={self.model!r}, api_base={self.api_base!r})"

    @property
    def where(self) -> str:
        return f"{self.label} {self.model}" + (f" at {self.api_base}" if self.api_base else "")

    def redact(self, text: str) -> str:
        """``text`` with the API key replaced by ``***``."""
        if self._api_key is None:
            return text
        return text.replace(self._api_key.get_secret_value(), REDACTED)

    async def complete(self, messages: list[dict[str, str]], **params: Any) -> LLMReply:
        """One ``litellm.acompletion`` at temperature 0 (``params`` add to or override the defaults)."""
        litellm = litellm_module()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": 0,
            "timeout": self.timeout_s,
            "num_retries": self.num_retries,
            "drop_params": True,
            **params,
        }
        if self.api_base:
            kwargs["api_base"] = self.api_base
        if self._api_key is not None:
            kwargs["api_key"] = self._api_key.get_secret_value()
        try:
            response = await litellm.acompletion(**kwargs)
        except Exception as exc:
            raise self.translate(exc) from None
        usage = getattr(response, "usage", None)
        return LLMReply(
            content=_content(response),
            input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            cost_usd=_cost(litellm, response),
            response=response,
        )

    def translate(self, exc: Exception) -> LLMError:
        """The :class:`LLMError` for an exception litellm raised, its text redacted and cut to 300 characters."""
        litellm = litellm_module()
        detail = self.redact(str(exc))[:300]
        kind = "other"
        if isinstance(exc, litellm.AuthenticationError):
            kind = "auth"
        elif isinstance(exc, litellm.RateLimitError):
            kind = "rate_limit"
        elif isinstance(exc, litellm.Timeout):
            kind = "timeout"
        elif isinstance(exc, litellm.APIConnectionError):
            kind = "connection"
        return LLMError(
            f"{self.where} failed: {type(exc).__name__}: {detail}",
            kind=kind,
            where=self.where,
            detail=detail,
            cause=type(exc).__name__,
        )


def _content(response: Any) -> str:
    try:
        return response.choices[0].message.content or ""
    except (AttributeError, IndexError, TypeError):
        return ""


def _cost(litellm: ModuleType, response: Any) -> float | None:
    try:
        cost = litellm.completion_cost(completion_response=response)
    except Exception:  # no price for this model (or a provider litellm cannot price)
        return None
    return float(cost) if isinstance(cost, int | float) and math.isfinite(cost) else None


__all__ = ["REDACTED", "LLMClient", "LLMError", "LLMReply", "litellm_module", "provider_of", "secret"]
