"""Shared CLI plumbing: settings from options, one ``asyncio.run`` per command, errors to messages and exit codes.

Results go to stdout (rich, or JSON with ``--json``); progress and errors go to stderr. Exit codes: 0 success,
1 failure, 2 bad usage or bad input.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from functools import wraps
from typing import Any, TypeVar

import click
from rich.console import Console

from graphwalk_neo4j.errors import GraphwalkError
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.store import GraphStore

T = TypeVar("T")

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def load_settings(ctx: click.Context) -> Settings:
    obj = ctx.ensure_object(dict)
    if "settings" not in obj:
        overrides = {k: v for k, v in obj.get("overrides", {}).items() if v is not None}
        try:
            obj["settings"] = Settings(**overrides)
        except Exception as exc:  # pydantic ValidationError -> usage error
            raise click.UsageError(f"invalid settings: {exc}") from exc
    return obj["settings"]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def handle_errors(fn: Callable[..., T]) -> Callable[..., T]:
    """Turn project errors into a one-line message on stderr and the error's exit code."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except GraphwalkError as exc:
            err.print(f"[bold red]error:[/] {exc}", markup=True, highlight=False)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            err.print("interrupted")
            sys.exit(130)

    return wrapper


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str, ensure_ascii=False))


@asynccontextmanager
async def connected(settings: Settings, *, require_apoc: bool = True) -> AsyncIterator[GraphStore]:
    store = GraphStore(settings)
    await store.connect(require_apoc=require_apoc)
    try:
        yield store
    finally:
        await store.close()


async def with_store(settings: Settings, work: Callable[[GraphStore], Awaitable[T]]) -> T:
    async with connected(settings) as store:
        return await work(store)


json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON on stdout.")
graph_option = click.option(
    "--graph",
    "graph",
    default="default",
    show_default=True,
    help="Name of the knowledge graph inside the database (several can live side by side).",
)
