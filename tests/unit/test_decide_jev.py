"""JevBackend via the real typesafe-sdk client against the stand-in: faults, splitting, verify, secrets."""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from typing import TYPE_CHECKING

import pytest
from typesafe_sdk import RetryPolicy

from graphwalk_neo4j.decide import ChoiceQuestion, DecisionRequest, JevBackend, estimate_tokens, plan_batches
from graphwalk_neo4j.decide.jev import listed_model_ids
from graphwalk_neo4j.errors import (
    ConfigError,
    DecisionAuthError,
    DecisionError,
    DecisionRateLimitError,
    DecisionResponseError,
)
from tests.standins.jev_server import OPENROUTER_PRICE_PER_INPUT_TOKEN, JevStandIn
from tests.standins.samples import hop_question, sample_request

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator

KEY = "test-key"
AUTH = "check TYPESAFE_API_KEY / OPENROUTER_API_KEY"


def retry(n: int = 1) -> RetryPolicy:
    return RetryPolicy(max_retries=n, backoff_initial=0.0, backoff_max=0.0)


@pytest.fixture(scope="module")
def standin() -> Iterator[JevStandIn]:
    with JevStandIn(api_key=KEY) as server:
        yield server


@pytest.fixture
def fresh(standin: JevStandIn) -> JevStandIn:
    standin.reset()
    return standin


@pytest.fixture
async def jev(fresh: JevStandIn) -> AsyncIterator[JevBackend]:
    backend = JevBackend(KEY, base_url=fresh.typesafe_base_url, retry=retry(1), timeout_s=5.0)
    yield backend
    await backend.aclose()


@pytest.fixture
async def jev_or(fresh: JevStandIn) -> AsyncIterator[JevBackend]:
    backend = JevBackend(KEY, provider="openrouter", base_url=fresh.openrouter_base_url, retry=retry(1))
    yield backend
    await backend.aclose()


# -- the happy path on both routes -------------------------------------------------------------------------


async def test_typesafe_wire_shape_and_answer(jev: JevBackend, fresh: JevStandIn) -> None:
    fresh.prefer = {"b0": "o1"}
    response = await jev.decide(sample_request())
    [sent] = fresh.systemone_requests
    assert sent.path == "/v1/systemone"
    assert sent.authorized
    assert sent.body["model"] == "jev-1.13.0"
    assert sent.body["state"] == {"query": "Who directed Memento?"}
    assert sent.body["questions"]["b0"]["type"] == "choice"
    assert list(sent.body["questions"]["b0"]["criteria"]) == ["o1", "o2", "o3", "STOP"]
    assert sent.body["questions"]["b0"]["instructions"]["current"] == "Memento"
    result = response.results["b0"]
    assert result.top == "o1"
    assert result.confidence is not None
    assert list(result.probabilities) == ["o1", "o2", "o3", "STOP"]
    assert all(round(v, 2) == v for v in result.raw_probabilities.values())
    assert response.model == "jev-1.13.0"
    assert response.provider == "typesafe"
    assert response.usage.cost_usd is None
    assert response.usage.input_tokens > 0
    assert response.request_id is not None
    assert response.request_id.startswith("req-")


async def test_openrouter_route_and_extras(jev_or: JevBackend, fresh: JevStandIn) -> None:
    response = await jev_or.decide(sample_request())
    [sent] = fresh.systemone_requests
    assert sent.path == "/api/v1/systemone"
    assert sent.body["model"] == "typesafe/jev-1.13"
    assert response.model == "typesafe/jev-1.13-20260917"
    assert response.request_id is not None
    assert response.request_id.startswith("gen-dec-")
    assert response.provider == "openrouter"
    assert response.served_by == "TypeSafe"
    assert response.usage.cost_usd == pytest.approx(response.usage.input_tokens * OPENROUTER_PRICE_PER_INPUT_TOKEN)


async def test_question_named_like_an_extra_field_is_not_confused(jev_or: JevBackend) -> None:
    request = DecisionRequest(
        state="q",
        questions=[ChoiceQuestion(key=k, options={"a": None, "b": None}) for k in ("id", "provider", "usage")],
    )
    response = await jev_or.decide(request)
    assert set(response.results) == {"id", "provider", "usage"}
    assert response.served_by == "TypeSafe"


