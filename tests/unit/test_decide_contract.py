"""One contract, every backend: same request -> a distribution over exactly the offered labels.

Jev runs through the real typesafe-sdk client against the stand-in on both providers' routes; the LLM backend
runs through litellm against the OpenAI-compatible stand-in.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

import pytest
from typesafe_sdk import RetryPolicy

from graphwalk_neo4j.decide import (
    ChoiceQuestion,
    DecisionBackend,
    DecisionRequest,
    FakeBackend,
    JevBackend,
    LLMBackend,
    LocalDecider,
    Usage,
)
from graphwalk_neo4j.decide.render import Layout, render_question
from graphwalk_neo4j.embed import FakeEmbedder
from graphwalk_neo4j.errors import DecisionError
from graphwalk_neo4j.walk.config import WalkConfig
from graphwalk_neo4j.walk.engine import WalkEngine
from graphwalk_neo4j.walk.memory import InMemoryExpander
from tests.helpers import FILM_EDGES, FILM_NODES
from tests.standins.jev_server import JevStandIn
from tests.standins.openai_server import OpenAIStandIn
from tests.standins.samples import sample_request, wide_request

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator

BACKENDS = ["fake", "local", "jev-typesafe", "jev-openrouter", "llm"]
FAST_RETRY = RetryPolicy(max_retries=1, backoff_initial=0.0, backoff_max=0.0)


@pytest.fixture(scope="module")
def jev_standin() -> Iterator[JevStandIn]:
    with JevStandIn() as standin:
        yield standin


@pytest.fixture(scope="module")
def openai_standin() -> Iterator[OpenAIStandIn]:
    with OpenAIStandIn() as standin:
        yield standin


@pytest.fixture(params=BACKENDS)
async def backend(request, jev_standin: JevStandIn, openai_standin: OpenAIStandIn) -> AsyncIterator[DecisionBackend]:
    jev_standin.reset()
    openai_standin.reset()
    kind = request.param
    if kind == "fake":
        made: DecisionBackend = FakeBackend(seed=3)
    elif kind == "local":
        made = LocalDecider(FakeEmbedder(128))
    elif kind == "jev-typesafe":
        made = JevBackend("test-key", base_url=jev_standin.typesafe_base_url, retry=FAST_RETRY)
    elif kind == "jev-openrouter":
        made = JevBackend("test-key", provider="openrouter", base_url=jev_standin.openrouter_base_url, retry=FAST_RETRY)
    else:
        made = LLMBackend("openai/test-model", api_base=openai_standin.api_base, api_key="sk-test", num_retries=0)
    try:
        yield made
    finally:
        await made.aclose()


def echoes(model_id: str, echoed: str) -> bool:
    """The echoed model is the requested one, a dated variant of it, or litellm's provider-less name."""
    return bool(echoed) and (echoed.startswith(model_id) or model_id.endswith("/" + echoed))


async def test_distribution_over_exactly_the_offered_labels(backend: DecisionBackend) -> None:
    request = sample_request()
    response = await backend.decide(request)
    assert list(response.results) == [q.key for q in request.questions]
    for question in request.questions:
        result = response.results[question.key]
        assert result.key == question.key
        assert list(result.probabilities) == list(question.options)
        assert all(0.0 <= p <= 1.0 for p in result.probabilities.values())
        assert math.isclose(math.fsum(result.probabilities.values()), 1.0, abs_tol=1e-9)
        assert result.top in question.options
        best = max(result.probabilities.values())
        assert result.top == next(label for label, p in result.probabilities.items() if p == best)
    assert isinstance(response.usage, Usage)
    assert response.usage.input_tokens >= 0
    assert response.usage.output_tokens >= 0
    assert response.calls >= 1
    assert response.latency_s >= 0.0
    assert echoes(backend.model_id, response.model), (backend.model_id, response.model)
    assert backend.max_options >= 2


async def test_same_request_same_answer(backend: DecisionBackend) -> None:
    first = await backend.decide(sample_request())
    second = await backend.decide(sample_request())
    for key, result in first.results.items():
        assert second.results[key].probabilities == result.probabilities


async def test_one_option_is_refused_before_any_call(
    backend: DecisionBackend, jev_standin: JevStandIn, openai_standin: OpenAIStandIn
) -> None:
    request = DecisionRequest(
        state="q",
        questions=[
            ChoiceQuestion(key="b0", options={"o1": "a", "STOP": "b"}),
            ChoiceQuestion(key="b1", options={"STOP": "the only way"}),
        ],
    )
    with pytest.raises(DecisionError, match=r"question 'b1' offers 1 option\(s\); a choice needs at least 2"):
        await backend.decide(request)
    assert jev_standin.systemone_requests == []
    assert openai_standin.requests == []


async def test_too_many_options_is_refused(backend: DecisionBackend) -> None:
    with pytest.raises(DecisionError, match="offers 256 options; at most 255 are allowed"):
        await backend.decide(wide_request(256))


# --- the text path: what a walk sends Jev (the live-verified layout) -------------------------------------------------


@pytest.mark.parametrize("hop_mode", ["relation", "entity"])
async def test_a_walk_sends_jev_the_rendered_layout_and_never_the_structure(
    jev_standin: JevStandIn, hop_mode: str
) -> None:
    jev_standin.reset()
    jev_standin.prefer = {"b0": "o1"}
    sent: list[DecisionRequest] = []

    class Recording(JevBackend):
        async def decide(self, request: DecisionRequest):
            sent.append(request)
            return await super().decide(request)

    jev = Recording("test-key", base_url=jev_standin.typesafe_base_url, retry=FAST_RETRY)
    config = WalkConfig.model_validate({"hop_mode": hop_mode, "max_depth": 3})
    try:
        result = await WalkEngine(InMemoryExpander(FILM_NODES, FILM_EDGES), jev, config=config).run(
            "Who directed Memento?", ["memento"], start_names=["Memento"], start_types={"memento": "film"}
        )
    finally:
        await jev.aclose()
    assert result.status in ("ok", "budget")
    assert sent
    wire = [r.body for r in jev_standin.systemone_requests]
    assert len(wire) == len(sent)
    for body, request in zip(wire, sent, strict=True):
        assert body["state"] == {"query": "Who directed Memento?"}
        for question in request.questions:
            sent_q = body["questions"][question.key]
            assert question.context is not None
            assert "context" not in sent_q
            assert "context" not in json_text(body)
            assert list(sent_q["instructions"]) == [
                k for k in ("task", "stop", "path", "current") if k in sent_q["instructions"]
            ]
            rendered = render_question(question.key, question.context, Layout())
            assert sent_q["instructions"] == rendered.instructions
            assert sent_q["criteria"] == rendered.options
            labels = list(sent_q["criteria"])
            assert labels[:-1] == [f"o{i}" for i in range(1, len(labels))] or labels == [
                f"o{i}" for i in range(1, len(labels) + 1)
            ]
            for line in sent_q["instructions"]["path"]:
                assert "-->" in line  # hops read as stored edges
    first = body_of(wire[0])
    assert first["instructions"]["path"] == []
    assert first["instructions"]["current"].startswith(
        "Memento (film)" if hop_mode == "entity" else "1 node: Memento (film)"
    )
    if len(wire) > 1:
        assert body_of(wire[1])["instructions"]["path"][0].startswith("Memento --")


def body_of(body: dict) -> dict:  # type: ignore[type-arg]
    return next(iter(body["questions"].values()))


def json_text(body: object) -> str:
    return json.dumps(body)
