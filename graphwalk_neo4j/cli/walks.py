"""Stored walks: ``walks list``, ``walks show``, ``walks guide`` and ``walks captions`` over the walks that
:class:`~graphwalk_neo4j.walk.neo4j_trace_sink.Neo4jTraceSink` stored (schema: ``docs/walk-schema.md``).
``gw-neo4j trace ...`` is the group's old name, kept as a deprecated alias (:data:`graphwalk_neo4j.cli.ALIASES`).

Thin like the rest of the CLI: parse, load settings, one ``asyncio.run`` of
:func:`graphwalk_neo4j.stored_walks.list_walks` / :func:`~graphwalk_neo4j.stored_walks.get_walk`, render (rich on
stdout, or ``--json``). An unknown walk id is a :class:`~graphwalk_neo4j.stored_walks.WalkNotFoundError` (exit
code 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from graphwalk_neo4j.cli.common import (
    connected,
    emit_json,
    err,
    graph_option,
    handle_errors,
    json_option,
    load_settings,
    out,
    run,
)
from graphwalk_neo4j.limits import MAX_LISTED_WALKS

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.stored_walks import CaptionBackfill, StoredOption, StoredStep, StoredWalk

STATUSES = ["running", "ok", "budget", "error", "dead_end", "no_start", "interrupted"]
STATUS_STYLE = {
    "ok": "green",
    "running": "cyan",
    "budget": "yellow",
    "error": "red",
    "dead_end": "magenta",
    "no_start": "magenta",
    "interrupted": "yellow",
}
MAX_OPTIONS_SHOWN = 12  # per step in `walks show`; the rest are summarised (all of them are in --json)
SUMMARY_FIELDS = {"steps", "calls", "answers"}


@click.group("walks")
def walks() -> None:
    """List and show stored walks (every walk is stored in Neo4j as :Walk / :Step nodes)."""


async def _list(settings: Settings, graph: str, limit: int, status: str | None) -> list[StoredWalk]:
    from graphwalk_neo4j.stored_walks import list_walks

    async with connected(settings) as store:
        return await list_walks(store, graph, limit=limit, status=status)


async def _get(settings: Settings, graph: str | None, walk_id: str) -> StoredWalk:
    from graphwalk_neo4j.stored_walks import get_walk

    async with connected(settings) as store:
        return await get_walk(store, graph, walk_id)


@walks.command("list")
@graph_option
@click.option("--limit", type=click.IntRange(1, MAX_LISTED_WALKS), default=20, show_default=True, help="Walks to list.")
@click.option("--status", type=click.Choice(STATUSES), default=None, help="Only walks with this status.")
@json_option
@click.pass_context
@handle_errors
def list_command(ctx: click.Context, graph: str, limit: int, status: str | None, as_json: bool) -> None:
    """List stored walks, newest first."""
    settings = load_settings(ctx)
    walks = run(_list(settings, graph, limit, status))
    if as_json:
        emit_json([w.model_dump(mode="json", exclude=SUMMARY_FIELDS) for w in walks])
        return
    if not walks:
        err.print(f"no stored walks in graph {graph!r}" + (f" with status {status!r}" if status else ""))
        return
    table = Table(title=f"walks of graph {graph!r}")
    table.add_column("walk / started", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("question → answers", overflow="fold")
    for col in ("depths", "tokens", "cost $"):
        table.add_column(col, justify="right")
    for w in walks:
        t = w.totals
        walk = Text(w.id)
        if w.started_at:
            walk.append("\n" + w.started_at.strftime("%Y-%m-%d %H:%M:%S"), style="dim")
        answers = ", ".join(w.answer_names[:3]) + (f" (+{len(w.answer_names) - 3})" if len(w.answer_names) > 3 else "")
        question = Text(w.question)
        question.append(f" [{w.strategy}/{w.hop_mode}]", style="dim")
        question.append(f"\n→ {answers or '-'}", style="bold")
        table.add_row(
            walk,
            Text(w.status, style=STATUS_STYLE.get(w.status, "")),
            question,
            str(t.depths),
            str(t.input_tokens + t.output_tokens),
            f"{t.cost_usd:.4f}" if t.cost_usd is not None else "",
        )
    out.print(table)


@walks.command("show")
@click.argument("walk_id")
@click.option(
    "--graph",
    "graph",
    default=None,
    help="Only look in this graph (walk ids are unique, so by default every graph is searched).",
)
@click.option(
    "--cypher",
    "as_cypher",
    is_flag=True,
    help="Print only the Browser commands that draw the walk (`:param` + the draw_walk recipe).",
)
@json_option
@click.pass_context
@handle_errors
def show_command(ctx: click.Context, walk_id: str, graph: str | None, as_cypher: bool, as_json: bool) -> None:
    """Show one stored walk: depths and steps with their options and probabilities, answers, totals, and the
    one Browser command that draws it (`--cypher`: the Cypher to paste instead)."""
    from graphwalk_neo4j.stored_walks.read import replay_snippet, settings_guide_line

    settings = load_settings(ctx)
    walk = run(_get(settings, graph, walk_id))
    replay = {
        "browser_url": settings.resolved_browser_url(),
        "guide": settings_guide_line(settings, walk.id),
        "cypher": replay_snippet(walk.id),
    }
    if as_json:
        emit_json({"walk": walk.model_dump(mode="json"), "replay": replay})
        return
    if as_cypher:
        out.print(replay["cypher"], end="")
        return
    out.print(_header(walk))
    out.print(_tree(walk))
    if walk.answers:
        out.print(_answers(walk))
    out.print(_totals(walk))
    out.print(browser_hint(walk.id, settings))


def browser_hint(walk_id: str, settings: Settings) -> str:
    """The one line `walk`, `walks show` and the demo print: where the Browser is and the command to type."""
    from graphwalk_neo4j.stored_walks.read import settings_guide_line

    guide = settings_guide_line(settings, walk_id)
    return (
        f"Neo4j Browser {settings.resolved_browser_url()}  {guide}"
        f"   (needs gw-neo4j serve; Cypher to paste: gw-neo4j walks show {walk_id} --cypher)"
    )


@walks.command("guide")
@click.argument("walk_id", required=False)
@click.pass_context
@handle_errors
def guide_command(ctx: click.Context, walk_id: str | None) -> None:
    """Print the `:guide` command to type in Neo4j Browser: the guide that draws WALK_ID, or the overview. With
    GW_NEO4J_SERVICE_TOKEN set (as for the service), the link carries a signed guide key valid for 12 hours."""
    from graphwalk_neo4j.stored_walks.read import settings_guide_line

    settings = load_settings(ctx)
    out.print(settings_guide_line(settings, walk_id), soft_wrap=True, highlight=False, markup=False)


@walks.command("captions")
@click.option("--graph", "graph", default=None, help="Only this graph's walks (default: every graph).")
@click.pass_context
@handle_errors
def captions_command(ctx: click.Context, graph: str | None) -> None:
    """Add the caption properties to walks stored before they existed (idempotent; only :Walk / :Step change)."""
    settings = load_settings(ctx)
    done = run(_captions(settings, graph))
    out.print(f"captioned {done.walks} walks and {done.steps} steps")


async def _captions(settings: Settings, graph: str | None) -> CaptionBackfill:
    from graphwalk_neo4j.stored_walks import backfill_captions

    async with connected(settings) as store:
        return await backfill_captions(store, graph)


def _header(walk: StoredWalk) -> Text:
    text = Text()
    text.append(f"walk {walk.id}", style="bold")
    text.append("  ")
    text.append(walk.status, style=f"bold {STATUS_STYLE.get(walk.status, '')}")
    text.append(f"  {walk.stop_reason or ''}\n")
    text.append(f"question: {walk.question}\n")
    text.append(
        f"start: {', '.join(walk.start_names) or '-'}   strategy: {walk.strategy}/{walk.hop_mode}   "
        f"model: {walk.model}\n"
    )
    started = walk.started_at.isoformat(timespec="seconds") if walk.started_at else "?"
    finished = walk.finished_at.isoformat(timespec="seconds") if walk.finished_at else "not finished"
    text.append(f"started: {started}   finished: {finished}")
    if walk.best_path:
        text.append(f"\nbest path: {walk.best_path}")
    if walk.retracted_names:
        text.append(
            f"\ndata changed since: {', '.join(walk.retracted_names)} retracted by a later ingest "
            "(kept as :RetractedEntity, so this walk replays as recorded)",
            style="yellow",
        )
    return text


def _tree(walk: StoredWalk) -> Tree:
    tree = Tree(Text(f"{len(walk.steps)} steps over {len(walk.depths())} depths", style="bold"))
    for depth, steps in walk.depths().items():
        label = Text(f"depth {depth}", style="bold")
        for c in (c for c in walk.calls if c.depth == depth):
            label.append(
                f"  call {c.id} ({c.n_questions} q, {c.latency_s:.2f}s, {c.input_tokens}+{c.output_tokens} tok",
                style="dim",
            )
            label.append(f", ${c.cost_usd:.4f})" if c.cost_usd is not None else ")", style="dim")
        branch = tree.add(label)
        shown: set[str] = set()
        for step in steps:
            node = branch.add(_step_text(step))
            if step.decision_id in shown and step.options:
                node.add(Text("options as above (same decision)", style="dim"))
                continue
            shown.add(step.decision_id)
            for option in _shown_options(step):
                node.add(_option_text(option, chosen=option.label == step.chosen))
            hidden = len(step.options) - MAX_OPTIONS_SHOWN
            if hidden > 0:
                node.add(Text(f"… {hidden} more options (see --json)", style="dim"))
            if step.pruned_count:
                node.add(
                    Text(f"{step.pruned_count} of {step.total_count} options pruned before the decision", style="dim")
                )
    return tree


def _step_text(step: StoredStep) -> Text:
    style = "" if step.kept else "dim"
    text = Text(style=style)
    text.append(f"[{step.beam}] ", style="cyan")
    text.append(step.kind, style="bold" if step.kind == "decision" else "yellow")
    at = ", ".join(step.node_names[:3]) + (f" (+{step.n_nodes - 3})" if step.n_nodes > 3 else "")
    text.append(f" at {at or '-'}")
    if step.chosen is None:
        text.append(" → nowhere to go", style="magenta")
        return text
    text.append(" → ")
    chosen = step.chosen_option
    text.append(_move(chosen) if chosen is not None else step.chosen, style="bold green" if step.kept else "")
    numbers = [f"p={step.p:.3f}" if step.p is not None else "forced", f"score={step.score:.3f}"]
    if step.confidence is not None:
        numbers.insert(1, f"conf={step.confidence:.2f}")
    if not step.kept:
        numbers.append("not kept")
    text.append("\n" + "  ".join(numbers), style="dim")
    return text


def _shown_options(step: StoredStep) -> list[StoredOption]:
    if len(step.options) <= MAX_OPTIONS_SHOWN:
        return step.options
    ranked = sorted(step.options, key=lambda o: -(o.p or 0.0))[:MAX_OPTIONS_SHOWN]
    keep = {o.label for o in ranked} | ({step.chosen} if step.chosen else set())
    return [o for o in step.options if o.label in keep]


def _move(option: StoredOption) -> str:
    if option.is_stop:
        return "STOP"
    arrow = f"--{option.relation}-->" if option.direction == "out" else f"<--{option.relation}--"
    names = ", ".join(option.target_names[:3])
    more = f" (+{option.count - min(3, len(option.target_names))})" if option.count > 3 else ""
    return f"{arrow} {names}{more}"


def _option_text(option: StoredOption, *, chosen: bool) -> Text:
    text = Text()
    text.append("✓ " if chosen else "  ", style="green")
    text.append(f"{option.label:<6}", style="bold" if chosen else "")
    if option.p is not None:
        text.append(f"{option.p:6.3f} ")
        text.append("█" * round(option.p * 20), style="green" if chosen else "blue")
        text.append(" ")
    if not (option.is_stop and option.label == "STOP"):
        text.append(_move(option), style="bold" if chosen else "")
    return text


def _answers(walk: StoredWalk) -> Table:
    table = Table(title="answers")
    for col in ("rank", "name", "type", "score", "votes", "ended by", "id"):
        table.add_column(col)
    for a in walk.answers:
        table.add_row(str(a.rank), a.name, a.type or "", f"{a.score:.4f}", str(a.votes), a.terminated_by or "", a.id)
    return table


def _totals(walk: StoredWalk) -> Text:
    t = walk.totals
    parts = [
        f"depths {t.depths}",
        f"expansions {t.expansions}",
        f"nodes read {t.nodes_read} (~{t.memory_mb:.1f} MiB)",
        f"requests {t.decision_requests}",
        f"wire calls {t.decision_calls}",
        f"questions {t.questions}",
        f"tokens {t.input_tokens} in / {t.output_tokens} out",
        f"cost ${t.cost_usd:.4f}" if t.cost_usd is not None else "cost n/a",
        f"decision latency {t.decision_latency_s:.2f}s",
        f"wall {t.wall_s:.2f}s",
    ]
    return Text("totals: " + " · ".join(parts))