# -- faults: exactly what the user sees ----------------------------------------------------------------------


async def test_401_is_an_auth_error_naming_the_key_variables(fresh: JevStandIn) -> None:
    backend = JevBackend("wrong-key", base_url=fresh.typesafe_base_url, retry=retry(1))
    with pytest.raises(DecisionAuthError) as info:
        await backend.decide(sample_request())
    assert str(info.value) == f"Jev (typesafe, {fresh.url}) rejected the API key (HTTP 401): {AUTH}"
    assert len(fresh.systemone_requests) == 1  # 401 is not retried
    assert "wrong-key" not in str(info.value)
    assert "wrong-key" not in repr(backend)
    await backend.aclose()


async def test_429_with_retry_after_is_retried_then_succeeds(jev: JevBackend, fresh: JevStandIn) -> None:
    fresh.status, fresh.status_times, fresh.retry_after = 429, 1, "1"
    started = time.perf_counter()
    response = await jev.decide(sample_request())
    elapsed = time.perf_counter() - started
    assert set(response.results) == {"b0", "b1"}
    first, second = fresh.systemone_requests
    assert "x-typesafe-retry-count" not in first.headers
    assert second.headers["x-typesafe-retry-count"] == "1"
    assert elapsed >= 0.9  # the SDK honoured Retry-After: 1


async def test_persistent_429_becomes_a_rate_limit_error(jev: JevBackend, fresh: JevStandIn) -> None:
    fresh.status, fresh.status_times, fresh.retry_after = 429, None, "0"
    with pytest.raises(DecisionRateLimitError) as info:
        await jev.decide(sample_request())
    assert str(info.value) == (
        f"Jev (typesafe, {fresh.url}) is rate limiting (HTTP 429) after 1 retry; the server asked to wait "
        "0s: retry later or lower GW_NEO4J_DECISION_CONCURRENCY"
    )
    assert len(fresh.systemone_requests) == 2


async def test_500_is_retried_then_a_decision_error(fresh: JevStandIn) -> None:
    fresh.status = 500
    backend = JevBackend(KEY, base_url=fresh.typesafe_base_url, retry=retry(2))
    with pytest.raises(DecisionError) as info:
        await backend.decide(sample_request())
    assert type(info.value) is DecisionError
    assert str(info.value) == f"Jev (typesafe, {fresh.url}) failed with a server error (HTTP 500) after 2 retries"
    assert len(fresh.systemone_requests) == 3
    await backend.aclose()


async def test_500_once_then_success(jev: JevBackend, fresh: JevStandIn) -> None:
    fresh.status, fresh.status_times = 503, 1
    response = await jev.decide(sample_request())
    assert set(response.results) == {"b0", "b1"}
    assert len(fresh.systemone_requests) == 2


async def test_stall_beyond_the_timeout(fresh: JevStandIn) -> None:
    # The stand-in holds the request until the test lets go, so the error can only be the client's own timeout.
    fresh.hold = threading.Event()
    backend = JevBackend(KEY, base_url=fresh.typesafe_base_url, retry=retry(0), timeout_s=0.2)
    try:
        with pytest.raises(DecisionError) as info:
            await backend.decide(sample_request())
    finally:
        fresh.hold.set()
    assert fresh.arrived.is_set()
    assert str(info.value) == (
        f"Jev (typesafe, {fresh.url}) did not answer within 0.2s (tried 1 times): raise "
        "GW_NEO4J_DECISION_TIMEOUT_S or retry later"
    )
    await backend.aclose()


async def test_missing_question_in_the_answer(jev: JevBackend, fresh: JevStandIn) -> None:
    fresh.omit_question = "b1"
    with pytest.raises(DecisionResponseError) as info:
        await jev.decide(sample_request())
    assert str(info.value) == "Jev's answer is missing question 'b1' (answered: b0)"


async def test_unoffered_label_in_the_answer(jev: JevBackend, fresh: JevStandIn) -> None:
    fresh.extra_label = "o9"
    with pytest.raises(DecisionResponseError) as info:
        await jev.decide(sample_request())
    assert str(info.value) == (
        "question 'b0': the backend answered label 'o9', which was not offered (offered: o1, o2, o3, STOP)"
    )


