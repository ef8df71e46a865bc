"""``gw-neo4j demo`` (and ``make demo``, through ``python -m graphwalk_neo4j.demo``): load the small movie graph that
ships with the package, embed it, and run three walks of one, two and three hops with the decider a walk takes
when none is named (``backends.graph_model_choice``: the graph's own, else Jev with a key, else ``general``),
then say how to watch them in Neo4j Browser.
"""

from __future__ import annotations

import asyncio
import sys

import click

from graphwalk_neo4j.cli.render import error_line, make_console, styled
from graphwalk_neo4j.cli.walk import render
from graphwalk_neo4j.cli.walks import browser_hint
from graphwalk_neo4j.errors import GraphwalkError
from graphwalk_neo4j.resources import data_file, metaqa_type_map
from graphwalk_neo4j.walk.config import build_config

GRAPH = "demo"
QUESTIONS = [
    ("1 hop", "which movies did Christopher Nolan direct"),
    ("2 hops", "what genres are the films starring Keanu Reeves"),
    ("3 hops", "what genres are the films whose director also directed Memento"),
]
console = make_console()


async def main() -> int:
    from graphwalk_neo4j.backends import graph_model_choice, resolve_backend
    from graphwalk_neo4j.embed.factory import make_embedder
    from graphwalk_neo4j.graph.embeddings import embed_graph
    from graphwalk_neo4j.ingest.structured import ingest_file
    from graphwalk_neo4j.schema import apply_schema
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.walk.service import WalkService

    settings = Settings()
    types = metaqa_type_map()
    embedder = make_embedder(settings)
    async with GraphStore(settings) as store:
        await apply_schema(store)
        movies = data_file("demo_movies.txt")
        loaded = await ingest_file(store, movies, graph=GRAPH, source="demo", type_map=types, root=movies.parent)
        console.print(styled((f"graph {GRAPH!r}", "bold"), f": {loaded.rows} triples ({loaded.status})"))
        emb = await embed_graph(store, embedder, GRAPH)
        console.print(f"embeddings: {emb.embedded} new, {emb.skipped} up to date")
        choice = await graph_model_choice(store, settings, GRAPH, None)
        console.print(choice.note + "\n", markup=False, highlight=False)
        backend = resolve_backend(settings, choice.model, embedder_factory=lambda _s: embedder)
        service = WalkService(store, GRAPH, backend, embedder=embedder)
        ids = []
        for label, question in QUESTIONS:
            console.rule(f"{label}: {question}")
            outcome = await service.walk(question, build_config(None))  # the default walk, as `gw-neo4j walk`
            render(outcome, settings)
            ids.append(outcome.result.walk_id)
    await backend.aclose()
    console.rule("watch the walks in Neo4j Browser")
    console.print(
        f"log in as {settings.user} (password from GW_NEO4J_PASSWORD, default 'graphwalk-local'), start "
        "`gw-neo4j serve` (from a clone: `.venv/bin/gw-neo4j serve`) and type the :guide command:"
    )
    console.print(browser_hint(ids[-1], settings))
    console.print("all walks: gw-neo4j walks list --graph demo")
    return 0


def run_demo() -> int:
    """The demo with project errors as one line and their exit code (both front doors call this)."""
    try:
        return asyncio.run(main())
    except GraphwalkError as exc:
        console.print(error_line(exc))
        return exc.exit_code


@click.command("demo")
def demo_command() -> None:
    """Load the small movie graph that ships with the package and run three walks (one, two, three hops)."""
    sys.exit(run_demo())
