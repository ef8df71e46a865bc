"""The ``ingest`` command: structured files, text documents and database tables into a graph (the pipeline is
picked from the inputs), with progress, a report and a committed-so-far summary when interrupted."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource
from rich.table import Table

from graphwalk_neo4j.cli.common import (
    connected,
    emit_json,
    err,
    graph_option,
    handle_errors,
    json_option,
    load_settings,
    out,
    run,
)
from graphwalk_neo4j.cli.progress import BarProgress
from graphwalk_neo4j.errors import GraphwalkError, Interrupted
from graphwalk_neo4j.progress import ForwardProgress

if TYPE_CHECKING:
    from graphwalk_neo4j.ingest.structured import FileResult
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.wiring import IngestCall


async def _ingest(settings: Settings, call: IngestCall) -> dict[str, Any]:
    """Structured files: plan every file (validate, no writes), then apply, drawing rows per file; on
    Ctrl-C/SIGTERM or a failure while writing, say what was committed."""
    from graphwalk_neo4j import wiring

    results: list[dict[str, Any]] = []
    current: dict[str, Any] = {"path": None, "rows": 0, "total": 0}
    bar = BarProgress(unit="rows", eta=False, names={str(Path(p)): Path(p).name for p in call.inputs})

    class Committed(ForwardProgress):
        def advance(self, label: str, done: int, total: int) -> None:
            if label != "embed":  # a file's rows, called once a batch is committed
                current.update(path=label, rows=done, total=total)
                bar.names.setdefault(label, Path(label).name)
            super().advance(label, done, total)

    def file_done(result: FileResult) -> None:
        results.append(result.as_dict())
        current.update(path=None, rows=0, total=0)

    try:
        async with connected(settings) as store:
            with bar:
                return await wiring.run_ingest(call, store, settings, progress=Committed(bar), on_file_done=file_done)
    except (asyncio.CancelledError, KeyboardInterrupt):
        raise Interrupted(committed_summary(results, current)) from None
    except GraphwalkError as exc:
        if results or current["path"] is not None:  # a failure while writing: say what is in the graph
            err.print(committed_summary(results, current, "the failure"))
        raise exc


def committed_summary(results: list[dict[str, Any]], current: dict[str, Any], what: str = "the interruption") -> str:
    """What an interrupted (or failed) structured ingest had committed, and how to go on."""
    parts = [f"{r['path']} ({r['status']}, {r['rows']:,} rows)" for r in results]
    if current["path"] is not None:
        parts.append(
            f"{current['path']}: {current['rows']:,} of {current['total'] or '?'} rows, in whole batches"
            if current["rows"]
            else f"{current['path']}: nothing"
        )
    done = "; ".join(parts) if parts else "nothing"
    return (
        f"committed before {what}: {done}. Run the same command again to resume: finished files "
        "are skipped and a partly written one continues after its last whole batch"
    )


def option_set(ctx: click.Context, name: str) -> bool:
    """Whether the user gave option ``name`` on the command line (a default or an environment variable is not
    the user asking for it, so it is never refused as not applying)."""
    return ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE


def flag(name: str) -> str:
    """``db_schema`` -> ``--db-schema``: an option's name as the CLI spells it."""
    return "--" + name.replace("_", "-")


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["triples", "csv", "jsonl", "text"]),
    default=None,
    help="Input format (default: from the file extension). 'text' = documents through LLM extraction; "
    "directories and .md files are text, a sqlite:// or postgresql:// URL is a database.",
)
@graph_option
@click.option(
    "--source",
    default=None,
    help="Source name recorded in the ledger (default: files; a database: sql:NAME, from its URL).",
)
@click.option(
    "--root",
    type=click.Path(file_okay=False),
    default=None,
    help="Structured files: their ledger identity is the path relative to this directory (default: the "
    "current directory; files outside it keep their absolute path).",
)
@click.option(
    "--on-error",
    type=click.Choice(["fail", "skip"]),
    default="fail",
    show_default=True,
    help="fail: stop before writing anything; skip: skip bad lines and report them.",
)
@click.option("--batch-size", type=click.IntRange(1, 100_000), default=5000, show_default=True)
@click.option(
    "--type-map",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help='JSON {"relation": ["SubjectType", "ObjectType"]} labelling untyped triples.',
)
@click.option("--embed", is_flag=True, help="Embed new or changed entities after loading.")
@click.option(
    "--llm-model",
    envvar="GW_NEO4J_LLM_MODEL",
    default=None,
    help="Text: litellm extraction model (e.g. openai/gpt-4o-mini); also adjudicates routing.",
)
@click.option(
    "--routing",
    type=click.Choice(["decide", "exact"]),
    default="decide",
    show_default=True,
    help="Text: decide = decision model per mention; exact = merge identical names only (no calls).",
)
@click.option("--decision-model", default=None, help="Text: routing decision model (default: GW_NEO4J_MODEL).")
@click.option(
    "--concurrency", type=click.IntRange(1, 256), default=8, show_default=True, help="Text: extraction calls in flight."
)
@click.option("--max-bytes", type=click.IntRange(1), default=None, help="Text: reject larger files (5 MB).")
@click.option("--db-schema", default=None, help="Database: schema to read (default: the connection's).")
@click.option("--prune", is_flag=True, help="Text/database: retract documents (tables) no longer present.")
@json_option
@click.pass_context
@handle_errors
def ingest(
    ctx: click.Context,
    paths: tuple[str, ...],
    fmt: str | None,
    graph: str,
    source: str | None,
    root: str | None,
    on_error: str,
    batch_size: int,
    type_map: str | None,
    embed: bool,
    llm_model: str | None,
    routing: str,
    decision_model: str | None,
    concurrency: int,
    max_bytes: int | None,
    db_schema: str | None,
    prune: bool,
    as_json: bool,
) -> None:
    """Load structured files, text documents (LLM extraction) or a SQL database into the graph."""
    from graphwalk_neo4j import wiring
    from graphwalk_neo4j.ingest.structured import read_type_map
    from graphwalk_neo4j.store.store import transient_retries

    settings = load_settings(ctx)
    given = {name: ctx.params[name] for name in wiring.OPTIONS if option_set(ctx, name)}
    from_env = {n: ctx.params[n] for n in wiring.OPTIONS if ctx.get_parameter_source(n) is ParameterSource.ENVIRONMENT}
    envvars = {p.name: p.envvar for p in ctx.command.params if p.name in wiring.OPTIONS and isinstance(p.envvar, str)}
    call = wiring.ingest_call(
        paths, graph=graph, fmt=fmt, options=given, configured=from_env, spell=flag, environment=envvars
    )
    if call.pipeline == "structured" and type_map is not None:
        call = replace(call, options={**call.options, "type_map": read_type_map(type_map)})
    if call.pipeline != "structured":
        _ingest_other(settings, call, as_json=as_json)
        return
    report = run(_ingest(settings, call))
    results, embed_report = report["files"], report["embed"]
    retries = transient_retries()
    if as_json:
        emit_json({"files": results, "embed": embed_report, "transient_retries": retries})
        return
    if retries:
        err.print(
            f"note: {retries} transactions were retried after transient errors (deadlocks under concurrent "
            "writes); the data is complete"
        )
    table = Table(title=f"ingest into graph {graph!r}")
    for col in (
        "document",
        "status",
        "rows",
        "skipped",
        "nodes +new/~upd/=same/-del",
        "rels +new/~upd/=same/-del",
        "s",
    ):
        table.add_column(col)
    for r in results:
        c, gone = r["counts"], r["removed"]
        table.add_row(
            r["doc_id"],
            r["status"],
            str(r["rows"]),
            str(r["skipped"]),
            f"+{c['nodes_created']} ~{c['nodes_updated']} ={c['nodes_unchanged']} -{gone.get('entities', 0)}",
            f"+{c['rels_created']} ~{c['rels_updated']} ={c['rels_unchanged']} -{gone.get('relationships', 0)}",
            f"{r['seconds']:.1f}",
        )
    out.print(table)
    for r in results:
        for problem in r["problems"][:20]:
            err.print(f"skipped {problem}")
        if r["removed"].get("entities_kept_for_traces"):
            err.print(
                f"{r['doc_id']}: {r['removed']['entities_kept_for_traces']} retracted entities are kept as "
                ":RetractedEntity because stored walks link to them (the walks are marked)"
            )
    if embed_report:
        out.print(f"embedded {embed_report['embedded']} entities ({embed_report['nodes_per_s']} /s)")


