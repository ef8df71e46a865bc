"""Pick the embedder named by settings (``GW_NEO4J_EMBEDDER``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.embed.minilm import MiniLMEmbedder
from graphwalk_neo4j.embed.onnx import OnnxMiniLMEmbedder
from graphwalk_neo4j.errors import ConfigError

if TYPE_CHECKING:
    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.settings import Settings

EMBEDDERS = ("minilm-onnx", "minilm", "fake")
DEFAULT_EMBEDDER = EMBEDDERS[0]


def make_embedder(settings: Settings | None = None) -> Embedder:
    """``minilm-onnx`` (default) -> OnnxMiniLMEmbedder (the packaged MiniLM on ONNX Runtime: a walk loads it in a
    fraction of torch's start-up), ``minilm`` -> MiniLMEmbedder (the same model on torch and
    sentence-transformers; the vectors are interchangeable), ``fake`` -> FakeEmbedder (tests only). Both MiniLMs
    run on the GPU when one is present. Loads nothing yet."""
    name = (settings.embedder if settings is not None else DEFAULT_EMBEDDER).strip().lower()
    batch_size = settings.embed_batch_size if settings is not None else 256
    if name == "minilm":
        return MiniLMEmbedder(batch_size=batch_size)
    if name == "minilm-onnx":
        return OnnxMiniLMEmbedder(batch_size=batch_size)
    if name == "fake":
        return FakeEmbedder()
    raise ConfigError(f"unknown embedder {name!r} (GW_NEO4J_EMBEDDER): choose one of {', '.join(EMBEDDERS)}")