async def test_malformed_body(jev: JevBackend, fresh: JevStandIn) -> None:
    fresh.malformed = True
    with pytest.raises(DecisionResponseError) as info:
        await jev.decide(sample_request())
    assert str(info.value) == f"Jev (typesafe, {fresh.url}) returned a malformed response: not a JSON object"


async def test_unreachable_server_is_a_decision_error() -> None:
    backend = JevBackend(KEY, base_url="http://127.0.0.1:9", retry=retry(0), timeout_s=1.0)
    with pytest.raises(DecisionError, match=r"^Jev \(typesafe, http://127.0.0.1:9\) could not be reached"):
        await backend.decide(sample_request())
    await backend.aclose()


# -- splitting and concurrency -----------------------------------------------------------------------------


def _many_questions(n: int, options: int = 3) -> DecisionRequest:
    return DecisionRequest(
        state={"query": "q"},
        questions=[
            hop_question(f"b{i}", f"node {i}", {f"o{j}": f"edge {j} of node {i}" for j in range(options)})
            for i in range(n)
        ],
    )


def test_plan_batches_packs_greedily_in_order() -> None:
    request = _many_questions(6)
    per_question = estimate_tokens({"b0": {"type": "choice", "criteria": {}}})
    assert per_question > 0
    whole = plan_batches(request)
    assert [[q.key for q in batch] for batch in whole] == [["b0", "b1", "b2", "b3", "b4", "b5"]]
    state = estimate_tokens(request.state)
    q_tokens = estimate_tokens({"b0": {"type": "choice", "criteria": dict(request.questions[0].options)}})
    assert q_tokens > 0
    budget = 16 + state + 2 * 70  # room for two ~61-token questions
    batches = plan_batches(request, max_request_tokens=budget, max_question_tokens=1000, margin=1.0)
    assert [[q.key for q in batch] for batch in batches] == [["b0", "b1"], ["b2", "b3"], ["b4", "b5"]]


def test_a_single_question_over_the_budget_is_refused() -> None:
    request = _many_questions(1, options=200)
    with pytest.raises(DecisionError, match=r"question 'b0' is too large for Jev: about \d+ state \+ \d+ question"):
        plan_batches(request, max_question_tokens=1000)


def test_estimate_is_json_characters_over_four() -> None:
    assert estimate_tokens("abcd") == 2  # '"abcd"' is 6 characters -> ceil(6 / 4)
    assert estimate_tokens({"a": 1}) == 2  # '{"a":1}' is 7 characters
    assert estimate_tokens("é" * 8) == 3  # characters, not bytes: 10 / 4


async def test_split_request_merges_answers_and_usage(fresh: JevStandIn) -> None:
    request = _many_questions(6)
    backend = JevBackend(
        KEY,
        base_url=fresh.typesafe_base_url,
        retry=retry(0),
        max_request_tokens=16 + 10 + 2 * 70,
        token_margin=1.0,
        concurrency=2,
    )
    response = await backend.decide(request)
    sent = fresh.systemone_requests
    assert response.calls == len(sent) == 3
    assert sorted(len(r.body["questions"]) for r in sent) == [2, 2, 2]
    assert list(response.results) == [f"b{i}" for i in range(6)]
    assert response.usage.input_tokens == sum(u["input_tokens"] for u in fresh.usages)
    assert response.usage.output_tokens == 10 * 6
    assert len(response.request_ids) == 3
    assert fresh.max_in_flight <= 2
    await backend.aclose()


async def test_concurrency_cap_holds_across_calls(fresh: JevStandIn) -> None:
    """Five concurrent decides through a backend capped at 2: the stand-in holds every request until the test
    lets go, so two are seen in flight together (no timing involved) and never a third."""
    fresh.hold = threading.Event()
    backend = JevBackend(KEY, base_url=fresh.typesafe_base_url, retry=retry(0), concurrency=2)
    calls = asyncio.gather(*(backend.decide(sample_request()) for _ in range(5)))
    try:
        assert await asyncio.to_thread(fresh.flight.wait_until, 2), "two requests were never in flight together"
        assert len(fresh.systemone_requests) == 2  # the other three wait on the backend's semaphore
    finally:
        fresh.hold.set()
    assert len(await calls) == 5
    assert len(fresh.systemone_requests) == 5
    assert fresh.max_in_flight == 2
    await backend.aclose()


