from __future__ import annotations

import math

import pytest

from graphwalk_neo4j.decide import ChoiceQuestion, DecisionRequest, FakeBackend
from graphwalk_neo4j.errors import DecisionRateLimitError, DecisionResponseError
from tests.standins.samples import sample_request


async def test_unscripted_answers_are_seeded_and_independent_of_call_order() -> None:
    request = sample_request()
    first = await FakeBackend(seed=7).decide(request)
    reversed_request = DecisionRequest(state=request.state, questions=list(reversed(request.questions)))
    backend = FakeBackend(seed=7)
    await backend.decide(DecisionRequest(state="other", questions=request.questions[1:]))
    second = await backend.decide(reversed_request)
    for key in ("b0", "b1"):
        assert first.results[key].probabilities == second.results[key].probabilities
    other_seed = await FakeBackend(seed=8).decide(request)
    assert other_seed.results["b0"].probabilities != first.results["b0"].probabilities
    assert math.isclose(sum(first.results["b0"].probabilities.values()), 1.0, abs_tol=1e-9)


async def test_scripts_by_key_instruction_and_callable() -> None:
    request = sample_request()
    backend = FakeBackend(script={"b0": "o1"}, by_instruction={"Guy Pearce": {"STOP": 3, "o1": 1}})
    response = await backend.decide(request)
    assert response.results["b0"].probabilities == {"o1": 1.0, "o2": 0.0, "o3": 0.0, "STOP": 0.0}
    assert response.results["b0"].top == "o1"
    assert response.results["b1"].probabilities == {"o1": 0.25, "STOP": 0.75}
    calls = []

    def answer(question: ChoiceQuestion, state: object) -> str | None:
        calls.append((question.key, state))
        return "STOP" if question.key == "b1" else None

    response = await FakeBackend(answer=answer).decide(request)
    assert response.results["b1"].top == "STOP"
    assert calls == [("b0", {"query": "Who directed Memento?"}), ("b1", {"query": "Who directed Memento?"})]


async def test_scripted_unoffered_label_breaks_the_contract_loudly() -> None:
    with pytest.raises(DecisionResponseError, match="'o9', which was not offered"):
        await FakeBackend(script={"b0": "o9"}).decide(sample_request())


async def test_records_requests_reports_usage_and_fails_on_demand() -> None:
    backend = FakeBackend(tokens_per_question=(50, 5), cost_per_input_token=1e-6)
    response = await backend.decide(sample_request())
    assert response.usage.input_tokens == 100
    assert response.usage.output_tokens == 10
    assert response.usage.cost_usd == pytest.approx(100e-6)
    assert response.model == "fake"
    assert response.calls == 1
    backend.fail_with(DecisionRateLimitError("slow down"), times=1)
    with pytest.raises(DecisionRateLimitError, match="slow down"):
        await backend.decide(sample_request())
    await backend.decide(sample_request())
    assert len(backend.requests) == 3
    await backend.aclose()
    assert backend.closed
