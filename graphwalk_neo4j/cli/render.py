"""The one way the CLI (and the demo) prints: user and graph text is always text, never rich markup.

Names, relation types, paths, questions and error messages can contain anything, ``[/]`` and ``[red]x[/red]``
included. Every console made here has markup, emoji codes and the automatic highlighter switched off, so a plain
``str`` handed to ``print``, a table cell, a title or a tree label is shown exactly as it is. Styling is added
on purpose only through :func:`styled`, which builds a :class:`rich.text.Text` from (text, style) pieces: the
style is ours, the text is never parsed.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import TextColumn
from rich.text import Text

Piece = str | tuple[str, str]


class TextConsole(Console):
    """A console that prints strings literally (no markup, no emoji codes, no highlighting)."""

    def __init__(self, *, stderr: bool = False, **options: Any) -> None:
        self._options = {"stderr": stderr, **options}
        super().__init__(stderr=stderr, soft_wrap=True, markup=False, emoji=False, highlight=False, **options)

    def rebind(self) -> None:
        """Look again at ``sys.stdout`` / ``sys.stderr`` and the environment (a terminal or not, colours, width),
        which a console reads once when it is made: the warm runtime (cli/warm.py) hands the module's consoles each
        client's streams and environment in turn."""
        super().__init__(soft_wrap=True, markup=False, emoji=False, highlight=False, **self._options)


def make_console(*, stderr: bool = False, **options: Any) -> TextConsole:
    """A console that prints strings literally (no markup, no emoji codes, no highlighting)."""
    return TextConsole(stderr=stderr, **options)


def styled(*pieces: Piece) -> Text:
    """Text from pieces: a plain ``str`` is appended as is, a ``(text, style)`` pair with that style."""
    text = Text()
    for piece in pieces:
        if isinstance(piece, str):
            text.append(piece)
        else:
            text.append(piece[0], style=piece[1])
    return text


def error_line(message: object, label: str = "error:") -> Text:
    """``error: <message>`` with the label in bold red and the message as plain text."""
    return styled((label, "bold red"), f" {message}")


def label_column(style: str = "bold") -> TextColumn:
    """A progress-bar column showing the task description (a file name, a label) as plain text."""
    return TextColumn("{task.description}", style=style, markup=False)


out = make_console()
err = make_console(stderr=True)
