"""The ONNX Runtime MiniLM (issue 16): exported from the packaged weights, it gives the torch model's vectors
(mean cosine >= 0.99 on the MetaQA names of tests/data/metaqa_hubs), re-exports only when the weights change, and
is picked by ``GW_NEO4J_EMBEDDER=minilm-onnx``."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from graphwalk_neo4j.embed import Embedder, MiniLMEmbedder
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.embed.onnx import OnnxMiniLMEmbedder, export_minilm_onnx, main
from graphwalk_neo4j.settings import Settings

KB = Path(__file__).resolve().parents[1] / "data" / "metaqa_hubs" / "kb.txt"


@pytest.fixture(scope="module")
def onnx_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_minilm_onnx(tmp_path_factory.mktemp("onnx") / "minilm.onnx")


def metaqa_names() -> list[str]:
    rows = [line.split("|") for line in KB.read_text(encoding="utf-8").splitlines() if line.strip()]
    return sorted({name for s, _, o in rows for name in (s, o)})


async def test_onnx_vectors_match_torch_on_the_metaqa_names(onnx_path: Path) -> None:
    names = metaqa_names()
    assert len(names) > 1000
    onnx = OnnxMiniLMEmbedder(onnx_path=onnx_path, batch_size=128, cache_size=0)
    assert isinstance(onnx, Embedder)
    assert not onnx.loaded
    got = await onnx.embed(names)
    want = await MiniLMEmbedder(batch_size=128, cache_size=0).embed(names)
    assert onnx.loaded
    assert onnx.device == "cpu"
    assert onnx.model_id == "sentence-transformers/all-MiniLM-L6-v2"
    assert got.shape == want.shape == (len(names), 384)
    assert got.dtype == np.float32
    cosines = np.sum(got * want, axis=1)
    assert float(cosines.mean()) >= 0.99
    assert float(cosines.min()) >= 0.98
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_export_is_reused_until_the_weights_change(onnx_path: Path) -> None:
    stamp = onnx_path.stat().st_mtime_ns
    assert export_minilm_onnx(onnx_path) == onnx_path
    assert onnx_path.stat().st_mtime_ns == stamp
    meta = onnx_path.with_suffix(".json")
    saved = meta.read_text()
    try:
        meta.write_text(saved.replace('"size": ', '"size": 1'))  # as if made from other weights
        export_minilm_onnx(onnx_path)
        assert onnx_path.stat().st_mtime_ns != stamp
        assert meta.read_text() == saved
    finally:
        meta.write_text(saved)


def test_factory_and_command_line(
    onnx_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert isinstance(make_embedder(Settings(embedder="minilm-onnx")), OnnxMiniLMEmbedder)
    monkeypatch.setenv("GW_NEO4J_ONNX_PATH", os.fspath(onnx_path))
    assert main(["export"]) == 0
    assert capsys.readouterr().out.strip() == str(onnx_path)
    assert main(["nope"]) == 2
