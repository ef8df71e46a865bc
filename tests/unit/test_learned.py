"""The learned decider's pure parts: inputs read from the structure, the NumPy forward pass against the torch
module it was trained as, fitting + calibration + the artifact, ECE, resolution, and the QA split."""

from __future__ import annotations

import dataclasses
import json
import os
import random
from typing import TYPE_CHECKING

import numpy as np
import pytest

from graphwalk_neo4j.backends import resolve_model_kind
from graphwalk_neo4j.decide.answer_types import (
    WHERE_OF_ORGANISATION,
    answer_type_verdicts,
    asked_about,
    asked_noun_phrase,
    asked_phrase,
    asks_for,
    with_value_kinds,
    without_stop,
)
from graphwalk_neo4j.decide.answer_types import stop_ruled_out as answer_stop_ruled_out
from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionRequest
from graphwalk_neo4j.decide.calibration import expected_calibration_error, reliability_bins
from graphwalk_neo4j.embed import FakeEmbedder
from graphwalk_neo4j.errors import ConfigError, DecisionError
from graphwalk_neo4j.learned.augment import merged, neighbour_synonyms, reword, variants, vocabulary
from graphwalk_neo4j.learned.fit import (
    Example,
    FitOptions,
    _module,
    _weights,
    augmented,
    decision_metrics,
    embed_texts,
    fit,
    graph_word_groups,
    vocabulary_cache,
)
from graphwalk_neo4j.learned.inputs import (
    EXTRA,
    STOP_TOKEN,
    DecisionInputs,
    asked_by_meaning,
    asked_compound,
    asked_nouns,
    asked_unnamed,
    asked_where_of_organisation,
    claims,
    content_words,
    decision_inputs,
    done_by_topic,
    masked_question,
    named_again,
    nearness,
    nouns_before_topic,
    option_extras,
    owner_reading,
    possessives,
    predicate_of_another,
    reached_at,
    relation_core_words,
    same_form,
    same_stem,
    same_word,
    stop_ruled_out,
    type_text,
    without_topic_nouns,
)
from graphwalk_neo4j.learned.model import (
    LearnedDecider,
    Vocab,
    Weights,
    encode,
    ensemble_logits,
    load_members,
    logits,
    save_members,
    text_vectors,
)
from graphwalk_neo4j.walk.ports import NodeRef, Option
from graphwalk_neo4j.walk.result import PathStep
from tests.tate_decision import FILMS, QUESTION, TATE, YEARS, first_decision, question_at, tate_decision
from tests.tate_decision import STEP as TATE_FILMS

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path


def tate_question(key: str = "b0") -> ChoiceQuestion:
    return tate_decision(
        [
            Option(relation="release_year", direction="out", targets=YEARS, total_targets=3),
            Option(relation="starred_actors", direction="out", targets=(TATE,)),
        ],
        key,
    )


def test_inputs_come_from_the_structure() -> None:
    question = tate_question()
    assert question.context is not None
    inputs = decision_inputs(question.context)
    assert inputs.question == "the films starred by were released in which years"
    assert inputs.path == ("starred_actors|in",)
    assert inputs.tokens == ("release_year|out", "starred_actors|out", "STOP")
    assert inputs.types == ("year", "person", "film")
    assert inputs.counts == (3, 1, 2)
    assert inputs.moves == (
        "release year (film to year)",
        "starred actors (film to person)",
        "the answer is these 2 films",
    )
    assert inputs.path_moves == ("films starred actors this person",)
    words = ("films", "starred", "released", "years", "release", "year", "film", "actors", "person", "answer")
    assert inputs.texts() == (inputs.question, *inputs.moves, *inputs.path_moves, *words, "which years")
    assert content_words("Who is THE director's wife, and what's it about?") == (
        "director's",
        "wife",
        "what's",
        "about",
    )
    assert type(inputs).from_json(json.loads(json.dumps(inputs.to_json()))) == inputs


def test_masked_question_is_case_insensitive_and_whole_word() -> None:
    question = tate_question()
    assert question.context is not None
    ctx = question.context.model_copy(update={"question": "did SHARON TATE act with sharon tateson [Sharon Tate]"})
    assert masked_question(ctx) == "did act with sharon tateson"


def test_the_noun_naming_the_topics_own_type_is_taken_from_before_its_name() -> None:
    films = {"movie", "film"}.__contains__  # what the decider's same_word says of a Movie's head
    name = ["Cabin in the Sky"]
    assert nouns_before_topic("which words describe movie [Cabin in the Sky]", name) == ("movie",)
    assert nouns_before_topic("the films starring [X] and the film [X]", ["X"]) == ("starring", "film")
    assert nouns_before_topic("who directed [X]", ["X"]) == ("directed",)
    assert nouns_before_topic("[X] was directed by who", ["X"]) == ()  # nothing before it
    assert nouns_before_topic("what is in [X]", ["X"]) == ()  # a function word is no noun
    cases = {
        "which words describe movie [Cabin in the Sky]": "which words describe [Cabin in the Sky]",
        "describe the Film Cabin in the Sky in a few words": "describe Cabin in the Sky in a few words",
        "what are the films that share actors with the movie [Cabin in the Sky]": (
            "what are the films that share actors with [Cabin in the Sky]"
        ),
        # another word before the name stays, and so does the noun before another name
        "the films starring [Cabin in the Sky]": "the films starring [Cabin in the Sky]",
        "the movie [Cabin]": "the movie [Cabin]",
    }
    assert {q: without_topic_nouns(q, name, films) for q in cases} == cases
    # every start entity's name: "the movies [A] and [B]" keeps "and"
    assert without_topic_nouns("compare movie [A] and film [B]", ["A", "B"], films) == "compare [A] and [B]"


def _text(inputs: DecisionInputs, q_dim: int) -> dict[str, np.ndarray]:
    """Distinct, seeded vectors for every text of ``inputs`` (what the text projections read)."""
    rng = np.random.default_rng(7)
    return {t: rng.standard_normal(q_dim).astype(np.float32) for t in inputs.texts()}


@pytest.mark.parametrize("text_dim", [0, 5])
def test_numpy_forward_equals_the_torch_module(text_dim: int) -> None:
    import torch

    question = tate_question()
    assert question.context is not None
    inputs = decision_inputs(question.context)
    vocab = Vocab.build([inputs])
    torch.manual_seed(3)
    opts = FitOptions(hidden=16, tok_dim=4, type_dim=3, pos_dim=5, dropout=0.0, text_dim=text_dim)
    net = _module(torch, vocab, 8, opts)
    net.eval()
    enc = encode(vocab, inputs)
    q = np.linspace(-1, 1, 8, dtype=np.float32)
    extras = np.linspace(-0.5, 0.5, 3 * EXTRA, dtype=np.float32).reshape(3, EXTRA)
    extra = extras[None]
    text = text_vectors(_text(inputs, 8), inputs)
    torch_text = (
        torch.tensor(text.moves)[None],
        torch.tensor(text.types)[None],
        torch.tensor(text.last)[None],
        torch.tensor(text.mean)[None],
    )
    with torch.no_grad():
        expected = net(
            torch.tensor(q)[None],
            torch.tensor(enc.path)[None],
            torch.tensor(enc.tokens)[None],
            torch.tensor(enc.types)[None],
            torch.tensor(extra),
            torch_text if text_dim else None,
        ).numpy()[0]
    weights = _weights(net)
    assert weights.reads_text == bool(text_dim)
    got = logits(weights, q, enc, extras, text)
    assert got.tolist() == pytest.approx(expected.tolist(), abs=1e-5)
    if text_dim:
        assert weights.mp is not None
        assert weights.mp.shape == (5, 8)
        with pytest.raises(ValueError, match="reads moves by their words"):
            logits(weights, q, enc, extras)


def test_text_vectors_are_the_moves_types_and_path_in_words() -> None:
    question = tate_question()
    assert question.context is not None
    inputs = decision_inputs(question.context)
    vectors = _text(inputs, 4)
    text = text_vectors(vectors, inputs)
    assert np.array_equal(text.moves[1], vectors["starred actors (film to person)"])
    assert [type_text(k) for k in inputs.types] == ["year", "person", "film"]
    assert np.array_equal(text.types[1], vectors["person"])
    assert np.array_equal(text.last, vectors["films starred actors this person"])
    assert np.array_equal(text.mean, vectors["films starred actors this person"])  # one hop: its mean is itself
    assert type_text("FilmGenre") == "film genre"
    assert type_text(" ") == "node"


