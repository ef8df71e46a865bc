"""LocalDecider with the hashing FakeEmbedder: both methods, knobs, caching, determinism."""

from __future__ import annotations

import math

import numpy as np
import pytest

from graphwalk_neo4j.decide import ChoiceQuestion, DecisionRequest, LocalDecider
from graphwalk_neo4j.decide.local import (
    FEATURES,
    gist,
    kind_words,
    mask_start,
    read_question,
    same_kind,
    softmax,
    split_hop,
    start_names,
)
from graphwalk_neo4j.embed import FakeEmbedder
from graphwalk_neo4j.walk.ports import NodeRef, Option
from tests.helpers import json_object
from tests.standins.samples import hop_question, sample_request
from tests.tate_decision import QUESTION, YEARS, tate_decision


def test_softmax_exact_values() -> None:
    probs = softmax(np.array([0.0, math.log(3.0)]), 1.0)
    assert probs.tolist() == pytest.approx([0.25, 0.75], abs=1e-15)
    sharp = softmax(np.array([0.2, 0.1]), 0.05)  # a 0.1 cosine gap at T=0.05 is a factor e^2
    assert sharp[0] / sharp[1] == pytest.approx(math.exp(2.0))


async def test_prefers_the_option_sharing_words_with_the_query() -> None:
    decider = LocalDecider(FakeEmbedder(256), method="similarity")
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
    assert response.model == "local:fake-hash-256"
    assert response.usage.cost_usd == 0.0


async def test_scores_are_cosines_of_context_plus_description() -> None:
    embedder = FakeEmbedder(64)
    decider = LocalDecider(embedder, temperature=0.1, method="similarity")
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
    hot = (await LocalDecider(FakeEmbedder(64), temperature=1.0, method="similarity").decide(request)).results["b0"]
    cold = (await LocalDecider(FakeEmbedder(64), temperature=0.01, method="similarity").decide(request)).results["b0"]
    assert max(cold.probabilities.values()) > max(hot.probabilities.values())
    base = (await LocalDecider(FakeEmbedder(64), method="similarity").decide(request)).results["b0"]
    biased = (await LocalDecider(FakeEmbedder(64), stop_bias=1.0, method="similarity").decide(request)).results["b0"]
    assert biased.probabilities["STOP"] > base.probabilities["STOP"]
    assert biased.top == "STOP"
    with pytest.raises(ValueError, match="temperature must be a positive finite number"):
        LocalDecider(FakeEmbedder(8), temperature=0)
    with pytest.raises(ValueError, match="unknown LocalDecider method"):
        LocalDecider(FakeEmbedder(8), method="vibes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown LocalDecider feature weights"):
        LocalDecider(FakeEmbedder(8), weights={"nope": 1.0})


async def test_option_without_description_reads_as_its_label() -> None:
    decider = LocalDecider(FakeEmbedder(32), method="similarity")
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
    assert embedder.encoded == encoded
    assert embedder.calls == calls
    assert second.results["b0"].probabilities == first.results["b0"].probabilities
    other = await LocalDecider(FakeEmbedder(64)).decide(sample_request())
    assert other.results["b1"].probabilities == first.results["b1"].probabilities


def test_read_question_focus_body_and_proximity() -> None:
    reading = read_question("the films acted by Sharon Tate were released in which years", ["Sharon Tate"])
    assert reading.residual == "the films acted by were released in which years"
    assert reading.focus == "which years"
    assert reading.body == ("films", "acted", "released")
    assert reading.weights == (1 / 3, 1.0, 0.5)  # "acted" and "released" are 2 words away, "films" 3
    assert reading.distances == (3, 2, 2)
    assert read_question("what are the genres of the films directed by X", ["X"]).focus == "what genres"
    assert read_question("what type of movie is Blood", ["Blood"]).focus == "what type movie"
    assert read_question("who starred in Kismet", ["Kismet"]).focus == "who"
    unnamed = read_question("who starred in it", ["Kismet"])
    assert unnamed.body == ("starred",)
    assert unnamed.weights == (1.0,)
    assert unnamed.distances == (None,)


def test_layout_helpers() -> None:
    assert gist("film release year year (--release_year-->) — leads to 2 nodes") == "film release year year"
    assert gist("films directed by this person (<--directed_by--) — leads to") == "films directed by this person"
    assert split_hop("films directed by this person: 2 films") == ("films directed by this person", "2 films")
    assert split_hop("no colon here") == ("no colon here", "")
    assert kind_words("2 years") == ["years"]
    assert kind_words("Christopher Nolan (Person)") == ["person"]
    assert same_kind("films", ["film"])
    assert not same_kind("person", ["film"])
    instructions = {"start": ["Kismet (1944) (Movie)", "mark ruffalo (Tag)"]}
    assert start_names(instructions) == ["Kismet (1944)", "mark ruffalo"]
    assert mask_start("who directed kismet (1944) with Mark Ruffalo", instructions) == "who directed with"
    assert start_names({"start": "Kismet (Movie)"}) == ["Kismet"]
    assert start_names("text") == []


