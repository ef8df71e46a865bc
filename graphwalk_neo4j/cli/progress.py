"""The CLI's drawing of :class:`graphwalk_neo4j.progress.Progress`: stage lines and one rich bar per label on
stderr, with a rate and an ETA. When stderr is not a terminal (a log file), one plain line per label every 30 s
(and at the end) instead of a redrawn bar. ``last`` keeps the latest (done, total) of every label, so a command
can say what was committed when it is interrupted."""

from __future__ import annotations

import time

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress

from graphwalk_neo4j.cli.render import err, label_column, styled


class BarProgress:
    """A :class:`~graphwalk_neo4j.progress.Progress` drawn on stderr; use it as a context manager.

    ``unit`` names what ``done`` counts (``rows``, ``chunks``); ``names`` maps a label to the text shown (a file
    path to its name)."""

    def __init__(
        self, *, quiet: bool = False, unit: str = "", eta: bool = True, names: dict[str, str] | None = None
    ) -> None:
        self.quiet = quiet
        self.unit = unit
        self.names = dict(names or {})
        columns = [
            label_column(),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
        ]
        if eta:
            columns += [TextColumn("ETA"), TimeRemainingColumn()]
        self.bar = RichProgress(*columns, console=err, transient=False, disable=quiet or not err.is_terminal)
        self.tasks: dict[str, TaskID] = {}
        self.started: dict[str, float] = {}
        self.last: dict[str, tuple[int, int]] = {}
        self.last_line = 0.0

    def __enter__(self) -> BarProgress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(None, None, None)

    def stage(self, message: str) -> None:
        if not self.quiet:
            self.bar.console.print(styled((message, "dim")))

    def advance(self, label: str, done: int, total: int) -> None:
        self.last[label] = (done, total)
        if self.quiet:
            return
        now = time.perf_counter()
        elapsed = now - self.started.setdefault(label, now)
        unit = f" {self.unit}" if self.unit else ""
        rate = f"{done / elapsed:.1f}{unit}/s" if elapsed > 0 and done else ""
        if label not in self.tasks:
            self.tasks[label] = self.bar.add_task(self.names.get(label, label), total=total, rate=rate)
        self.bar.update(self.tasks[label], completed=done, total=total, rate=rate)
        if not err.is_terminal and total and (time.monotonic() - self.last_line > 30 or done == total):
            self.last_line = time.monotonic()
            eta = (total - done) * elapsed / done if done else float("nan")
            err.print(
                f"{self.names.get(label, label)}: {done}/{total} ({rate}), ETA {eta:.0f} s",
                highlight=False,
                markup=False,
            )
