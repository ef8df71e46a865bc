"""A deterministic hashing embedder for unit tests (no model, no I/O).

Each lower-cased word token (and each character trigram of it, at lower weight) is hashed into one of
``dimensions`` buckets with a hash-derived sign; the bag is L2-normalised. Texts sharing words therefore get a
positive cosine, which is enough for tests of ranking code. It is not a semantic model.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

import numpy as np

from graphwalk_neo4j.embed.base import VectorCache, empty_matrix, l2_normalise, split_cached
from graphwalk_neo4j.embed.minilm import MINILM_DIMENSIONS

if TYPE_CHECKING:
    from collections.abc import Sequence

_TOKEN = re.compile(r"\w+", re.UNICODE)


class FakeEmbedder:
    def __init__(
        self, dimensions: int = MINILM_DIMENSIONS, *, trigram_weight: float = 0.25, cache_size: int = 10_000
    ) -> None:
        if dimensions < 2:
            raise ValueError("dimensions must be >= 2")
        self._dimensions = dimensions
        self.trigram_weight = trigram_weight
        self.cache = VectorCache(cache_size)
        self.calls = 0  # embed()/encode() invocations
        self.encoded = 0  # texts actually hashed (cache misses)

    @property
    def model_id(self) -> str:
        return f"fake-hash-{self._dimensions}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def __repr__(self) -> str:
        return f"FakeEmbedder(dimensions={self._dimensions})"

    def _bucket(self, feature: str) -> tuple[int, float]:
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self._dimensions, (1.0 if (value >> 63) & 1 else -1.0)

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self._dimensions, dtype=np.float64)
        for token in _TOKEN.findall(text.lower()):
            index, sign = self._bucket("w:" + token)
            vector[index] += sign
            if self.trigram_weight and len(token) > 3:
                padded = f"#{token}#"
                for i in range(len(padded) - 2):
                    index, sign = self._bucket("t:" + padded[i : i + 3])
                    vector[index] += sign * self.trigram_weight
        if not vector.any():
            index, sign = self._bucket("empty:" + text)
            vector[index] = sign
        unit: np.ndarray = l2_normalise(vector)[0]
        return unit

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        texts = list(texts)
        if not texts:
            return empty_matrix(self._dimensions)
        found, missing = split_cached(self.cache, texts)
        for text in missing:
            vector = self._vector(text)
            self.encoded += 1
            self.cache.put(text, vector)
            found[text] = vector
        return np.stack([found[text] for text in texts]).astype(np.float32, copy=False)

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.encode(texts)
