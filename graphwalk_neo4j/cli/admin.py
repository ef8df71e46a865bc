"""Admin commands: ``init`` (schema) and ``doctor`` (health)."""

from __future__ import annotations

import sys

import click
from rich.table import Table

from graphwalk_neo4j.cli.common import emit_json, err, handle_errors, json_option, load_settings, out, run, with_store
from graphwalk_neo4j.doctor import diagnose
from graphwalk_neo4j.schema import apply_schema


@click.command()
@json_option
@click.pass_context
@handle_errors
def init(ctx: click.Context, as_json: bool) -> None:
    """Apply constraints, indexes, the fulltext and the vector index (idempotent)."""
    settings = load_settings(ctx)
    report = run(with_store(settings, apply_schema))
    if as_json:
        emit_json({"applied": report.applied, "created": report.created, "total": report.total})
    else:
        out.print(f"schema: {len(report.applied)} statements applied, {report.created} objects created, "
                  f"{report.total} indexes/constraints in place")


@click.command()
@json_option
@click.pass_context
@handle_errors
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Check Neo4j, APOC, the vector index, the Browser, the embedder and the decision backends."""
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
            status = "[green]ok[/]" if c.ok else ("[red]FAIL[/]" if c.required else "[yellow]warn[/]")
            detail = c.detail + (f"\n[bold]fix:[/] {c.fix}" if (c.fix and not c.ok) else "")
            table.add_row(c.name, status, detail)
        out.print(table)
        out.print(f"Browser: {report.browser_url}")
        out.print(f"decision backend in effect: {report.decision.get('in_effect')}")
    if not report.ok:
        failed = [c for c in report.checks if c.required and not c.ok]
        err.print("doctor: " + "; ".join(f"{c.name}: {c.fix}" for c in failed))
        sys.exit(1)


def register(group: click.Group) -> None:
    group.add_command(init)
    group.add_command(doctor)
