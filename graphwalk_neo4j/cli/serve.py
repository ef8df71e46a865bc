"""``gw-neo4j serve``: the long-running HTTP service (API v1, MCP at /mcp, metrics); ``gw-neo4j mcp``: the same
MCP tools over stdio for an agent that starts its tools as subprocesses. See docs/service.md."""

from __future__ import annotations

import click

from graphwalk_neo4j.cli.common import handle_errors, load_settings, run


@click.command()
@click.option(
    "--host",
    default=None,
    help="Address to bind (default GW_NEO4J_SERVICE_HOST or 127.0.0.1). "
    "Anything but loopback needs GW_NEO4J_SERVICE_TOKEN.",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=None, help="Port (default GW_NEO4J_SERVICE_PORT or 8765)."
)
@click.option(
    "--log-level", type=click.Choice(["debug", "info", "warning", "error"]), default="info", show_default=True
)
@click.pass_context
@handle_errors
def serve(ctx: click.Context, host: str | None, port: int | None, log_level: str) -> None:
    """Serve walks over HTTP (JSON, Server-Sent Events) and MCP until SIGTERM; logs are JSON lines on stderr."""
    from graphwalk_neo4j.service.server import serve as run_server
    from graphwalk_neo4j.stored_walks.read import settings_guide_line

    settings = load_settings(ctx)
    port = settings.service_port if port is None else port
    if port:  # on stdout, never in the log: with a token the line carries a signed guide key
        overview = settings.model_copy(update={"service_port": port})
        click.echo(f"Neo4j Browser guide: {settings_guide_line(overview)}")
    run_server(settings, host or settings.service_host, port, log_level=log_level)


@click.command("mcp")
@click.option(
    "--log-level", type=click.Choice(["debug", "info", "warning", "error"]), default="warning", show_default=True
)
@click.pass_context
@handle_errors
def mcp_command(ctx: click.Context, log_level: str) -> None:
    """Serve the MCP tools (walk, ingest, walk_options, draw_walk, search, get_walk, list_walks, list_graphs,
    graph_schema) over stdin/stdout for an agent that starts its tools as subprocesses; logs go to stderr as JSON
    lines."""
    from graphwalk_neo4j.service import logs
    from graphwalk_neo4j.service.mcp import run_stdio

    settings = load_settings(ctx)
    logs.configure(log_level)
    run(run_stdio(settings))