def test_a_format_3_model_reads_the_first_ten_extras_and_no_text() -> None:
    """An artifact from before the text projections (w1 sized for 10 extras) scores as it did: the two new
    extras and the text vectors are not read."""
    question = tate_question()
    assert question.context is not None
    inputs = decision_inputs(question.context)
    vocab = Vocab.build([inputs])
    rng = np.random.default_rng(2)
    v, k, q_dim, hidden = len(vocab.tokens), len(vocab.types), 8, 6
    width = q_dim + 3 * 2 + 4 + 3 + 10
    old = Weights(
        tok=rng.standard_normal((v, 4)).astype(np.float32),
        typ=rng.standard_normal((k, 3)).astype(np.float32),
        pos=rng.standard_normal((3, v, 2)).astype(np.float32),
        w1=rng.standard_normal((hidden, width)).astype(np.float32),
        b1=rng.standard_normal(hidden).astype(np.float32),
        w2=rng.standard_normal(hidden).astype(np.float32),
        b2=np.float32(0.5) * np.ones((), dtype=np.float32),
    )
    enc = encode(vocab, inputs)
    q = np.linspace(-1, 1, q_dim, dtype=np.float32)
    extras = np.linspace(-0.5, 0.5, 3 * EXTRA, dtype=np.float32).reshape(3, EXTRA)
    changed = extras.copy()
    changed[:, 10:] = 99.0
    assert logits(old, q, enc, extras).tolist() == logits(old, q, enc, changed).tolist()
    path_vec = np.concatenate([old.pos[i, enc.path[i]] for i in range(3)])
    x = np.concatenate(
        [
            np.broadcast_to(np.concatenate([q, path_vec]), (3, q_dim + 6)),
            old.tok[enc.tokens],
            old.typ[enc.types],
            extras[:, :10],
        ],
        axis=1,
    )
    expected = np.maximum(x @ old.w1.T + old.b1, 0.0) @ old.w2 + old.b2
    assert logits(old, q, enc, extras).tolist() == pytest.approx(expected.tolist(), abs=1e-5)


def test_unknown_moves_and_types_map_to_unk() -> None:
    vocab = Vocab(tokens=["<pad>", "<unk>", "STOP", "a|out"], types=["<unk>", "film"])
    assert (vocab.token("a|out"), vocab.token("zzz|in"), vocab.type("film"), vocab.type("planet")) == (3, 1, 1, 0)


def synthetic(n: int) -> list[Example]:
    """Year questions want release_year, actor questions starred_actors: a rule the model must learn."""
    out = []
    for i in range(n):
        wants_year = i % 2 == 0
        q = tate_question()
        assert q.context is not None
        ctx = q.context.model_copy(update={"question": f"{'which years' if wants_year else 'who acted'} item {i}"})
        target = [1.0, 0.0, 0.0] if wants_year else [0.0, 1.0, 0.0]
        out.append(Example(decision_inputs(ctx), target, "year" if wants_year else "actor"))
    return out


async def test_fit_writes_a_calibrated_artifact_that_loads_and_decides(tmp_path: Path) -> None:
    embedder = FakeEmbedder(64)
    metrics = await fit(
        synthetic(40),
        synthetic(10),
        embedder,
        tmp_path / "art",
        options=FitOptions(epochs=25, hidden=32, lr=1e-2, augment=0),
        meta={"graph": "g"},
    )
    art = tmp_path / "art"
    assert {p.name for p in art.iterdir()} >= {
        "model.npz",
        "config.json",
        "metrics.json",
        "checkpoint-0.pt",
        "checkpoint-1.pt",
        "checkpoint-2.pt",
        "cache",
    }
    assert metrics["val"]["accuracy"] == 1.0
    assert metrics["decisions"] == {"train": 40, "val": 10, "augmented": 0}
    assert 0.2 <= metrics["temperature"] <= 5.0
    config = json.loads((art / "config.json").read_text())
    assert config["graph"] == "g"
    assert config["embedder"] == embedder.model_id
    assert len(config["training_data_sha256"]) == 64
    decider = LearnedDecider.load(art, embedder)
    assert decider.model_id == "learned:art"
    q = tate_question()
    assert q.context is not None
    year = q.model_copy(update={"context": q.context.model_copy(update={"question": "which years item 0"})})
    first = await decider.decide(DecisionRequest(state={"query": "x"}, questions=[year]))
    again = await decider.decide(DecisionRequest(state={"query": "x"}, questions=[year]))
    assert first.results["b0"].top == "o1"
    assert first.results["b0"].probabilities == again.results["b0"].probabilities  # deterministic
    assert sum(first.results["b0"].probabilities.values()) == pytest.approx(1.0)
    # "... released in which years", standing on films, a move to years offered: STOP is ruled out
    stop = q.context.labels[-1]
    assert q.context.options[-1].is_stop
    ruled = (await decider.decide(DecisionRequest(state={"query": "x"}, questions=[q]))).results["b0"]
    assert ruled.probabilities[stop] == 0.0
    assert sum(ruled.probabilities.values()) == pytest.approx(1.0)
    decider.stop_rule = False
    kept = (await decider.decide(DecisionRequest(state={"query": "x"}, questions=[q]))).results["b0"]
    assert kept.probabilities[stop] > 0.0
    moves = [label for label in q.context.labels if label != stop]
    share = sum(kept.probabilities[m] for m in moves)
    assert [ruled.probabilities[m] for m in moves] == pytest.approx([kept.probabilities[m] / share for m in moves])
    # a noun naming the topic's own type before its name ("the person [Sharon Tate]") is read as the name is
    named = q.model_copy(
        update={
            "context": q.context.model_copy(
                update={"question": QUESTION.replace("Sharon Tate", "the person Sharon Tate")}
            )
        }
    )
    as_named = (await decider.decide(DecisionRequest(state={"query": "x"}, questions=[named]))).results["b0"]
    assert as_named.probabilities == kept.probabilities


async def test_a_graph_without_types_refuses_stop_on_a_named_type_when_the_asked_noun_is_unnamed(
    tmp_path: Path,
) -> None:
    """The decision at the films asked "... released in which years", on a graph loaded without types: its films
    are typed ``film`` by their relations' words. Where the years are a type no relation names (``item``), the
    noun names none of the named types and reads as asking for the unnamed one, so STOP on the films is refused
    (:func:`~graphwalk_neo4j.learned.inputs.asked_unnamed`); where the graph names the years ``vintage``, a
    named type the question does not name, nothing is ruled out, as before."""
    embedder = FakeEmbedder(64)
    await fit(synthetic(20), synthetic(6), embedder, tmp_path / "art", options=FitOptions(epochs=3, hidden=16))
    decider = LearnedDecider.load(tmp_path / "art", embedder)
    q = tate_question()
    assert q.context is not None
    untyped_options = tuple(o.model_copy(update={"source_type": None, "target_type": None}) for o in q.context.options)
    context = q.context.model_copy(update={"current_type": None, "options": untyped_options})
    question = q.model_copy(update={"context": context})
    stop = context.labels[-1]
    ends = {"release_year|subject": "film", "starred_actors|subject": "film", "starred_actors|object": "person"}

    async def stop_probability(years: str) -> float:
        decider.role_types = {**ends, "release_year|object": years}
        result = await decider.decide(DecisionRequest(state={"query": "x"}, questions=[question]))
        return result.results["b0"].probabilities[stop]

    assert await stop_probability("item") == 0.0
    assert await stop_probability("vintage") > 0.0


def test_where_asked_of_an_organisation_the_topic_leads_to() -> None:
    """``where`` asked of a club, a company or an employer the topic leads to (before the topic, or owned by it)
    asks for a place; asked of people, or of the topic itself, it may be answered by an organisation."""
    cases = {
        "where does [Elif Abara]'s team play its home games": True,
        "where is the parent company of [Elif Abara] headquartered": True,
        "where are the teams [Elif Abara] used to play for": True,
        "where is the employer of [Elif Abara] based": True,
        "where do graduates of [Elif Abara] work": False,  # people: a company answers where they work
        "where do the employees of [Elif Abara] work": False,
        "where is [Elif Abara] based": False,  # the topic itself
        "where were the founders of [Elif Abara] born": False,
        "which club does [Elif Abara] play for": False,  # no where
    }
    assert {q: asked_where_of_organisation(q, ["Elif Abara"]) for q in cases} == cases


def test_a_verb_said_of_what_the_topic_leads_to_is_no_first_move() -> None:
    """A ``be`` question whose participle is said of a subject that holds the topic behind a preposition, before a
    possessive or before more words, or a ``do`` question whose last verb is (behind a preposition or before a
    possessive only): that word; the topic itself as the subject, a noun before the name that says what it is,
    another opening or no participle at the end: ``None``."""
    cases = {
        "where was the coach of [Elif Abara]'s club born": "born",
        "where were the teammates of [Elif Abara] born": "born",
        "in which cities were the managers of the teams [Elif Abara] used to play for born": "born",
        "what countries were the players of [Elif Abara] born in": "born",
        "in which cities were the players who share a club with [Elif Abara] born": "born",
        "where was [Elif Abara]'s father born": "born",
        "when were the movies directed by [Elif Abara] released": "released",
        "where was [Elif Abara] born": None,
        "when was the film [Elif Abara] released": None,
        "which country's league does the team of [Elif Abara] play in": "play",  # after do, a verb's base form
        "where did the parents of [Elif Abara] die": "die",
        "what genre does [Elif Abara] fall under": None,  # after do the topic's words end nowhere known
        "what do the spouses of [Elif Abara]'s children do": None,  # no verb ends it
        "what genres are the films directed by [Elif Abara] in": None,  # the topic ends it
        "the films directed by [Elif Abara] were released in which years": None,  # opens with its subject
        "who is [Elif Abara] married to": None,
    }
    read = {q: predicate_of_another(q, ["Elif Abara"]) for q in cases}
    assert {q: p.verb if p else None for q, p in read.items()} == cases
    # the move it names: a form of the participle, closing with a preposition the question puts to it
    born = read["where was the coach of [Elif Abara]'s club born"]
    assert born is not None
    assert born.names("born_in|out")
    assert not born.names("based_in|out")
    played = predicate_of_another("in which country is the league of [Elif Abara]'s club played", ["Elif Abara"])
    assert played is not None
    assert played.prepositions == {"in"}
    assert not played.names("plays_for|out")  # the league is played in a country; [X] plays for the club
    assert played.names("plays_position|out")
    play = read["which country's league does the team of [Elif Abara] play in"]
    assert play is not None
    assert not play.names("plays_for|out")  # the team plays in a league; [X] plays for the team
    # the move the subject's words name: the subject is where it leads ("where is the headquarters of [X]
    # located"); one it does not name leaves the subject a move away ("in which city is the owner of [X] based")
    located = predicate_of_another("where is the headquarters of [Acme] located", ["Acme"])
    assert located is not None
    assert located.reached_by("headquarters|out")
    assert not located.reached_by("subsidiary_of|out")
    based = predicate_of_another("in which city is the owner of [Acme] based", ["Acme"])
    assert based is not None
    assert based.subject == ("owner",)
    assert not based.reached_by("headquartered_in|out")
    starred = predicate_of_another("what else did the actors of [Elif Abara] star in", ["Elif Abara"])
    assert starred is not None
    assert starred.subject == ("actors",)
    assert not starred.names("starred_actors|out")  # the subject's own word: the move that reaches the actors
    directed = read["when were the movies directed by [Elif Abara] released"]
    assert directed is not None
    assert directed.names("release_year|out")


