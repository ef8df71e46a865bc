"""Pick the embedder named by settings (``GW_NEO4J_EMBEDDER``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.embed.minilm import MiniLMEmbedder
from graphwalk_neo4j.embed.onnx import OnnxMiniLMEmbedder
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.settings import EMBED_BATCH_SIZE

if TYPE_CHECKING:
    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.settings import Settings

EMBEDDERS = ("minilm-onnx", "minilm", "fake")
DEFAULT_EMBEDDER = EMBEDDERS[0]


def make_embedder(settings: Settings | None = None, *, int8: bool = False) -> Embedder:
    """``minilm-onnx`` (default) -> OnnxMiniLMEmbedder (the packaged MiniLM on ONNX Runtime: a walk loads it in a
    fraction of torch's start-up), ``minilm`` -> MiniLMEmbedder (the same model on torch and
    sentence-transformers; the vectors are interchangeable), ``fake`` -> FakeEmbedder (tests only). Both MiniLMs
    run on the GPU when one is present. Loads nothing yet.

    ``int8`` (``gw-neo4j embed --int8``): the ONNX MiniLM with its weight products in int8, for embedding a large
    graph's entities (2.2-2.5x the texts per second on a CPU with 8-bit dot products; the vectors stand for the same
    model, mean cosine 0.992). Only the ONNX MiniLM has such an export; walks keep the float model for questions."""
    name = (settings.embedder if settings is not None else DEFAULT_EMBEDDER).strip().lower()
    batch_size = settings.embed_batch_size if settings is not None else EMBED_BATCH_SIZE
    if int8 and name != "minilm-onnx":
        raise ConfigError(
            f"--int8 needs the ONNX MiniLM, not {name!r}: unset GW_NEO4J_EMBEDDER (or set it to minilm-onnx)"
        )
    if name == "minilm":
        return MiniLMEmbedder(batch_size=batch_size)
    if name == "minilm-onnx":
        return OnnxMiniLMEmbedder(batch_size=batch_size, int8=int8)
    if name == "fake":
        return FakeEmbedder()
    raise ConfigError(f"unknown embedder {name!r} (GW_NEO4J_EMBEDDER): choose one of {', '.join(EMBEDDERS)}")
