"""The ``gw-neo4j`` command line: thin commands over the library (parse, settings, one asyncio.run, render)."""

from __future__ import annotations

import click

from graphwalk_neo4j import __version__
from graphwalk_neo4j.cli import admin, adopt, data, decider, ingest, serve, trace, walk
from graphwalk_neo4j.cli import eval as eval_cli


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="gw-neo4j")
@click.option("--uri", envvar="GW_NEO4J_URI", default=None, help="Bolt URI (default bolt://127.0.0.1:7687).")
@click.option("--user", envvar="GW_NEO4J_USER", default=None, help="Neo4j user (default neo4j).")
@click.option("--database", envvar="GW_NEO4J_DATABASE", default=None, help="Database name (default neo4j).")
@click.pass_context
def main(ctx: click.Context, uri: str | None, user: str | None, database: str | None) -> None:
    """Walk a Neo4j knowledge graph hop by hop with a calibrated decision model."""
    ctx.ensure_object(dict)["overrides"] = {"uri": uri, "user": user, "database": database}


admin.register(main)
adopt.register(main)
ingest.register(main)
data.register(main)
walk.register(main)
trace.register(main)
eval_cli.register(main)
serve.register(main)
decider.register(main)