async def test_the_learned_decider_does_not_take_first_the_move_a_verb_says_of_another(
    tmp_path: Path,
) -> None:
    """At the topic, "where were the co-stars of Sharon Tate born" says ``born`` of her co-stars: ``born_in`` is
    not her move, and the first decision gives it nothing (the rest renormalised); "where was Sharon Tate born"
    leaves it to the network."""
    embedder = FakeEmbedder(64)
    await fit(synthetic(20), synthetic(6), embedder, tmp_path / "art", options=FitOptions(epochs=3, hidden=16))
    decider = LearnedDecider.load(tmp_path / "art", embedder)
    options = [
        Option(relation="born_in", direction="out", targets=(YEARS[0],)),
        Option(relation="starred_actors", direction="in", targets=(TATE,)),
    ]

    async def probabilities(question: str) -> list[float]:
        q = first_decision(options, question)
        result = await decider.decide(DecisionRequest(state={"query": "x"}, questions=[q]))
        assert q.context is not None
        return [result.results["b0"].probabilities[label] for label in q.context.labels]

    born, starred, stop = await probabilities("where were the co-stars of Sharon Tate born")
    assert born == 0.0
    assert starred + stop == pytest.approx(1.0)
    assert (await probabilities("where was Sharon Tate born"))[0] > 0.0


async def test_the_learned_decider_does_not_stop_one_move_out_on_what_a_verb_is_said_of(tmp_path: Path) -> None:
    """At Sharon Tate's films, one move out, "what were the films of Sharon Tate released in" says ``released`` of
    the films: the answer is a move past them, and STOP gets nothing. The same decision asked without such a
    verb ("what are the films of Sharon Tate") keeps what the network gives STOP."""
    embedder = FakeEmbedder(64)
    await fit(synthetic(20), synthetic(6), embedder, tmp_path / "art", options=FitOptions(epochs=3, hidden=16))
    decider = LearnedDecider.load(tmp_path / "art", embedder)
    options = [Option(relation="release_year", direction="out", targets=YEARS)]

    async def stop(question: str) -> float:
        q = question_at(FILMS, [TATE_FILMS], options, question)
        result = await decider.decide(DecisionRequest(state={"query": "x"}, questions=[q]))
        assert q.context is not None
        return result.results["b0"].probabilities[q.context.labels[-1]]

    assert await stop("what were the films of Sharon Tate released in") == 0.0
    assert await stop("what are the films of Sharon Tate") > 0.0


async def test_the_learned_decider_does_not_stop_on_the_organisation_where_asks_the_place_of(
    tmp_path: Path,
) -> None:
    """Standing on Sharon Tate's employer, "where is the employer of Sharon Tate based" asks where the company is:
    STOP on it gets nothing while a move reaches a city. "Where does Sharon Tate work" may be answered by the
    company, and STOP keeps what the network gives it."""
    embedder = FakeEmbedder(64)
    await fit(synthetic(20), synthetic(6), embedder, tmp_path / "art", options=FitOptions(epochs=3, hidden=16))
    decider = LearnedDecider.load(tmp_path / "art", embedder)
    company = NodeRef(id="c", name="Acme", type="company")
    step = PathStep(
        step_id="s", depth=1, kind="decision", label="o1", relation="works_at", direction="out",
        from_ids=[TATE.id], from_names=[TATE.name], nodes=[company],
    )  # fmt: skip
    options = [Option(relation="based_in", direction="out", targets=(NodeRef(id="k", name="Oslo", type="city"),))]

    async def probabilities(question: str) -> list[float]:
        q = question_at([company], [step], options, question)
        result = await decider.decide(DecisionRequest(state={"query": "x"}, questions=[q]))
        assert q.context is not None
        return [result.results["b0"].probabilities[label] for label in q.context.labels]

    based, stop = await probabilities("where is the employer of Sharon Tate based")
    assert (based, stop) == (1.0, 0.0)
    assert (await probabilities("where does Sharon Tate work"))[1] > 0.0


async def test_fit_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    embedder = FakeEmbedder(64)
    opts = FitOptions(epochs=6, hidden=16, patience=100)
    full = await fit(synthetic(20), synthetic(6), embedder, tmp_path / "a", options=opts)
    await fit(
        synthetic(20), synthetic(6), embedder, tmp_path / "b", options=FitOptions(epochs=3, hidden=16, patience=100)
    )
    resumed = await fit(synthetic(20), synthetic(6), embedder, tmp_path / "b", options=opts)
    # every member picks up where the shorter run left it, and ends where the uninterrupted run ended
    assert [(h["member"], h["epoch"]) for h in resumed["history"]] == [(k, e) for k in range(3) for e in range(1, 7)]
    assert [h["nll"] for h in resumed["history"]] == pytest.approx([h["nll"] for h in full["history"]], rel=1e-4)
    assert resumed["val"]["nll"] == pytest.approx(full["val"]["nll"], rel=1e-4)


async def test_fit_is_bit_for_bit_repeatable_on_a_multithreaded_cpu(tmp_path: Path) -> None:
    # big enough batches that torch parallelises the embedding look-ups' backward, whose summation order
    # varies between runs unless fit() switches torch's deterministic algorithms on
    embedder = FakeEmbedder(64)
    opts = FitOptions(epochs=1, members=1, batch_size=1024, augment=0)
    for name in ("a", "b"):
        await fit(synthetic(4000), synthetic(50), embedder, tmp_path / name, options=opts)
    with np.load(tmp_path / "a" / "model.npz") as one, np.load(tmp_path / "b" / "model.npz") as two:
        assert all(np.array_equal(one[k], two[k]) for k in one.files)


async def test_learned_decider_needs_structure(tmp_path: Path) -> None:
    embedder = FakeEmbedder(32)
    await fit(synthetic(6), [], embedder, tmp_path / "art", options=FitOptions(epochs=1, hidden=8))
    decider = LearnedDecider.load(tmp_path / "art", embedder)
    plain = ChoiceQuestion(key="q", instructions="pick", options={"a": "A", "b": "B"})
    with pytest.raises(DecisionError, match="carries no structure"):
        await decider.decide(DecisionRequest(state="s", questions=[plain]))
    with pytest.raises(ConfigError, match="trained over embedder"):
        LearnedDecider.load(tmp_path / "art", FakeEmbedder(16))
    with pytest.raises(ConfigError, match="not a learned-decider directory"):
        LearnedDecider.load(tmp_path, embedder)


async def test_an_artifact_of_format_3_still_loads_and_an_older_one_is_refused(tmp_path: Path) -> None:
    embedder = FakeEmbedder(32)
    art = tmp_path / "art"
    await fit(synthetic(6), [], embedder, art, options=FitOptions(epochs=1, hidden=8, members=1, text_dim=0))
    config = json.loads((art / "config.json").read_text())
    assert config["format"] == 11
    assert not LearnedDecider.load(art, embedder).members[0].reads_text
    (art / "config.json").write_text(json.dumps({**config, "format": 3}))
    decider = LearnedDecider.load(art, embedder)
    answer = await decider.decide(DecisionRequest(state="s", questions=[tate_question()]))
    assert sum(answer.results["b0"].probabilities.values()) == pytest.approx(1.0)
    (art / "config.json").write_text(json.dumps({**config, "format": 2}))
    with pytest.raises(
        ConfigError,
        match="artifact format 2, this version reads 3 and 4 and 5 and 6 and 7 and 8 and 9 and 10 and 11; retrain",
    ):
        LearnedDecider.load(art, embedder)


