"""``gw-neo4j adopt``: walk a Neo4j graph you already have. Introspects the database, proposes a profile (table or
JSON), and after a confirmation stores it and adds graphwalk's namespace (``GwAdopted`` label, ``gw_*``
properties, ``gw_adopt_*`` indexes) to the adopted nodes; ``--undo`` removes exactly that, ``--refresh`` takes in
nodes created since. User text is printed as text, never as markup."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table
from rich.text import Text

from graphwalk_neo4j.cli.common import connected, emit_json, err, handle_errors, json_option, load_settings, out, run
from graphwalk_neo4j.cli.progress import BarProgress
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.identifiers import data_name

if TYPE_CHECKING:
    from graphwalk_neo4j.graph.profile import GraphProfile
    from graphwalk_neo4j.settings import Settings


def _names(value: str | None) -> list[str] | None:
    if value is None:
        return None
    items = [v.strip() for v in value.split(",") if v.strip()]
    if not items:
        raise ConfigError("an empty list was given; name at least one, e.g. --labels Person,Movie")
    return [data_name(v, "name") for v in items]


def _types(items: tuple[str, ...]) -> dict[str, str]:
    out_: dict[str, str] = {}
    for item in items:
        label, sep, word = item.partition("=")
        if not sep or not label.strip() or not word.strip():
            raise ConfigError(f"--type {item!r} is not LABEL=word; e.g. --type Person=person")
        out_[data_name(label.strip(), "label")] = data_name(word.strip(), "type")
    return out_


def profile_tables(profile: GraphProfile) -> list[Table]:
    labels = Table(title=f"entities of adopted graph {profile.graph!r}", title_justify="left")
    for col in ("label", "kind", "nodes", "name", "text", "answers"):
        labels.add_column(col)
    for lp in profile.labels:
        labels.add_row(
            Text(lp.label),
            Text(lp.type),
            str(lp.count),
            Text(", ".join(lp.name_props) or "(none)"),
            Text(", ".join(lp.text_props)),
            Text(", ".join(lp.answer_props)),
        )
    moves = Table(title="moves (relationship types the walk may follow)", title_justify="left")
    for col in ("type", "reads as", "count", "from", "to", "shown properties"):
        moves.add_column(col)
    for m in profile.moves:
        moves.add_row(
            Text(m.type),
            Text(m.words),
            str(m.count),
            Text(", ".join(m.from_labels)),
            Text(", ".join(m.to_labels)),
            Text(", ".join(m.props)),
        )
    tables = [labels, moves]
    if profile.skipped:
        skipped = Table(title="left out", title_justify="left")
        for col in ("what", "name", "why"):
            skipped.add_column(col)
        for s in profile.skipped:
            skipped.add_row(s.kind, Text(s.name), Text(s.reason))
        tables.append(skipped)
    return tables


async def _propose(settings: Settings, graph: str, opts: dict[str, Any]) -> tuple[GraphProfile, dict[str, Any]]:
    from graphwalk_neo4j.adopt.apply import adopt_graph, check_graph_name
    from graphwalk_neo4j.adopt.introspect import introspect
    from graphwalk_neo4j.adopt.propose import propose

    async with connected(settings) as store:
        await check_graph_name(store, graph)
        intro = await introspect(store, labels=opts["labels"], sample=opts["sample"])
        profile = propose(
            intro,
            graph,
            labels=opts["labels"],
            exclude_labels=opts["exclude_labels"] or (),
            exclude_rels=opts["exclude_rels"] or (),
            names=opts["names"],
            types=opts["types"],
        )
        plan = await adopt_graph(store, profile, dry_run=True)
    return profile, plan.as_dict()


async def _apply(settings: Settings, profile: GraphProfile, batch_size: int) -> dict[str, Any]:
    from graphwalk_neo4j.adopt.apply import adopt_graph

    async with connected(settings) as store:
        with BarProgress(unit="nodes", eta=False) as bar:
            report = await adopt_graph(store, profile, batch_size=batch_size, progress=bar)
    return report.as_dict()


async def _refresh(settings: Settings, graph: str, batch_size: int) -> tuple[GraphProfile, dict[str, Any]]:
    from graphwalk_neo4j.graph.profile import stored_profile

    async with connected(settings) as store:
        profile = await stored_profile(store, graph)
    if profile is None:
        raise ConfigError(f"graph {graph!r} is not adopted; run `gw-neo4j adopt --graph {graph}` first")
    return profile, await _apply(settings, profile, batch_size)


async def _undo(settings: Settings, graph: str, batch_size: int) -> dict[str, Any]:
    from graphwalk_neo4j.adopt.apply import undo_graph

    async with connected(settings) as store:
        report = await undo_graph(store, graph, batch_size=batch_size)
    return report.as_dict()


def _confirm(question: str, yes: bool) -> None:
    if yes:
        return
    if not sys.stdin.isatty():
        raise click.UsageError(f"{question} Add --yes to confirm when not at a terminal.")
    if not click.confirm(question, default=False, err=True):
        err.print("nothing written")
        sys.exit(1)


@click.command()
@click.option("--graph", "graph", required=True, help="Name the adopted graph gets (walk/search/embed --graph NAME).")
@click.option("--labels", default=None, help="Only these labels are entities (comma-separated). Default: all.")
@click.option("--exclude-labels", default=None, help="Labels to leave out (comma-separated).")
@click.option("--exclude-rels", default=None, help="Relationship types the walk must not follow (comma-separated).")
@click.option(
    "--name",
    "names",
    multiple=True,
    metavar="LABEL=prop,...",
    help="Which properties name a label's nodes, first present wins; repeatable.",
)
@click.option(
    "--type",
    "types",
    multiple=True,
    metavar="LABEL=word",
    help="The kind a label's nodes are shown as (default: the label); repeatable.",
)
@click.option("--dry-run", is_flag=True, help="Print the proposed profile and what would be written; write nothing.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation (scripts).")
@click.option("--undo", is_flag=True, help="Remove everything adopt added for --graph (the user's data stays).")
@click.option("--refresh", is_flag=True, help="Re-apply the stored profile: take in nodes created since.")
@click.option("--batch-size", type=click.IntRange(1, 100_000), default=2000, show_default=True)
@click.option(
    "--sample",
    type=click.IntRange(10, 1_000_000),
    default=1000,
    show_default=True,
    help="Nodes sampled per label when reading property statistics.",
)
@json_option
@click.pass_context
@handle_errors
def adopt(
    ctx: click.Context,
    graph: str,
    labels: str | None,
    exclude_labels: str | None,
    exclude_rels: str | None,
    names: tuple[str, ...],
    types: tuple[str, ...],
    dry_run: bool,
    yes: bool,
    undo: bool,
    refresh: bool,
    batch_size: int,
    sample: int,
    as_json: bool,
) -> None:
    """Adopt an existing Neo4j graph for walking, without changing the user's data (see docs/adopt.md)."""
    data_name(graph, "graph name")
    if sum([undo, refresh, dry_run]) > 1:
        raise click.UsageError("--undo, --refresh and --dry-run exclude each other; give one")
    from graphwalk_neo4j.graph.profile import parse_name_overrides

    settings = load_settings(ctx)
    if undo:
        _confirm(f"Remove graphwalk's namespace, profile and walks of graph {graph!r}?", yes)
        report = run(_undo(settings, graph, batch_size))
        if as_json:
            emit_json(report)
        else:
            out.print(
                Text(
                    f"undone {graph!r}: namespace removed from {report['released']} nodes; indexes dropped: "
                    f"{', '.join(report['indexes_dropped']) or 'none (other adopted graphs use them)'}"
                )
            )
        return
    if refresh:
        profile, report = run(_refresh(settings, graph, batch_size))
        if as_json:
            emit_json({"profile": profile.model_dump(), "report": report})
        else:
            out.print(
                Text(
                    f"refreshed {graph!r}: {report['marked']} nodes taken in or updated, "
                    f"{report['unchanged']} up to date, {report['released']} released"
                )
            )
        return
    opts = {
        "labels": _names(labels),
        "exclude_labels": _names(exclude_labels),
        "exclude_rels": _names(exclude_rels),
        "names": parse_name_overrides(names),
        "types": _types(types),
        "sample": sample,
    }
    profile, plan = run(_propose(settings, graph, opts))
    if as_json and dry_run:
        emit_json({"profile": profile.model_dump(), "plan": plan})
        return
    if not as_json:
        for table in profile_tables(profile):
            out.print(table)
        out.print(
            Text(
                f"would mark {plan['scanned'] - plan['unchanged'] - plan['held_by_other_graph']} of "
                f"{plan['scanned']} nodes ({plan['unchanged']} already up to date, "
                f"{plan['held_by_other_graph']} held by another adopted graph)"
            )
        )
    if dry_run:
        return
    _confirm(f"Adopt as graph {graph!r} (adds the GwAdopted label and gw_* properties only)?", yes)
    report = run(_apply(settings, profile, batch_size))
    if as_json:
        emit_json({"profile": profile.model_dump(), "report": report})
    else:
        out.print(
            Text(
                f"adopted {graph!r}: {report['marked']} nodes marked, {report['unchanged']} up to date, "
                f"{report['released']} released, in {report['seconds']:.1f}s. Next: "
                f'gw-neo4j embed --graph {graph}; gw-neo4j walk "..." --graph {graph}'
            )
        )
