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
