"""Shared CLI plumbing: settings from options, one ``asyncio.run`` per command, errors to messages and exit codes.

Results go to stdout (rich, or JSON with ``--json``); progress and errors go to stderr. Exit codes: 0 success,
1 failure, 2 bad usage or bad input.

Settings (pydantic-settings) and the store (the Neo4j driver) are imported when a command first needs them, so a
command's ``--help`` and its argument errors do not wait for them.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import wraps
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args, get_origin

import click

# The text-safe consoles (graphwalk_neo4j.cli.render), re-exported for the commands.
from graphwalk_neo4j.cli.render import err as err
from graphwalk_neo4j.cli.render import error_line
from graphwalk_neo4j.cli.render import out as out
from graphwalk_neo4j.errors import GraphwalkError, Interrupted, InvalidIdentifierError
from graphwalk_neo4j.identifiers import graph_name
from graphwalk_neo4j.walk.config import Budget, WalkConfig, field_range

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine

    from click.decorators import FC

    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

T = TypeVar("T")


@dataclass
class WarmState:
    """What the warm runtime (cli/warm.py) keeps between the commands it runs: one event loop, so the stores'
    drivers stay connected, the stores by their settings, the embedders (the model loaded once) by theirs, and
    how to cancel the command now running when its client asks (Ctrl-C there)."""

    runner: asyncio.Runner
    stores: dict[tuple[str, str, bool], GraphStore] = field(default_factory=dict)
    embedders: dict[tuple[str, int], Embedder] = field(default_factory=dict)
    cancel: Callable[[], None] | None = None
    cancelled_by_client: bool = False

    def cancel_running(self) -> None:
        """Called from the runtime's connection watcher (another thread): cancel the command's task, as Ctrl-C
        does in a process of its own."""
        self.cancelled_by_client = True
        if self.cancel is not None:
            self.cancel()


_warm: WarmState | None = None  # set only inside the warm runtime's process


def enter_warm() -> WarmState:
    """Make this process a warm runtime: from now on :func:`run`, :func:`connected` and :func:`shared_embedder`
    keep what they open."""
    global _warm
    if _warm is None:
        _warm = WarmState(runner=asyncio.Runner())
    return _warm


def leave_warm() -> None:
    """Close what the warm runtime kept (each store's driver, then the loop)."""
    global _warm
    state, _warm = _warm, None
    if state is None:
        return
    try:
        for store in state.stores.values():
            state.runner.run(store.close())
    finally:
        state.runner.close()


def shared_embedder(settings: Settings) -> Embedder:
    """The embedder ``settings`` name: a new one (nothing loaded until its first encode), or in the warm runtime
    the one it already loaded for the same settings."""
    from graphwalk_neo4j.embed.factory import make_embedder

    if _warm is None:
        return make_embedder(settings)
    key = (settings.embedder.strip().lower(), settings.embed_batch_size)
    if key not in _warm.embedders:
        _warm.embedders[key] = make_embedder(settings)
    return _warm.embedders[key]


def load_settings(ctx: click.Context) -> Settings:
    from graphwalk_neo4j.settings import load_settings as settings_from_env

    obj = ctx.ensure_object(dict)
    if "settings" not in obj:
        overrides = {k: v for k, v in obj.get("overrides", {}).items() if v is not None}
        obj["settings"] = settings_from_env(**overrides)  # a bad GW_NEO4J_* value: one-line ConfigError
    settings: Settings = obj["settings"]
    return settings


def run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` with SIGTERM handled like Ctrl-C: the work is cancelled, so it can record that it was
    interrupted (a walk stores status ``interrupted``, an ingest says what it committed) before the exit. In the
    warm runtime: on its one loop, and a cancellation its client asked for ends as Ctrl-C does here."""
    if _warm is None:
        return asyncio.run(_terminable(coro))
    try:
        return _warm.runner.run(_terminable(coro))
    except asyncio.CancelledError:
        if _warm.cancelled_by_client:
            raise KeyboardInterrupt from None
        raise
    finally:
        _warm.cancel = None


async def _terminable(coro: Coroutine[Any, Any, T]) -> T:
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    if _warm is not None and task is not None:
        running = task

        def cancel() -> None:
            loop.call_soon_threadsafe(running.cancel)

        _warm.cancel = cancel
        if _warm.cancelled_by_client:  # the client gave up before the command reached its loop
            task.cancel()
    installed = False
    if task is not None:
        try:
            loop.add_signal_handler(signal.SIGTERM, task.cancel)
            installed = True
        except (NotImplementedError, RuntimeError, ValueError):  # no signals here (not the main thread)
            pass
    try:
        return await coro
    finally:
        if installed:
            loop.remove_signal_handler(signal.SIGTERM)


def handle_errors(fn: Callable[..., T]) -> Callable[..., T]:
    """Turn project errors into a one-line message on stderr and the error's exit code."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except Interrupted as exc:
            err.print(error_line(exc, "interrupted:"))
            sys.exit(exc.exit_code)
        except GraphwalkError as exc:
            err.print(error_line(exc))
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            err.print("interrupted (Ctrl-C)")
            sys.exit(130)
        except asyncio.CancelledError:  # SIGTERM, see run()
            err.print("interrupted (SIGTERM)")
            sys.exit(143)

    return wrapper


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str, ensure_ascii=False))


@asynccontextmanager
async def connected(settings: Settings, *, require_apoc: bool = True) -> AsyncIterator[GraphStore]:
    """A connected store for one command, closed after it; in the warm runtime, the one it keeps for the same
    settings (connected at its first use, its pool kept warm)."""
    from graphwalk_neo4j.store import GraphStore

    if _warm is not None:
        key = (settings.model_dump_json(), settings.password.get_secret_value(), require_apoc)
        store = _warm.stores.get(key)
        if store is None:
            store = GraphStore(settings)
            await store.connect(require_apoc=require_apoc)
            _warm.stores[key] = store
        yield store
        return
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

EXCLUDE_SCOPES: tuple[str, ...] = get_args(WalkConfig.model_fields["exclude_scope"].annotation)


def config_option(name: str, help_text: str, *aliases: str, default: Any = None) -> Callable[[FC], FC]:
    """``--NAME`` for the walk option ``name`` (a WalkConfig or Budget field, HTTP's and MCP's ``config.NAME``):
    the field's choices or integer range, read from the field. ``None`` by default: the preset's value."""
    field = WalkConfig.model_fields.get(name) or Budget.model_fields[name]
    choices = get_args(field.annotation) if get_origin(field.annotation) is Literal else ()
    kind: click.ParamType[Any] = click.Choice(choices) if choices else click.IntRange(*field_range(name))
    flag = "--" + name.replace("_", "-")
    return click.option(
        flag, *aliases, name, type=kind, default=default, show_default=default is not None, help=help_text
    )


def exclude_option(help_text: str, default: str | None = None) -> Callable[[FC], FC]:
    """``--exclude-scope visited|start`` (``WalkConfig.exclude_scope``; ``--exclude`` is its former spelling):
    ``None`` by default means the preset's rule."""
    return config_option("exclude_scope", help_text, "--exclude", default=default)


def _settings(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE, e.g. --set max_frontier=5000")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw  # a word: a choice such as beam or relation
        head, _, sub = key.strip().partition(".")
        if sub:  # budget.max_nodes_read=500000
            options.setdefault(head, {})[sub] = value
        else:
            options[head] = value
    return options


set_option = click.option(
    "--set",
    "set_options",
    multiple=True,
    callback=_settings,
    metavar="KEY=VALUE",
    help="Any other walk option, named as in HTTP's and MCP's config (budget.* for the budget), e.g. --set "
    "max_frontier=5000 --set budget.max_nodes_read=500000; repeatable. docs/surface.md lists them with limits.",
)


def check_graph_name(_ctx: click.Context | None, _param: click.Parameter | None, value: str) -> str:
    """Click callback: a graph name must pass :func:`graphwalk_neo4j.identifiers.graph_name` (exit code 2)."""
    try:
        return graph_name(value)
    except InvalidIdentifierError as exc:
        raise click.BadParameter(str(exc)) from None


graph_option = click.option(
    "--graph",
    "graph",
    default="default",
    show_default=True,
    callback=check_graph_name,
    help="Name of the knowledge graph inside the database (several can live side by side).",
)