def render_report(report: dict[str, Any]) -> None:
    """Print a text or database ingest report with rich: a table on ``out``, messages on ``err``."""
    if "tables" in report:
        table = Table(title=f"ingest {report['database']} (source {report['source']})")
        for col in ("table", "status", "rows", "nodes +new/~upd/=same", "rels +new/~upd/=same", "s"):
            table.add_column(col)
        for r in report["tables"]:
            c = r["counts"]
            table.add_row(
                r["table"],
                r["status"],
                str(r["rows"]),
                f"+{c['nodes_created']} ~{c['nodes_updated']} ={c['nodes_unchanged']}",
                f"+{c['rels_created']} ~{c['rels_updated']} ={c['rels_unchanged']}",
                f"{r['seconds']:.1f}",
            )
        out.print(table)
        return
    table = Table(title="text ingest")
    for col in ("document", "status", "chunks", "llm/cached/failed", "entities +new/~upd", "rels +new/~upd", "s"):
        table.add_column(col)
    for d in report["documents"]:
        c = d["counts"]
        table.add_row(
            d["doc_id"],
            d["status"],
            str(d["chunks"]),
            f"{d['extracted']}/{d['cached']}/{d['failed']}",
            f"+{c['entities_created']} ~{c['entities_updated']}",
            f"+{c['relations_created']} ~{c['relations_updated']}",
            f"{d['seconds']:.1f}",
        )
    out.print(table)
    t = report["timings"]
    out.print(
        f"{report['documents_per_s']} documents/s in {report['seconds']:.1f}s: plan {t['plan']:.1f}s, "
        f"extraction wait {t['extraction_wait']:.1f}s, routing {t['routing']:.1f}s, apply {t['apply']:.1f}s; "
        f"{report['extraction']['calls']} extraction calls, {report['routing']['decision_calls']} decision calls"
    )
    for d in report["documents"]:
        if d["message"]:
            err.print(f"{d['doc_id']}: {d['status']}: {d['message']}", highlight=False)
    for warning in report["warnings"]:
        err.print(f"warning: {warning}", highlight=False)


def _ingest_other(settings: Settings, call: IngestCall, *, as_json: bool) -> None:
    """Text documents or a database: run the ingest :mod:`graphwalk_neo4j.wiring` composes, render."""
    from graphwalk_neo4j import wiring

    async def work() -> dict[str, Any]:
        async with connected(settings) as store:
            return await wiring.run_ingest(call, store, settings)

    report = run(work())
    if as_json:
        emit_json(report)
    else:
        render_report(report)
    if not report.get("ok", True):
        sys.exit(1)