@pytest.mark.parametrize(("old_format", "old_extras"), [(4, 12), (5, 14), (6, 18), (7, 20), (8, 22), (9, 23), (10, 24)])
async def test_an_older_artifact_reads_its_own_extras(tmp_path: Path, old_format: int, old_extras: int) -> None:
    """A format 4 network has no columns for the nearness extras (12, 13), a format 5 one none for the claims
    and the asked kind (14-17), a format 6 one none for the least-matched word (18, 19), a format 7 one none for
    the kind its question word asks for (20, 21), a format 8 one none for the way back (22), a format 9 one
    none for a relation named again (23), a format 10 one none for which way a relation named as owned runs
    (24): each scores as a format 11 network whose weights on the columns it lacks are zero."""
    embedder = FakeEmbedder(32)
    art = tmp_path / "art"
    await fit(synthetic(6), [], embedder, art, options=FitOptions(epochs=1, hidden=8, members=1, text_dim=4))
    config = json.loads((art / "config.json").read_text())
    (weights,) = load_members(art / "model.npz")
    first = 32 + 3 * weights.pos.shape[2] + 2 * 4 + weights.tok.shape[1] + weights.typ.shape[1] + old_extras
    lacking = list(range(first, first + EXTRA - old_extras))
    zeroed = weights.w1.copy()
    zeroed[:, lacking] = 0.0
    save_members(art / "model.npz", [dataclasses.replace(weights, w1=zeroed)])
    want = await LearnedDecider.load(art, embedder).decide(DecisionRequest(state="s", questions=[tate_question()]))
    trimmed = np.delete(weights.w1, lacking, axis=1)
    save_members(art / "model.npz", [dataclasses.replace(weights, w1=trimmed)])
    (art / "config.json").write_text(json.dumps({**config, "format": old_format}))
    got = await LearnedDecider.load(art, embedder).decide(DecisionRequest(state="s", questions=[tate_question()]))
    assert got.results["b0"].probabilities == pytest.approx(want.results["b0"].probabilities)


def test_ece_and_bins_exact() -> None:
    conf = np.asarray([0.95, 0.95, 0.55, 0.55, 0.15])
    right = np.asarray([1, 0, 1, 1, 0])
    # bins: 0.9-1.0 -> conf .95 acc .5 (gap .45, share .4); 0.5-0.6 -> .55 vs 1 (.45, .4); 0.1-0.2 -> .15 vs 0
    assert expected_calibration_error(conf, right) == pytest.approx(0.4 * 0.45 + 0.4 * 0.45 + 0.2 * 0.15)
    bins = reliability_bins(conf, right)
    assert [(b["n"], b["accuracy"]) for b in bins] == [(1, 0.0), (2, 1.0), (2, 0.5)]
    assert expected_calibration_error(np.asarray([1.0, 0.0]), np.asarray([1, 0])) == 0.0
    assert expected_calibration_error(np.asarray([]), np.asarray([])) == 0.0


def test_learned_model_names_resolve() -> None:
    assert resolve_model_kind("learned:/tmp/art", False, False) == ("learned", "/tmp/art", None)
    assert resolve_model_kind("learned:rel/dir", True, False) == ("learned", "rel/dir", None)
    with pytest.raises(ConfigError, match="needs the artifact directory"):
        resolve_model_kind("learned:", False, False)


def test_an_ensemble_averages_its_members_and_round_trips(tmp_path: Path) -> None:
    import torch

    question = tate_question()
    assert question.context is not None
    inputs = decision_inputs(question.context)
    vocab = Vocab.build([inputs])
    members = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        members.append(_weights(_module(torch, vocab, 8, FitOptions(hidden=16, tok_dim=4, type_dim=3, pos_dim=5))))
    enc = encode(vocab, inputs)
    q = np.linspace(-1, 1, 8, dtype=np.float32)
    extras = np.linspace(-0.5, 0.5, 3 * EXTRA, dtype=np.float32).reshape(3, EXTRA)
    text = text_vectors(_text(inputs, 8), inputs)
    one, two = (logits(w, q, enc, extras, text) for w in members)
    assert not np.allclose(one, two)
    assert ensemble_logits(members, q, enc, extras, text).tolist() == pytest.approx(((one + two) / 2).tolist())
    save_members(tmp_path / "model.npz", members)
    loaded = load_members(tmp_path / "model.npz")
    assert len(loaded) == 2
    for got, want in zip(loaded, members, strict=True):
        assert all(np.array_equal(getattr(got, n), getattr(want, n)) for n in (*Weights.NAMES, *Weights.TEXT_NAMES))
        assert got.reads_text


def test_option_extras_exact() -> None:
    question = tate_question()
    assert question.context is not None
    inputs = decision_inputs(question.context)
    e = np.eye(6, dtype=np.float64)
    q = np.asarray([0.6, 0.8, 0.0, 0.0, 0.0, 0.0])
    vectors = {
        inputs.question: q,
        "release year (film to year)": e[0],
        "starred actors (film to person)": e[2],
        "the answer is these 2 films": e[3],
        "films starred actors this person": e[1],
        # words: the question's are films, starred, released, years; the path's films, starred, actors, person
        **{w: e[0] for w in ("films", "film")},
        "starred": e[1],
        **{w: e[2] for w in ("actors", "answer")},
        "person": e[3],
        **{w: e[4] for w in ("released", "release")},
        **{w: e[5] for w in ("years", "year", "which years")},
    }
    x = option_extras(q, vectors, inputs)
    assert x.shape == (3, EXTRA)
    # nearness to "Sharon Tate": films 3 words before it, starred 2; released 2 words after, years 5
    assert inputs.near == pytest.approx((1 / 3, 1 / 2, -1 / 2, -1 / 5))
    # release year: sim .6; cover cos(q, (1,1,0,0)/sqrt2) = 1.4/sqrt2; the path alone covers .8. In words the
    # path covers films and starred (mean 0.5); release year adds released and years (gain 2, cover 1)
    cover = 1.4 / np.sqrt(2)
    # kinds: the question is 0.6 film (what STOP stands on), nothing year or person: each move is 0.6 further off
    assert x[0].tolist() == pytest.approx(
        # 18-19: every question word matched (released and years were not), from none least
        [
            np.log1p(3),
            0.6,
            0.0,
            cover,
            cover - 0.8,
            0.0,
            0.0,
            2.0,
            0.0,
            1.0,
            0.0,
            -0.6,
            0.0,
            1.0,
            2.0,
            0.0,
            1.0,
            1.0,
            1,
            1,
            1,  # 20-21: "which years" asks for a time, and the release year reaches one where STOP's films are not
            1,
            0,  # 22: the path came in along starred actors; the release year is not the way back
            0,  # 23: no hop taken is offered again
            0,  # 24: no relation is named as owned ("the films starred by", not "the stars of")
        ]
    )
    first = [np.log1p(1), 0.0, 0.0, 0.8 / np.sqrt(2), 0.8 / np.sqrt(2) - 0.8, 0, 0, 0.0, 0.0, 0.5, 0.0, -0.6, 0, 0]
    # 14-17: claim, claim left, asked, asked gain; 18-19: released and years still unmatched (0), no gain
    # 22: starred actors out is the way back along the path's starred actors in
    assert x[1].tolist() == pytest.approx([*first, 0, 0, 0.0, 0.0, 0.0, 0.0, 0, 0, 1, 0, 0])
    # release year gains both words after the topic (released, years: all of their weight), none before it;
    # STOP: the path's cover, and the best gain a move still offers (sentence, words, each side by nearness)
    assert x[2].tolist() == pytest.approx(
        # 18: the path leaves released and years unmatched
        [
            np.log1p(2),
            0.0,
            1.0,
            0.8,
            0.0,
            0.0,
            cover - 0.8,
            0.0,
            2.0,
            0.5,
            0.6,
            0.0,
            0.0,
            1.0,
            0.0,
            2.0,
            0.0,
            0.0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        ]
    )
    # claims: released and years go to release_year (margin 1 each), starred to the path's starred_actors (spent);
    # the question word "which years" is the year the release year reaches, nothing of a film or a person
    # a question that does not name its topic has no nearness: the two columns stay 0
    assert nearness("which films were released in 1968", "which films were released in 1968", ["Sharon Tate"]) == ()
    # a word that occurs twice is as near as its nearer place (here the one right after a name)
    assert nearness("films of X and X films", "films of and films", ["X"]) == (-1.0,)


def test_a_noun_a_name_owns_is_named_first() -> None:
    """``[X]'s spouse`` names ``spouse`` where ``the spouse of [X]`` would: right before the name, whether the
    name is in brackets or not; a noun that noun owns in turn comes next; other words after the name keep their
    place after it. ``possessives`` strips the endings and marks the owners."""
    assert possessives(["esposito's", "s", "parents'", "spouse", "s"]) == (
        ["esposito", "parents", "spouse"],
        [True, True, True],
    )
    asked = "what is the nationality of the parents of 's spouse"
    for question in (
        "what is the nationality of the parents of [Anil Esposito]'s spouse",
        "what is the nationality of the parents of Anil Esposito's spouse",
    ):
        # nationality, parents, the lone s of 's (not a word: 0), spouse
        assert nearness(question, asked, ["Anil Esposito"]) == (1 / 5, 1 / 2, 0.0, 1.0)
    # the lone s of 's, spouse's, parents, born (three words after the name)
    assert nearness("where were X's spouse's parents born", "where were 's spouse's parents born", ["X"]) == (
        0.0,
        1.0,
        1 / 2,
        -1 / 3,
    )
    # without a possessive the words after the name stay after it
    assert nearness("the films starring X were directed by who", "the films starring were directed by who", ["X"]) == (
        1 / 2,
        1.0,
        -1 / 2,
    )


