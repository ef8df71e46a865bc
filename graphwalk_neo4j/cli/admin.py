"""Admin commands: ``init`` (schema) and ``doctor`` (health)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click
from rich.table import Table

from graphwalk_neo4j.cli.common import (
    check_graph_name,
    emit_json,
    err,
    handle_errors,
    json_option,
    load_settings,
    out,
    run,
    with_store,
)
from graphwalk_neo4j.cli.render import styled
from graphwalk_neo4j.errors import NotFoundError

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore


@click.command()
@json_option
@click.pass_context
@handle_errors
def init(ctx: click.Context, as_json: bool) -> None:
    """Apply constraints, indexes, the fulltext and the vector index (idempotent)."""
    from graphwalk_neo4j.schema import apply_schema

    settings = load_settings(ctx)
    report = run(with_store(settings, apply_schema))
    if as_json:
        emit_json({"applied": report.applied, "created": report.created, "total": report.total})
    else:
        out.print(
            f"schema: {len(report.applied)} statements applied, {report.created} objects created, "
            f"{report.total} indexes/constraints in place"
        )


@click.command()
@json_option
@click.pass_context
@handle_errors
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Check Neo4j, APOC, the vector index, the Browser, the embedder and the decision backends."""
    from graphwalk_neo4j.doctor import diagnose

    settings = load_settings(ctx)
    report = run(diagnose(settings))
    if as_json:
        emit_json(report.as_dict())
    else:
        table = Table(title="gw-neo4j doctor")
        table.add_column("check")
        table.add_column("status")
        table.add_column("detail")
        for c in report.checks:
            status = styled(("ok", "green") if c.ok else (("FAIL", "red") if c.required else ("warn", "yellow")))
            detail = styled(c.detail, *(("\n", ("fix:", "bold"), f" {c.fix}") if (c.fix and not c.ok) else ()))
            table.add_row(c.name, status, detail)
        out.print(table)
        out.print(f"Browser: {report.browser_url}")
        d = report.decision
        out.print(
            styled(
                f"decision backend in effect: {d.get('kind')} {d.get('model') or ''}",
                *((" ", (f"({d['error']})", "yellow")) if d.get("error") else ()),
            )
        )
    if not report.ok:
        failed = [c for c in report.checks if c.required and not c.ok]
        err.print("doctor: " + "; ".join(f"{c.name}: {c.fix}" for c in failed))
        sys.exit(1)


@click.command("drop-graph")
@click.argument("graph", callback=check_graph_name)
@click.option("--yes", is_flag=True, help="Confirm: without it nothing is deleted.")
@json_option
@click.pass_context
@handle_errors
def drop_graph_cmd(ctx: click.Context, graph: str, yes: bool, as_json: bool) -> None:
    """Delete one graph (its entities, ledger and walks); other graphs in the database are untouched."""
    if not yes:
        raise click.UsageError(f"this deletes every node of graph {graph!r}; add --yes to confirm")
    from graphwalk_neo4j.graph.ledger import drop_graph, graph_exists

    settings = load_settings(ctx)

    async def work(store: GraphStore) -> dict[str, int]:
        if not await graph_exists(store, graph):
            raise NotFoundError(
                f"no graph named {graph!r} in database {settings.database!r}; nothing was "
                "deleted (check the name: `gw-neo4j documents --graph NAME`)"
            )
        return await drop_graph(store, graph)

    result = run(with_store(settings, work))
    if as_json:
        emit_json(result)
    else:
        out.print(
            f"dropped graph {graph!r}: {result['entities_deleted']} entities, "
            f"{result['relationships_deleted']} relationships"
        )
