"""The ``ingest`` command: structured files, text documents and database tables into a graph (the pipeline is
picked from the inputs), with progress, a report and a committed-so-far summary when interrupted."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from graphwalk_neo4j import wiring
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
from graphwalk_neo4j.cli.data import embed_entities
from graphwalk_neo4j.cli.progress import BarProgress
from graphwalk_neo4j.errors import GraphwalkError, InputError, Interrupted
from graphwalk_neo4j.ingest.dispatch import choose_pipeline
from graphwalk_neo4j.ingest.sql import need_sqlalchemy
from graphwalk_neo4j.ingest.structured import FileResult, ingest_files, read_type_map
from graphwalk_neo4j.schema import apply_schema
from graphwalk_neo4j.store.store import transient_retries

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings


def load_type_map(path: str | None) -> dict[str, tuple[str | None, str | None]] | None:
    """``--type-map``: a JSON object ``{relation: [subject_type, object_type]}`` giving labels to untyped data."""
    return None if path is None else read_type_map(path)


async def _ingest(settings: Settings, paths: list[str], opts: dict[str, Any]) -> list[dict[str, Any]]:
    """Plan every file (validate, no writes), then apply; on Ctrl-C/SIGTERM or a failure while writing, say what
    was committed."""
    results: list[dict[str, Any]] = []
    current: dict[str, Any] = {"path": None, "rows": 0, "total": 0}
    bar = BarProgress(unit="rows", eta=False, names={str(Path(p)): Path(p).name for p in paths})
    try:
        async with connected(settings) as store:
            await apply_schema(store)
            with bar:

                def progress(file: str, done: int, total: int) -> None:
                    current.update(path=file, rows=done, total=total)  # called once a batch is committed
                    bar.names.setdefault(file, Path(file).name)
                    bar.advance(file, done, total)

                def file_done(result: FileResult) -> None:
                    results.append(result.as_dict())
                    current.update(path=None, rows=0, total=0)

                await ingest_files(store, paths, progress=progress, on_file_done=file_done, **opts)
    except (asyncio.CancelledError, KeyboardInterrupt):
        raise Interrupted(committed_summary(results, current)) from None
    except GraphwalkError as exc:
        if results or current["path"] is not None:  # a failure while writing: say what is in the graph
            err.print(committed_summary(results, current, "the failure"))
        raise exc
    return results


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
@click.option("--source", default="files", show_default=True, help="Source name recorded in the ledger.")
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
    source: str,
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
    settings = load_settings(ctx)
    pipeline = choose_pipeline(paths, fmt)
    if pipeline != "structured":
        _ingest_other(
            settings,
            pipeline,
            list(paths),
            as_json=as_json,
            graph=graph,
            source=source,
            llm_model=llm_model,
            routing=routing,
            decision_model=decision_model,
            concurrency=concurrency,
            max_bytes=max_bytes,
            schema=db_schema,
            prune=prune,
            embed=embed,
            batch_size=min(batch_size, 5000),
        )
        return
    for p in paths:
        if not Path(p).exists():
            raise InputError("file not found", path=p)
    opts = {
        "graph": graph,
        "source": source,
        "root": root,
        "fmt": fmt,
        "on_error": on_error,
        "batch_size": batch_size,
        "type_map": load_type_map(type_map),
    }
    results = run(_ingest(settings, list(paths), opts))
    embed_report = None
    if embed:
        embed_report = run(embed_entities(settings, graph, settings.embed_batch_size))
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


def _ingest_other(settings: Settings, pipeline: str, paths: list[str], *, as_json: bool, **opts: Any) -> None:
    """Text documents or a database: run the pipeline :mod:`graphwalk_neo4j.wiring` builds, render."""
    if pipeline == "sql":
        need_sqlalchemy()  # without the sql extra: one line, before Neo4j is touched

    async def work() -> dict[str, Any]:
        async with connected(settings) as store:
            await apply_schema(store)
            if pipeline == "sql":
                return await wiring.run_sql(
                    store,
                    paths[0],
                    graph=opts["graph"],
                    source=None if opts["source"] == "files" else opts["source"],
                    schema=opts["schema"],
                    batch_size=opts["batch_size"],
                    prune=opts["prune"],
                )
            return await wiring.run_text(
                store,
                settings,
                paths,
                graph=opts["graph"],
                source=opts["source"],
                llm_model=opts["llm_model"],
                routing=opts["routing"],
                decision_model=opts["decision_model"],
                concurrency=opts["concurrency"],
                max_bytes=opts["max_bytes"],
                prune=opts["prune"],
                embed=opts["embed"],
            )

    report = run(work())
    if as_json:
        emit_json(report)
    else:
        render_report(report)
    if not report.get("ok", True):
        sys.exit(1)
