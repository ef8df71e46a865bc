"""Eval F1 with the ONNX Runtime MiniLM equals the torch one within 0.005 (issue 16), and the int8 export's equals
the float export's within 0.005 (issue 24), on a fixed dev sample: the 36 questions of tests/data/metaqa_hubs,
each embedder embedding its own copy of the graph and driving the local decider, in entity and relation mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphwalk_neo4j.decide.local import LocalDecider
from graphwalk_neo4j.embed.minilm import MiniLMEmbedder
from graphwalk_neo4j.embed.onnx import OnnxMiniLMEmbedder, export_minilm_onnx, export_minilm_onnx_int8
from graphwalk_neo4j.eval.metaqa import load_questions
from graphwalk_neo4j.eval.runner import prepare_graph
from graphwalk_neo4j.eval.systems import walk_answers
from graphwalk_neo4j.graph.ledger import drop_graph
from graphwalk_neo4j.qa_format import precision_recall_f1
from graphwalk_neo4j.walk.config import get_preset
from graphwalk_neo4j.walk.service import WalkService

DATA = Path(__file__).resolve().parents[1] / "data" / "metaqa_hubs"

pytestmark = pytest.mark.neo4j


async def f1_per_question(
    store: Any, graph: str, embedder: Any, preset: str, entities: Any = None, *, link_by_text: bool = False
) -> list[float]:
    """Mean F1 of the 36 questions; ``entities`` embeds the graph's entities (default: ``embedder``, which embeds
    the questions); ``link_by_text``: start from the question's words (vector search among the candidates)."""
    await prepare_graph(store, DATA, graph, entities or embedder)
    service = WalkService(store, graph, LocalDecider(embedder), embedder=embedder, trace=False)
    scores = []
    for hops in (1, 2, 3):
        for q in load_questions(DATA, "dev", hops, with_qtype=False):
            start = None if link_by_text else [q.topic]
            outcome = await service.walk(q.text_without_brackets, get_preset(preset), start=start)
            scores.append(precision_recall_f1(walk_answers(outcome.result), q.answers).f1)
    assert len(scores) == 36
    return scores


async def mean_f1(store: Any, graph: str, embedder: Any, preset: str) -> float:
    scores = await f1_per_question(store, graph, embedder, preset)
    return sum(scores) / len(scores)


async def test_onnx_eval_f1_matches_torch(store: Any, graph_name: str, tmp_path: Path) -> None:
    onnx = OnnxMiniLMEmbedder(onnx_path=export_minilm_onnx(tmp_path / "minilm.onnx"))
    torch = MiniLMEmbedder()
    other = graph_name + "_onnx"
    try:
        for preset in ("greedy", "relation"):
            f1_torch = await mean_f1(store, graph_name, torch, preset)
            f1_onnx = await mean_f1(store, other, onnx, preset)
            assert f1_torch > 0.1  # the walks do answer
            assert abs(f1_onnx - f1_torch) <= 0.005, (preset, f1_torch, f1_onnx)
    finally:
        await drop_graph(store, other)


async def test_a_graph_embedded_in_int8_answers_as_the_float_one(store: Any, graph_name: str, tmp_path: Path) -> None:
    """`embed --int8`: the entities in int8, the questions still by the float model, linked from the question's
    words. 36 questions are too few for the 0.005 bound (one question is 0.028 of mean F1; MetaQA dev, 900 questions,
    is in docs/benchmarks.md): here at most one question in 36 may answer otherwise."""
    float_path = export_minilm_onnx(tmp_path / "minilm.onnx")
    float_model = OnnxMiniLMEmbedder(onnx_path=float_path)
    int8_path = export_minilm_onnx_int8(tmp_path / "minilm-int8.onnx", float_path=float_path)
    int8 = OnnxMiniLMEmbedder(onnx_path=int8_path, int8=True)
    other = graph_name + "_int8"
    try:
        for preset in ("greedy", "relation"):
            want = await f1_per_question(store, graph_name, float_model, preset, link_by_text=True)
            got = await f1_per_question(store, other, float_model, preset, int8, link_by_text=True)
            assert sum(want) > 3.6  # the walks do answer
            differ = [i for i, (a, b) in enumerate(zip(want, got, strict=True)) if abs(a - b) > 1e-9]
            assert len(differ) <= 1, (preset, differ, sum(want), sum(got))
        rows = await store.query(
            "MATCH (n:Entity) WHERE n.graph IN [$a, $b] AND n.embedding IS NOT NULL "
            "RETURN n.graph AS graph, n.name + '|' + n.type AS key, n.embedding AS v",
            {"a": graph_name, "b": other},
            read=True,
        )
        by_graph: dict[str, dict[str, Any]] = {graph_name: {}, other: {}}
        for r in rows:
            by_graph[r["graph"]][r["key"]] = np.asarray(r["v"], dtype=np.float32)
        assert set(by_graph[other]) == set(by_graph[graph_name])
        assert len(by_graph[other]) > 1000
        cosines = np.array([float(v @ by_graph[graph_name][k]) for k, v in by_graph[other].items()])
        assert 0.99 <= cosines.mean() < 0.99999  # the copy holds the int8 vectors, near the float ones
    finally:
        await drop_graph(store, other)