def test_a_word_between_an_article_and_the_name_is_part_of_the_name() -> None:
    """``with the movie [X]``: ``movie`` says what the topic is, not a hop next to it: no nearness, and the words
    before count from the article (``share`` 3 words before the name, ``actors`` 2)."""
    question = "the films that share actors with the movie X are directed by who"
    masked = "the films that share actors with the movie are directed by who"
    # films, share, actors, movie, directed
    assert nearness(question, masked, ["X"]) == (1 / 5, 1 / 3, 1 / 2, 0.0, -1 / 2)
    # no article before the word: it stays the word next to the name
    assert nearness("films starring X", "films starring", ["X"]) == (1 / 2, 1.0)


def owner_of(question: str, path: tuple[str, ...], *tokens: str) -> list[float]:
    """Column 24 for options ``tokens`` after the hops ``path`` (types, counts and words do not enter it)."""
    n = len(tokens)
    return owner_reading(DecisionInputs(question, path, tokens, ("x",) * n, (1,) * n, ("",) * n))


def test_the_owner_reading_says_which_way_a_relation_named_as_owned_runs() -> None:
    """Column 24: ``the R of``, ``the R N of`` (R the modifier of a compound) and ``'s R`` name R as owned by what
    the move leaves from: out (1), not in (-1); a name ending in ``of`` runs the other way; a relation named
    otherwise, or not at all, and STOP are 0."""

    assert owner_of(
        "what is the nationality of the parents of 's spouse", (), "parents|out", "parents|in", "spouse|in"
    ) == [
        1.0,
        -1.0,
        -1.0,
    ]
    # forms of the relation's words by their stem (director, directed_by); a path-like name by its last segment
    assert owner_of("who is the director of", (), "directed_by|out", "directed_by|in", "written_by|out") == [
        1.0,
        -1.0,
        0.0,
    ]
    assert owner_of(
        "what is the capital of", (), "capital_of|in", "capital_of|out", "/location/country/capital|out"
    ) == [
        1.0,
        -1.0,
        1.0,
    ]
    # a plural owner, and STOP
    assert owner_of("what are the parents' professions", (), "profession|out", "profession|in", STOP_TOKEN) == [
        1.0,
        -1.0,
        0.0,
    ]
    # named, but not as owned: no reading
    assert owner_of("the movies directed by", (), "directed_by|out", "directed_by|in") == [0.0, 0.0]
    # the modifier of a compound the name owns, as after a possessive: "the parent company of [X]"
    assert owner_of("where is the parent company of headquartered", (), "parent|out", "parent|in") == [1.0, -1.0]
    assert owner_of("where is 's parent company headquartered", (), "parent|out", "parent|in") == [1.0, -1.0]
    # a function word between is no compound
    assert owner_of("who directed the movies of", (), "directed_by|out", "directed_by|in") == [0.0, 0.0]


def test_a_hop_taken_spends_the_owner_reading() -> None:
    """Column 24 reads each naming of a relation as owned once: a hop along it in the named direction spends it
    (``who wrote the films directed by the director of [X]``: ``directed_by`` out of [X] first, then no reading
    for taking it out again); named twice, one hop leaves one; a hop the other way spends nothing."""

    question = "who wrote the films directed by the director of"
    assert owner_of(question, ("directed_by|out",), "directed_by|in", "written_by|in") == [0.0, 0.0]
    taken = ("directed_by|out", "directed_by|in")
    assert owner_of(question, taken, "directed_by|out", "written_by|out") == [0.0, 0.0]
    assert owner_of(question, ("directed_by|in",), "directed_by|out", "directed_by|in") == [1.0, -1.0]
    twice = "the parents of the parents of"
    assert owner_of(twice, ("parents|out",), "parents|out", "parents|in") == [1.0, -1.0]
    assert owner_of(twice, ("parents|out", "parents|out"), "parents|out", "parents|in") == [0.0, 0.0]


def test_the_owner_reading_takes_a_word_one_with_the_relation_by_meaning() -> None:
    """With the decision's vectors, a word MiniLM puts at least SAME_WORD from the relation's (kids, children:
    0.88) names it as a form would; one of the same field only (parents, children: 0.62) does not."""
    kids, parents = np.array([0.88, 0.475, 0.0]), np.array([0.62, 0.0, 0.785])
    vectors = {"children": np.array([1.0, 0.0, 0.0]), "kids": kids, "parents": parents}
    tokens = ("children|out", "children|in")
    inputs = DecisionInputs("where were 's kids born", (), tokens, ("x",) * 2, (1,) * 2, ("",) * 2)
    assert owner_reading(inputs, vectors) == [1.0, -1.0]
    assert owner_reading(inputs) == [0.0, 0.0]  # without vectors: forms by their letters only
    inputs = dataclasses.replace(inputs, question="where were 's parents born")
    assert owner_reading(inputs, vectors) == [0.0, 0.0]


def test_a_noun_asked_for_reads_as_the_type_word_it_means() -> None:
    """``which movies`` on a graph whose films are ``film`` (MiniLM: 0.84) asks for that type; a noun of the same
    field only (0.6) or a form of a type's own word is left as it is, and so is a phrase with no noun."""
    e = np.eye(4, dtype=np.float64)
    vectors = {
        "film": e[0],
        "movie": 0.84 * e[0] + np.sqrt(1 - 0.84**2) * e[1],
        "star": e[2],
        "genre": 0.6 * e[0] + 0.8 * e[1],
        "person": e[3],
    }
    assert asked_nouns("which movies") == ("movie",)
    assert asked_nouns("who") == ()
    types = ["film", "star", "item", "Person"]
    assert asked_by_meaning("which movies", types, vectors) == "which film"
    assert asked_by_meaning("what genre", types, vectors) == "what genre"  # 0.6 from film: its own field only
    assert asked_by_meaning("which films", types, vectors) == "which films"  # a form of the type's word
    assert asked_by_meaning("who", types, vectors) == "who"
    assert asked_by_meaning("which movies", ["item"], vectors) == "which movies"  # the unnamed type is no word
    # the words not read as a type's stay as asked, plurals too (the STOP rule reads a plural as a head)
    assert asked_by_meaning("which stars describe movies", types, vectors) == "which stars describe film"


def test_a_compound_asked_for_reads_as_the_type_word_it_means() -> None:
    """``which ethnic groups`` on a graph whose type is ``ethnicity``: ``group`` alone names no type (and reads as
    any organisation to the STOP rule), but the compound ``ethnic group`` is the type's word by meaning (MiniLM:
    0.84), so the phrase reads ``which ethnicity``. A compound below :data:`SAME_WORD`, a head that is a form of a
    type's word, a head with nothing before it and another question word are left as asked."""
    e = np.eye(4, dtype=np.float64)
    vectors = {
        "ethnicity": e[0],
        "ethnic group": 0.84 * e[0] + np.sqrt(1 - 0.84**2) * e[1],
        "group": 0.38 * e[0] + np.sqrt(1 - 0.38**2) * e[2],
        "national team": 0.51 * e[3] + np.sqrt(1 - 0.51**2) * e[1],
        "country": e[3],
    }
    types = ["ethnicity", "country"]
    assert asked_compound("which ethnic groups") == "ethnic group"
    assert asked_compound("which european ethnic groups did") == "ethnic group"  # the word before the head
    assert asked_compound("which groups") is None
    assert asked_compound("which of groups") is None  # a function word is no modifier
    assert asked_compound("who") is None
    assert asked_by_meaning("which ethnic groups", types, vectors) == "which ethnicity"
    assert asked_by_meaning("which european ethnic groups did", types, vectors) == "which european ethnicity did"
    assert asked_by_meaning("what national teams", types, vectors) == "what national teams"  # 0.51: as asked
    assert asked_by_meaning("which ethnic countries", types, vectors) == "which ethnic countries"  # a type's form
    assert asked_by_meaning("which groups", types, vectors) == "which groups"