async def test_coverage_features_exact_with_fake_vectors() -> None:
    """With the hashing embedder, unrelated words have cosine ~0, so stem matches decide the word features."""
    decider = LocalDecider(FakeEmbedder(4096))
    question = ChoiceQuestion(
        key="b0",
        instructions={"start": ["Sharon Tate (person)"], "path": ["films starred actors this person: 2 films"]},
        options={
            "o1": "film release year year (--release_year-->) — leads to 2 nodes: 1967 (year), 1968 (year)",
            "o2": "films starred actors this person (<--starred_actors--) — leads to 9 nodes",
            "STOP": "Stop here: the current 2 nodes are themselves the answer.",
        },
    )
    rows = await decider.features("the films starred by Sharon Tate were released in which years", question)
    assert rows.shape == (3, len(FEATURES))
    # body = films, starred, released with weights 1/3, 1, 1/2 (distance ranks); the path covers "films" and
    # "starred"; "release" shares the 5-letter stem of "released"
    assert rows[0, 0] == pytest.approx((1 / 2) / (1 + 1 / 2 + 1 / 3), abs=0.02)
    assert rows[1, 0] == pytest.approx(0.0, abs=0.02)  # nothing new
    assert rows[1, 3] == 1.0
    assert rows[0, 3] == 0.0
    assert rows[2, :5].tolist() == [0.0] * 5
    assert rows[2, 8] == 1.0
    assert rows[2, 6] == pytest.approx((1 / 2) / (1 + 1 / 2 + 1 / 3), abs=0.02)  # "released" is still open
    assert rows[0, 5:].tolist() == [0.0] * 4
    response = await decider.decide(
        DecisionRequest(state="the films starred by Sharon Tate were released in which years", questions=[question])
    )
    scores = rows @ np.array([decider.weights[f] for f in FEATURES])
    scores[2] += decider.stop_bias
    expected = softmax(scores, 1.0)
    assert list(response.results["b0"].probabilities.values()) == pytest.approx(expected.tolist(), abs=1e-12)


async def test_coverage_reads_plain_questions_without_layout() -> None:
    decider = LocalDecider(FakeEmbedder(256))
    question = ChoiceQuestion(key="q", instructions="Pick a colour", options={"red": None, "blue": "a blue sky"})
    response = await decider.decide(DecisionRequest(state="the sky is blue", questions=[question]))
    assert response.results["q"].top == "blue"
    assert "method='coverage'" in repr(decider)
    assert decider.stop_bias == -0.5
    assert decider.temperature == 1.0


async def test_coverage_reads_the_context_not_the_text() -> None:
    """A walk's question carries its structure: the coverage features read it and equal the features of the
    same question in the old text layout, whatever the rendered text says."""
    options = [
        Option(relation="release_year", direction="out", targets=YEARS),
        Option(
            relation="starred_actors",
            direction="in",
            targets=tuple(NodeRef(id=f"g{i}", name=f"G{i}", type="film") for i in range(9)),
        ),
    ]
    state = QUESTION
    structured = tate_decision(options)
    legacy = ChoiceQuestion(
        key="b0",
        instructions={"start": ["Sharon Tate (person)"], "path": ["films starred actors this person: 2 films"]},
        options={
            "o1": "release year (film to year) (--release_year-->) — leads to 2 nodes: 1967 (year), 1968 (year)",
            "o2": "films starred actors this film (<--starred_actors--) — leads to 9 nodes",
            "STOP": "Stop here: the current 2 nodes are themselves the answer.",
        },
    )
    assert structured.context is not None
    assert "start" not in json_object(structured.instructions)
    decider = LocalDecider(FakeEmbedder(4096))
    from_structure = await decider.features(state, structured)
    from_text = await decider.features(state, legacy)
    assert from_structure.tolist() == from_text.tolist()
    assert from_structure[0, 0] > 0.2  # "release year" covers "released"
    # the text alone (new layout, no structure) reads differently: the structure is what the decider uses
    text_only = structured.model_copy(update={"context": None})
    assert (await decider.features(state, text_only)).tolist() != from_structure.tolist()


async def test_stop_is_ruled_out_where_the_question_names_a_type_one_move_away() -> None:
    # "the films starred by Sharon Tate were released in which years", standing on her films
    question = tate_decision([Option(relation="release_year", direction="out", targets=YEARS, total_targets=2)])
    assert question.context is not None
    assert question.context.options[-1].is_stop
    stop = question.context.labels[-1]
    request = DecisionRequest(state={"query": QUESTION}, questions=[question])
    for method in ("coverage", "similarity"):
        ruled = (await LocalDecider(FakeEmbedder(64), method=method).decide(request)).results["b0"]
        kept = (await LocalDecider(FakeEmbedder(64), method=method, stop_rule=False).decide(request)).results["b0"]
        assert ruled.probabilities[stop] == 0.0
        assert kept.probabilities[stop] > 0.0
        assert sum(ruled.probabilities.values()) == pytest.approx(1.0)
    # a question without a named type keeps its STOP
    plain = tate_decision([Option(relation="release_year", direction="out", targets=YEARS, total_targets=2)])
    assert plain.context is not None
    unnamed = plain.model_copy(
        update={"context": plain.context.model_copy(update={"question": "the films starred by Sharon Tate"})}
    )
    result = (await LocalDecider(FakeEmbedder(64)).decide(DecisionRequest(state="s", questions=[unnamed]))).results
    assert result["b0"].probabilities[stop] > 0.0
