"""Which pipeline an ``ingest`` gets, and building that pipeline's parts from settings.

The rule (:func:`choose_pipeline`), in order:

1. one argument that is a database URL (``sqlite:///library.db``, ``postgresql://user@host/db``) -> SQL ingest;
2. ``--format text``, or any argument that is a directory, or any ``.md`` file -> text ingest of every argument
   (a directory is read recursively for ``.txt``, ``.md``, ``.json`` and ``.csv`` files);
3. anything else -> structured ingest, exactly as before (``.txt``/``.tsv`` triples, ``.csv``, ``.jsonl``).

So a single ``.txt`` or ``.csv`` file stays structured unless ``--format text`` is given.

Text ingest needs an extraction model (``--llm-model``, a litellm name; ``GW_NEO4J_LLM_API_BASE`` and
``GW_NEO4J_LLM_API_KEY`` reach it). Routing decisions use ``--decision-model`` or ``GW_NEO4J_MODEL`` (see
:mod:`graphwalk_neo4j.decide.resolve`); when neither names a model and no Jev key is configured there is no
decision backend, and mentions merge only on exact names (said in the report). Low-confidence routing decisions
are adjudicated by the extraction model through :class:`~graphwalk_neo4j.decide.llm.LLMBackend`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from graphwalk_neo4j.decide.base import DecisionBackend
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.progress import QUIET, Progress
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore

Pipeline = Literal["sql", "text", "structured"]
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
    if fmt == "text" or any(Path(p).is_dir() or Path(p).suffix.lower() == ".md" for p in paths):
        if fmt not in (None, "text"):
            raise ConfigError(f"--format {fmt} cannot read a directory or Markdown; use --format text")
        return "text"
    return "structured"


def build_decider(settings: Settings, decision_model: str | None) -> tuple[DecisionBackend | None, str | None]:
    """The routing decision backend, or ``None`` (with a note) when none is configured."""
    from graphwalk_neo4j.decide.resolve import resolve_backend, resolve_model_kind

    def present(secret: Any) -> bool:
        return secret is not None and bool(secret.get_secret_value().strip())

    chosen = decision_model or settings.model
    kind, _, _ = resolve_model_kind(chosen, present(settings.typesafe_api_key),
                                    present(settings.openrouter_api_key), settings.jev_provider)
    if not chosen and kind == "local":
        return None, ("no decision backend configured (no --decision-model, GW_NEO4J_MODEL or Jev key): "
                      "mentions merge only on exact names")
    return resolve_backend(settings, chosen), None


async def run_text(
    store: GraphStore,
    settings: Settings,
    paths: Sequence[str],
    *,
    graph: str,
    source: str,
    llm_model: str | None,
    routing: str = "decide",
    decision_model: str | None = None,
    concurrency: int = 8,
    max_bytes: int | None = None,
    prune: bool = False,
    embed: bool = False,
    progress: Progress = QUIET,
) -> dict[str, Any]:
    """Text ingest with parts built from settings; returns the report as a dict."""
    from graphwalk_neo4j.decide.llm import LLMBackend
    from graphwalk_neo4j.ingest.documents import TextIngest
    from graphwalk_neo4j.ingest.extraction import Extractor
    from graphwalk_neo4j.ingest.routing import Router
    from graphwalk_neo4j.ingest.sources import MAX_BYTES

    if not llm_model:
        raise ConfigError("text ingest needs an extraction model: pass --llm-model (a litellm name such as "
                          "openai/gpt-4o-mini) or set GW_NEO4J_LLM_MODEL")
    extractor = Extractor.from_settings(settings, llm_model, concurrency=concurrency)
    decider, note = (None, None) if routing == "exact" else build_decider(settings, decision_model)
    adjudicator = None
    if decider is not None:
        adjudicator = LLMBackend(llm_model, api_base=settings.llm_api_base, api_key=settings.llm_api_key,
                                 mode="json", concurrency=concurrency)
    embedder = None
    if embed:
        from graphwalk_neo4j.embed.factory import make_embedder

        embedder = make_embedder(settings)
    router = Router(store, graph, decider=decider, adjudicator=adjudicator, embedder=embedder,
                    mode="exact" if routing == "exact" else "decide")
    try:
        report = await TextIngest(store, graph=graph, source=source, extractor=extractor, router=router,
                                  max_bytes=max_bytes or MAX_BYTES, embedder=embedder, prune=prune,
                                  progress=progress).run(paths)
    finally:
        for backend in (decider, adjudicator):
            if backend is not None:
                await backend.aclose()
    out = report.as_dict()
    if note:
        out["warnings"] = [note, *out["warnings"]]
    out["ok"] = report.ok
    return out


async def run_sql(
    store: GraphStore,
    url: str,
    *,
    graph: str,
    source: str | None = None,
    schema: str | None = None,
    batch_size: int = 1000,
    prune: bool = False,
) -> dict[str, Any]:
    from graphwalk_neo4j.ingest.sql import default_source, ingest_sql, safe_url

    results = await ingest_sql(store, url, graph=graph, source=source or default_source(url), schema=schema,
                               batch_size=batch_size, prune=prune)
    return {"database": safe_url(url), "source": source or default_source(url),
            "tables": [r.as_dict() for r in results], "ok": True}


def render(report: dict[str, Any], out: Any, err: Any) -> None:
    """Print a text or database ingest report with rich: a table on ``out``, messages on ``err``."""
    from rich.table import Table

    if "tables" in report:
        table = Table(title=f"ingest {report['database']} (source {report['source']})")
        for col in ("table", "status", "rows", "nodes +new/~upd/=same", "rels +new/~upd/=same", "s"):
            table.add_column(col)
        for r in report["tables"]:
            c = r["counts"]
            table.add_row(r["table"], r["status"], str(r["rows"]),
                          f"+{c['nodes_created']} ~{c['nodes_updated']} ={c['nodes_unchanged']}",
                          f"+{c['rels_created']} ~{c['rels_updated']} ={c['rels_unchanged']}", f"{r['seconds']:.1f}")
        out.print(table)
        return
    table = Table(title="text ingest")
    for col in ("document", "status", "chunks", "llm/cached/failed", "entities +new/~upd", "rels +new/~upd", "s"):
        table.add_column(col)
    for d in report["documents"]:
        c = d["counts"]
        table.add_row(d["doc_id"], d["status"], str(d["chunks"]), f"{d['extracted']}/{d['cached']}/{d['failed']}",
                      f"+{c['entities_created']} ~{c['entities_updated']}",
                      f"+{c['relations_created']} ~{c['relations_updated']}", f"{d['seconds']:.1f}")
    out.print(table)
    t = report["timings"]
    out.print(f"{report['documents_per_s']} documents/s in {report['seconds']:.1f}s: plan {t['plan']:.1f}s, "
              f"extraction wait {t['extraction_wait']:.1f}s, routing {t['routing']:.1f}s, apply {t['apply']:.1f}s; "
              f"{report['extraction']['calls']} extraction calls, {report['routing']['decision_calls']} decision calls")
    for d in report["documents"]:
        if d["message"]:
            err.print(f"{d['doc_id']}: {d['status']}: {d['message']}", highlight=False)
    for warning in report["warnings"]:
        err.print(f"warning: {warning}", highlight=False)
