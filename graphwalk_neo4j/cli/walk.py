"""``gw-neo4j walk``: answer a question by walking the graph; prints answers, the path tree, totals and how to
replay the walk (Cypher and Browser). ``--json`` prints the context bundle for downstream LLM steps."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from graphwalk_neo4j.admission import walk_call
from graphwalk_neo4j.cli.common import (
    config_option,
    connected,
    emit_json,
    err,
    exclude_option,
    graph_option,
    handle_errors,
    load_settings,
    out,
    run,
    set_option,
    shared_embedder,
)
from graphwalk_neo4j.cli.render import styled
from graphwalk_neo4j.walk.config import preset_names

if TYPE_CHECKING:
    from collections.abc import Mapping

    from rich.text import Text

    from graphwalk_neo4j.admission import WalkCall
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.walk.service import WalkOutcome


def walk_options(set_options: Mapping[str, Any], **flags: Any) -> dict[str, Any]:
    """The walk options the command line set: the flags given (``None``: not given) over ``--set``'s."""
    return {**set_options, **{k: v for k, v in flags.items() if v is not None}}


async def run_walk(settings: Settings, call: WalkCall) -> WalkOutcome:
    """One walk of an admitted ``call`` (:func:`~graphwalk_neo4j.admission.walk_call`) on a fresh connection."""
    # The walk's machinery is imported here, not at the top, so `gw-neo4j walk --help` and a bad option answer at
    # once (docs/benchmarks.md, start-up).
    from graphwalk_neo4j.backends import graph_model_choice, resolve_backend
    from graphwalk_neo4j.walk.service import WalkService

    embedder = shared_embedder(settings)  # lazy: nothing is loaded until the first encode (the warm runtime's: loaded)
    named = call.model or settings.model
    # A named model is checked before anything connects; without one the graph's own model (if any) is used.
    backend = resolve_backend(settings, named, embedder_factory=lambda _s: embedder) if named else None
    try:
        async with connected(settings) as store:
            choice = await graph_model_choice(store, settings, call.graph, call.model)
            if choice.reason in ("graph", "default"):  # said when no model was named: which one, or how to train
                err.print(choice.note, markup=False, highlight=False)
            if backend is None:
                backend = resolve_backend(settings, choice.model, embedder_factory=lambda _s: embedder)
            await backend.verify()  # Jev: the pinned model id must be listed by the provider before any walk
            service = WalkService(store, call.graph, backend, embedder=embedder)
            return await service.walk(call.question, call.config, start=call.start, choose_start=call.choose_start)
    finally:
        if backend is not None:
            await backend.aclose()


def step_line(step: Any) -> Text:
    p = f"p={step.p:.2f}" if step.p is not None else step.kind
    if step.is_stop:
        return styled(f"depth {step.depth}: STOP ", (f"({p})", "dim"))
    arrow = f"--{step.relation}-->" if step.direction == "out" else f"<--{step.relation}--"
    names = ", ".join(n.name for n in step.nodes[:5]) + (f" (+{len(step.nodes) - 5})" if len(step.nodes) > 5 else "")
    return styled(f"depth {step.depth}: {arrow} {names} ", (f"({p})", "dim"))


RULE_SOURCES = {"model": "the model's training rule", "chosen": "as chosen", "default": "the default"}


SEARCH_SOURCES = {"model": "the model's search", "chosen": "as chosen", "default": "the default"}


def rule_line(rule: dict[str, Any]) -> str:
    """``start (the model's training rule)``: what later hops skip, and where that came from."""
    scope = rule["exclude_scope"] if rule["exclude_visited"] else "nothing"
    return f"{scope} ({RULE_SOURCES[rule['source']]})"


def search_line(search: dict[str, Any]) -> str:
    """``beam of 3 (the model's search)``: how the walk searched (:meth:`Configured.search`), and where that came
    from."""
    how = f"beam of {search['width']}" if search["strategy"] == "beam" else search["strategy"]
    return f"{how} ({SEARCH_SOURCES[search['source']]})"


