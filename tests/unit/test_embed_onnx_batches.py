"""Length-sorted batching of the ONNX MiniLM (issue 24): batches of similar token counts, vectors back in the
input order, the same vectors as one text at a time, and both cores busy on the CPU."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np
import pytest

from graphwalk_neo4j.embed.onnx import OnnxMiniLMEmbedder, export_minilm_onnx, length_batches

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture(scope="module")
def onnx_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_minilm_onnx(tmp_path_factory.mktemp("onnx") / "minilm.onnx")


def test_length_batches_cover_every_row_once_in_length_order() -> None:
    rng = np.random.default_rng(7)
    lengths = rng.integers(3, 40, size=1001)
    batches = length_batches(lengths, 64)
    rows = np.concatenate(batches)
    assert sorted(rows.tolist()) == list(range(1001))
    assert max(len(b) for b in batches) == 64
    # longest first; within and across batches ordered by length
    spans = [(int(lengths[b].min()), int(lengths[b].max())) for b in batches]
    assert all(lo_prev >= hi for (lo_prev, _), (_, hi) in itertools.pairwise(spans))
    # equal lengths keep their input order (a stable sort)
    for b in batches:
        for a, c in itertools.pairwise(b):
            assert lengths[a] < lengths[c] or (lengths[a] == lengths[c] and a < c)


def test_length_batches_split_one_batch_between_workers() -> None:
    assert [len(b) for b in length_batches(np.ones(256, dtype=np.int64), 256, workers=2)] == [128, 128]
    assert [len(b) for b in length_batches(np.ones(5, dtype=np.int64), 256, workers=2)] == [2, 3]
    assert [len(b) for b in length_batches(np.ones(1, dtype=np.int64), 256, workers=2)] == [1]
    assert length_batches(np.zeros(0, dtype=np.int64), 8) == []
    with pytest.raises(ValueError, match="must be >= 1"):
        length_batches(np.ones(3, dtype=np.int64), 0)


def texts() -> list[str]:
    names = ["Before the Rain", "Milcho Manchevski", "1994", "War", "The Business of Strangers", "Julia Stiles"]
    kinds = ["movie", "person", "year", "genre", "tag"]
    out = [f"{n} ({k})" for n in names for k in kinds]
    out += ["x", "a much longer text about a film, its director, its writers and the year it came out in cinemas"]
    out += [f"{n} (movie) also known as {m}, {n} II" for n, m in zip(names, reversed(names), strict=True)]
    return out


async def test_vectors_come_back_in_input_order_and_match_one_at_a_time(onnx_path: Path) -> None:
    batch = texts()
    rng = np.random.default_rng(3)
    shuffled = [batch[i] for i in rng.permutation(len(batch))]
    assert len(set(map(len, shuffled))) > 10  # lengths vary: the sort reorders them
    embedder = OnnxMiniLMEmbedder(onnx_path=onnx_path, batch_size=4, cache_size=0)
    together = await embedder.embed(shuffled)
    assert embedder._parallel == ((embedder._workers > 1) and embedder.device == "cpu")
    alone = np.stack([embedder.encode([t])[0] for t in shuffled])
    assert together.shape == (len(shuffled), 384)
    cosines = np.sum(together * alone, axis=1)
    assert float(cosines.min()) >= 0.9999  # padding to a batch's longest text changes the vector by rounding only
    # each row is its own text's vector: it is nearest to itself among all the others
    assert (np.argmax(together @ alone.T, axis=1) == np.arange(len(shuffled))).all()


async def test_parallel_and_sequential_runs_give_the_same_vectors(onnx_path: Path) -> None:
    batch = texts() * 3
    parallel = OnnxMiniLMEmbedder(onnx_path=onnx_path, batch_size=8, cache_size=0)
    parallel.load()
    parallel._parallel, parallel._workers = True, 3
    sequential = OnnxMiniLMEmbedder(onnx_path=onnx_path, batch_size=8, cache_size=0)
    sequential.load()
    sequential._parallel = False
    assert np.array_equal(parallel.encode(batch), sequential.encode(batch))
