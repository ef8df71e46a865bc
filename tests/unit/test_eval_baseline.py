"""The vector baseline's pure parts (documents, search, reader parsing, the stand-in reader) and the walk's answer
sets."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import SecretStr

from graphwalk_neo4j.eval.baseline import DocIndex, LLMReader, VectorSystem, entity_document, parse_reader_answers
from graphwalk_neo4j.eval.systems import walk_answers
from graphwalk_neo4j.graph.identity import entity_id
from graphwalk_neo4j.walk.ports import NodeRef
from graphwalk_neo4j.walk.result import WalkPath, WalkResult
from tests.standins.openai_server import OpenAIStandIn


def test_entity_document() -> None:
    text = entity_document(
        "Kismet", "Movie", [["Kismet", "directed_by", "William Dieterle"], ["Kismet", "release_year", "1944"]]
    )
    assert text == "Kismet (movie). Kismet directed by William Dieterle. Kismet release year 1944."
    assert entity_document("1944", None, []) == "1944."


def _index() -> DocIndex:
    names = ["Kismet", "Blonde Venus", "William Dieterle", "1944"]
    matrix = np.array([[1, 0], [0.8, 0.6], [0.6, 0.8], [0, 1]], dtype=np.float32)
    return DocIndex([entity_id(n) for n in names], names, [f"{n}." for n in names], matrix, "k")


def test_search_ranks_by_cosine_and_skips_excluded_ids() -> None:
    index = _index()
    assert index.search(np.array([1.0, 0.0]), 2) == [0, 1]
    assert index.search(np.array([1.0, 0.0]), 2, frozenset({entity_id("Kismet")})) == [1, 2]
    assert index.search(np.array([0.0, 1.0]), 10) == [3, 2, 1, 0]
    assert index.search(np.array([0.0, 1.0]), 0) == []


@pytest.mark.parametrize(
    ("reply", "answers"),
    [
        ("William Dieterle | Josef von Sternberg", ["William Dieterle", "Josef von Sternberg"]),
        ("'1944'|1944\n1932", ["1944", "1932"]),
        ('{"answers": ["Kismet"]}', ["Kismet"]),
        ('["Kismet", " "]', ["Kismet"]),
        ("{}", []),
        ("NONE", []),
        ("{not json", ["{not json"]),
    ],
)
def test_parse_reader_answers(reply: str, answers: list[str]) -> None:
    assert parse_reader_answers(reply) == answers


class PinnedEmbedder:
    model_id = "pinned"
    dimensions = 2

    async def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([[1.0, 0.0]] * len(texts), dtype=np.float32)

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.array([[1.0, 0.0]] * len(texts), dtype=np.float32)


QUESTION = {
    "id": "q",
    "text": "who directed [Kismet]",
    "text_without_brackets": "who directed Kismet",
    "topic": "Kismet",
}


async def test_vector_system_answers_top_k_without_the_topic() -> None:
    system = VectorSystem(_index(), PinnedEmbedder(), k=2)  # type: ignore[arg-type]
    answer = await system.answer(QUESTION)
    assert answer.answers == ["Blonde Venus", "William Dieterle"]
    assert answer.ranked == ["Blonde Venus", "William Dieterle", "1944"]
    assert answer.llm_calls == 0
    assert system.describe()["k"] == 2


async def test_vector_reader_through_the_openai_standin() -> None:
    with OpenAIStandIn() as standin:
        reader = LLMReader("openai/test-reader", api_base=standin.api_base, api_key=SecretStr("sk-test-1"))
        system = VectorSystem(_index(), PinnedEmbedder(), reader=reader, reader_docs=2)  # type: ignore[arg-type]
        answer = await system.answer(QUESTION)
        assert len(standin.requests) == 1
        body = standin.requests[0]
    assert body["model"] == "test-reader"
    assert body["temperature"] == 0
    user = body["messages"][1]["content"]
    assert user.startswith('{"question": "who directed Kismet", "documents": ["Kismet.", "Blonde Venus."]}')
    assert "separated by ' | '" in user
    assert answer.answers == []  # the stand-in replies "{}" to a payload without options
    assert answer.llm_calls == 1
    assert answer.input_tokens == len(body["messages"][0]["content"] + user) // 4
    assert answer.output_tokens == 1
    assert answer.ranked[0] == "Blonde Venus"
    assert system.describe()["reader"] == "openai/test-reader"


def _path(names: list[str], finished: bool = True, score: float = 0.0) -> WalkPath:
    return WalkPath(
        beam="b0",
        start=[],
        steps=[],
        end=[NodeRef(id=n, name=n) for n in names],
        cum_logp=0.0,
        n_decisions=1,
        n_choices=1,
        score=score,
        finished=finished,
        terminated_by="stop",
    )


def _result(mode: str, paths: list[WalkPath]) -> WalkResult:
    return WalkResult(
        walk_id="w", question="q", status="ok", stop_reason="", strategy="beam", hop_mode=mode, model="m", paths=paths
    )


def test_walk_answers() -> None:
    relation = _result("relation", [_path(["a", "b", "a"]), _path(["c"])])
    assert walk_answers(relation) == ["a", "b"]  # the best path's set only
    entity = _result("entity", [_path(["a"]), _path(["b"]), _path(["a"]), _path(["z"], finished=False)])
    assert walk_answers(entity) == ["a", "b"]  # every finished path's end
    assert walk_answers(_result("entity", [_path(["z"], finished=False)])) == ["z"]
    assert walk_answers(_result("relation", [])) == []
