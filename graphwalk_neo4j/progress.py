"""The one progress interface. Long-running library work (ingest, embedding, an eval run) reports through a
:class:`Progress` the caller injects; the library never draws anything itself, the CLI does (on stderr).

* ``stage(message)``: a one-line note about what starts now;
* ``advance(label, done, total)``: ``done`` of ``total`` units of the work named ``label`` are finished (a file,
  ``"embed"``, ``"questions"``); called again with growing ``done``. Rates and ETAs are the drawer's business.

:data:`QUIET` says nothing; it is the default everywhere.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def stage(self, message: str) -> None: ...

    def advance(self, label: str, done: int, total: int) -> None: ...


class Quiet:
    """A :class:`Progress` that says nothing."""

    def stage(self, message: str) -> None:
        return None

    def advance(self, label: str, done: int, total: int) -> None:
        return None


QUIET: Progress = Quiet()


class ForwardProgress:
    """A :class:`Progress` that passes everything on to ``inner``: the base of a door's adapter, which overrides
    what it watches (the CLI's note of what an ingest had committed) and forwards the rest."""

    def __init__(self, inner: Progress = QUIET) -> None:
        self.inner = inner

    def stage(self, message: str) -> None:
        self.inner.stage(message)

    def advance(self, label: str, done: int, total: int) -> None:
        self.inner.advance(label, done, total)


class Relabelled(ForwardProgress):
    """``inner``, with every ``advance`` told under one ``label`` (a file's rows as ``"ingest"``)."""

    def __init__(self, inner: Progress, label: str) -> None:
        super().__init__(inner)
        self.label = label

    def advance(self, label: str, done: int, total: int) -> None:
        self.inner.advance(self.label, done, total)
