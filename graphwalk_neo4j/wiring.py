"""Building pipelines from settings, at the edge: the CLI and the service call these; the layers below take
finished parts (an extractor, a router, deciders, an embedder) and never read settings themselves.

Text ingest needs an extraction model (``--llm-model``, a litellm name; ``GW_NEO4J_LLM_API_BASE`` and
``GW_NEO4J_LLM_API_KEY`` reach it). Routing decisions use ``--decision-model`` or ``GW_NEO4J_MODEL`` (see
:mod:`graphwalk_neo4j.backends`); when neither names a model and no Jev key is configured there is no
decision backend, and mentions merge only on exact names (said in the report). Low-confidence routing decisions
are adjudicated by the extraction model through :class:`~graphwalk_neo4j.decide.llm.LLMBackend`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.backends import resolve_backend, resolve_model_kind
from graphwalk_neo4j.decide.llm import LLMBackend
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.ingest.documents import TextIngest
from graphwalk_neo4j.ingest.extraction import Extractor
from graphwalk_neo4j.ingest.routing import Router
from graphwalk_neo4j.ingest.sources import MAX_BYTES
from graphwalk_neo4j.ingest.sql import default_source, ingest_sql, safe_url
from graphwalk_neo4j.progress import QUIET, Progress

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantic import SecretStr

    from graphwalk_neo4j.decide.base import DecisionBackend
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore


def build_decider(settings: Settings, decision_model: str | None) -> tuple[DecisionBackend | None, str | None]:
    """The routing decision backend, or ``None`` (with a note) when none is configured."""

    def present(secret: SecretStr | None) -> bool:
        return secret is not None and bool(secret.get_secret_value().strip())

    chosen = decision_model or settings.model
    kind, _, _ = resolve_model_kind(
        chosen, present(settings.typesafe_api_key), present(settings.openrouter_api_key), settings.jev_provider
    )
    if not chosen and kind == "local":
        return None, (
            "no decision backend configured (no --decision-model, GW_NEO4J_MODEL or Jev key): "
            "mentions merge only on exact names"
        )
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

    if not llm_model:
        raise ConfigError(
            "text ingest needs an extraction model: pass --llm-model (a litellm name such as "
            "openai/gpt-4o-mini) or set GW_NEO4J_LLM_MODEL"
        )
    extractor = Extractor.from_settings(settings, llm_model, concurrency=concurrency)
    decider, note = (None, None) if routing == "exact" else build_decider(settings, decision_model)
    adjudicator = None
    if decider is not None:
        adjudicator = LLMBackend(
            llm_model,
            api_base=settings.llm_api_base,
            api_key=settings.llm_api_key,
            mode="json",
            concurrency=concurrency,
        )
    embedder = None
    if embed:
        embedder = make_embedder(settings)
    router = Router(
        store,
        graph,
        decider=decider,
        adjudicator=adjudicator,
        embedder=embedder,
        mode="exact" if routing == "exact" else "decide",
    )
    try:
        report = await TextIngest(
            store,
            graph=graph,
            source=source,
            extractor=extractor,
            router=router,
            max_bytes=max_bytes or MAX_BYTES,
            embedder=embedder,
            prune=prune,
            progress=progress,
        ).run(paths)
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

    results = await ingest_sql(
        store, url, graph=graph, source=source or default_source(url), schema=schema, batch_size=batch_size, prune=prune
    )
    return {
        "database": safe_url(url),
        "source": source or default_source(url),
        "tables": [r.as_dict() for r in results],
        "ok": True,
    }
