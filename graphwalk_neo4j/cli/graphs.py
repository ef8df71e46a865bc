"""``gw-neo4j graphs`` and ``gw-neo4j schema``: the graphs in the database and one graph's entity and relation
types, from the same library calls as ``GET /v1/graphs``, ``GET /v1/graphs/{graph}/schema`` and the MCP tools
(:func:`~graphwalk_neo4j.graph.profile.list_graphs`, :func:`~graphwalk_neo4j.graph.profile.graph_schema`)."""

from __future__ import annotations

import click
from rich.table import Table

from graphwalk_neo4j.cli.common import (
    emit_json,
    graph_option,
    handle_errors,
    json_option,
    load_settings,
    out,
    run,
    with_store,
)


@click.command()
@json_option
@click.pass_context
@handle_errors
def graphs(ctx: click.Context, as_json: bool) -> None:
    """List the graphs in the database with their entity and relationship counts."""
    from graphwalk_neo4j.graph.profile import list_graphs

    found = run(with_store(load_settings(ctx), list_graphs))
    if as_json:
        emit_json({"graphs": found})
        return
    table = Table(title="graphs")
    for col in ("graph", "entities", "relationships"):
        table.add_column(col)
    for g in found:
        table.add_row(g["graph"], f"{g['entities']:,}", f"{g['relationships']:,}")
    out.print(table)
    if not found:
        out.print("no graph yet; load one with `gw-neo4j ingest PATH --graph NAME` or `gw-neo4j adopt`")


@click.command()
@graph_option
@json_option
@click.pass_context
@handle_errors
def schema(ctx: click.Context, graph: str, as_json: bool) -> None:
    """Show a graph's entity types and relation types with their counts: what a walk can move along."""
    from graphwalk_neo4j.graph.profile import graph_schema

    found = run(with_store(load_settings(ctx), lambda store: graph_schema(store, graph)))
    if as_json:
        emit_json({"graph": graph, **found})
        return
    for title, key, name in (
        ("entity types", "entity_types", "type"),
        ("relation types", "relation_types", "relation"),
    ):
        table = Table(title=f"{title} of {graph!r}")
        table.add_column(name)
        table.add_column("count")
        for row in found[key]:
            table.add_row(row[name], f"{row['count']:,}")
        out.print(table)