def render(outcome: WalkOutcome, settings: Settings) -> None:
    from rich.tree import Tree

    from graphwalk_neo4j.cli.walks import browser_hint

    result = outcome.result
    colour = "green" if result.status == "ok" else "yellow"
    out.print(styled((result.question, "bold"), "  ", (result.status, colour), f" ({result.stop_reason})"))
    if outcome.linking is not None:
        out.print(
            styled(
                f"start: {', '.join(n.name for n in outcome.linking.start)} ", (f"({outcome.linking.method})", "dim")
            )
        )
    if result.answers:
        out.print(styled(("answers", "bold")))
        for a in result.answers[:20]:
            out.print(styled(f"  {a.rank:>2}. {a.name}  ", (f"score {a.score:.3f}", "dim")))
        if len(result.answers) > 20:
            out.print(f"  … {len(result.answers) - 20} more")
    tree = Tree(styled(("paths", "bold")))
    for path in result.paths[:5]:
        branch = tree.add(styled(f"{path.describe()}  ", (f"score {path.score:.3f}", "dim")))
        for step in path.steps:
            branch.add(step_line(step))
    out.print(tree)
    t = result.totals
    out.print(
        f"decision calls {t.decision_calls}, tokens {t.input_tokens}/{t.output_tokens}, "
        f"cost {t.cost_usd if t.cost_usd is not None else 'n/a'}, Cypher round trips {outcome.round_trips}, "
        f"wall {t.wall_s:.2f}s"
    )
    out.print(styled("walk id: ", (result.walk_id, "bold"), f"  model: {result.model}"))
    if outcome.configured is not None:
        out.print(styled(("exclude: ", "dim"), rule_line(outcome.configured.rule())))
        out.print(styled(("search: ", "dim"), search_line(outcome.configured.search())))
    out.print(browser_hint(result.walk_id, settings))


@click.command()
@click.argument("question")
@graph_option
@click.option("--start", "start", multiple=True, help="Start entity (name or id); repeatable. Default: linked.")
@click.option("--preset", type=click.Choice(preset_names()), default=None, help="Named walk configuration.")
@click.option(
    "--model",
    default=None,
    help="jev, jev-<version>, typesafe/<id>, local, general, learned:DIR, or a litellm model name.",
)
@config_option("strategy", "Search strategy. Default: the preset's.")
@config_option("beam_width", "Beams kept per depth (strategy beam). Default: the preset's.")
@config_option("hop_mode", "Hop to one entity or along a relation to all its targets. Default: the preset's.")
@config_option("max_depth", "Decision depths including the STOP. Default: the preset's.")
@exclude_option(
    "Later hops skip every visited node or only the start entities. Default: a learned:DIR model's training "
    "rule, else visited."
)
@set_option
@click.option("--choose-start", is_flag=True, help="Spend one decision call to choose among linking candidates.")
@click.option("--json", "as_json", is_flag=True, help="Print the context bundle as JSON.")
@click.pass_context
@handle_errors
def walk(
    ctx: click.Context,
    question: str,
    graph: str,
    start: tuple[str, ...],
    preset: str | None,
    model: str | None,
    strategy: str | None,
    beam_width: int | None,
    hop_mode: str | None,
    max_depth: int | None,
    exclude_scope: str | None,
    set_options: dict[str, Any],
    choose_start: bool,
    as_json: bool,
) -> None:
    """Answer QUESTION by walking the graph hop by hop; the walk is stored as :Walk/:Step nodes."""
    options = walk_options(
        set_options,
        strategy=strategy,
        beam_width=beam_width,
        hop_mode=hop_mode,
        max_depth=max_depth,
        exclude_scope=exclude_scope,
    )
    call = walk_call(
        question, graph=graph, start=start, preset=preset, options=options, model=model, choose_start=choose_start
    )
    settings = load_settings(ctx)
    outcome = run(run_walk(settings, call))
    warning = outcome.configured.warning(outcome.result.model) if outcome.configured is not None else None
    if warning:
        err.print(warning)
    if as_json:
        emit_json(outcome.bundle())
    else:
        render(outcome, settings)
    if outcome.result.status in {"error", "no_start"}:
        err.print(f"walk {outcome.result.status}: {outcome.result.stop_reason}")
        sys.exit(1)
