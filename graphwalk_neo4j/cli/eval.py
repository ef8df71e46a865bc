"""``gw-neo4j eval``: evaluation commands. ``eval metaqa`` runs graphwalk and/or the vector baseline over MetaQA
questions, with the path ceiling, and writes ``results/<run_id>/`` (see :mod:`graphwalk_neo4j.eval.runner`).
Progress with an ETA goes to stderr, the results table to stdout (``--json``: the summary rows)."""

from __future__ import annotations

import time
from typing import Any

import click

from graphwalk_neo4j.cli.common import (
    check_graph_name,
    config_option,
    connected,
    emit_json,
    exclude_option,
    handle_errors,
    json_option,
    load_settings,
    out,
    run,
)
from graphwalk_neo4j.cli.progress import BarProgress
from graphwalk_neo4j.cli.render import make_console
from graphwalk_neo4j.eval.records import MetaQAOptions
from graphwalk_neo4j.walk.config import preset_names, unknown_preset


def _hops(value: str) -> list[int]:
    try:
        hops = sorted({int(h) for h in value.split(",") if h.strip()})
    except ValueError:
        raise click.BadParameter("use a comma-separated list such as 1,2,3") from None
    if not hops or any(h not in (1, 2, 3) for h in hops):
        raise click.BadParameter("MetaQA has 1-, 2- and 3-hop questions")
    return hops


@click.group(name="eval")
def eval_group() -> None:
    """Evaluate graphwalk against baselines on question-answering datasets."""


@eval_group.command()
@click.option(
    "--data",
    "data_dir",
    required=True,
    type=click.Path(file_okay=False, exists=True),
    help="Folder with kb.txt and qa_<split>_<k>hop.txt (also looked for under <folder>/<split>/).",
)
@click.option("--split", default="dev", show_default=True, help="Question split (dev, test, ...).")
@click.option("--hops", default="1,2,3", show_default=True, help="Hop counts to evaluate, comma-separated.")
@click.option(
    "--limit",
    "--n",
    "n",
    type=click.IntRange(1),
    default=None,
    help="Seeded sample of N questions per hop (default all; --n is its former name).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Sample seed.")
@click.option("--system", type=click.Choice(["graphwalk", "vector", "all"]), default="graphwalk", show_default=True)
@click.option(
    "--model",
    default=None,
    help="Decision model: local, general, learned:DIR, jev, jev-<version>, typesafe/<id> or litellm name.",
)
@click.option(
    "--preset",
    default="relation",
    show_default=True,
    help=f"Walk preset(s), comma-separated, one system each: {', '.join(preset_names())}.",
)
@config_option("strategy", "Override.")
@config_option("beam_width", "Override.")
@config_option("hop_mode", "Override.")
@exclude_option(
    "Override: later hops skip every visited node, or only the start entities. Default: a learned:DIR model's "
    "training rule, else visited."
)
@click.option(
    "--linking",
    type=click.Choice(["gold", "resolve"]),
    default="gold",
    show_default=True,
    help="gold: start at the [bracketed] topic; resolve: link from the text (accuracy reported apart).",
)
@click.option("--concurrency", type=click.IntRange(1, 64), default=4, show_default=True)
@click.option("--run-id", default=None, help="Results folder name; re-use it to resume (default: a new one).")
@click.option(
    "--graph", default="metaqa", show_default=True, callback=check_graph_name, help="Graph name holding the MetaQA KB."
)
@click.option(
    "--store-walks",
    "--trace",
    "trace",
    is_flag=True,
    help="Store every walk in Neo4j (slower); --trace is the old name.",
)
@click.option(
    "--heldout",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="A learned decider's directory: ask only the questions it held out (its test split).",
)
@click.option(
    "--type-map",
    default=None,
    metavar="PATH|none|metaqa",
    help="Types for kb.txt's relations when the graph is loaded: a JSON file {relation: [subject type, object "
    "type]}, none (the graph stays untyped) or metaqa (MetaQA's). Default: types.json beside kb.txt; else the "
    "map a graph that already holds kb.txt was loaded with; else MetaQA's. A run never retypes a graph: a map "
    "that differs from the one it holds kb.txt under is refused.",
)
@click.option(
    "--vector-k",
    type=click.IntRange(1, 20),
    default=None,
    help="Vector baseline cut-off (default: the one chosen on dev).",
)
@click.option("--llm-model", default=None, help="Vector baseline reader (litellm name); without it, no reader.")
@click.option("--results-dir", default="results", show_default=True, type=click.Path(file_okay=False))
@click.option(
    "--cache-dir",
    default=".cache/graphwalk/eval",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where the vector baseline caches its document vectors.",
)
@json_option
@click.pass_context
@handle_errors
def metaqa(
    ctx: click.Context,
    data_dir: str,
    split: str,
    hops: str,
    n: int | None,
    seed: int,
    system: str,
    model: str | None,
    preset: str,
    strategy: str | None,
    beam_width: int | None,
    hop_mode: str | None,
    exclude_scope: str | None,
    linking: str,
    concurrency: int,
    run_id: str | None,
    graph: str,
    trace: bool,
    heldout: str | None,
    type_map: str | None,
    vector_k: int | None,
    llm_model: str | None,
    results_dir: str,
    cache_dir: str,
    as_json: bool,
) -> None:
    """Answer MetaQA questions and score them (hits@1, EM, F1, ceiling, calls, round trips, latency)."""
    settings = load_settings(ctx)
    presets = [p.strip() for p in preset.split(",") if p.strip()]
    unknown = [p for p in presets if p not in preset_names()]
    if unknown:
        raise unknown_preset(unknown[0])
    overrides: dict[str, Any] = {
        k: v
        for k, v in (
            ("strategy", strategy),
            ("beam_width", beam_width),
            ("hop_mode", hop_mode),
            ("exclude_scope", exclude_scope),
        )
        if v is not None
    }
    options = MetaQAOptions(
        data_dir=data_dir,
        split=split,
        hops=_hops(hops),
        n=n,
        seed=seed,
        system=system,
        presets=presets,
        overrides=overrides,
        model=model,
        linking=linking,
        concurrency=concurrency,
        run_id=run_id or time.strftime("metaqa-%Y%m%d-%H%M%S"),
        graph=graph,
        trace=trace,
        vector_k=vector_k,
        llm_model=llm_model,
        results_dir=results_dir,
        cache_dir=cache_dir,
        heldout=heldout,
        type_map=type_map,
    )

    from graphwalk_neo4j.eval.report import SummaryRow, rich_table
    from graphwalk_neo4j.eval.runner import run_metaqa

    async def work() -> dict[str, Any]:
        async with connected(settings) as store:
            with BarProgress(quiet=as_json) as progress:
                return await run_metaqa(store, settings, options, progress)

    results = run(work())
    if as_json:
        emit_json({"run_id": options.run_id, "summary": results["summary"], "paths": results["paths"]})
        return
    rows = [SummaryRow.model_validate(r) for r in results["summary"]]
    # Piped to a file, a 14-column table needs more than the default 80 columns.
    console = out if out.is_terminal else make_console(width=220)
    console.print(rich_table(rows, title=f"MetaQA {split} — run {options.run_id}"))
    out.print(f"results: {results['paths']['results']}\nsummary: {results['paths']['summary']}")
    if results["paths"].get("reliability"):
        out.print(f"reliability diagram: {results['paths']['reliability']}")
