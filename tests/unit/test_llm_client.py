"""The one LLM client: every caller (decision backend, extraction, eval reader) redacts the API key from its
errors and logs, through the real litellm against the OpenAI-compatible stand-in."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import pytest
from pydantic import SecretStr

from graphwalk_neo4j.decide.llm import LLMBackend
from graphwalk_neo4j.errors import DecisionAuthError, DecisionError, ExtractionError, GraphwalkError, LLMError
from graphwalk_neo4j.eval.baseline import LLMReader
from graphwalk_neo4j.ingest.extraction import Extractor
from graphwalk_neo4j.llm import REDACTED, LLMClient, provider_of, secret
from tests.standins.openai_server import OpenAIStandIn
from tests.standins.samples import sample_request

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterator

KEY = "sk-health-SECRET-0123456789"
MODEL = "openai/test-model"


@pytest.fixture(scope="module")
def standin() -> Iterator[OpenAIStandIn]:
    with OpenAIStandIn() as server:
        yield server


@pytest.fixture(autouse=True)
def _reset(standin: OpenAIStandIn) -> None:
    standin.reset()


def _callers(api_base: str) -> dict[str, Callable[[], Awaitable[object]]]:
    backend = LLMBackend(MODEL, api_base=api_base, api_key=KEY, num_retries=0, mode="json")
    extractor = Extractor(MODEL, api_base=api_base, api_key=KEY, num_retries=0)
    reader = LLMReader(MODEL, api_base=api_base, api_key=SecretStr(KEY))
    reader._client.num_retries = 0
    return {
        "decision": lambda: backend.decide(sample_request()),
        "extraction": lambda: extractor.extract("Ada Lovelace wrote notes.", label="doc chunk 0"),
        "reader": lambda: reader.read("who wrote notes", ["Ada Lovelace wrote notes."]),
    }


@pytest.mark.parametrize("caller", ["decision", "extraction", "reader"])
async def test_a_key_echoed_by_the_server_is_redacted_everywhere(
    standin: OpenAIStandIn,
    caller: str,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    standin.status = 500
    standin.echo_credentials = True
    expected = {"decision": DecisionError, "extraction": ExtractionError, "reader": DecisionError}[caller]
    with caplog.at_level(logging.DEBUG), pytest.raises(expected) as info:
        await _callers(standin.api_base)[caller]()
    message = str(info.value)
    assert standin.authorizations[-1] == f"Bearer {KEY}"  # the key did reach the server ...
    assert f"credentials Bearer {REDACTED}" in message  # ... which echoed it, and the message hides it
    assert KEY not in message
    assert KEY not in caplog.text
    out, err = capfd.readouterr()
    assert KEY not in out
    assert KEY not in err
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__


async def test_auth_failure_is_a_decision_auth_error_without_the_key(standin: OpenAIStandIn) -> None:
    standin.status = 401
    standin.echo_credentials = True
    client = LLMClient(MODEL, api_base=standin.api_base, api_key=KEY, num_retries=0, label="LLM")
    with pytest.raises(LLMError) as info:
        await client.complete([{"role": "user", "content": "hi"}])
    assert info.value.kind == "auth"
    assert KEY not in str(info.value)
    assert REDACTED in info.value.detail
    assert isinstance(info.value, GraphwalkError)
    backend = LLMBackend(MODEL, api_base=standin.api_base, api_key=KEY, num_retries=0)
    with pytest.raises(DecisionAuthError):
        await backend.decide(sample_request())


async def test_reply_carries_tokens_and_content(standin: OpenAIStandIn) -> None:
    client = LLMClient(MODEL, api_base=standin.api_base, api_key=KEY, num_retries=0)
    reply = await client.complete([{"role": "user", "content": "{}"}])
    assert reply.content == "{}"
    assert (reply.input_tokens, reply.output_tokens) == (len("{}") // 4, 1)
    assert reply.cost_usd is None  # litellm has no price for the stand-in's model


def test_redact_and_secret() -> None:
    client = LLMClient(MODEL, api_key=SecretStr(KEY))
    assert client.redact(f"bad key {KEY}!") == "bad key ***!"
    assert LLMClient(MODEL).redact(f"bad key {KEY}") == f"bad key {KEY}"
    assert secret("") is None
    assert secret(SecretStr("")) is None
    assert secret("k") == SecretStr("k")
    assert KEY not in repr(client)


def test_provider_of() -> None:
    assert provider_of("openai/gpt-4o-mini") == "openai"
    assert provider_of("no-such-model") is None
