"""A click group that imports a command's module only when that command runs.

``gw-neo4j --help`` lists every command from a static table (name, module, attribute, one-line help), so it needs
click and nothing else; ``gw-neo4j walk ...`` imports ``graphwalk_neo4j.cli.walk`` and what it needs, and no
other command's dependencies (FastAPI for ``serve``, SQLAlchemy for ``ingest --sql``, torch for training).
tests/unit/test_cli_startup.py checks the table against the commands themselves.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, NamedTuple

import click

if TYPE_CHECKING:
    from collections.abc import Mapping


class CommandRef(NamedTuple):
    """Where a command lives (``module.attribute``) and its one-line help as ``--help`` lists it."""

    module: str
    attribute: str
    summary: str

    def load(self) -> click.Command:
        command = getattr(importlib.import_module(self.module), self.attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.module}.{self.attribute} is not a click command")
        return command


class LazyGroup(click.Group):
    """``lazy_commands``: the table of commands; ``aliases``: deprecated old names, each mapped to the command that
    replaced it. An alias still runs (with a one-line note on stderr) but is not listed by ``--help``."""

    def __init__(
        self,
        *args: Any,
        lazy_commands: Mapping[str, CommandRef],
        aliases: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands)
        self.aliases = dict(aliases or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.aliases and cmd_name not in self.lazy_commands:
            new = self.aliases[cmd_name]
            click.echo(
                f"note: `gw-neo4j {cmd_name}` is now `gw-neo4j {new}`; the old name still works for now",
                err=True,
            )
            cmd_name = new
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in self.lazy_commands:
            command = self.lazy_commands[cmd_name].load()
            self.add_command(command, cmd_name)  # loaded once per process
        return command

    def summary(self, cmd_name: str, limit: int) -> str:
        """The one-line help ``--help`` shows: the loaded command's own, else the table's, without importing."""
        if cmd_name in self.commands:
            return self.commands[cmd_name].get_short_help_str(limit)
        return click.Command(cmd_name, help=self.lazy_commands[cmd_name].summary).get_short_help_str(limit)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)  # the layout of click.Group's own listing
        with formatter.section("Commands"):
            formatter.write_dl([(name, self.summary(name, limit)) for name in names])
