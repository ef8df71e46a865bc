"""The embedder contract: texts in, one L2-normalised float32 row per text out."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Sequence


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit vectors. ``embed`` must not block the event loop."""

    @property
    def model_id(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return a ``(len(texts), dimensions)`` float32 array whose rows have unit L2 norm."""
        ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Synchronous ``embed`` (blocks the calling thread)."""
        ...


def l2_normalise(matrix: np.ndarray) -> np.ndarray:
    """Scale each row to unit length (zero rows stay zero), as float32."""
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0.0] = 1.0
    unit: np.ndarray = (matrix / norms).astype(np.float32, copy=False)
    return unit


def empty_matrix(dimensions: int) -> np.ndarray:
    return np.zeros((0, dimensions), dtype=np.float32)


class VectorCache:
    """A bounded LRU map text -> vector. ``max_size=0`` disables caching."""

    def __init__(self, max_size: int = 50_000) -> None:
        if max_size < 0:
            raise ValueError("max_size must be >= 0")
        self.max_size = max_size
        self._data: OrderedDict[str, np.ndarray] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, text: object) -> bool:
        return text in self._data

    def get(self, text: str) -> np.ndarray | None:
        vector = self._data.get(text)
        if vector is None:
            self.misses += 1
            return None
        self._data.move_to_end(text)
        self.hits += 1
        return vector

    def put(self, text: str, vector: np.ndarray) -> None:
        if self.max_size == 0:
            return
        self._data[text] = vector
        self._data.move_to_end(text)
        while len(self._data) > self.max_size:
            self._data.popitem(last=False)

    def clear(self) -> None:
        self._data.clear()
        self.hits = 0
        self.misses = 0


def split_cached(cache: VectorCache | None, texts: Sequence[str]) -> tuple[dict[str, np.ndarray], list[str]]:
    """Return (vectors found in the cache, distinct texts still to encode, in first-seen order)."""
    found: dict[str, np.ndarray] = {}
    missing: list[str] = []
    seen: set[str] = set()
    for text in texts:
        if text in found or text in seen:
            continue
        vector = cache.get(text) if cache is not None else None
        if vector is None:
            missing.append(text)
            seen.add(text)
        else:
            found[text] = vector
    return found, missing


async def embed_cached(embedder: Embedder, cache: VectorCache, texts: Sequence[str]) -> dict[str, np.ndarray]:
    """The vector of each distinct text, from ``cache`` where it holds one, else embedded once (in one call) and
    cached; what the deciders use to read questions and options."""
    found, missing = split_cached(cache, texts)
    if missing:
        matrix = await embedder.embed(missing)
        for text, vector in zip(missing, matrix, strict=True):
            found[text] = vector
            cache.put(text, vector)
    return found
