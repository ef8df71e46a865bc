"""One small test of the real packaged MiniLM model (local files, CPU), and LocalDecider on top of it."""

from __future__ import annotations

import numpy as np

from graphwalk_neo4j.decide import DecisionRequest, LocalDecider
from graphwalk_neo4j.embed import Embedder, MiniLMEmbedder
from tests.standins.samples import STOP_TEXT, hop_question


async def test_minilm_embeds_offline_and_drives_the_local_decider() -> None:
    embedder: Embedder = MiniLMEmbedder(batch_size=8)  # the structural fit is checked by mypy on the tests
    assert isinstance(embedder, MiniLMEmbedder)
    assert not embedder.loaded
    texts = [
        "Who directed Memento?",
        "Memento was directed by Christopher Nolan",
        "a recipe for banana bread",
    ]
    vectors = await embedder.embed(texts)
    assert embedder.loaded
    assert embedder.model_id == "sentence-transformers/all-MiniLM-L6-v2"
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    assert np.array_equal(embedder.encode(texts[:1])[0], vectors[0])  # served from the text cache

    decider = LocalDecider(embedder)
    request = DecisionRequest(
        state={"query": "Who directed Memento?"},
        questions=[
            hop_question(
                "b0",
                "Memento",
                {
                    "o1": "Memento release_year 2000",
                    "o2": "Memento directed_by Christopher Nolan",
                    "o3": "Memento in_language English",
                    "STOP": STOP_TEXT,
                },
            )
        ],
    )
    result = (await decider.decide(request)).results["b0"]
    assert result.top == "o2"
