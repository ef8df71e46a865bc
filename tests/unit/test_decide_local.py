"""LocalDecider with the hashing FakeEmbedder: method, knobs, caching, determinism."""

from __future__ import annotations

import math

import numpy as np
import pytest

from graphwalk_neo4j.decide import ChoiceQuestion, DecisionRequest, LocalDecider
from graphwalk_neo4j.decide.local import softmax
from graphwalk_neo4j.embed import FakeEmbedder
from tests.standins.samples import hop_question, sample_request


def test_softmax_exact_values() -> None:
    probs = softmax(np.array([0.0, math.log(3.0)]), 1.0)
    assert probs.tolist() == pytest.approx([0.25, 0.75], abs=1e-15)
    sharp = softmax(np.array([0.2, 0.1]), 0.05)  # a 0.1 cosine gap at T=0.05 is a factor e^2
    assert sharp[0] / sharp[1] == pytest.approx(math.exp(2.0))


async def test_prefers_the_option_sharing_words_with_the_query() -> None:
    decider = LocalDecider(FakeEmbedder(256))
    request = DecisionRequest(
        state="Which films did Christopher Nolan direct?",
        questions=[
            hop_question(
                "b0",
                "Christopher Nolan",
                {"o1": "films directed by Christopher Nolan", "o2": "born in London", "STOP": "stop here"},
            )
        ],
    )
    response = await decider.decide(request)
    assert response.results["b0"].top == "o1"
    assert response.model == "local:fake-hash-256" and response.usage.cost_usd == 0.0


async def test_scores_are_cosines_of_context_plus_description() -> None:
    embedder = FakeEmbedder(64)
    decider = LocalDecider(embedder, temperature=0.1)
    request = sample_request()
    question = request.questions[0]
    assert decider.option_text(question, "o1") == "Memento Memento directed_by Christopher Nolan"
    response = await decider.decide(request)
    state_vec = embedder.encode(["Who directed Memento?"])[0]
    texts = [decider.option_text(question, label) for label in question.options]
    scores = embedder.encode(texts).astype(np.float64) @ state_vec.astype(np.float64)
    expected = softmax(scores, 0.1)
    assert list(response.results["b0"].probabilities.values()) == pytest.approx(expected.tolist(), abs=1e-12)


async def test_temperature_and_stop_bias_are_knobs() -> None:
    request = sample_request()
    hot = (await LocalDecider(FakeEmbedder(64), temperature=1.0).decide(request)).results["b0"]
    cold = (await LocalDecider(FakeEmbedder(64), temperature=0.01).decide(request)).results["b0"]
    assert max(cold.probabilities.values()) > max(hot.probabilities.values())
    base = (await LocalDecider(FakeEmbedder(64)).decide(request)).results["b0"]
    biased = (await LocalDecider(FakeEmbedder(64), stop_bias=1.0).decide(request)).results["b0"]
    assert biased.probabilities["STOP"] > base.probabilities["STOP"]
    assert biased.top == "STOP"
    with pytest.raises(ValueError):
        LocalDecider(FakeEmbedder(8), temperature=0)


async def test_option_without_description_reads_as_its_label() -> None:
    decider = LocalDecider(FakeEmbedder(32))
    question = ChoiceQuestion(key="q", instructions="Pick a colour", options={"red": None, "blue": ""})
    assert decider.option_text(question, "red") == "Pick a colour red"
    assert decider.option_text(question, "blue") == "Pick a colour blue"


async def test_texts_are_embedded_once_and_answers_are_deterministic() -> None:
    embedder = FakeEmbedder(64)
    decider = LocalDecider(embedder)
    first = await decider.decide(sample_request())
    encoded = embedder.encoded
    calls = embedder.calls
    second = await decider.decide(sample_request())
    assert embedder.encoded == encoded and embedder.calls == calls  # all from the decider's cache
    assert second.results["b0"].probabilities == first.results["b0"].probabilities
    other = await LocalDecider(FakeEmbedder(64)).decide(sample_request())
    assert other.results["b1"].probabilities == first.results["b1"].probabilities
