"""Node embeddings: write vectors for entities that lack one or whose text changed, keeping the vector index in step.

The text of an entity is its name, its type and aliases, and its summary when it has one
(:func:`entity_text`). ``embed_hash`` = sha256(model id + text) marks what a stored vector encodes, so a rerun only
encodes what changed. Encoding runs in a worker thread while the previous batch is written, so Neo4j writes
overlap the model (the end-to-end rate stays close to the raw encode rate).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from graphwalk_neo4j.graph.profile import GraphProfile, load_profile, value_text
from graphwalk_neo4j.progress import QUIET, Progress

if TYPE_CHECKING:
    from collections.abc import Sequence

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.store import GraphStore, QueryName

PAGE = 20_000


def entity_text(
    name: str, type_: str | None = None, aliases: list[str] | None = None, summary: str | None = None
) -> str:
    parts = [name]
    if type_:
        parts.append(f"({type_.replace('_', ' ').lower()})")
    if aliases:
        parts.append("also known as " + ", ".join(aliases))
    text = " ".join(parts)
    if summary:
        text += ". " + summary
    return text


def text_hash(model_id: str, text: str) -> str:
    return hashlib.sha256(f"{model_id}\x1f{text}".encode()).hexdigest()[:32]


@dataclass
class EmbedReport:
    scanned: int = 0
    embedded: int = 0
    skipped: int = 0
    seconds: float = 0.0
    encode_seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.embedded / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "scanned": self.scanned,
            "embedded": self.embedded,
            "skipped": self.skipped,
            "seconds": round(self.seconds, 3),
            "encode_seconds": round(self.encode_seconds, 3),
            "nodes_per_s": round(self.rate, 1),
        }


async def pending_texts(store: GraphStore, graph: str, model_id: str) -> tuple[list[tuple[str, str, str]], int]:
    """(uid, text, hash) of entities whose stored vector is missing or stale, and how many were scanned."""
    todo: list[tuple[str, str, str]] = []
    after, scanned = "", 0
    while True:
        rows = await store.read("graph/embedding_candidates", graph=graph, after=after, limit=PAGE)
        if not rows:
            break
        for r in rows:
            text = entity_text(r["name"], r["type"], r["aliases"], r["summary"])
            digest = text_hash(model_id, text)
            if r["embed_hash"] != digest:
                todo.append((r["uid"], text, digest))
        scanned += len(rows)
        after = rows[-1]["uid"]
    return todo, scanned


async def pending_adopted_texts(
    store: GraphStore, profile: GraphProfile, model_id: str
) -> tuple[list[tuple[str, str, str]], int]:
    """(element id, text, hash) of an adopted graph's nodes whose vector is missing or stale, and how many were
    scanned. The text is the node's name, kind and text properties as they are now in the user's graph."""
    rows = await store.read("graph/adopted_embedding_candidates", graph=profile.graph, profile=profile.cypher())
    todo: list[tuple[str, str, str]] = []
    for r in rows:
        lp = profile.label(r["label"])
        if lp is None:
            continue
        values = r["values"]
        name = next((value_text(v) for v in values[: len(lp.name_props)] if v is not None), None) or lp.type
        texts = [value_text(v) for v in values[len(lp.name_props) :] if v is not None and str(v).strip()]
        text = entity_text(name, lp.type, None, ". ".join(texts) or None)
        digest = text_hash(model_id, text)
        if r["embed_hash"] != digest:
            todo.append((r["id"], text, digest))
    return todo, len(rows)


def vector_params(keys: Sequence[str], vectors: Any, hashes: Sequence[str]) -> dict[str, Any]:
    """The parameters of ``graph/set_embeddings`` and ``graph/set_adopted_embeddings``: the node keys, the hashes,
    and the vectors (row i for ``keys[i]``) as one float32 matrix. The Neo4j driver puts the repr of every
    parameter into its debug log line before it asks whether debug logging is on; NumPy summarises the repr of an
    array of more elements than its print threshold (1,000), where vectors as lists of Python floats cost 0.2 ms
    of client CPU each (10.3 s against 1.5 s for 50,000 vectors of 384 numbers). Below the threshold NumPy prints
    every element, slower than Python prints floats (1.2 ms against 0.16 for one vector), so a write that small
    sends lists of floats."""
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2 or len(matrix) != len(keys) or len(hashes) != len(keys):
        raise ValueError(f"vector_params: {len(keys)} keys, {len(hashes)} hashes and vectors of shape {matrix.shape}")
    summarised = matrix.size > np.get_printoptions()["threshold"]
    return {"uids": list(keys), "vectors": matrix if summarised else matrix.tolist(), "hashes": list(hashes)}


# Entities per encode call and per write transaction. Larger writes cost Neo4j far less CPU per vector (issue 24:
# 15-20 s of Neo4j CPU for MetaQA's 42,873 vectors in chunks of 2,048 against 40-47 s in chunks of 256, so
# 1,250-1,310 entities/s end to end against 820-910 with the int8 export); the embedder still cuts each call into
# its own encode batches (``GW_NEO4J_EMBED_BATCH_SIZE``).
WRITE_CHUNK = 2048


async def embed_graph(
    store: GraphStore,
    embedder: Embedder,
    graph: str,
    *,
    batch_size: int = WRITE_CHUNK,
    progress: Progress = QUIET,
    profile: GraphProfile | None = None,
) -> EmbedReport:
    started = time.perf_counter()
    report = EmbedReport()
    profile = profile or await load_profile(store, graph)
    write: QueryName
    extra: dict[str, Any]
    if profile.adopted:
        todo, report.scanned = await pending_adopted_texts(store, profile, embedder.model_id)
        write, extra = "graph/set_adopted_embeddings", {"graph": graph}
    else:
        todo, report.scanned = await pending_texts(store, graph, embedder.model_id)
        write, extra = "graph/set_embeddings", {}
    report.skipped = report.scanned - len(todo)
    # Encode in length order: similar lengths pad less, which is what makes batched encoding fast.
    todo.sort(key=lambda item: len(item[1]))
    batches = [todo[i : i + batch_size] for i in range(0, len(todo), batch_size)]

    async def encode(batch: list[tuple[str, str, str]]) -> Any:
        t = time.perf_counter()
        vectors = await embedder.embed([text for _, text, _ in batch])
        report.encode_seconds += time.perf_counter() - t
        return vectors

    pending_write: asyncio.Task[Any] | None = None
    for batch in batches:
        vectors = await encode(batch)
        if pending_write is not None:
            await pending_write
        params = vector_params([uid for uid, _, _ in batch], vectors, [digest for _, _, digest in batch])
        pending_write = asyncio.create_task(store.write(write, **params, **extra))
        report.embedded += len(batch)
        progress.advance("embed", report.embedded, len(todo))
    if pending_write is not None:
        await pending_write
    report.seconds = time.perf_counter() - started
    return report
