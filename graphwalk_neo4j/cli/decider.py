"""``gw-neo4j decider``: train a learned decision model on a graph and show what an artifact is.

``decider train --graph G --qa FILE... --out DIR`` mines gold relation paths for question–answer pairs in
Neo4j, teacher-forces decisions along them and fits the model (:mod:`graphwalk_neo4j.learned.training`,
:mod:`graphwalk_neo4j.learned.fit`); re-running the same command resumes. ``decider show DIR`` prints the
artifact's graph, data, split and scores. Use the result with ``--model learned:DIR``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from graphwalk_neo4j.cli.common import (
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
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.identifiers import graph_name
from graphwalk_neo4j.learned.artifact import (
    METRICS_FILE,
    read_artifact_config,
    recorded_companion_plausible,
    trained_walk_defaults,
)
from graphwalk_neo4j.learned.options import FitOptions, SamplingOptions

if TYPE_CHECKING:
    from graphwalk_neo4j.progress import Progress
    from graphwalk_neo4j.store import GraphStore


@click.group(name="decider")
def decider_group() -> None:
    """Train and inspect learned decision models (--model learned:DIR)."""


@decider_group.command()
@click.option(
    "--graph",
    "graphs",
    required=True,
    multiple=True,
    help="The graph the questions are about. From the graphs alone, repeat it to train one model on several "
    "(a general model, for graphs it never saw: docs/decision-backends.md).",
)
@click.option(
    "--qa",
    "qa_files",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="Question–answer file(s); repeat for several.",
)
@click.option(
    "--from-walks",
    "--from-traces",
    "from_traces",
    is_flag=True,
    help="Learn from the graph's stored walks instead (the backend's distributions as soft targets); "
    "--from-traces is the old name.",
)
@click.option("--teacher", default=None, help="With --from-walks: only walks made by this model id.")
@click.option(
    "--questions",
    type=click.IntRange(100, 200_000),
    default=SamplingOptions.questions,
    show_default=True,
    help="From the graph alone (no --qa, no --from-walks): how many questions to write from its relation paths.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["metaqa", "jsonl"]),
    default="metaqa",
    show_default=True,
    help="metaqa: 'question with [topic]<TAB>a1|a2' lines; jsonl: {question, answers, topic?} lines.",
)
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=True), help="Artifact directory.")
@click.option("--seed", type=int, default=0, show_default=True, help="Split (and sample) seed.")
@click.option(
    "--per-file",
    type=click.IntRange(1),
    default=None,
    help="Use at most N questions of each file (seeded sample; default all).",
)
@click.option("--epochs", type=click.IntRange(1), default=FitOptions.epochs, show_default=True)
@click.option(
    "--members",
    type=click.IntRange(1, 16),
    default=FitOptions.members,
    show_default=True,
    help="Independently seeded fits whose scores are averaged (more: steadier, slower to train).",
)
@click.option(
    "--batch-size",
    "--batch",
    "batch_size",
    type=click.IntRange(1, 1024),
    default=256,
    show_default=True,
    help="Questions mined per Cypher round trip and hop.",
)
@exclude_option(
    "Walk rule the decisions are made under: later hops skip every visited node, or only the start "
    "entities, as question-answer data means it (recorded in the artifact: walk, eval and serve use it unless "
    "told otherwise).",
    default="start",
)
@click.option(
    "--augment",
    type=click.IntRange(0, 8),
    default=2,
    show_default=True,
    help="Rewordings of each training question seen besides the original (0: none).",
)
@click.option(
    "--neighbours",
    type=click.IntRange(0, 16),
    default=FitOptions.neighbours,
    show_default=True,
    help="With --augment: stand-ins per word of the graph's relations and types, found by the embedder among "
    "a general English word list, that the rewordings may use (0: only the built-in synonym lists).",
)
@click.option(
    "--default/--no-default",
    "make_default",
    default=True,
    show_default=True,
    help="Make the trained model the one GRAPH walks with when no model is named (CLI, HTTP and MCP); with "
    "several --graph, never (a model of several graphs is for the graphs without one).",
)
@click.option(
    "--companion/--alone",
    "companion",
    default=True,
    show_default=True,
    help="From one graph alone (no --qa, no --from-walks), with the MiniLM embedder: the model walks beside "
    "the shipped `general` model, their probabilities averaged (weight 0.5) on the moves it finds plausible "
    "(at least 0.1 of its top move's); --alone: by itself.",
)
@json_option
@click.pass_context
@handle_errors
def train(
    ctx: click.Context,
    graphs: tuple[str, ...],
    qa_files: tuple[str, ...],
    from_traces: bool,
    teacher: str | None,
    fmt: str,
    out_dir: str,
    seed: int,
    per_file: int | None,
    epochs: int,
    members: int,
    batch_size: int,
    exclude_scope: str,
    augment: int,
    neighbours: int,
    questions: int,
    make_default: bool,
    companion: bool,
    as_json: bool,
) -> None:
    """Train a learned decider on GRAPH: from question–answer pairs (--qa), from its stored walks
    (--from-walks), or, with neither, from the graph alone (questions written from its own relation paths).
    Re-run the same command to resume."""
    if qa_files and from_traces:
        raise ConfigError("use either --qa FILE or --from-walks, not both")
    if len(graphs) > 1 and (qa_files or from_traces):
        raise ConfigError(
            "several --graph train only from the graphs alone: drop --qa / --from-walks, or name one graph"
        )
    from graphwalk_neo4j.backends import GENERAL_EMBEDDERS, GENERAL_MODEL, record_graph_model
    from graphwalk_neo4j.embed import make_embedder
    from graphwalk_neo4j.learned.distill import train_from_traces
    from graphwalk_neo4j.learned.mining import MiningOptions, mining_config
    from graphwalk_neo4j.learned.training import train_from_graphs, train_from_qa

    names = [graph_name(g) for g in graphs]
    graph = names[0]
    make_default = make_default and len(names) == 1
    settings = load_settings(ctx)
    embedder = make_embedder(settings)
    fit_options = FitOptions(epochs=epochs, seed=seed, augment=augment, neighbours=neighbours, members=members)

    source = "traces" if from_traces else "qa" if qa_files else "graph"
    # a model of one graph alone walks beside the shipped one where it can read its vectors (backends.py)
    beside = GENERAL_MODEL if companion and len(names) == 1 and settings.embedder in GENERAL_EMBEDDERS else None

    async def trained(store: GraphStore, observe: Progress) -> dict[str, Any]:
        if source == "traces":
            return await train_from_traces(
                store, graph, embedder, out_dir, seed=seed, model=teacher, fit_options=fit_options, observe=observe
            )
        config = mining_config(exclude_scope=exclude_scope)
        mining = MiningOptions(batch_size=batch_size)
        if source == "graph":
            sampling = SamplingOptions(questions=questions, seed=seed)
            return await train_from_graphs(
                store,
                names,
                embedder,
                out_dir,
                sampling=sampling,
                config=config,
                mining=mining,
                fit_options=fit_options,
                observe=observe,
                companion=beside,
            )
        return await train_from_qa(
            store,
            graph,
            embedder,
            list(qa_files),
            out_dir,
            fmt=fmt,  # type: ignore[arg-type]
            seed=seed,
            per_file=per_file,
            config=config,
            mining=mining,
            fit_options=fit_options,
            observe=observe,
        )

    async def work() -> dict[str, Any]:
        async with connected(settings) as store:
            with BarProgress(quiet=as_json) as observer:
                metrics = await trained(store, observer)
            if make_default:
                metrics["default_for_graph"] = await record_graph_model(store, graph, out_dir, source)
            return metrics

    metrics = run(work())
    if as_json:
        emit_json({"out": out_dir, "metrics": metrics})
        return
    _print_summary(Path(out_dir))
    if make_default:
        out.print(f"  {graph} now walks with this model when no model is named", markup=False, highlight=False)


@decider_group.command()
@click.argument("directory", type=click.Path(file_okay=False))
@json_option
@handle_errors
def show(directory: str, as_json: bool) -> None:
    """Print what a learned-decider artifact is and how it scored."""
    read_artifact_config(directory)
    if as_json:
        config, metrics = _load(Path(directory))
        config.pop("vocab", None)
        emit_json({"config": config, "metrics": metrics, "walk_defaults": trained_walk_defaults(config)})
        return
    _print_summary(Path(directory))


def _load(directory: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    config = read_artifact_config(directory)
    metrics_path = directory / METRICS_FILE
    metrics = json.loads(metrics_path.read_text(encoding="utf-8")) if metrics_path.is_file() else {}
    return config, metrics


def walk_rule(defaults: dict[str, Any]) -> str:
    """What walks with this model take from its training (walk, eval and the service, unless chosen)."""
    if not defaults:
        return "the caller's walk settings (none recorded in training)"
    taken = ", ".join(f"{k}={json.dumps(v)}" for k, v in defaults.items())
    return f"{taken} (walk, eval and serve use it unless --exclude or a request's config chooses)"


def _data(config: dict[str, Any]) -> str:
    if config.get("source") == "graphs":
        parts = config.get("per_graph") or {}
        counts = ", ".join(f"{g} {(m.get('graph_questions') or {}).get('written')}" for g, m in parts.items())
        return f"questions written from each graph's own relation paths ({counts}; no question-answer pairs)"
    if config.get("source") == "graph":
        written = (config.get("graph_questions") or {}).get("written")
        return f"{written} questions written from the graph's own relation paths (no question-answer pairs)"
    return ", ".join(config.get("qa_files") or config.get("traces") or [])


def _role_types(config: dict[str, Any]) -> list[str]:
    """A line naming the types a graph without its own was given in training (learned/role_types.py), if any."""
    role_types = config.get("role_types") or {}
    if not role_types:
        return []
    names = sorted(set(role_types.values()))
    line = f"  node types: the graph has none; {len(names)} read from its structure: {', '.join(names)}"
    if config.get("unnamed_as_asked"):
        line += "; the one no relation names (item) read as the noun a question asks for"
    return [line]


def _companion(config: dict[str, Any]) -> str:
    """Whether the model walks beside another (``config.json`` ``companion``)."""
    if not config.get("companion"):
        return "alone"
    weight, plausible = config.get("companion_weight"), recorded_companion_plausible(config)
    return (
        f"beside `{config['companion']}` (probabilities averaged, weight {weight} on it, on the moves this model "
        f"gives at least {plausible} of its top move's; with the MiniLM embedder, else alone)"
    )


def _stop_rule(config: dict[str, Any]) -> str:
    if config.get("stop_rule", True):
        reach = "one or two moves away" if config.get("type_links") else "one move away"
        return f"on (no STOP where the question names another type of answer, {reach})"
    return 'off ("stop_rule": false in config.json)'


def _print_summary(directory: Path) -> None:
    config, metrics = _load(directory)
    val = metrics.get("val", {})
    before = metrics.get("val_before_temperature", {})
    lines = [
        f"learned decider {config.get('name')!s} ({directory})",
        f"  graph: {config.get('graph')}   source: {config.get('source')}   embedder: {config.get('embedder')}",
        f"  data: {_data(config)}",
        f"  training data sha256: {config.get('training_data_sha256')}",
        f"  split: {config.get('split')}   questions: {config.get('questions')}",
        f"  vocabulary: {len(config['vocab']['tokens'])} moves, {len(config['vocab']['types'])} types; "
        f"temperature {config.get('temperature', 1.0):.3f}; trained on {config.get('device')}",
        f"  decisions: {metrics.get('decisions')}",
        f"  walks under: {walk_rule(trained_walk_defaults(config))}",
        f"  stop rule: {_stop_rule(config)}",
        f"  walks: {_companion(config)}",
        *_role_types(config),
        f"  validation: accuracy {val.get('accuracy', float('nan')):.4f}, NLL {val.get('nll', float('nan')):.4f}, "
        f"ECE {val.get('ece', float('nan')):.4f} (before the temperature {before.get('ece', float('nan')):.4f})",
    ]
    for group, m in sorted((metrics.get("val_by_group") or {}).items()):
        lines.append(f"    {group}: accuracy {m['accuracy']:.4f} over {m['n']} decisions, ECE {m['ece']:.4f}")
    for group, c in sorted((metrics.get("mining_coverage") or {}).items()):
        lines.append(
            f"  mined {group}: {c['with_gold_path']}/{c['questions']} questions with a gold path, "
            f"mean best F1 {c['mean_best_f1']:.3f}"
        )
    if metrics.get("seconds"):
        lines.append(f"  seconds: {metrics['seconds']}")
    for line in lines:
        out.print(line, markup=False, highlight=False)
