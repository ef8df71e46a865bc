"""graph/embeddings.vector_params: the vectors go to Neo4j as one float32 matrix whose repr is a summary."""

from __future__ import annotations

import numpy as np
import pytest

from graphwalk_neo4j.graph.embeddings import vector_params


def test_a_write_of_more_numbers_than_numpys_print_threshold_goes_as_one_float32_matrix() -> None:
    vectors = np.arange(3 * 384, dtype=np.float64).reshape(3, 384) / 7
    params = vector_params(("a", "b", "c"), vectors, ("h1", "h2", "h3"))
    assert params["uids"] == ["a", "b", "c"]
    assert params["hashes"] == ["h1", "h2", "h3"]
    matrix = params["vectors"]
    assert isinstance(matrix, np.ndarray)
    assert matrix.dtype == np.float32
    assert matrix.tolist() == vectors.astype(np.float32).tolist()


def test_a_write_under_the_threshold_goes_as_lists_of_the_float32_values() -> None:
    """NumPy prints every element of a small array, slower than Python prints floats: lists instead."""
    vectors = [np.asarray([0.1, -0.25], dtype=np.float64), np.asarray([1.0, 0.0], dtype=np.float64)]
    params = vector_params(("a", "b"), vectors, ("h1", "h2"))
    assert params["vectors"] == [[float(np.float32(0.1)), -0.25], [1.0, 0.0]]


def test_the_repr_of_a_write_of_2048_vectors_is_a_summary() -> None:
    """What the driver formats for its debug line on every run: a summary, not 786,432 numbers."""
    params = vector_params([f"u{i}" for i in range(2048)], np.ones((2048, 384), dtype=np.float32), ["h"] * 2048)
    assert "..." in repr(params["vectors"])
    assert len(repr(params["vectors"])) < 1000


@pytest.mark.parametrize(
    ("keys", "shape", "hashes"),
    [(["a", "b"], (3, 4), ["h", "h"]), (["a"], (1, 4), ["h", "h"]), (["a"], (4,), ["h"])],
)
def test_mismatched_keys_vectors_or_hashes_are_refused(
    keys: list[str], shape: tuple[int, ...], hashes: list[str]
) -> None:
    with pytest.raises(ValueError, match="vector_params: "):
        vector_params(keys, np.zeros(shape, dtype=np.float32), hashes)
