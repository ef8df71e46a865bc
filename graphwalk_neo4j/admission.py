"""Walk admission, composed once for every front door: :func:`walk_call` turns what a caller sent (the CLI's
arguments and options, an HTTP body, an MCP tool call) into one checked :class:`WalkCall`, or refuses it with
the one-line error every door shows (the question's length, the start entities, the graph name, the preset and
each walk option against its limit in :mod:`graphwalk_neo4j.walk.config`).

What happens next is the door's own: the CLI connects and walks once; the service
(:meth:`~graphwalk_neo4j.service.context.ServiceContext.admit_walk`) also checks the graph exists and the model is
allowed, and takes a walk slot. Nothing here does I/O, and it imports only the light walk configuration, so a
bad option is refused before anything heavy is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.identifiers import graph_name
from graphwalk_neo4j.walk.config import build_config, check_question, check_starts

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from graphwalk_neo4j.walk.config import WalkConfig


@dataclass(frozen=True)
class WalkCall:
    """One admitted walk: the question, the graph, the walk configuration (a preset with the caller's options
    applied), the given start entities (``None``: linked from the question), the decision model (``None``: the
    settings' default) and whether a decision call chooses among link candidates."""

    question: str
    graph: str
    config: WalkConfig
    start: list[str] | None = None
    model: str | None = None
    choose_start: bool = False


def walk_call(
    question: str,
    *,
    graph: str = "default",
    start: str | Sequence[str] | None = None,
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
    model: str | None = None,
    choose_start: bool = False,
) -> WalkCall:
    """The walk a caller asked for, checked: :class:`~graphwalk_neo4j.errors.InputError` for an empty or
    over-long question or too many start entities, :class:`~graphwalk_neo4j.errors.InvalidIdentifierError` for a
    bad graph name, :class:`~graphwalk_neo4j.errors.ConfigError` for an unknown preset and
    :class:`~graphwalk_neo4j.errors.OptionValueError` for an option past its limit. ``options`` are WalkConfig
    fields (``budget`` may be a partial mapping; ``max_depth`` is its shorthand)."""
    check_question(question)
    starts = check_starts([start] if isinstance(start, str) else start)
    return WalkCall(
        question=question,
        graph=graph_name(graph),
        config=build_config(preset, options),
        start=starts,
        model=model or None,
        choose_start=choose_start,
    )
