"""The ``gw-neo4j`` command line: thin commands over the library (parse, settings, one asyncio.run, render).

Each command's module is imported only when that command runs (:class:`~graphwalk_neo4j.cli.lazy.LazyGroup`);
``COMMANDS`` is the table ``--help`` lists them from.
"""

from __future__ import annotations

import click

from graphwalk_neo4j import __version__
from graphwalk_neo4j.cli.lazy import CommandRef, LazyGroup

_CLI = "graphwalk_neo4j.cli"

COMMANDS: dict[str, CommandRef] = {
    "adopt": CommandRef(
        f"{_CLI}.adopt",
        "adopt",
        "Adopt an existing Neo4j graph for walking, without changing the user's data (see docs/adopt.md).",
    ),
    "decider": CommandRef(
        f"{_CLI}.decider", "decider_group", "Train and inspect learned decision models (--model learned:DIR)."
    ),
    "doctor": CommandRef(
        f"{_CLI}.admin",
        "doctor",
        "Check Neo4j, APOC, the vector index, the Browser, the embedder and the decision backends.",
    ),
    "demo": CommandRef(
        f"{_CLI}.demo",
        "demo_command",
        "Load the small movie graph that ships with the package and run three walks (one, two, three hops).",
    ),
    "documents": CommandRef(
        f"{_CLI}.data", "documents", "List the ledger: every ingested document with its hash and state."
    ),
    "drop-graph": CommandRef(
        f"{_CLI}.admin",
        "drop_graph_cmd",
        "Delete one graph (its entities, ledger and walks); other graphs in the database are untouched.",
    ),
    "embed": CommandRef(
        f"{_CLI}.data",
        "embed",
        "Embed entities that lack a vector or whose text changed (keeps the vector index in step).",
    ),
    "eval": CommandRef(
        f"{_CLI}.eval", "eval_group", "Evaluate graphwalk against baselines on question-answering datasets."
    ),
    "graphs": CommandRef(
        f"{_CLI}.graphs", "graphs", "List the graphs in the database with their entity and relationship counts."
    ),
    "ingest": CommandRef(
        f"{_CLI}.ingest",
        "ingest",
        "Load structured files, text documents (LLM extraction) or a SQL database into the graph.",
    ),
    "init": CommandRef(
        f"{_CLI}.admin", "init", "Apply constraints, indexes, the fulltext and the vector index (idempotent)."
    ),
    "mcp": CommandRef(
        f"{_CLI}.serve",
        "mcp_command",
        "Serve the MCP tools (walk, ingest, walk_options, draw_walk, search, get_walk, list_walks, list_graphs, "
        "graph_schema) over stdin/stdout for an agent that starts its tools as subprocesses; logs go to stderr "
        "as JSON lines.",
    ),
    "neo4j": CommandRef(
        f"{_CLI}.neo4j_server",
        "neo4j_group",
        "Fetch (Maven Central, SHA-1 checked), start, stop and check a local Neo4j + APOC without Docker.",
    ),
    "retract": CommandRef(
        f"{_CLI}.data",
        "retract",
        "Remove what documents (their ids as `documents` lists them, or their paths) contributed and forget them.",
    ),
    "schema": CommandRef(
        f"{_CLI}.graphs",
        "schema",
        "Show a graph's entity types and relation types with their counts: what a walk can move along.",
    ),
    "search": CommandRef(
        f"{_CLI}.data",
        "search",
        "Find entities by exact name/alias, fulltext and vector similarity, with the reason for each hit.",
    ),
    "serve": CommandRef(
        f"{_CLI}.serve",
        "serve",
        "Serve walks over HTTP (JSON, Server-Sent Events) and MCP until SIGTERM; logs are JSON lines on stderr.",
    ),
    "walk": CommandRef(
        f"{_CLI}.walk",
        "walk",
        "Answer QUESTION by walking the graph hop by hop; the walk is stored as :Walk/:Step nodes.",
    ),
    "warm": CommandRef(
        f"{_CLI}.warm",
        "warm_group",
        "Keep the driver connected and the model loaded in one process, so `gw-neo4j walk` answers without start-up.",
    ),
    "walks": CommandRef(
        f"{_CLI}.walks",
        "walks",
        "List and show stored walks (every walk is stored in Neo4j as :Walk / :Step nodes).",
    ),
}

# Deprecated command names and what replaced them: they still run, with a note on stderr, and --help omits them
# (docs/cli-guide.md says when they go).
ALIASES: dict[str, str] = {"trace": "walks"}


@click.group(
    cls=LazyGroup, lazy_commands=COMMANDS, aliases=ALIASES, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="gw-neo4j")
@click.option("--uri", envvar="GW_NEO4J_URI", default=None, help="Bolt URI (default bolt://127.0.0.1:7687).")
@click.option("--user", envvar="GW_NEO4J_USER", default=None, help="Neo4j user (default neo4j).")
@click.option("--database", envvar="GW_NEO4J_DATABASE", default=None, help="Database name (default neo4j).")
@click.pass_context
def main(ctx: click.Context, uri: str | None, user: str | None, database: str | None) -> None:
    """Walk a Neo4j knowledge graph hop by hop with a calibrated decision model."""
    ctx.ensure_object(dict)["overrides"] = {"uri": uri, "user": user, "database": database}
