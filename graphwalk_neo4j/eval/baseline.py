"""The vector-retrieval baseline over the same graph: one document per entity, the same MiniLM embedder, cosine
top-k; optionally an LLM reader (litellm) over the top documents.

Documents (:func:`entity_document`): the entity's name and type, then up to :data:`MAX_TRIPLES` incident
triples as sentences (``Kismet directed by William Dieterle.``), ordered by relation and the other end's name
(``eval/entity_documents``). So both systems see the same knowledge; the comparison is walking vs retrieving.

Document vectors are cached on disk, not in Neo4j: ``<cache>/<graph>-<key>.npy`` (float32, one unit row per
entity) plus ``<graph>-<key>.json`` (ids, names, texts). ``key`` hashes the graph's ledger (every document's
content hash), the embedder id, :data:`DOC_VERSION` and :data:`MAX_TRIPLES`, so a changed graph or embedder
builds a new file and an unchanged one loads in about a second. A second vector index in Neo4j would double
the database's vector memory for a baseline; a brute-force NumPy product over 43k x 384 floats takes ~5 ms.

Answers without a reader: the top-ranked entities other than the topic entity, cut at ``k`` (chosen on dev,
see docs/eval.md; every record keeps the top :data:`RANK_DEPTH` so the cut can be re-chosen from a run). With
a reader: the model reads the top ``reader_docs`` documents (the topic's own included) and names the answers,
separated by ``|``.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphwalk_neo4j.errors import DecisionError, LLMError
from graphwalk_neo4j.eval.answers import SystemAnswer
from graphwalk_neo4j.graph.identity import entity_id
from graphwalk_neo4j.graph.ledger import list_documents
from graphwalk_neo4j.llm import LLMClient
from graphwalk_neo4j.progress import QUIET, Progress
from graphwalk_neo4j.walk.choice_questions import relation_words

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from pydantic import SecretStr

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.store import GraphStore

DOC_VERSION = "entity-doc-1"
MAX_TRIPLES = 40
RANK_DEPTH = 20
DEFAULT_K = 1  # best mean F1 over hops on dev (300 per hop, seed 1): docs/eval.md
PAGE = 5000

READER_TASK = (
    "Answer the question using only the documents. Each document describes one entity of a knowledge graph "
    "with facts about it. Reply with the names of all answer entities exactly as written in the documents, "
    "separated by ' | ', and nothing else. Reply NONE if the documents do not contain the answer."
)


def triple_sentence(subject: str, relation: str, obj: str) -> str:
    return f"{subject} {relation_words(relation)} {obj}."


def entity_document(name: str, type_: str | None, triples: Sequence[Sequence[str]]) -> str:
    """``Kismet (movie). Kismet directed by William Dieterle. Kismet release year 1944.``"""
    head = f"{name} ({type_.lower()})." if type_ else f"{name}."
    return " ".join([head, *(triple_sentence(*t) for t in triples)])


@dataclass
class DocIndex:
    ids: list[str]
    names: list[str]
    texts: list[str]
    matrix: np.ndarray  # (n, d) float32, unit rows
    key: str

    def search(self, query: np.ndarray, k: int, exclude: frozenset[str] = frozenset()) -> list[int]:
        """Row indices of the ``k`` best documents for ``query`` (ties by row order), skipping ``exclude`` ids."""
        if not self.ids or k <= 0:
            return []
        scores = self.matrix @ np.asarray(query, dtype=np.float32)
        take = min(len(scores), k + len(exclude))
        top = np.argpartition(-scores, take - 1)[:take] if take < len(scores) else np.arange(len(scores))
        ranked = sorted(top.tolist(), key=lambda i: (-float(scores[i]), i))
        return [i for i in ranked if self.ids[i] not in exclude][:k]


async def index_key(store: GraphStore, graph: str, model_id: str) -> str:
    ledger = sorted((d["key"], d["content_hash"] or "") for d in await list_documents(store, graph))
    material = json.dumps([ledger, model_id, DOC_VERSION, MAX_TRIPLES])
    return hashlib.sha256(material.encode()).hexdigest()[:16]


async def load_documents(store: GraphStore, graph: str) -> tuple[list[str], list[str], list[str]]:
    """(ids, names, texts) of every entity of ``graph``, in uid order."""
    ids: list[str] = []
    names: list[str] = []
    texts: list[str] = []
    after = ""
    while True:
        rows = await store.read("eval/entity_documents", graph=graph, after=after, limit=PAGE, max_triples=MAX_TRIPLES)
        if not rows:
            break
        for row in rows:
            ids.append(row["id"])
            names.append(row["name"])
            texts.append(entity_document(row["name"], row["type"], row["triples"]))
        after = rows[-1]["uid"]
    return ids, names, texts


async def build_index(
    store: GraphStore,
    graph: str,
    embedder: Embedder,
    cache_dir: str | Path,
    *,
    progress: Progress = QUIET,
    batch: int = 256,
) -> DocIndex:
    """Load the cached document vectors of ``graph``, or build and cache them (see the module docstring)."""
    key = await index_key(store, graph, embedder.model_id)
    base = Path(cache_dir) / f"{graph}-{key}"
    vectors, meta = base.with_suffix(".npy"), base.with_suffix(".json")
    if vectors.is_file() and meta.is_file():
        data = json.loads(meta.read_text(encoding="utf-8"))
        return DocIndex(data["ids"], data["names"], data["texts"], np.load(vectors), key)
    ids, names, texts = await load_documents(store, graph)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths pad less
    matrix = np.zeros((len(texts), embedder.dimensions), dtype=np.float32)
    for start in range(0, len(order), batch):
        rows = order[start : start + batch]
        matrix[rows] = await embedder.embed([texts[i] for i in rows])
        progress.advance("documents", min(start + batch, len(order)), len(order))
    base.parent.mkdir(parents=True, exist_ok=True)
    np.save(vectors, matrix)
    meta.write_text(json.dumps({"ids": ids, "names": names, "texts": texts}, ensure_ascii=False), encoding="utf-8")
    return DocIndex(ids, names, texts, matrix, key)


def parse_reader_answers(text: str) -> list[str]:
    """Answer names from a reader reply: ``a | b`` text, a JSON list, or ``{"answers": [...]}``; ``NONE`` -> []."""
    text = text.strip()
    if text.startswith(("{", "[")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict):
            data = data.get("answers", [])
        if isinstance(data, list):
            return list(dict.fromkeys(str(a).strip() for a in data if str(a).strip()))
    parts = [p.strip().strip("\"'") for p in text.replace("\n", "|").split("|")]
    return list(dict.fromkeys(p for p in parts if p and p.upper() != "NONE"))


class LLMReader:
    """Reads retrieved documents with a chat model through litellm and names the answers."""

    def __init__(
        self, model: str, *, api_base: str | None = None, api_key: SecretStr | None = None, timeout_s: float = 60.0
    ) -> None:
        self.model, self.api_base, self.timeout_s = model, api_base, timeout_s
        self._client = LLMClient(
            model, api_base=api_base, api_key=api_key, timeout_s=timeout_s, num_retries=2, label="reader"
        )

    def messages(self, question: str, documents: Sequence[str]) -> list[dict[str, str]]:
        payload = json.dumps({"question": question, "documents": list(documents)}, ensure_ascii=False)
        return [
            {"role": "system", "content": "You answer questions from the documents you are given."},
            {"role": "user", "content": f"{payload}\n\n{READER_TASK}"},
        ]

    async def read(self, question: str, documents: Sequence[str]) -> tuple[list[str], dict[str, Any]]:
        try:
            reply = await self._client.complete(self.messages(question, documents))
        except LLMError as exc:
            raise DecisionError(str(exc)) from None
        return parse_reader_answers(reply.content), {
            "input_tokens": reply.input_tokens,
            "output_tokens": reply.output_tokens,
            "cost_usd": reply.cost_usd,
        }


class VectorSystem:
    """Cosine retrieval over entity documents; answers = top-k entities other than the topic (or a reader's)."""

    def __init__(
        self,
        index: DocIndex,
        embedder: Embedder,
        *,
        k: int = DEFAULT_K,
        reader: LLMReader | None = None,
        reader_docs: int = 5,
        name: str = "vector",
    ) -> None:
        self.index, self.embedder, self.k, self.reader, self.reader_docs = index, embedder, k, reader, reader_docs
        self.name = name

    def describe(self) -> dict[str, Any]:
        return {
            "kind": "vector",
            "embedder": self.embedder.model_id,
            "k": self.k,
            "doc_version": DOC_VERSION,
            "max_triples": MAX_TRIPLES,
            "index_key": self.index.key,
            "reader": self.reader.model if self.reader else None,
            "reader_docs": self.reader_docs if self.reader else None,
        }

    async def answer(self, question: Mapping[str, str]) -> SystemAnswer:
        started = time.perf_counter()
        text = question["text_without_brackets"]
        query = (await self.embedder.embed([text]))[0]
        rows = self.index.search(query, RANK_DEPTH, frozenset({entity_id(question["topic"])}))
        ranked = [self.index.names[i] for i in rows]
        retrieval_s = time.perf_counter() - started
        if self.reader is None:
            return SystemAnswer(answers=ranked[: self.k], ranked=ranked, extra={"retrieval_s": retrieval_s})
        # The reader also sees the topic's own document: its facts answer 1-hop questions.
        docs = [self.index.texts[i] for i in self.index.search(query, self.reader_docs)]
        answers, usage = await self.reader.read(text, docs)
        return SystemAnswer(
            answers=answers,
            ranked=ranked,
            llm_calls=1,
            input_tokens=usage["input_tokens"],
            output_tokens=usage["output_tokens"],
            cost_usd=usage["cost_usd"],
            extra={"retrieval_s": retrieval_s},
        )