def test_a_noun_no_named_type_carries_asks_for_the_unnamed_types() -> None:
    """A football graph that names its countries ``country`` and leaves its cities and clubs unnamed: "in which
    city" asks for an unnamed type (``city`` is 0.54 from ``country`` by MiniLM, no synonym), so the STOP rule
    reads it as ``which item`` and refuses to stop on countries while a move reaches cities. A noun near a named
    type's word (``nation``, 0.77 from ``country``), a named type's own word, a generic noun, another question
    word, a head noun with a modifier of its own, and a graph with no unnamed type leave the phrase as it is."""
    e = np.eye(4, dtype=np.float64)
    vectors = {
        "country": e[0],
        "city": 0.54 * e[0] + np.sqrt(1 - 0.54**2) * e[1],
        "nation": 0.77 * e[0] + np.sqrt(1 - 0.77**2) * e[2],
        "position": e[3],
        "kind": e[2],
    }
    types = ["country", "item", "item 2", "position", "person"]
    assert asked_unnamed("which city", types, vectors) == "which item"
    assert asked_unnamed("which nation", types, vectors) == "which nation"  # near a named type by meaning
    assert asked_unnamed("which countries", types, vectors) == "which countries"  # a named type's own word
    assert asked_unnamed("what kind", types, vectors) == "what kind"  # a generic noun asks for no type
    assert asked_unnamed("where", types, vectors) == "where"
    # a head with a modifier of its own says a kind its words may not: "national teams" are countries
    assert asked_unnamed("what national teams", types, vectors) == "what national teams"
    assert asked_unnamed("which city clubs", types, vectors) == "which city clubs"
    assert asked_unnamed("which cities host", types, vectors) == "which item"  # words after the head: no modifier
    assert asked_unnamed("which city", ["country", "position", "person"], vectors) == "which city"
    # a graph that calls its cities ``place`` (where players are born, clubs based): a city may be one of them
    assert asked_unnamed("which city", ["country", "place", "item", "person"], vectors) == "which city"
    assert asked_unnamed("which cities", ["country", "place", "item", "person"], vectors) == "which cities"
    assert asked_unnamed("which position", ["country", "place", "item"], vectors) == "which item"  # no place noun
    # Freebase's ``location``, where things are born and based, with the countries it lies in unnamed: a city may
    # be one of its; a country is not said to be, so it asks for the unnamed type as before
    freebase = ["location", "item", "person", "organization"]
    assert asked_unnamed("which city", freebase, vectors) == "which city"
    assert asked_unnamed("which towns", freebase, vectors) == "which towns"
    assert asked_unnamed("which country", freebase, vectors) == "which item"
    # read so, the STOP rule refuses STOP on the countries while a move reaches the unnamed cities
    at_country = DecisionInputs(
        question="in which city is the club of based",
        path=("plays_for|out", "based_in|out", "in_country|out"),
        tokens=("in_country|in", STOP_TOKEN),
        types=("item 2", "country"),
        counts=(4, 1),
        moves=("in country (in)", "the answer is these 1 country"),
    )
    assert stop_ruled_out(at_country, asked_unnamed("which city", types, vectors))
    assert not stop_ruled_out(at_country, "which city")


def test_a_relation_the_question_names_again_is_offered_again() -> None:
    """Column 23: "the parents of the parents of [X]" names parents twice; one parents hop taken, taking it again
    (either way) is what the question still asks, and STOP is premature. Named once, or taken twice, it is not.
    Forms of one word count as the word (director, directed); a word of the same field does not."""
    e = np.eye(5, dtype=np.float64)
    vectors = {
        "parents": e[0],
        "parent": 0.8 * e[0] + 0.6 * e[1],
        "children": 0.6 * e[0] + 0.8 * e[2],  # cos 0.6: a word of the same field, not the same word
        "born": e[3],
        "mother": 0.9 * e[0] + np.sqrt(0.19) * e[4],  # cos 0.9: another word for it
    }

    def inputs(question: str, path: tuple[str, ...]) -> DecisionInputs:
        tokens = ("parents|out", "parents|in", "place_of_birth|out", STOP_TOKEN)
        return DecisionInputs(question, path, tokens, ("person", "person", "place", "person"), (2, 2, 2, 2), ("",) * 4)

    twice = inputs("where were the parents of the parents born", ("parents|out",))
    assert named_again(twice, vectors) == {"parents"}
    assert named_again(twice, vectors) == named_again(
        inputs("where were the parents of the parent born", ("parents|in",)), vectors
    )
    assert named_again(inputs("where were the mother of the parents born", ("parents|out",)), vectors) == {"parents"}
    assert named_again(inputs("where were the children of the parents born", ("parents|out",)), vectors) == set()
    assert named_again(inputs("where were the parents of the parents born", ("parents|out",) * 2), vectors) == set()
    assert named_again(inputs("where were the parents of the parents born", ()), vectors) == set()
    # a type named after its relation is asked for by that word: "which parent" names the type, not a hop
    typed = DecisionInputs(
        "which parent is the parents of",
        ("parents|out",),
        ("parents|out", STOP_TOKEN),
        ("parent", "parent"),
        (1, 1),
        ("", ""),
    )
    assert named_again(typed, vectors) == set()


def test_a_word_after_co_names_its_relation_twice() -> None:
    """ "who co-wrote films with [X]": [X] wrote them, and so did the others asked for; one ``written_by`` hop
    taken, taking it again is what the question still asks. Without the prefix, or with the relation taken
    twice already, it is not."""
    e = np.eye(4, dtype=np.float64)
    vectors = {"wrote": e[0], "written": 0.9 * e[0] + np.sqrt(0.19) * e[1], "films": e[2], "co": e[3]}
    tokens = ("written_by|out", "directed_by|out", STOP_TOKEN)

    def again(question: str, path: tuple[str, ...]) -> frozenset[str]:
        return named_again(
            DecisionInputs(question, path, tokens, ("person", "person", "film"), (1, 1, 1), ("",) * 3), vectors
        )

    assert again("who co-wrote films with", ("written_by|in",)) == {"written_by"}
    assert again("who wrote films with", ("written_by|in",)) == set()
    assert again("who co-wrote films with", ("written_by|in", "written_by|out")) == set()


def test_forms_of_one_word_are_the_same_word() -> None:
    """A common stem of 4 letters and half the shorter word (or 3 with an agent's or a verb's ending), or a cosine
    of at least SAME_WORD."""
    words = ("director", "directed", "writers", "written", "stars", "starred", "release", "related", "films")
    apart = dict(zip(words, np.eye(len(words)), strict=True))  # every cosine 0: only the spelling can join two
    assert same_stem("director", "directed")  # direct: 6 letters
    assert same_word("director", "directed", apart)
    assert same_word("writers", "written", apart)  # writ: 4 letters, half of writers or more
    assert same_word("stars", "starred", apart)  # star: 4 letters, 0.8 of stars
    assert not same_word("release", "related", apart)  # rel: 3 letters
    # a stem of 3 letters, when both words are it with an ending English adds to a verb or its agent
    assert not same_form("has", "purchased")  # not inside a longer word
    assert [same_form("acted", w) for w in ("actors", "actor", "acting", "actress", "act", "actual", "action")] == [
        True,
        True,
        True,
        True,
        True,
        False,
        False,
    ]
    assert not same_word("films", "directed", apart)
    near = {"films": np.asarray([1.0, 0.0]), "directed": np.asarray([0.8, 0.6])}
    assert same_word("films", "directed", near)  # cosine 0.8
    assert not same_word("films", "directed", {**near, "directed": np.asarray([0.79, np.sqrt(1 - 0.79**2)])})


def test_the_again_column_marks_the_relation_either_way_and_stop() -> None:
    """Column 23 of option_extras: after one ``directed_by`` hop, a question naming it twice marks both of its
    moves and STOP, not the other relation; named once, nothing is marked."""
    rng = np.random.default_rng(0)

    def extras(question: str) -> list[float]:
        inputs = DecisionInputs(
            question,
            ("directed_by|out",),
            ("directed_by|in", "directed_by|out", "starred_actors|in", STOP_TOKEN),
            ("movie", "person", "movie", "person"),
            (3, 1, 2, 1),
            ("movies directed by this person", "directed by", "movies starred actors this person", "the answer"),
            path_moves=("directed by",),
        )
        vectors = {t: v / np.linalg.norm(v) for t in inputs.texts() for v in [rng.normal(size=16)]}
        return [float(v) for v in option_extras(vectors[question], vectors, inputs)[:, 23]]

    assert extras("who acted in the films directed by the director of") == [1.0, 1.0, 0.0, 1.0]
    assert extras("who acted in the films of the director of") == [0.0, 0.0, 0.0, 0.0]


def test_set_valued_nll_counts_the_right_set_as_one() -> None:
    probs = np.asarray([[0.9, 0.05, 0.05], [0.5, 0.5, 0.0]])
    target = np.asarray([[0.5, 0.5, 0.0], [0.0, 1.0, 0.0]])
    mask = np.ones((2, 3), dtype=bool)
    as_set = decision_metrics(probs, target, mask, np.asarray([True, True]))
    assert as_set["nll"] == pytest.approx((-np.log(0.95) - np.log(0.5)) / 2)
    assert as_set["accuracy"] == 0.5  # row 2: argmax (first of the tie) is option 0, not the right one
    soft = decision_metrics(probs, target, mask)
    assert soft["nll"] == pytest.approx((-(0.5 * np.log(0.9) + 0.5 * np.log(0.05)) - np.log(0.5)) / 2)


def test_rewordings_are_deterministic_and_keep_the_structure() -> None:
    text = "who directed the films written by the writer of"
    first, again = variants(text, 3, seed=0), variants(text, 3, seed=0)
    assert first == again
    assert len(first) == 3
    assert text not in first
    assert variants(text, 3, seed=1) != first
    assert reword("the films directed by", random.Random(0), swap=1.0, drop=0.0).split()[1] in (
        "flicks",
        "titles",
        "features",
        "productions",
    )
    assert "made" in vocabulary()
    examples = synthetic(4)
    copies = augmented(examples, 2, seed=0)
    assert len(copies) == 8
    assert all(c.target == e.target for c, e in zip(copies, [x for x in examples for _ in (0, 1)], strict=True))
    assert all(c.inputs.question != e.inputs.question for c, e in zip(copies[::2], examples, strict=True))


def _unit_vectors(angles: dict[str, float]) -> dict[str, np.ndarray]:
    """Words as unit vectors in a plane, by angle in degrees: cos of two is the cosine of their difference."""
    return {w: np.asarray([np.cos(np.radians(a)), np.sin(np.radians(a))], dtype=np.float32) for w, a in angles.items()}


