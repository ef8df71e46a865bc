"""Text embedders: the protocol, the packaged MiniLM model, and a hashing fake for tests."""

from graphwalk_neo4j.embed.base import Embedder, VectorCache, l2_normalise
from graphwalk_neo4j.embed.factory import EMBEDDERS, make_embedder
from graphwalk_neo4j.embed.fake import FakeEmbedder
from graphwalk_neo4j.embed.minilm import MINILM_DIMENSIONS, MINILM_MODEL_ID, MiniLMEmbedder

__all__ = [
    "EMBEDDERS",
    "MINILM_DIMENSIONS",
    "MINILM_MODEL_ID",
    "Embedder",
    "FakeEmbedder",
    "MiniLMEmbedder",
    "VectorCache",
    "l2_normalise",
    "make_embedder",
]
