"""LLMBackend through litellm against the OpenAI-compatible stand-in."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.decide import LLMBackend
from graphwalk_neo4j.decide.llm import distribution_from_logprobs, option_keys, parse_json_distribution
from graphwalk_neo4j.errors import DecisionAuthError, DecisionError, DecisionResponseError
from tests.standins.openai_server import OpenAIStandIn
from tests.standins.samples import sample_request, wide_request

if TYPE_CHECKING:
    from collections.abc import Iterator

MODEL = "openai/test-model"


@pytest.fixture(scope="module")
def server() -> Iterator[OpenAIStandIn]:
    with OpenAIStandIn() as standin:
        yield standin


@pytest.fixture
def standin(server: OpenAIStandIn) -> OpenAIStandIn:
    server.reset()
    return server


def make(standin: OpenAIStandIn, **kw) -> LLMBackend:
    kw.setdefault("num_retries", 0)
    return LLMBackend(MODEL, api_base=standin.api_base, api_key="sk-test-123", **kw)


async def test_logprobs_give_the_distribution(standin: OpenAIStandIn) -> None:
    standin.prefer = "o1"
    backend = make(standin)
    response = await backend.decide(sample_request())
    assert backend.logprobs_supported is True
    assert response.calls == 2
    assert len(standin.requests) == 2
    sent = standin.requests[0]
    assert sent["logprobs"] is True
    assert sent["top_logprobs"] == 20
    assert sent["model"] == "test-model"
    assert standin.authorizations[0] == "Bearer sk-test-123"
    result = response.results["b0"]
    assert result.top == "o1"
    assert math.isclose(sum(result.probabilities.values()), 1.0, abs_tol=1e-9)
    assert response.model == "test-model"
    assert response.provider == "litellm"
    assert response.usage.input_tokens > 0
    assert response.usage.output_tokens > 0


async def test_without_logprobs_falls_back_to_json_once(standin: OpenAIStandIn) -> None:
    standin.logprobs = False
    backend = make(standin)
    first = await backend.decide(sample_request())
    assert backend.logprobs_supported is False
    assert first.calls == 4  # one key-only probe per question, then JSON
    standin.requests.clear()
    second = await backend.decide(sample_request())
    assert second.calls == 2
    assert all("logprobs" not in r for r in standin.requests)
    assert standin.requests[0]["response_format"] == {"type": "json_object"}
    for key in ("b0", "b1"):
        assert second.results[key].probabilities == pytest.approx(first.results[key].probabilities)


async def test_garbage_is_retried_once_with_the_error(standin: OpenAIStandIn) -> None:
    standin.garbage, standin.garbage_times = True, 1
    backend = make(standin, mode="json")
    response = await backend.decide(wide_request(3))
    assert response.calls == 2
    retry_messages = standin.requests[1]["messages"]
    assert retry_messages[-2]["role"] == "assistant"
    assert retry_messages[-1]["content"] == (
        "Your reply was not valid: question 'b0': the reply contains no JSON object. Reply again with the "
        "JSON object only."
    )
    assert list(response.results["b0"].probabilities) == ["o1", "o2", "o3"]


async def test_garbage_twice_is_a_response_error(standin: OpenAIStandIn) -> None:
    standin.garbage = True
    with pytest.raises(DecisionResponseError) as info:
        await make(standin, mode="json").decide(wide_request(3))
    assert str(info.value) == (
        "LLM openai/test-model did not return a valid distribution for question 'b0' after one retry: "
        "question 'b0': the reply contains no JSON object"
    )


async def test_unoffered_label_in_json_is_a_response_error(standin: OpenAIStandIn) -> None:
    standin.unoffered_label = "o9"
    with pytest.raises(DecisionResponseError, match="answered label 'o9', which was not offered"):
        await make(standin, mode="json").decide(wide_request(3))
    assert len(standin.requests) == 2


async def test_401_and_500(standin: OpenAIStandIn) -> None:
    standin.status = 401
    with pytest.raises(DecisionAuthError) as info:
        await make(standin).decide(sample_request())
    assert str(info.value) == (
        f"LLM openai/test-model at {standin.api_base} rejected the API key: check GW_NEO4J_LLM_API_KEY or "
        "the provider's key variable"
    )
    assert "sk-test-123" not in str(info.value)
    standin.status = 500
    with pytest.raises(DecisionError, match=r"^LLM openai/test-model at .* failed: InternalServerError"):
        await make(standin).decide(sample_request())


def test_option_keys_and_logprob_mapping() -> None:
    assert option_keys(3) == ["A", "B", "C"]
    assert option_keys(27)[:3] == ["1", "2", "3"]
    assert option_keys(27)[-1] == "27"
    masses, covered = distribution_from_logprobs(
        [("A", math.log(0.5)), (" B", math.log(0.25)), ("B", math.log(0.125)), ("The", math.log(0.1))],
        ["A", "B", "C"],
        ["o1", "o2", "STOP"],
    )
    assert masses == pytest.approx({"o1": 0.5, "o2": 0.375, "STOP": 0.0})
    assert covered == pytest.approx(0.875)


def test_parse_json_distribution_tolerates_fences() -> None:
    text = '```json\n{"o1": 0.7, "o2": 0.3}\n```'
    assert parse_json_distribution(text, ["o1", "o2"], "b0") == {"o1": 0.7, "o2": 0.3}
    with pytest.raises(DecisionResponseError, match="not valid JSON"):
        parse_json_distribution("{o1: 0.7}", ["o1", "o2"], "b0")
