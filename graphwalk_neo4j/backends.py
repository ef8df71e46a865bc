"""The one place that turns settings and a model name into a decision backend.

Rules (:func:`resolve_model_kind`):

==============================  ===========================================================================
model                           backend
==============================  ===========================================================================
``None`` / empty                Jev when a TypeSafe or OpenRouter key is configured, else ``local``
``jev``                         Jev, pinned id of the provider (``jev-1.13.0`` / ``typesafe/jev-1.13``)
``jev-<version>``               Jev on TypeSafe with that id (on OpenRouter: ``typesafe/jev-<major.minor>``)
``typesafe/<id>``               Jev on OpenRouter with that id
``local``                       :class:`LocalDecider` (embedding similarity, no key, no network)
``learned:DIR``                 :class:`LearnedDecider` trained by ``gw-neo4j decider train`` into ``DIR``
``general``                     the learned decider that ships in the package, trained from the graphs alone of
                                graphs other than the one walked (``data/models/general``; docs/decision-backends.md)
``fake``                        :class:`FakeBackend` (tests)
anything else                   :class:`LLMBackend` through litellm (``openai/gpt-4o-mini``, ...)
==============================  ===========================================================================

The Jev provider is ``GW_NEO4J_JEV_PROVIDER`` when set; otherwise ``typesafe`` when ``TYPESAFE_API_KEY`` is
set, else ``openrouter`` when ``OPENROUTER_API_KEY`` is set. Floating ``*-latest`` ids are refused
(ConfigError).
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.decide.local import LocalDecider
from graphwalk_neo4j.embed import make_embedder
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.llm import provider_of
from graphwalk_neo4j.resources import data_file
from graphwalk_neo4j.store.queries import GET_GRAPH_MODEL, PUT_GRAPH_MODEL

if TYPE_CHECKING:
    from collections.abc import Callable

    from graphwalk_neo4j.decide.base import DecisionBackend
    from graphwalk_neo4j.embed.base import Embedder
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

Kind = Literal["jev", "local", "fake", "llm", "learned"]
GENERAL_MODEL = "general"  # the shipped learned decider's name (resolve_model_kind)
GENERAL_MODEL_DIR = "models/general"  # its artifact, under graphwalk_neo4j/data/
# The embedder settings whose vectors the shipped model was trained over (both give MiniLM's model id): with one of
# them and no Jev key, a graph without a model of its own walks with it (graph_model_choice), else with local.
GENERAL_EMBEDDERS = frozenset({"minilm-onnx", "minilm"})
PINNED = {"typesafe": "jev-1.13.0", "openrouter": "typesafe/jev-1.13"}
_JEV_VERSION = re.compile(r"^jev-(?P<version>\d+(?:\.\d+)*(?:[-.][\w.]+)?)$", re.IGNORECASE)


def _refuse_latest(model: str) -> None:
    if model.lower().endswith("-latest") or model.lower().endswith("/latest"):
        raise ConfigError(
            f"refusing the floating model alias {model!r}: pin a version (jev-1.13.0 on TypeSafe, "
            "typesafe/jev-1.13 on OpenRouter) so traces and evals are reproducible"
        )


def general_model_dir() -> Path:
    """The artifact ``general`` names: the learned decider that ships in the package."""
    return data_file(GENERAL_MODEL_DIR)


def _provider(has_typesafe_key: bool, has_openrouter_key: bool, provider: str | None) -> str:
    if provider:
        if provider not in PINNED:
            raise ConfigError(f"unknown GW_NEO4J_JEV_PROVIDER {provider!r}: use typesafe or openrouter")
        return provider
    if has_typesafe_key:
        return "typesafe"
    if has_openrouter_key:
        return "openrouter"
    return "typesafe"


def resolve_model_kind(
    model: str | None,
    has_typesafe_key: bool,
    has_openrouter_key: bool,
    provider: str | None = None,
) -> tuple[Kind, str, str | None]:
    """Pure routing: ``(kind, model_id, jev_provider)``; ``jev_provider`` is None unless kind is ``jev``."""
    name = (model or "").strip()
    lowered = name.lower()
    if not name:
        if has_typesafe_key or has_openrouter_key:
            chosen = _provider(has_typesafe_key, has_openrouter_key, provider)
            return "jev", PINNED[chosen], chosen
        return "local", "local", None
    if lowered == "local":
        return "local", "local", None
    if lowered == GENERAL_MODEL:
        return "learned", str(general_model_dir()), None
    if lowered.startswith("learned:"):
        directory = name.split(":", 1)[1].strip()
        if not directory:
            raise ConfigError("--model learned:DIR needs the artifact directory (from `gw-neo4j decider train`)")
        return "learned", directory, None
    if lowered == "fake":
        return "fake", "fake", None
    if lowered == "jev":
        chosen = _provider(has_typesafe_key, has_openrouter_key, provider)
        return "jev", PINNED[chosen], chosen
    if lowered.startswith("typesafe/"):
        _refuse_latest(name)
        if provider == "typesafe":
            raise ConfigError(
                f"model {name!r} is an OpenRouter id, but GW_NEO4J_JEV_PROVIDER=typesafe: use jev-<version> "
                "for TypeSafe direct"
            )
        return "jev", name, "openrouter"
    if lowered.startswith("jev-"):
        _refuse_latest(name)
        match = _JEV_VERSION.match(name)
        if match is None:
            raise ConfigError(f"cannot read a Jev version from {name!r} (expected e.g. jev-1.13.0)")
        chosen = _provider(has_typesafe_key, has_openrouter_key, provider)
        if chosen == "openrouter":
            major_minor = ".".join(match.group("version").split(".")[:2])
            return "jev", f"typesafe/jev-{major_minor}", "openrouter"
        return "jev", name, "typesafe"
    return "llm", name, None


def _has(secret: Any) -> bool:
    return secret is not None and bool(secret.get_secret_value().strip())


def _default_embedder_factory(settings: Settings) -> Embedder:
    return make_embedder(settings)


def resolve_backend(
    settings: Settings,
    model: str | None = None,
    embedder_factory: Callable[[Settings], Embedder] | None = None,
) -> DecisionBackend:
    """Build the backend for ``model`` (or ``settings.model``). Nothing is called over the network here; call
    ``JevBackend.verify()`` at start-up to check the pinned id."""
    kind, model_id, provider = resolve_model_kind(
        model if model is not None else settings.model,
        _has(settings.typesafe_api_key),
        _has(settings.openrouter_api_key),
        settings.jev_provider,
    )
    # Each remote or learned backend's module (the Jev SDK and httpx, the LLM client, the learned model) is
    # imported only when it is the one chosen: a local walk does not wait for them (docs/benchmarks.md, start-up).
    if kind == "jev":
        from graphwalk_neo4j.decide.jev import JevBackend

        return JevBackend.from_settings(settings, model=model_id, provider=provider)  # type: ignore[arg-type]
    if kind == "local":
        factory = embedder_factory or _default_embedder_factory
        return LocalDecider(factory(settings))
    if kind == "learned":
        from graphwalk_neo4j.learned.artifact import COMPANION_WEIGHT, recorded_companion_plausible
        from graphwalk_neo4j.learned.model import LearnedDecider

        factory = embedder_factory or _default_embedder_factory
        embedder = factory(settings)
        learned = LearnedDecider.load(model_id, embedder)
        if not walks_beside_general(learned.config, settings):
            return learned
        # trained from its graph alone: it walks beside the shipped model (learned.artifact.COMPANION_WEIGHT,
        # COMPANION_PLAUSIBLE; an artifact from before the floor was recorded walks with today's)
        general = LearnedDecider.load(general_model_dir(), embedder)
        try:
            return learned.with_companion(
                general,
                float(learned.config.get("companion_weight") or COMPANION_WEIGHT),
                float(recorded_companion_plausible(learned.config)),
            )
        except (TypeError, ValueError) as exc:  # a hand-edited config.json
            raise ConfigError(
                f"{model_id}: config.json's companion_weight / companion_plausible: {exc}; "
                "set them in range or retrain with `gw-neo4j decider train`"
            ) from exc
    if kind == "fake":
        return FakeBackend(record=False)  # a service or benchmark runs it for hours: it keeps no requests
    from graphwalk_neo4j.decide.llm import LLMBackend

    check_litellm_model(model_id)
    return LLMBackend.from_settings(settings, model_id)


def check_litellm_model(model: str) -> str:
    """Refuse, before anything is loaded or called, a model name litellm cannot route to a provider (a typo
    such as ``no-such-model``); offline, no request is made. Returns the provider's name."""
    provider = provider_of(model)
    if provider is None:
        raise ConfigError(
            f"unknown decision model {model!r}: use jev, jev-<version>, typesafe/<id>, local, or a litellm name "
            "with its provider (e.g. openai/gpt-4o-mini, ollama/llama3)"
        )
    return provider


