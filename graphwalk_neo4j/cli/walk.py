"""``gw-neo4j walk``: answer a question by walking the graph; prints answers, the path tree, totals and how to
replay the walk (Cypher and Browser). ``--json`` prints the context bundle for downstream LLM steps."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from graphwalk_neo4j.cli.common import (
    connected,
    emit_json,
    err,
    exclude_option,
    graph_option,
    handle_errors,
    load_settings,
    out,
    run,
)
from graphwalk_neo4j.cli.render import styled
from graphwalk_neo4j.walk.config import WalkConfig, field_range, preset_names
from graphwalk_neo4j.walk.config import build_config as config_from

if TYPE_CHECKING:
    from rich.text import Text

    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.walk.service import WalkOutcome


def build_config(
    preset: str | None,
    strategy: str | None,
    beam_width: int | None,
    hop_mode: str | None,
    max_depth: int | None,
    exclude_scope: str | None = None,
) -> WalkConfig:
    """A preset (default: ``relation`` for relation hops, else ``greedy``) with the command-line overrides."""
    overrides: dict[str, Any] = {}
    if exclude_scope:
        overrides["exclude_scope"] = exclude_scope
    if strategy:
        overrides["strategy"] = strategy
    if beam_width:
        overrides["beam_width"] = beam_width
    if hop_mode:
        overrides["hop_mode"] = hop_mode
    if max_depth:
        overrides["budget"] = {"max_depth": max_depth}
    return config_from(preset, overrides)


async def run_walk(
    settings: Settings,
    graph: str,
    question: str,
    config: WalkConfig,
    start: list[str],
    model: str | None,
    choose_start: bool,
) -> WalkOutcome:
    # The walk's machinery is imported here, not at the top, so `gw-neo4j walk --help` and a bad option answer at
    # once (docs/benchmarks.md, start-up).
    from graphwalk_neo4j.backends import resolve_backend
    from graphwalk_neo4j.embed.factory import make_embedder
    from graphwalk_neo4j.walk.service import WalkService, check_question

    check_question(question)  # before anything is loaded: an over-long question is refused at once
    embedder = make_embedder(settings)  # lazy: nothing is loaded until the first encode
    backend = resolve_backend(settings, model, embedder_factory=lambda _s: embedder)  # checks the model name
    try:
        await backend.verify()  # Jev: the pinned model id must be listed by the provider before any walk
        async with connected(settings) as store:
            service = WalkService(store, graph, backend, embedder=embedder)
            return await service.walk(question, config, start=start or None, choose_start=choose_start)
    finally:
        await backend.aclose()


def step_line(step: Any) -> Text:
    p = f"p={step.p:.2f}" if step.p is not None else step.kind
    if step.is_stop:
        return styled(f"depth {step.depth}: STOP ", (f"({p})", "dim"))
    arrow = f"--{step.relation}-->" if step.direction == "out" else f"<--{step.relation}--"
    names = ", ".join(n.name for n in step.nodes[:5]) + (f" (+{len(step.nodes) - 5})" if len(step.nodes) > 5 else "")
    return styled(f"depth {step.depth}: {arrow} {names} ", (f"({p})", "dim"))


RULE_SOURCES = {"model": "the model's training rule", "chosen": "as chosen", "default": "the default"}


def rule_line(rule: dict[str, Any]) -> str:
    """``start (the model's training rule)``: what later hops skip, and where that came from."""
    scope = rule["exclude_scope"] if rule["exclude_visited"] else "nothing"
    return f"{scope} ({RULE_SOURCES[rule['source']]})"


def render(outcome: WalkOutcome, settings: Settings) -> None:
    from rich.tree import Tree

    from graphwalk_neo4j.cli.trace import browser_hint

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
    out.print(browser_hint(result.walk_id, settings))


@click.command()
@click.argument("question")
@graph_option
@click.option("--start", "start", multiple=True, help="Start entity (name or id); repeatable. Default: linked.")
@click.option("--preset", type=click.Choice(preset_names(aliases=True)), default=None, help="Named walk configuration.")
@click.option("--strategy", type=click.Choice(["greedy", "beam", "sample"]), default=None)
@click.option("--beam-width", type=click.IntRange(*field_range("beam_width")), default=None)
@click.option("--hop-mode", type=click.Choice(["entity", "relation"]), default=None)
@click.option("--model", default=None, help="jev, jev-<version>, typesafe/<id>, local, or a litellm model name.")
@click.option("--max-depth", type=click.IntRange(*field_range("max_depth")), default=None)
@exclude_option(
    "Later hops skip every visited node or only the start entities. Default: a learned:DIR model's training "
    "rule, else visited."
)
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
    strategy: str | None,
    beam_width: int | None,
    hop_mode: str | None,
    model: str | None,
    max_depth: int | None,
    exclude_scope: str | None,
    choose_start: bool,
    as_json: bool,
) -> None:
    """Answer QUESTION by walking the graph hop by hop; the walk is stored as :Walk/:Step nodes."""
    settings = load_settings(ctx)
    config = build_config(preset, strategy, beam_width, hop_mode, max_depth, exclude_scope)
    outcome = run(run_walk(settings, graph, question, config, list(start), model, choose_start))
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