# -- model pinning and verify ------------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["jev-latest", "typesafe/jev-latest"])
def test_latest_is_refused(model: str) -> None:
    with pytest.raises(ConfigError, match=f"refusing the floating model alias '{model}'"):
        JevBackend(KEY, model=model)


def test_missing_key_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"^Jev on openrouter needs an API key: set OPENROUTER_API_KEY$"):
        JevBackend("", provider="openrouter")


def test_defaults_per_provider() -> None:
    direct = JevBackend(KEY)
    assert (direct.model_id, direct.base_url, direct.max_options) == (
        "jev-1.13.0",
        "https://api.typesafe.ai",
        255,
    )
    routed = JevBackend(KEY, provider="openrouter")
    assert (routed.model_id, routed.base_url) == ("typesafe/jev-1.13", "https://openrouter.ai/api")


async def test_verify_on_both_providers(fresh: JevStandIn) -> None:
    assert await JevBackend(KEY, base_url=fresh.typesafe_base_url).verify() == "jev-1.13.0"
    routed = JevBackend(KEY, provider="openrouter", base_url=fresh.openrouter_base_url)
    assert await routed.verify() == "typesafe/jev-1.13"
    fresh.openrouter_models = ["openai/gpt-4o-mini"]  # the general listing omits decision models
    assert await routed.verify() == "typesafe/jev-1.13"
    assert fresh.requests[-1].path == "/api/v1/models/typesafe/jev-1.13/endpoints"


async def test_verify_fails_when_the_pin_is_not_offered(fresh: JevStandIn) -> None:
    fresh.typesafe_models = ["jev-1.12.0", "jev-latest"]
    with pytest.raises(ConfigError) as info:
        await JevBackend(KEY, base_url=fresh.typesafe_base_url).verify()
    assert str(info.value) == (
        f"the pinned model 'jev-1.13.0' is not offered by typesafe ({fresh.url}/v1/models lists: "
        "jev-1.12.0, jev-latest)"
    )
    fresh.openrouter_models, fresh.openrouter_endpoints = [], []
    with pytest.raises(ConfigError, match=r"'typesafe/jev-1\.13' is not offered by openrouter"):
        await JevBackend(KEY, provider="openrouter", base_url=fresh.openrouter_base_url).verify()


async def test_verify_with_a_bad_key(fresh: JevStandIn) -> None:
    with pytest.raises(DecisionAuthError) as info:
        await JevBackend("nope", base_url=fresh.typesafe_base_url).verify()
    assert str(info.value) == (f"Jev (typesafe) rejected the API key (HTTP 401 from {fresh.url}/v1/models): {AUTH}")


def test_listing_shapes() -> None:
    assert listed_model_ids({"models": [{"name": "jev-1.13.0"}, {"name": "jev-latest"}]}) == [
        "jev-1.13.0",
        "jev-latest",
    ]
    assert listed_model_ids({"data": [{"id": "typesafe/jev-1.13"}]}) == ["typesafe/jev-1.13"]
    assert listed_model_ids({"data": {"id": "x"}}) == []
    assert listed_model_ids([1]) == []


# -- secrets -----------------------------------------------------------------------------------------------


async def test_key_never_in_repr_errors_or_logs(fresh: JevStandIn, caplog: pytest.LogCaptureFixture) -> None:
    secret = "sk-ts-0123456789-secret"
    fresh.api_key = secret
    backend = JevBackend(secret, base_url=fresh.typesafe_base_url, retry=retry(1))
    with caplog.at_level(logging.DEBUG):
        await backend.decide(sample_request())
        fresh.status, fresh.retry_after = 429, "0"
        with pytest.raises(DecisionRateLimitError) as info:
            await backend.decide(sample_request())
    assert secret not in caplog.text
    assert secret not in str(info.value)
    assert secret not in repr(info.value)
    assert secret not in repr(backend)
    assert secret not in str(vars(backend).get("_api_key"))
    assert caplog.text  # the SDK did log the exchange, redacted
    fresh.api_key = KEY
    await backend.aclose()


async def test_answer_sums_and_order_survive_rounding(jev: JevBackend) -> None:
    response = await jev.decide(sample_request())
    for result in response.results.values():
        assert math.isclose(sum(result.probabilities.values()), 1.0, abs_tol=1e-9)
