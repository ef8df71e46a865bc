"""Ingest composed once, at the edge, for every front door: ``gw-neo4j ingest``, ``POST /v1/ingest`` (a job) and
the MCP ``ingest`` tool all turn what the caller sent into an :class:`IngestCall` with :func:`ingest_call` and run
it with :func:`run_ingest`; the layers below take finished parts (an extractor, a router, deciders, an embedder)
and never read settings themselves.

:func:`ingest_call` picks the pipeline from the inputs (:func:`graphwalk_neo4j.ingest.dispatch.choose_pipeline`:
structured files, text documents, or one database URL) and refuses, with one line naming the option and the
pipeline, every option the caller set that the pipeline does not use (:data:`OPTIONS` says which pipelines use
which option), before anything is read or written. A door says which options its caller *set* (a CLI flag on
the command line, a field in the JSON body, a tool argument); defaults, and values from the environment, are
never refused.

Text ingest needs an extraction model (``--llm-model``, a litellm name; ``GW_NEO4J_LLM_API_BASE`` and
``GW_NEO4J_LLM_API_KEY`` reach it). Routing decisions use ``--decision-model`` or ``GW_NEO4J_MODEL`` (see
:mod:`graphwalk_neo4j.backends`); when neither names a model and no Jev key is configured there is no
decision backend, and mentions merge only on exact names (said in the report). Low-confidence routing decisions
are adjudicated by the extraction model through :class:`~graphwalk_neo4j.decide.llm.LLMBackend`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.backends import resolve_backend, resolve_model_kind
from graphwalk_neo4j.decide.llm import LLMBackend
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.errors import ConfigError, InputError
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.identifiers import graph_name
from graphwalk_neo4j.ingest.dispatch import Pipeline, choose_pipeline
from graphwalk_neo4j.ingest.documents import TextIngest
from graphwalk_neo4j.ingest.extraction import Extractor
from graphwalk_neo4j.ingest.routing import Router
from graphwalk_neo4j.ingest.sources import MAX_BYTES
from graphwalk_neo4j.ingest.sql import default_source, ingest_sql, need_sqlalchemy, safe_url
from graphwalk_neo4j.ingest.structured import FileResult, ingest_files
from graphwalk_neo4j.progress import QUIET, Progress
from graphwalk_neo4j.schema import apply_schema

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from pydantic import SecretStr

    from graphwalk_neo4j.decide.base import DecisionBackend
    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

ALL: frozenset[Pipeline] = frozenset({"structured", "text", "sql"})
OPTIONS: dict[str, frozenset[Pipeline]] = {
    "source": ALL,
    "embed": ALL,
    "root": frozenset({"structured"}),
    "on_error": frozenset({"structured"}),
    "type_map": frozenset({"structured"}),
    "batch_size": frozenset({"structured", "sql"}),
    "llm_model": frozenset({"text"}),
    "routing": frozenset({"text"}),
    "decision_model": frozenset({"text"}),
    "concurrency": frozenset({"text"}),
    "max_bytes": frozenset({"text"}),
    "db_schema": frozenset({"sql"}),
    "prune": frozenset({"text", "sql"}),
}
"""Every ingest option and the pipelines that use it."""
DEFAULTS: dict[str, Any] = {
    "source": None,  # structured and text: "files"; a database: its name (ingest.sql.default_source)
    "embed": False,
    "root": None,
    "on_error": "fail",
    "type_map": None,
    "batch_size": 5000,
    "llm_model": None,
    "routing": "decide",
    "decision_model": None,
    "concurrency": 8,
    "max_bytes": None,
    "db_schema": None,
    "prune": False,
}
FORMATS = ("triples", "csv", "jsonl", "text")
"""The input formats a caller may name (``fmt``); without one the pipeline and format come from the inputs."""
RANGES: dict[str, tuple[int, int | None]] = {
    "batch_size": (1, 100_000),
    "concurrency": (1, 256),
    "max_bytes": (1, None),
}
"""The bounds of the numeric options (``None``: no upper bound), which every door that offers one checks."""
CHOICES: dict[str, tuple[str, ...]] = {"on_error": ("fail", "skip"), "routing": ("decide", "exact")}
"""The values an option with choices takes, in every door that offers it."""
CLI_ONLY: dict[str, str] = {
    "root": "it names a directory on the server; the service files inline files in a folder of its own",
    "decision_model": "the service's own model (GW_NEO4J_MODEL) decides; a caller's would get around the allowed "
    "learned folders (GW_NEO4J_SERVICE_LEARNED_DIRS)",
    "concurrency": "extraction calls in flight are the operator's to set (the service shares its model)",
    "max_bytes": "an inline file is already bounded by the request body limit (GW_NEO4J_SERVICE_MAX_BODY_BYTES)",
    "prune": "one request's inline files are not a whole source: pruning would retract every document it left out",
}
"""The options ``POST /v1/ingest`` and the MCP ``ingest`` tool do not take, and why."""
SERVICE_DEFAULTS: dict[str, tuple[Any, str]] = {
    "source": ("api", "inline files are recorded under their own source, apart from files read from disk"),
}
"""Where the service's doors (HTTP, MCP) default differently from :data:`DEFAULTS`, and why (a database is
still named by its URL)."""
SQL_BATCH = 5000  # rows per transaction at most for a database table
PIPELINE_WORDS: dict[Pipeline, str] = {
    "structured": "structured files (triples, CSV, JSON lines)",
    "text": "text documents",
    "sql": "a database",
}
_USED_BY: dict[Pipeline, str] = {"structured": "structured files", "text": "text documents", "sql": "databases"}


def _used_by(name: str) -> str:
    """What an option is for, in words, from :data:`OPTIONS` (``structured files and databases``)."""
    pipelines = [p for p in _USED_BY if p in OPTIONS[name]]
    return "a database URL" if pipelines == ["sql"] else " and ".join(_USED_BY[p] for p in pipelines)


@dataclass(frozen=True)
class IngestCall:
    """One checked ingest: the pipeline, its inputs (paths, or the one database URL), the graph and every option
    the pipeline uses (the caller's, else the default)."""

    pipeline: Pipeline
    inputs: tuple[str, ...]
    graph: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def source(self) -> str:
        given = self.options.get("source")
        if given:
            return str(given)
        return default_source(self.inputs[0]) if self.pipeline == "sql" else "files"


def ingest_call(
    inputs: Sequence[str | Path],
    *,
    graph: str = "default",
    fmt: str | None = None,
    options: Mapping[str, Any] | None = None,
    configured: Mapping[str, Any] | None = None,
    spell: Callable[[str], str] = str,
    check_files: bool = True,
    environment: Mapping[str, str] | None = None,
) -> IngestCall:
    """The ingest a caller asked for, checked, with nothing read or written. ``options`` are the ones the caller
    *set* (keys of :data:`OPTIONS`); ``configured`` are values from the environment (``GW_NEO4J_LLM_MODEL`` for
    the CLI's ``--llm-model``): used where the pipeline takes them, in place of the default, and never refused;
    ``spell`` writes an option's name as the door does (``--db-schema`` for the CLI, ``db_schema`` for HTTP and
    MCP); ``environment`` names the variables a door reads an option from, so that a refusal offers them.
    Refuses with :class:`~graphwalk_neo4j.errors.ConfigError` an option the chosen pipeline does not use and text
    documents without an extraction model (before a job starts or a file is read), and with
    :class:`~graphwalk_neo4j.errors.InputError` a structured file that is not there (``check_files``; the service
    writes its inline files later, into a folder of its own)."""
    given = dict(options or {})
    unknown = sorted(set(given) - set(OPTIONS))
    if unknown:
        raise ConfigError(f"unknown ingest option {spell(unknown[0])}")
    paths = tuple(str(p) for p in inputs)
    if not paths:
        raise InputError("nothing to ingest: name at least one file, directory or database URL")
    pipeline = choose_pipeline(paths, fmt)
    for name in OPTIONS:
        if name in given and pipeline not in OPTIONS[name]:
            raise ConfigError(
                f"{spell(name)} does not apply to {PIPELINE_WORDS[pipeline]}: it is for {_used_by(name)}; leave it out"
            )
    if pipeline == "sql":
        need_sqlalchemy()  # without the sql extra: one line, before Neo4j is touched
    elif pipeline == "structured" and check_files:
        for p in paths:
            if not Path(p).exists():
                raise InputError("file not found", path=p)
    fallback = {**DEFAULTS, **(configured or {})}
    chosen = {name: given.get(name, fallback[name]) for name in OPTIONS if pipeline in OPTIONS[name]}
    if pipeline == "text" and not chosen["llm_model"]:
        variable = (environment or {}).get("llm_model")
        raise ConfigError(
            f"text ingest needs an extraction model: pass {spell('llm_model')} (a litellm name such as "
            f"openai/gpt-4o-mini){f' or set {variable}' if variable else ''}"
        )
    if pipeline == "structured":
        chosen["fmt"] = fmt
    return IngestCall(pipeline=pipeline, inputs=paths, graph=graph_name(graph), options=chosen)


async def run_ingest(
    call: IngestCall,
    store: GraphStore,
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    progress: Progress = QUIET,
    on_file_done: Callable[[FileResult], None] | None = None,
    root: str | Path | None = None,
) -> dict[str, Any]:
    """Run a checked ingest: the schema, the pipeline, the embedding when asked for. Returns the report as a dict
    (``ok`` False when a text document failed). ``embedder`` (a warm one) is built from settings when needed and
    not given; ``progress`` hears rows per file (structured), documents (text) and entities embedded; structured
    files report each finished file to ``on_file_done``; ``root`` overrides the ledger root of structured files
    (the service's folder of inline files)."""
    await apply_schema(store)
    opts = call.options
    if call.pipeline == "text":
        return await _run_text(store, settings, call, embedder=embedder, progress=progress)
    if call.pipeline == "sql":
        report = await _run_sql(store, call)
    else:
        files: list[dict[str, Any]] = []

        def file_done(result: FileResult) -> None:
            files.append(result.as_dict())
            if on_file_done is not None:
                on_file_done(result)

        await ingest_files(
            store,
            list(call.inputs),
            graph=call.graph,
            source=call.source,
            root=root if root is not None else opts["root"],
            fmt=opts["fmt"],
            on_error=opts["on_error"],
            batch_size=opts["batch_size"],
            type_map=opts["type_map"],
            progress=progress,
            on_file_done=file_done,
        )
        report = {"files": files}
    embedded = None
    if opts["embed"]:
        vectors = embedder or make_embedder(settings)
        embedded = (await embed_graph(store, vectors, call.graph, progress=progress)).as_dict()
    return {**report, "embed": embedded}


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


async def _run_text(
    store: GraphStore, settings: Settings, call: IngestCall, *, embedder: Embedder | None, progress: Progress
) -> dict[str, Any]:
    """Text ingest with parts built from settings; returns the report as a dict."""
    opts = call.options
    llm_model, routing, concurrency = opts["llm_model"], opts["routing"], opts["concurrency"]
    if not llm_model:  # ingest_call refuses this in every door; a hand-built IngestCall gets the same word
        raise ConfigError("text ingest needs an extraction model (llm_model)")
    extractor = Extractor.from_settings(settings, llm_model, concurrency=concurrency)
    decider, note = (None, None) if routing == "exact" else build_decider(settings, opts["decision_model"])
    adjudicator = None
    if decider is not None:
        adjudicator = LLMBackend(
            llm_model,
            api_base=settings.llm_api_base,
            api_key=settings.llm_api_key,
            mode="json",
            concurrency=concurrency,
        )
    vectors = (embedder or make_embedder(settings)) if opts["embed"] else None
    router = Router(
        store,
        call.graph,
        decider=decider,
        adjudicator=adjudicator,
        embedder=vectors,
        mode="exact" if routing == "exact" else "decide",
    )
    try:
        report = await TextIngest(
            store,
            graph=call.graph,
            source=call.source,
            extractor=extractor,
            router=router,
            max_bytes=opts["max_bytes"] or MAX_BYTES,
            embedder=vectors,
            prune=opts["prune"],
            progress=progress,
        ).run(list(call.inputs))
    finally:
        for backend in (decider, adjudicator):
            if backend is not None:
                await backend.aclose()
    out = report.as_dict()
    if note:
        out["warnings"] = [note, *out["warnings"]]
    out["ok"] = report.ok
    return out


async def _run_sql(store: GraphStore, call: IngestCall) -> dict[str, Any]:
    [url] = call.inputs
    opts = call.options
    results = await ingest_sql(
        store,
        url,
        graph=call.graph,
        source=call.source,
        schema=opts["db_schema"],
        batch_size=min(opts["batch_size"], SQL_BATCH),
        prune=opts["prune"],
    )
    return {"database": safe_url(url), "source": call.source, "tables": [r.as_dict() for r in results], "ok": True}