def describe_backends(settings: Settings) -> dict[str, Any]:
    """For ``gw-neo4j doctor``: the backend in effect and which keys are present (never their values)."""
    has_typesafe = _has(settings.typesafe_api_key)
    has_openrouter = _has(settings.openrouter_api_key)
    info: dict[str, Any] = {
        "model_setting": settings.model,
        "jev_provider_setting": settings.jev_provider,
        "keys": {
            "TYPESAFE_API_KEY": has_typesafe,
            "OPENROUTER_API_KEY": has_openrouter,
            "GW_NEO4J_LLM_API_KEY": _has(settings.llm_api_key),
        },
        "jev_base_url": settings.jev_base_url,
        "llm_api_base": settings.llm_api_base,
        "embedder": settings.embedder,
        "decision_concurrency": settings.decision_concurrency,
        "decision_timeout_s": settings.decision_timeout_s,
    }
    try:
        kind, model_id, provider = resolve_model_kind(
            settings.model, has_typesafe, has_openrouter, settings.jev_provider
        )
    except ConfigError as exc:
        info.update(kind=None, model=None, provider=None, ok=False, error=str(exc))
        return info
    info.update(kind=kind, model=model_id, provider=provider, ok=True, error=None)
    if kind == "jev":
        key_present = has_openrouter if provider == "openrouter" else has_typesafe
        if not key_present:
            env = "OPENROUTER_API_KEY" if provider == "openrouter" else "TYPESAFE_API_KEY"
            info.update(ok=False, error=f"Jev on {provider} needs {env}")
        else:
            from graphwalk_neo4j.decide.jev import DEFAULT_BASE_URLS

            info["base_url"] = settings.jev_base_url or DEFAULT_BASE_URLS[provider or "typesafe"]
    elif kind == "local" and not settings.model:
        fallback = (
            f"else `{GENERAL_MODEL}` (the learned decider that ships)"
            if settings.embedder in GENERAL_EMBEDDERS
            else "else the local embedding-similarity decider"
        )
        info["note"] = f"no Jev key configured: a walk takes its graph's own model, {fallback}"
    elif kind == "local":
        info["note"] = "the local embedding-similarity decider (GW_NEO4J_MODEL)"
    return info


