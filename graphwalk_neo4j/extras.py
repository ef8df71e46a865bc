"""The optional extras and the one error a user sees when a command needs one that is not installed; and the
deferred re-exports of packages whose names would otherwise pull in heavy modules on import. Standard library only
(the package's own ``__init__`` uses it, and ``localserver`` runs before any dependency is installed).

The base install walks, searches, embeds, ingests files and serves (HTTP and MCP). What only some users need is
an extra of ``pyproject.toml``; the code that needs it imports it through :func:`require_extra` when it first
runs, so a missing extra is a one-line error naming the ``pip install`` that fixes it, before anything is
written.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import MissingExtraError

if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import ModuleType

EXTRAS: dict[str, str] = {
    "sql": "SQLAlchemy: `ingest sqlite://...` or `postgresql://...` reads a relational database",
    "llm": "litellm: LLM decision backends (--model openai/..., ollama/...) and text ingest's extraction",
    "train": "torch and sentence-transformers: `decider train` and the torch embedder (GW_NEO4J_EMBEDDER=minilm)",
    "bench": "matplotlib and neo4j-graphrag: reliability plots of `eval` and the peer in `make bench-load`",
}


def install_hint(extra: str) -> str:
    return f"pip install 'graphwalk-neo4j[{extra}]'"


def require_extra(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtraError`: "PURPOSE needs the EXTRA extra: pip install ..."."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}")
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{purpose} needs the {extra} extra ({module} is not installed): {install_hint(extra)}"
        ) from exc


def has_module(module: str) -> bool:
    """Whether ``module`` can be imported, without importing it."""
    return importlib.util.find_spec(module) is not None


def exported(package: str, exports: Mapping[str, str], namespace: dict[str, Any], name: str) -> Any:
    """A package's module ``__getattr__``: import ``name`` from the module ``exports`` maps it to, once (it is
    kept in the package's ``namespace``), so the package's own import stays cheap."""
    module = exports.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    namespace[name] = value
    return value
