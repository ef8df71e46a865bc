"""Systems under test for the evaluation: the :class:`QASystem` protocol, what one answer carries
(:class:`SystemAnswer`), and the graphwalk adapter (:class:`GraphwalkSystem`).

A system sees only :meth:`~graphwalk_neo4j.eval.metaqa.MetaQAQuestion.system_input` (id, text with and
without brackets, topic), never the gold answers or the question type. ``linking="gold"`` lets it start from
the bracketed topic; ``linking="resolve"`` makes it find its start in the text without brackets (and the
runner then reports linking accuracy on its own line: a linking miss is not counted as a wrong walk).

Answer sets (:func:`walk_answers`): in relation mode the prediction is the node set the best path stopped at
(one path = one answer set); in entity mode each finished path ends at one node, so the prediction is the end
nodes of every finished path in rank order (greedy: one node; beam k: up to k nodes).

The value types (:class:`~.answers.QASystem`, :class:`~.answers.SystemAnswer`, the round-trip counter) live in
:mod:`.answers`, so that the vector baseline and this module do not need each other.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, cast

from graphwalk_neo4j.backends import resolve_backend
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.eval.answers import CountingStore, QASystem, SystemAnswer
from graphwalk_neo4j.eval.baseline import DEFAULT_K, LLMReader, VectorSystem, build_index
from graphwalk_neo4j.graph.identity import entity_id
from graphwalk_neo4j.progress import QUIET, Progress
from graphwalk_neo4j.walk.config import WalkConfig, get_preset
from graphwalk_neo4j.walk.service import WalkService

if TYPE_CHECKING:
    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.eval.records import MetaQAOptions
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.walk.result import WalkPath, WalkResult

Linking = Literal["gold", "resolve"]
Closer = Callable[[], Awaitable[None]]


def walk_answers(result: WalkResult) -> list[str]:
    """The predicted answer set of a walk, ranked (see the module docstring)."""
    if not result.paths:
        return []
    if result.hop_mode == "relation":
        return list(dict.fromkeys(n.name for n in result.paths[0].end))
    ends = [n.name for p in result.paths if p.finished for n in p.end]
    if not ends:  # nothing stopped on its own (budget): fall back to the best open path
        ends = [n.name for n in result.paths[0].end]
    return list(dict.fromkeys(ends))


class GraphwalkSystem:
    """graphwalk over one graph with one walk configuration."""

    def __init__(
        self,
        name: str,
        service: WalkService,
        config: WalkConfig,
        *,
        linking: Linking = "gold",
        preset: str | None = None,
    ) -> None:
        self.name = name
        self.service = service
        self.config = config
        self.linking = linking
        self.preset = preset

    def describe(self) -> dict[str, Any]:
        return {
            "kind": "graphwalk",
            "preset": self.preset,
            "model": self.service.backend.model_id,
            "decider": repr(self.service.backend),
            "linking": self.linking,
            "config": self.config.model_dump(mode="json"),
        }

    async def answer(self, question: Mapping[str, str]) -> SystemAnswer:
        text = question["text_without_brackets"]
        # Gold linking starts from the bracketed topic by its entity id on an ingested graph (ids are the
        # canonical name's hash, so "Kismet" the film never resolves to "kismet" the tag); a topic missing from
        # the graph falls back to a name lookup inside the service, whose failure is a linking miss. An adopted
        # graph's nodes have no such ids, so there the topic is looked up by name at once (one round trip,
        # where trying the id first cost a failed look-up, a search for suggestions and a second walk).
        adopted = (await self.service.profile()).adopted
        topic = question["topic"]
        start = ([topic] if adopted else [entity_id(topic)]) if self.linking == "gold" else None
        outcome = await self.service.walk(text, self.config, start=start)
        result = outcome.result
        if start is not None and not adopted and result.status == "no_start":
            outcome = await self.service.walk(text, self.config, start=[question["topic"]])
            result = outcome.result
        linking = outcome.linking
        best = result.best_path
        totals = result.totals
        return SystemAnswer(
            answers=walk_answers(result),
            status=result.status,
            stop_reason=result.stop_reason,
            path=best.describe() if best is not None else None,
            walk_id=result.walk_id,
            linked=[n.name for n in linking.start] if linking is not None else [],
            linking_method=linking.method if linking is not None else None,
            decision_calls=totals.decision_calls + (linking.decision_calls if linking is not None else 0),
            input_tokens=totals.input_tokens,
            output_tokens=totals.output_tokens,
            cost_usd=totals.cost_usd,
            extra={
                "depths": totals.depths,
                "hops": sum(1 for s in best.steps if not s.is_stop) if best else 0,
                "confidence": path_probability(best) if best is not None else 0.0,
            },
        )


def path_probability(path: WalkPath) -> float:
    """The product of the decider's probabilities for the choices along ``path`` (forced moves count 1)."""
    return math.prod(s.p for s in path.steps if s.p is not None)


def system_name(preset: str, overrides: Mapping[str, Any]) -> str:
    """``graphwalk:relation`` or, with overrides, ``graphwalk:relation+strategy=beam``."""
    extra = "".join(f"+{k}={v}" for k, v in sorted(overrides.items()))
    return f"graphwalk:{preset}{extra}"


async def build_systems(
    store: GraphStore, settings: Settings, options: MetaQAOptions, embedder: Embedder, progress: Progress = QUIET
) -> tuple[list[QASystem], list[Closer]]:
    """The systems a MetaQA run asks for, and the async closers to call when it ends."""
    if options.system not in ("graphwalk", "vector", "all"):
        raise ConfigError(f"unknown system {options.system!r}: use graphwalk, vector or all")
    systems: list[QASystem] = []
    closers: list[Closer] = []
    if options.system in ("graphwalk", "all"):
        backend = resolve_backend(settings, options.model, embedder_factory=lambda _s: embedder)
        closers.append(backend.aclose)
        service = WalkService(
            CountingStore(store),  # type: ignore[arg-type]
            options.graph,
            backend,
            embedder=embedder,
            trace=options.trace,
        )
        for preset in options.presets:
            try:
                config = get_preset(preset).with_overrides(**options.overrides)
            except ValueError as exc:
                raise ConfigError(f"invalid walk options for preset {preset!r}: {exc}") from exc
            # the learned model's exclusion rule unless the options chose one; run.json records the result
            configured = service.configure(config)
            config = configured.config
            warning = configured.warning(backend.model_id)
            if warning:
                progress.stage(f"{warning} ({preset})")
            systems.append(
                GraphwalkSystem(
                    system_name(preset, options.overrides),
                    service,
                    config,
                    linking=cast("Linking", options.linking),
                    preset=preset,
                )
            )
    if options.system in ("vector", "all"):
        progress.stage("loading (or building) the vector baseline's document index")
        index = await build_index(store, options.graph, embedder, options.cache_dir, progress=progress)
        reader = None
        if options.llm_model:
            reader = LLMReader(
                options.llm_model,
                api_base=settings.llm_api_base,
                api_key=settings.llm_api_key,
                timeout_s=settings.decision_timeout_s,
            )
        k = options.vector_k or DEFAULT_K
        systems.append(
            VectorSystem(index, embedder, k=k, reader=reader, name="vector+reader" if reader else f"vector@{k}")
        )
    return systems, closers
