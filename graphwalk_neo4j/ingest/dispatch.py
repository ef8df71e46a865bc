"""Which pipeline an ``ingest`` gets (building its parts from settings is the edge's job:
:mod:`graphwalk_neo4j.wiring`).

The rule (:func:`choose_pipeline`), in order:

1. one argument that is a database URL (``sqlite:///library.db``, ``postgresql://user@host/db``) -> SQL ingest;
2. ``--format text``, or any argument that is a directory, or any ``.md`` / ``.markdown`` file -> text ingest of
   every argument (a directory is read recursively for ``.txt``, ``.md``, ``.json`` and ``.csv`` files);
3. anything else -> structured ingest, exactly as before (``.txt``/``.tsv`` triples, ``.csv``, ``.jsonl``).

So a single ``.txt`` or ``.csv`` file stays structured unless ``--format text`` is given.

Text ingest needs an extraction model (``--llm-model``, a litellm name; ``GW_NEO4J_LLM_API_BASE`` and
``GW_NEO4J_LLM_API_KEY`` reach it). Routing decisions use ``--decision-model`` or ``GW_NEO4J_MODEL`` (see
:mod:`graphwalk_neo4j.backends`); when neither names a model and no Jev key is configured there is no
decision backend, and mentions merge only on exact names (said in the report). Low-confidence routing decisions
are adjudicated by the extraction model through :class:`~graphwalk_neo4j.decide.llm.LLMBackend`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from graphwalk_neo4j.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Sequence

Pipeline = Literal["sql", "text", "structured"]
TEXT_SUFFIXES = (".md", ".markdown")  # a file with one of these makes the whole ingest a text ingest
SQL_SCHEMES = ("sqlite", "postgresql", "postgres", "mysql", "mariadb", "mssql", "oracle")
_URL = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9]*)(?:\+[A-Za-z0-9_]+)?://")


def is_sql_url(text: str) -> bool:
    match = _URL.match(text)
    return bool(match) and match.group("scheme").lower() in SQL_SCHEMES  # type: ignore[union-attr]


def choose_pipeline(paths: Sequence[str], fmt: str | None) -> Pipeline:
    """See the module docstring. Raises :class:`ConfigError` for a URL mixed with other inputs."""
    urls = [p for p in paths if is_sql_url(p)]
    if urls:
        if len(paths) != 1:
            raise ConfigError("give a database URL on its own: one `gw-neo4j ingest URL` per database")
        if fmt not in (None, "sql"):
            raise ConfigError(f"--format {fmt} does not apply to a database URL")
        return "sql"
    if fmt == "text" or any(Path(p).is_dir() or Path(p).suffix.lower() in TEXT_SUFFIXES for p in paths):
        if fmt not in (None, "text"):
            raise ConfigError(f"--format {fmt} cannot read a directory or Markdown; use --format text")
        return "text"
    return "structured"
