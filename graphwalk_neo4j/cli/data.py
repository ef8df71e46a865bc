"""Data commands: ``ingest``, ``embed``, ``search``, ``retract``, ``documents``."""

from __future__ import annotations

import asyncio
import json
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
from graphwalk_neo4j.cli.progress import BarProgress
from graphwalk_neo4j.embed.factory import make_embedder
from graphwalk_neo4j.errors import ConfigError, GraphwalkError, InputError, Interrupted
from graphwalk_neo4j.graph.embeddings import embed_graph
from graphwalk_neo4j.graph.ledger import document_id, list_documents
from graphwalk_neo4j.graph.search import search_entities
from graphwalk_neo4j.ingest.dispatch import choose_pipeline
from graphwalk_neo4j.ingest.documents import retract_text_document
from graphwalk_neo4j.ingest.structured import FileResult, check_type_map, ingest_files
from graphwalk_neo4j.schema import apply_schema
from graphwalk_neo4j.store.store import transient_retries

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings


def load_type_map(path: str | None) -> dict[str, tuple[str | None, str | None]] | None:
    """A JSON object ``{relation: [subject_type, object_type]}`` giving labels to untyped data (MetaQA)."""
    if path is None:
        return None
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read the type map: {exc}", path=path) from exc
    if not isinstance(raw, dict) or not all(isinstance(v, list) and len(v) == 2 for v in raw.values()):
        raise InputError('type map must be {"relation": ["SubjectType", "ObjectType"], ...}', path=path)
    if not all(isinstance(t, str | None) for v in raw.values() for t in v):
        raise InputError(
            'type map labels must be strings or null, as in {"directed_by": ["Movie", "Person"]}', path=path
        )
    type_map = {k: (v[0], v[1]) for k, v in raw.items()}
    check_type_map(type_map, where=path)  # a bad label fails here, naming the file, before anything is written
    return type_map


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
        embed_report = run(_embed(settings, graph, settings.embed_batch_size))
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


async def _embed(settings: Settings, graph: str, batch_size: int) -> dict[str, Any]:
    embedder = make_embedder(settings)
    async with connected(settings) as store:
        with BarProgress(unit="entities", eta=False) as bar:
            report = await embed_graph(store, embedder, graph, batch_size=batch_size, progress=bar)
    return report.as_dict()


@click.command()
@graph_option
@click.option("--batch-size", type=click.IntRange(1, 10_000), default=None, help="Texts per encode batch.")
@json_option
@click.pass_context
@handle_errors
def embed(ctx: click.Context, graph: str, batch_size: int | None, as_json: bool) -> None:
    """Embed entities that lack a vector or whose text changed (keeps the vector index in step)."""
    settings = load_settings(ctx)
    report = run(_embed(settings, graph, batch_size or settings.embed_batch_size))
    if as_json:
        emit_json(report)
    else:
        out.print(
            f"scanned {report['scanned']}, embedded {report['embedded']}, up to date {report['skipped']} "
            f"in {report['seconds']:.1f}s ({report['nodes_per_s']} nodes/s)"
        )


async def _search(settings: Settings, graph: str, text: str, k: int, vector: bool) -> list[dict[str, Any]]:
    embedder = make_embedder(settings) if vector else None
    async with connected(settings) as store:
        hits = await search_entities(store, graph, text, k=k, embedder=embedder)
    return [h.as_dict() for h in hits]


@click.command()
@click.argument("text")
@graph_option
@click.option("--k", type=click.IntRange(1, 200), default=10, show_default=True)
@click.option("--no-vector", is_flag=True, help="Skip vector candidates (no embedder needed).")
@json_option
@click.pass_context
@handle_errors
def search(ctx: click.Context, text: str, graph: str, k: int, no_vector: bool, as_json: bool) -> None:
    """Find entities by exact name/alias, fulltext and vector similarity, with the reason for each hit."""
    settings = load_settings(ctx)
    hits = run(_search(settings, graph, text, k, not no_vector))
    if as_json:
        emit_json({"query": text, "graph": graph, "hits": hits})
        if not hits:  # same exit code as without --json
            sys.exit(1)
        return
    table = Table(title=f"search {text!r} in {graph!r}")
    for col in ("#", "name", "type", "score", "why", "id"):
        table.add_column(col)
    for i, h in enumerate(hits, 1):
        table.add_row(str(i), h["name"], h["type"] or "", f"{h['score']:.3f}", ", ".join(h["reasons"]), h["id"])
    out.print(table)
    if not hits:
        err.print("no entity matched; check --graph, or load data with `gw-neo4j ingest`")
        sys.exit(1)


@click.command()
@click.argument("doc_ids", nargs=-1, required=True)
@graph_option
@click.option("--source", default="files", show_default=True)
@click.option(
    "--root",
    type=click.Path(file_okay=False),
    default=None,
    help="A DOC given as a path is taken relative to this directory, as `ingest --root` does.",
)
@json_option
@click.pass_context
@handle_errors
def retract(
    ctx: click.Context, doc_ids: tuple[str, ...], graph: str, source: str, root: str | None, as_json: bool
) -> None:
    """Remove what documents (their ids as `documents` lists them, or their paths) contributed and forget them.
    Elements left without provenance are deleted; those stored walks link to are kept as :RetractedEntity."""
    settings = load_settings(ctx)

    async def work() -> list[dict[str, Any]]:
        async with connected(settings) as store:
            known = {d["doc_id"]: d for d in await list_documents(store, graph) if d["source"] == source}

            def stored_id(given: str) -> str | None:  # a stored doc id as listed, or a path under the root rule
                if given in known:
                    return given
                as_path = document_id(given, root)
                return as_path if as_path in known else None

            missing = [d for d in doc_ids if stored_id(d) is None]
            if missing:
                raise ConfigError(
                    f"not in the ledger of graph {graph!r}, source {source!r}: {', '.join(missing)} "
                    "(see `gw-neo4j documents`)"
                )
            done = []
            for d in doc_ids:
                key = known[stored_id(d) or d]["key"]
                done.append({"document": key, **await retract_text_document(store, graph=graph, key=key, forget=True)})
            return done

    results = run(work())
    if as_json:
        emit_json(results)
    else:
        for r in results:
            out.print(
                f"retracted {r['document']}: {r['entities_deleted']} entities and "
                f"{r['relationships_deleted']} relationships deleted"
            )


@click.command()
@graph_option
@json_option
@click.pass_context
@handle_errors
def documents(ctx: click.Context, graph: str, as_json: bool) -> None:
    """List the ledger: every ingested document with its hash and state."""
    settings = load_settings(ctx)

    async def work() -> list[dict[str, Any]]:
        async with connected(settings) as store:
            return await list_documents(store, graph)

    rows = run(work())
    if as_json:
        emit_json(rows)
        return
    table = Table(title=f"documents of graph {graph!r}")
    for col in ("source", "document", "status", "rows", "hash", "ingested"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            r["source"],
            r["doc_id"],
            r["status"] or "",
            str(r["rows"] or 0),
            (r["content_hash"] or "")[:12],
            str(r["ingested_at"] or ""),
        )
    out.print(table)


def register(group: click.Group) -> None:
    for command in (ingest, embed, search, retract, documents):
        group.add_command(command)