def test_neighbour_stand_ins_are_the_nearest_words_no_other_relation_is_nearer_to() -> None:
    groups = {"works_at": ["works"], "born_in": ["born"], "type:Company": ["company"]}
    vectors = _unit_vectors(
        {
            "works": 0.0,
            "born": 90.0,
            "company": 180.0,
            "employed": 10.0,  # cos 0.985 to works
            "working": 20.0,  # cos 0.940
            "labour": 30.0,  # cos 0.866
            "between": 45.0,  # equally near works and born: no one's stand-in
            "birth": 80.0,  # cos 0.985 to born
            "firm": 170.0,  # cos 0.985 to company
            "faraway": 130.0,  # cos 0.766 to born, 0.643 to company: born's, not company's
            "nowhere": 250.0,  # cos 0.342 at most: under the floor
        }
    )
    vocabulary = ["employed", "working", "labour", "between", "birth", "firm", "faraway", "nowhere", "works"]
    table = neighbour_synonyms(groups, vocabulary, vectors, top=2, floor=0.55)
    assert table == {"works": ("employed", "working"), "born": ("birth", "faraway"), "company": ("firm",)}
    assert neighbour_synonyms(groups, vocabulary, vectors, top=4, floor=0.9) == {
        "works": ("employed", "working"),
        "born": ("birth",),
        "company": ("firm",),
    }
    assert neighbour_synonyms({}, vocabulary, vectors) == {}
    assert merged({"works": ("toils",)}, table) == {
        "works": ("toils", "employed", "working"),
        "born": ("birth", "faraway"),
        "company": ("firm",),
    }
    rng = random.Random(0)
    assert reword("the company X works at", rng, swap=1.0, drop=0.0, synonyms={"works": ("employed",)}) == (
        "the company X employed at"
    )


def test_graph_word_groups_are_the_offered_relations_and_reached_types_in_words() -> None:
    inputs = DecisionInputs(
        question="which company does work at",
        path=(),
        tokens=("works_at|out", "born_in|out", "STOP"),
        types=("Company", "City", "Person"),
        counts=(1, 1, 1),
        moves=("works at (person to company)", "born in (person to city)", "the answer is these 1 person"),
    )
    assert graph_word_groups([Example(inputs, [1.0, 0.0, 0.0], "x")]) == {
        "born_in": ["born"],
        "type:City": ["city"],
        "type:Company": ["company"],
        "type:Person": ["person"],
        "works_at": ["works"],
    }


def test_the_asked_phrase_is_the_question_word_and_what_it_asks_for() -> None:
    assert asked_phrase("the films directed by starred who") == "who"
    assert asked_phrase("which genres are the films of in") == "which genres"
    assert asked_phrase("what is the genre of") == "what"  # "is" is a function word
    assert asked_phrase("When was it released") == "when"
    assert asked_phrase("name the films of") == ""
    assert relation_core_words("/film/film/directed_by|out") == ("directed",)
    assert relation_core_words("__people__person__place_of_birth|in") == ("place", "birth")
    assert relation_core_words("starred_actors|out") == ("starred", "actors")


def test_the_noun_phrase_a_question_word_asks_about() -> None:
    assert asked_noun_phrase("what was the release date of the film") == "what release date"
    assert asked_noun_phrase("what is the genre of") == "what genre"
    assert asked_noun_phrase("in which country was born") == "which country"
    assert asked_noun_phrase("what does work at") == "what"  # another function word: no noun
    assert asked_noun_phrase("the films directed by the director of starred who") == "who"
    assert asked_noun_phrase("name the films of") == ""
    assert asks_for(asked_noun_phrase("what was the release date of the film"), "year") is True


def test_what_a_question_word_asks_for() -> None:
    cases = [
        ("who", "person", True),
        ("who", "movie", False),
        ("whose", "film director", True),
        ("when", "year", True),
        ("when", "person", False),
        ("which directors", "person", True),  # an agent noun: any agent type
        ("which country", "country", True),
        ("which country", "city", False),  # places nest: a city is not the country asked for
        ("what cities", "city", True),
        ("which genres", "genre", True),
        ("which genres", "movie", False),
        ("where", "city", None),  # where says nothing: people work where a company is
        ("what", "movie", None),
        ("", "movie", None),
    ]
    assert [asks_for(asked, kind) for asked, kind, _ in cases] == [want for _, _, want in cases]


def test_the_answer_type_a_question_names_for_the_stop_rule() -> None:
    types = ["city", "country", "company", "person"]
    assert answer_type_verdicts("which countries", types) == (False, True, False, False)
    assert answer_type_verdicts("what countries host", types) == (False, True, False, False)  # host names none
    assert answer_type_verdicts("which person", types) == (False, False, False, True)
    # who: a person or an organisation ("who owns [X]"); when: a time
    assert answer_type_verdicts("who", types) == (False, False, True, True)
    assert answer_type_verdicts("when", ["movie", "year"]) == (False, True)
    # where: a place or an organisation (people work where a company is); asked of an organisation, a place only
    assert answer_type_verdicts("where", types) == (True, True, True, False)
    assert answer_type_verdicts(WHERE_OF_ORGANISATION, types) == (True, True, False, False)
    assert answer_type_verdicts(WHERE_OF_ORGANISATION, ["company", "person"]) is None
    # the first run of words naming types, read by its last word (a compound's head)
    assert answer_type_verdicts("which companies employ people", types) == (False, False, True, False)
    assert answer_type_verdicts("what film genre", ["film", "genre"]) == (False, True)
    assert answer_type_verdicts("which movies share actors", ["person", "movie"]) == (False, True)  # movies: movie
    assert answer_type_verdicts("which european countries", types) == (False, True, False, False)
    # an organisation noun no type carries: any organisation type; a type that carries it: that one alone
    assert answer_type_verdicts("which firms", ["person", "employer", "university"]) == (False, True, True)
    assert answer_type_verdicts("which companies", ["person", "subsidiary", "city"]) == (False, True, False)
    assert answer_type_verdicts("which firms", types) == (False, False, True, False)
    assert answer_type_verdicts("which companies", ["company", "university"]) == (True, False)
    assert answer_type_verdicts("which movies", ["person", "movie"]) == (False, True)
    assert asks_for("which movies", "movie") is False  # the trained column's reading (movy), kept as trained
    # a noun no type carries, what alone, no question word
    assert answer_type_verdicts("which words", ["movie", "tag"]) is None
    # a plural that names no type is the phrase's head: what follows is no modifier of the type's word
    assert answer_type_verdicts("which words describe movie", ["movie", "tag"]) is None
    assert answer_type_verdicts("what terms describe famous movies", ["movie", "tag"]) is None
    assert answer_type_verdicts("which famous movies", ["movie", "tag"]) == (True, False)  # famous: no plural
    # a possessive ends the phrase: its owner is what is asked
    assert answer_type_verdicts("which country's league", ["country", "league"]) == (True, False)
    assert answer_type_verdicts("which club\u2019s coach", ["club", "person"]) == (True, False)
    assert answer_type_verdicts("which team's coach", ["country", "person"]) is None
    # where: a place or an organisation, never a person; nothing when the graph has neither
    assert answer_type_verdicts("where", types) == (True, True, True, False)
    assert answer_type_verdicts("where", ["movie", "person", "year"]) is None
    assert answer_type_verdicts("what", types) is None
    assert answer_type_verdicts("", types) is None
    assert answer_type_verdicts("who", ["movie", "genre"]) is None  # no agent type: says nothing


def _stop_decision(question: str, types: tuple[str, ...]) -> DecisionInputs:
    """Standing on cities (STOP's type), offered a move to each other type."""
    moves = tuple(f"to_{t.lower()}|out" for t in types)
    return DecisionInputs(
        question=question,
        path=("headquartered_in|out",),
        tokens=(*moves, STOP_TOKEN),
        types=(*types, "City"),
        counts=(1,) * (len(types) + 1),
        moves=(*moves, "the answer is these 1 city"),
    )


def test_stop_is_ruled_out_only_where_the_named_answer_type_is_a_move_away() -> None:
    def ruled_out(question: str, types: tuple[str, ...]) -> bool:
        return stop_ruled_out(_stop_decision(question, types), asked_noun_phrase(question))

    assert ruled_out("in which countries are companies headquartered", ("Country", "Company"))
    # standing on the type asked for, no move to it, or no type named: STOP stays
    assert not ruled_out("in which cities are companies headquartered", ("Country",))
    assert not ruled_out("in which countries are companies headquartered", ("Company",))
    assert not ruled_out("where are the companies headquartered", ("Country",))  # standing on a place
    people = dataclasses.replace(_stop_decision("where are the people from", ("City",)), types=("City", "Person"))
    assert stop_ruled_out(people, "where")  # standing on people, a move reaches a place
    assert not ruled_out("which cities employ people born in", ("Company", "Person"))
    no_stop = dataclasses.replace(
        _stop_decision("which countries", ("Country",)), tokens=("to_country|out", "to_x|out")
    )
    assert not stop_ruled_out(no_stop, "which countries")


