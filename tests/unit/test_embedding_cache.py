"""The expander's embedding cache split into its pure parts (walk/graph_expander.EmbeddingCache): ``lookup`` and
``keep`` run in the CPU pool, ``read`` (the only I/O) on the loop; a miss is remembered, an overflow empties the
cache first."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphwalk_neo4j.walk.graph_expander import EmbeddingCache


def _cache(max_size: int = 500_000) -> EmbeddingCache:
    return EmbeddingCache(None, "g", max_size=max_size)  # type: ignore[arg-type]  # no I/O in these calls


def test_lookup_splits_cached_from_missing_ids_each_once_in_order() -> None:
    cache = _cache()
    kept = cache.keep(["a", "b"], [{"id": "a", "embedding": [1.0, 0.0]}])
    assert list(kept) == ["a", "b"]
    assert kept["a"] is not None
    assert kept["a"].tolist() == [1.0, 0.0]
    assert kept["b"] is None  # no row: remembered as having no vector
    assert cache.fetches == 1
    known, missing = cache.lookup(["c", "a", "b", "c", "d", "a"])
    assert missing == ["c", "d"]
    assert list(known) == ["a", "b"]
    assert known["a"] is kept["a"]
    assert known["b"] is None


def test_keep_empties_a_full_cache_first_and_stores_float32() -> None:
    cache = _cache(max_size=3)
    cache.keep(["a", "b"], [{"id": "a", "embedding": [0.5]}, {"id": "b", "embedding": [0.25]}])
    assert cache.vector_entries == 2
    rows: list[Any] = [{"id": "c", "embedding": [2.0]}, {"id": "d", "embedding": [3.0]}]
    kept = cache.keep(["c", "d"], rows)
    assert cache.vector_entries == 2  # 2 + 2 > 3: emptied, then these two
    assert cache.lookup(["a", "c"])[1] == ["a"]
    value = kept["d"]
    assert value is not None
    assert value.dtype == np.float32
    assert value.tolist() == [3.0]