# -- a graph's own model ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GraphModelChoice:
    """The model a walk on a graph uses when its caller named none, and why."""

    model: str | None  # for resolve_backend: None means the usual default (Jev with a key, else local)
    reason: Literal["chosen", "setting", "graph", "default"]
    note: str  # one line for the user


async def record_graph_model(store: GraphStore, graph: str, directory: str | Path, source: str) -> str:
    """Make the artifact in ``directory`` the model ``graph`` walks with by default; returns its absolute path."""
    path = str(await asyncio.to_thread(Path(directory).resolve))
    await store.write(PUT_GRAPH_MODEL, graph=graph, path=path, source=source, trained_at=datetime.now(UTC).isoformat())
    return path


def walks_beside_general(config: dict[str, Any], settings: Settings) -> bool:
    """Whether a learned model with this ``config.json`` walks beside the shipped one (``resolve_backend``): it was
    trained so (``companion``) and the embedder gives the vectors the shipped one reads."""
    return config.get("companion") == GENERAL_MODEL and settings.embedder in GENERAL_EMBEDDERS


def _beside(directory: str, settings: Settings) -> str:
    """``, beside `general``` where the model at ``directory`` walks beside the shipped one, else empty (an
    unreadable config says nothing here: loading the model reports it)."""
    from graphwalk_neo4j.learned.artifact import read_artifact_config

    try:
        config = read_artifact_config(directory)
    except ConfigError:
        return ""
    return f", beside `{GENERAL_MODEL}`" if walks_beside_general(config, settings) else ""


async def graph_model_choice(store: GraphStore, settings: Settings, graph: str, model: str | None) -> GraphModelChoice:
    """A named model, else ``GW_NEO4J_MODEL``, else the model trained for ``graph`` (``decider train`` records
    it), else Jev with a key, else the shipped general model (``general``, trained on other graphs) when the
    embedder is MiniLM, else local; with a line saying which and, without a model of the graph's own, how to train
    one."""
    if model:
        return GraphModelChoice(model, "chosen", f"decider: {model} (as chosen)")
    if settings.model:
        return GraphModelChoice(settings.model, "setting", f"decider: {settings.model} (GW_NEO4J_MODEL)")
    rows = await store.read(GET_GRAPH_MODEL, graph=graph)
    row = rows[0] if rows else None
    if row is not None and await asyncio.to_thread(Path(row["path"]).is_dir):
        beside = await asyncio.to_thread(_beside, row["path"], settings)
        return GraphModelChoice(
            f"learned:{row['path']}",
            "graph",
            f"decider: learned:{row['path']} (this graph's own model, trained from {row['source']}{beside})",
        )
    _, model_id, _ = resolve_model_kind(
        None, _has(settings.typesafe_api_key), _has(settings.openrouter_api_key), settings.jev_provider
    )
    train = f"`gw-neo4j decider train --graph {graph} --out DIR` trains one from the graph alone"
    fallback: str | None = None
    if model_id == "local" and settings.embedder in GENERAL_EMBEDDERS:
        fallback, model_id = GENERAL_MODEL, f"{GENERAL_MODEL}, the learned decider trained on other graphs"
        train += "; `--model local` walks with the embedding-similarity decider"
    elif model_id == "local":
        train += f"; `--model {GENERAL_MODEL}` (with the MiniLM embedder) walks with the model trained on other graphs"
    if row is not None:
        return GraphModelChoice(
            fallback, "default", f"decider: {model_id} (this graph's model at {row['path']} is gone; {train})"
        )
    return GraphModelChoice(fallback, "default", f"decider: {model_id} (this graph has no trained model; {train})")