def test_stop_is_ruled_out_two_moves_from_the_named_type_through_the_graphs_type_links() -> None:
    links = {"Company": ["City", "Industry", "Person"], "Country": ["City"], "University": ["City", "Person"]}
    # standing on cities, offered moves to companies and universities: industries lie one move past companies
    decision = _stop_decision("which industries employ people born in", ("Company", "University"))
    assert stop_ruled_out(decision, "which industries", links)
    assert not stop_ruled_out(decision, "which industries")  # without links: one move ahead only
    assert stop_ruled_out(_stop_decision("which companies", ("Company",)), "which companies", {})
    # the named type is where the walk stands, or nowhere two moves on: STOP stays
    assert not stop_ruled_out(decision, "which cities", links)
    assert not stop_ruled_out(decision, "which countries", links)  # Country links only to City, not from these
    # the answer's type is read among all the graph's types: standing on people, "people" is not the head here
    people = dataclasses.replace(
        _stop_decision("which industries employ people", ("Company", "Person")), types=("Company", "Person", "Person")
    )
    assert stop_ruled_out(people, "which industries employ people", links)
    assert not stop_ruled_out(people, "which industries employ people")  # without links: "people" read
    assert not stop_ruled_out(people, "which countries employ people", links)  # Country: two moves past companies
    # who: an agent two moves on (people past universities) when no move reaches one
    assert stop_ruled_out(_stop_decision("who", ("University",)), "who", links)
    assert not stop_ruled_out(_stop_decision("who", ("Country",)), "who", links)


def test_the_asked_phrase_ends_where_the_topic_stands() -> None:
    names = ["Julien Duvivier"]
    assert asked_about("what was [Julien Duvivier] the director of", names) == "what"
    assert asked_about("which films did [julien duvivier] direct", names) == "which films"
    assert asked_about("the films directed by [Julien Duvivier] starred who", names) == "who"


def test_without_stop_gives_stops_share_to_the_moves_in_proportion() -> None:
    probs = np.array([0.2, 0.1, 0.7])
    assert without_stop(probs, (False, False, True)).tolist() == pytest.approx([2 / 3, 1 / 3, 0.0])
    assert without_stop(np.array([0.0, 0.0, 1.0]), (False, False, True)).tolist() == [0.5, 0.5, 0.0]
    assert without_stop(np.array([1.0]), (True,)).tolist() == [1.0]


def test_a_question_word_is_claimed_by_the_relation_that_matches_it_best_and_spent_by_the_path() -> None:
    vectors = _unit_vectors(
        {
            "founded": 0.0,
            "studied": 60.0,
            "campus": 120.0,
            "founders": 10.0,  # founded's (cos .985) over studied's (.766): margin .219, spent by the path
            "school": 75.0,  # studied's (.966) over campus' (.707): margin .259, spent
            "place": 110.0,  # campus' (.985) over studied's (.643): margin .342
        }
    )
    inputs = DecisionInputs(
        question="campus school founders place",
        path=("founded_by|out", "studied_at|out"),
        tokens=("campus_in|out", "studied_at|in", "STOP"),
        types=("City", "Person", "University"),
        counts=(2, 41, 2),
        moves=("campus in", "studied at", "the answer is these 2 universities"),
    )
    names = ("campus", "school", "founders", "place")
    words = np.stack([vectors[w] for w in names])
    got = claims(names, words, inputs, vectors)
    assert got.keys() == {"campus_in"}  # studied_at is taken (in the other direction too)
    campus_margin = 1.0 - float(vectors["campus"] @ vectors["studied"])
    place_margin = float(vectors["place"] @ vectors["campus"] - vectors["place"] @ vectors["studied"])
    assert got["campus_in"] == pytest.approx(campus_margin + place_margin, abs=1e-6)
    assert campus_margin == pytest.approx(0.5, abs=1e-6)
    assert claims(names, words, dataclasses.replace(inputs, path=(), tokens=("campus_in|out", "STOP")), vectors) == {}


def test_forms_of_one_word_match_fully_whatever_their_cosine() -> None:
    """A question word that is a form of a move's word (a common stem, or a compound whose head has it) matches
    it as the word itself would: ``screenwriter`` claims ``written_by``, though MiniLM puts it nearer ``directed``."""
    assert same_form("director", "directed")
    assert same_form("screenwriter", "written")  # the head, writer
    assert same_form("place", "birthplace")
    assert not same_form("release", "related")
    assert not same_form("screenwriter", "directed")
    vectors = _unit_vectors({"screenwriter": 0.0, "directed": 40.0, "written": 50.0})
    inputs = DecisionInputs(
        question="screenwriter",
        path=(),
        tokens=("directed_by|out", "written_by|out", "STOP"),
        types=("Person", "Person", "Film"),
        counts=(1, 1, 1),
        moves=("directed by", "written by", "the answer is these 1 film"),
    )
    words = np.stack([vectors["screenwriter"]])
    directed_margin = 1.0 - float(vectors["screenwriter"] @ vectors["directed"])
    expected = {"written_by": directed_margin, "directed_by": 0.0}
    assert claims(("screenwriter",), words, inputs, vectors) == pytest.approx(expected)


class CountingEmbedder(FakeEmbedder):
    """The fake embedder, counting the texts it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.asked += len(texts)
        return await super().embed(texts)


async def test_text_vectors_are_cached_and_a_torn_cache_is_embedded_again(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    first = await embed_texts(embedder, ["a film", "a person", "a film"], tmp_path)
    assert embedder.asked == 2
    again = await embed_texts(embedder, ["a person", "a city"], tmp_path)
    assert embedder.asked == 3  # only the new text
    assert np.array_equal(again["a person"], first["a person"])
    assert sorted(os.listdir(tmp_path)) == ["texts.json", "vectors.npy"]  # no parts left
    np.save(tmp_path / "vectors.npy", np.zeros((1, embedder.dimensions), dtype=np.float32))  # another writer's
    await embed_texts(embedder, ["a film"], tmp_path)
    assert embedder.asked == 4
    # the general word list's vectors are kept per embedder, whatever graph is trained
    assert vocabulary_cache(embedder) != vocabulary_cache(FakeEmbedder(dimensions=8))
    assert vocabulary_cache(embedder) == vocabulary_cache(CountingEmbedder())


def test_a_verb_said_of_the_topic_in_the_passive_names_its_relation_out_of_it() -> None:
    """Column 24: ``the people managed by [X]`` says [X] manages them, so a relation named by that one active
    verb runs out of [X] (1), not into it (-1); a hop taken along it spends the reading; a name that is a passive
    already (``directed_by``) and a verb not right before the topic read nothing new."""

    def passive(question: str, masked: str, path: tuple[str, ...], *tokens: str) -> list[float]:
        n = len(tokens)
        near = nearness(question, masked, ["Una"])
        return owner_reading(DecisionInputs(masked, path, tokens, ("x",) * n, (1,) * n, ("",) * n, near=near))

    question, masked = "where did the people managed by Una study", "where did the people managed by study"
    assert done_by_topic(DecisionInputs(masked, (), (), (), (), (), near=nearness(question, masked, ["Una"]))) == (
        "managed"
    )
    assert passive(question, masked, (), "manages|out", "manages|in", "born_in|out") == [1.0, -1.0, 0.0]
    assert passive(question, masked, ("manages|out",), "manages|out", "manages|in", STOP_TOKEN) == [0.0, 0.0, 0.0]
    assert passive("what was sold by Una", "what was sold by", (), "SOLD|out", "SOLD|in") == [1.0, -1.0]
    assert passive("films directed by Una", "films directed by", (), "directed_by|out", "directed_by|in") == [0, 0]
    # the verb is said of the people the topic manages, not of the topic
    question, masked = "who were managed by the friends of Una", "who were managed by the friends of"
    assert passive(question, masked, (), "manages|out", "manages|in") == [0.0, 0.0]
    assert passive("who manages Una", "who manages", (), "manages|out", "manages|in") == [0.0, 0.0]


def test_what_a_relation_ending_in_a_place_preposition_reached_is_where() -> None:
    assert reached_at(("works_at|out",))
    assert reached_at(("manages|out", "studied_at|out"))
    assert not reached_at(("studied_at|in",))  # the people who studied there are no where
    assert not reached_at(("studied_at|out", "manages|out"))
    assert not reached_at(("plays_for|out",))
    assert not reached_at(())


def test_a_type_named_by_an_attribute_is_also_the_kind_of_its_values() -> None:
    """``nationality`` (what a graph loaded without types calls the objects of its ``nationality`` relation) is a
    country to the answer's type: standing on a city where "which country" is asked, STOP is no answer when a
    move reaches the nationalities; "which nationality" still names them."""
    assert with_value_kinds("nationality") == "nationality country"
    assert with_value_kinds("citizenships") == "citizenships country"
    assert with_value_kinds("country") == "country"
    assert with_value_kinds("place") == "place"
    types = ["place", "nationality", "person"]
    assert answer_type_verdicts("which country", types) == (False, True, False)
    assert answer_type_verdicts("which nationality", types) == (False, True, False)
    # standing on a city (STOP's type), a move reaching the nationalities: no STOP where a country is asked
    standing = ["nationality", "person", "place"]
    assert answer_stop_ruled_out("which country", standing, [False, False, True])
    assert not answer_stop_ruled_out("which city", ["nationality", "person", "city"], [False, False, True])
