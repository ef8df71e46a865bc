"""``gw-neo4j neo4j up|down|status``: the local Neo4j for a user who installed the package with pip.

``up`` fetches the release's jars from Maven Central when they are not there yet (neo4j_download, checked against
the packaged lock) and starts the server with the same launcher as ``make neo4j-up`` (localserver). From a clone,
``make neo4j-up`` and this command find the same ``neo4j/`` folder.
"""

from __future__ import annotations

import json
import os

import click

from graphwalk_neo4j.cli.common import handle_errors
from graphwalk_neo4j.cli.render import err, out
from graphwalk_neo4j.localserver import PINNED_VERSION, VERSION_ENV, LocalServer, default_home, dist_version
from graphwalk_neo4j.neo4j_download import fetch_dist, locked_versions


def _server(version: str | None) -> LocalServer:
    chosen = version or os.environ.get(VERSION_ENV) or PINNED_VERSION
    return LocalServer(home=default_home(chosen))


version_option = click.option(
    "--version",
    "version",
    type=click.Choice(locked_versions()),
    default=None,
    help=f"Neo4j release (default ${VERSION_ENV}, else {PINNED_VERSION}, the LTS); each has its own folder.",
)


@click.group("neo4j")
def neo4j_group() -> None:
    """Fetch (Maven Central, SHA-1 checked), start, stop and check a local Neo4j + APOC without Docker.

    Ports: GW_NEO4J_BOLT_PORT, GW_NEO4J_HTTP_PORT; folder: GW_NEO4J_HOME, default the user data dir.
    """


@neo4j_group.command("up")
@version_option
@handle_errors
def up(version: str | None) -> None:
    """Fetch the release from Maven Central if needed (SHA-1 checked), then start it; returns once it answers."""
    server = _server(version)
    release = version or os.environ.get(VERSION_ENV) or PINNED_VERSION
    if dist_version(server.dist / "lib") != release or not (server.dist / ".fetched").is_file():
        report = fetch_dist(release, server.dist)
        if not report.already_there:
            err.print(f"Neo4j {release}: {report.jars} jars in {report.dist} ({report.downloaded} downloaded)")
    out.print(server.up())


@neo4j_group.command("down")
@version_option
@handle_errors
def down(version: str | None) -> None:
    """Stop the server this command (or `make neo4j-up`) started."""
    out.print(_server(version).down())


@neo4j_group.command("status")
@version_option
@handle_errors
def status(version: str | None) -> None:
    """Print the server's state as JSON; exit 1 when it is not ready."""
    state = _server(version).status()
    click.echo(json.dumps(state, indent=2))
    if not state["ready"]:
        raise SystemExit(1)
