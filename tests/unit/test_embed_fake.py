from __future__ import annotations

import numpy as np
import pytest

from graphwalk_neo4j.embed import Embedder, FakeEmbedder, MiniLMEmbedder, make_embedder
from graphwalk_neo4j.embed.onnx import OnnxMiniLMEmbedder
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.settings import Settings


async def test_fake_embedder_is_deterministic_normalised_and_lexical() -> None:
    embedder: Embedder = FakeEmbedder(64)  # the structural fit is checked by mypy on the tests
    texts = ["Christopher Nolan directed Memento", "Memento director", "banana bread recipe", ""]
    vectors = await embedder.embed(texts)
    assert vectors.shape == (4, 64)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    again = FakeEmbedder(64).encode(texts)
    assert np.array_equal(vectors, again)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert (await embedder.embed([])).shape == (0, 64)


async def test_fake_embedder_caches_by_text() -> None:
    embedder = FakeEmbedder(16)
    await embedder.embed(["a b", "c d", "a b"])
    assert embedder.encoded == 2
    await embedder.embed(["c d"])
    assert embedder.encoded == 2
    assert embedder.cache.hits >= 1


def test_make_embedder_by_setting() -> None:
    assert isinstance(make_embedder(Settings(embedder="fake")), FakeEmbedder)
    minilm = make_embedder(Settings(embedder="minilm", embed_batch_size=32))
    assert isinstance(minilm, MiniLMEmbedder)
    assert minilm.batch_size == 32
    assert not minilm.loaded
    assert minilm.dimensions == 384
    # the default is the same model on ONNX Runtime: a walk never imports torch for its question vector
    assert Settings.model_fields["embedder"].default == "minilm-onnx"
    assert isinstance(make_embedder(None), OnnxMiniLMEmbedder)
    with pytest.raises(ConfigError, match="unknown embedder 'bert'"):
        make_embedder(Settings(embedder="bert"))
