"""Graph data commands: ``embed``, ``search``, ``retract``, ``documents`` (``ingest`` is :mod:`.ingest`)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click
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
    shared_embedder,
)
from graphwalk_neo4j.cli.progress import BarProgress
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.limits import MAX_SEARCH_HITS

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings


async def embed_entities(settings: Settings, graph: str, batch_size: int, int8: bool = False) -> dict[str, Any]:
    from graphwalk_neo4j.embed.factory import make_embedder
    from graphwalk_neo4j.graph.embeddings import embed_graph

    embedder = make_embedder(settings, int8=int8)
    async with connected(settings) as store:
        with BarProgress(unit="entities", eta=False) as bar:
            report = await embed_graph(store, embedder, graph, batch_size=batch_size, progress=bar)
    return report.as_dict()


@click.command()
@graph_option
@click.option(
    "--batch-size",
    type=click.IntRange(1, 10_000),
    default=2048,
    show_default=True,
    help="Entities per encode call and per write transaction (the encoder's own batches: GW_NEO4J_EMBED_BATCH_SIZE).",
)
@click.option(
    "--int8",
    is_flag=True,
    help="Encode with MiniLM's int8 export: about 2.3x the entities per second on a CPU with 8-bit dot products, "
    "for a large graph. The vectors stand for the same model (mean cosine 0.992); walks keep the float model.",
)
@json_option
@click.pass_context
@handle_errors
def embed(ctx: click.Context, graph: str, batch_size: int, int8: bool, as_json: bool) -> None:
    """Embed entities that lack a vector or whose text changed (keeps the vector index in step)."""
    settings = load_settings(ctx)
    report = run(embed_entities(settings, graph, batch_size, int8))
    if as_json:
        emit_json(report)
    else:
        out.print(
            f"scanned {report['scanned']}, embedded {report['embedded']}, up to date {report['skipped']} "
            f"in {report['seconds']:.1f}s ({report['nodes_per_s']} nodes/s)"
        )


async def _search(settings: Settings, graph: str, text: str, k: int, vector: bool) -> list[dict[str, Any]]:
    from graphwalk_neo4j.graph.search import search_entities

    embedder = shared_embedder(settings) if vector else None  # the warm runtime's: loaded already
    async with connected(settings) as store:
        hits = await search_entities(store, graph, text, k=k, embedder=embedder)
    return [h.as_dict() for h in hits]


@click.command()
@click.argument("text")
@graph_option
@click.option(
    "--limit",
    "--k",
    "limit",
    type=click.IntRange(1, MAX_SEARCH_HITS),
    default=10,
    show_default=True,
    help="Hits (--k: its former name).",
)
@click.option("--no-vector", is_flag=True, help="Skip vector candidates (no embedder needed).")
@json_option
@click.pass_context
@handle_errors
def search(ctx: click.Context, text: str, graph: str, limit: int, no_vector: bool, as_json: bool) -> None:
    """Find entities by exact name/alias, fulltext and vector similarity, with the reason for each hit."""
    settings = load_settings(ctx)
    hits = run(_search(settings, graph, text, limit, not no_vector))
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
    from graphwalk_neo4j.graph.ledger import document_id, list_documents
    from graphwalk_neo4j.ingest.documents import retract_text_document

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
    from graphwalk_neo4j.graph.ledger import list_documents

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
