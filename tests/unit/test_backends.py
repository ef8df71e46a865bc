from __future__ import annotations

import pytest
from pydantic import SecretStr

from graphwalk_neo4j.backends import describe_backends, graph_model_choice, resolve_backend, resolve_model_kind
from graphwalk_neo4j.decide import FakeBackend, JevBackend, LLMBackend, LocalDecider
from graphwalk_neo4j.embed import FakeEmbedder
from graphwalk_neo4j.embed.onnx import OnnxMiniLMEmbedder
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.learned.artifact import FORMAT_VERSION, read_artifact_config
from graphwalk_neo4j.learned.model import LearnedDecider
from graphwalk_neo4j.resources import data_file
from graphwalk_neo4j.settings import Settings


@pytest.mark.parametrize(
    ("model", "typesafe", "openrouter", "provider", "expected"),
    [
        (None, False, False, None, ("local", "local", None)),
        (None, True, False, None, ("jev", "jev-1.13.0", "typesafe")),
        (None, False, True, None, ("jev", "typesafe/jev-1.13", "openrouter")),
        (None, True, True, None, ("jev", "jev-1.13.0", "typesafe")),
        (None, True, True, "openrouter", ("jev", "typesafe/jev-1.13", "openrouter")),
        ("", True, False, None, ("jev", "jev-1.13.0", "typesafe")),
        ("jev", False, False, None, ("jev", "jev-1.13.0", "typesafe")),
        ("jev", False, True, None, ("jev", "typesafe/jev-1.13", "openrouter")),
        ("jev-1.13.0", True, False, None, ("jev", "jev-1.13.0", "typesafe")),
        ("jev-1.14.2", False, True, None, ("jev", "typesafe/jev-1.14", "openrouter")),
        ("typesafe/jev-1.13", True, False, None, ("jev", "typesafe/jev-1.13", "openrouter")),
        ("local", True, True, None, ("local", "local", None)),
        ("fake", False, False, None, ("fake", "fake", None)),
        ("openai/gpt-4o-mini", True, False, None, ("llm", "openai/gpt-4o-mini", None)),
        ("anthropic/claude-3-5-haiku", False, False, None, ("llm", "anthropic/claude-3-5-haiku", None)),
    ],
)
def test_resolve_model_kind(model, typesafe, openrouter, provider, expected) -> None:
    assert resolve_model_kind(model, typesafe, openrouter, provider) == expected


@pytest.mark.parametrize("model", ["jev-latest", "typesafe/jev-latest", "JEV-LATEST"])
def test_floating_aliases_are_refused(model: str) -> None:
    with pytest.raises(ConfigError, match="refusing the floating model alias"):
        resolve_model_kind(model, True, True)


def test_openrouter_id_with_typesafe_provider_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="OpenRouter id"):
        resolve_model_kind("typesafe/jev-1.13", True, False, "typesafe")


def _settings(**kw) -> Settings:
    base = {"typesafe_api_key": None, "openrouter_api_key": None, "model": None, "jev_provider": None}
    base.update(kw)
    return Settings.model_construct(**{**Settings().model_dump(), **base})


def test_resolve_backend_builds_each_kind() -> None:
    factory_calls = []

    def factory(settings: Settings) -> FakeEmbedder:
        factory_calls.append(settings)
        return FakeEmbedder(32)

    local = resolve_backend(_settings(), embedder_factory=factory)
    assert isinstance(local, LocalDecider)
    assert local.model_id == "local:fake-hash-32"
    assert len(factory_calls) == 1
    assert isinstance(resolve_backend(_settings(), "fake"), FakeBackend)
    llm = resolve_backend(_settings(llm_api_base="http://127.0.0.1:9/v1"), "openai/test-model")
    assert isinstance(llm, LLMBackend)
    assert llm.api_base == "http://127.0.0.1:9/v1"
    jev = resolve_backend(_settings(openrouter_api_key=SecretStr("or-secret")))
    assert isinstance(jev, JevBackend)
    assert (jev.provider, jev.model_id, jev.base_url) == (
        "openrouter",
        "typesafe/jev-1.13",
        "https://openrouter.ai/api",
    )
    assert "or-secret" not in repr(jev)


def test_jev_without_its_key_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as info:
        resolve_backend(_settings(), "jev")
    assert str(info.value) == "Jev on typesafe needs an API key: set TYPESAFE_API_KEY"


def test_describe_backends_never_shows_key_values() -> None:
    settings = _settings(typesafe_api_key=SecretStr("ts-very-secret"), openrouter_api_key=SecretStr("or-secret"))
    info = describe_backends(settings)
    assert info["kind"] == "jev"
    assert info["model"] == "jev-1.13.0"
    assert info["provider"] == "typesafe"
    assert info["keys"] == {
        "TYPESAFE_API_KEY": True,
        "OPENROUTER_API_KEY": True,
        "GW_NEO4J_LLM_API_KEY": False,
    }
    assert info["ok"] is True
    assert info["base_url"] == "https://api.typesafe.ai"
    text = repr(info)
    assert "ts-very-secret" not in text
    assert "or-secret" not in text
    local = describe_backends(_settings())
    assert local["kind"] == "local"
    assert local["ok"] is True
    assert local["note"] == (
        "no Jev key configured: a walk takes its graph's own model, else `general` (the learned decider that ships)"
    )
    fake = describe_backends(_settings(embedder="fake"))
    assert (
        fake["note"]
        == "no Jev key configured: a walk takes its graph's own model, else the local embedding-similarity decider"
    )
    assert (
        describe_backends(_settings(model="local"))["note"] == "the local embedding-similarity decider (GW_NEO4J_MODEL)"
    )
    bad = describe_backends(_settings(model="jev-latest"))
    assert bad["ok"] is False
    assert "floating" in bad["error"]
    missing = describe_backends(_settings(model="jev", jev_provider="openrouter"))
    assert missing["ok"] is False
    assert missing["error"] == "Jev on openrouter needs OPENROUTER_API_KEY"


@pytest.mark.parametrize("model", ["general", "General", " general "])
def test_general_names_the_shipped_learned_decider(model: str) -> None:
    kind, directory, provider = resolve_model_kind(model, True, True)
    assert (kind, provider) == ("learned", None)
    assert directory == str(data_file("models/general"))


def test_the_shipped_general_model_was_trained_on_graphs_other_than_metaqa() -> None:
    """The package carries the whole artifact (scripts/build_general_model.sh), in the current format, and none of
    its training graphs is MetaQA: its MetaQA scores in docs/eval.md are those of a graph it never saw."""
    directory = data_file("models/general")
    assert sorted(p.name for p in directory.iterdir()) == ["config.json", "linker.json", "metrics.json", "model.npz"]
    config = read_artifact_config(directory)
    assert config["format"] == FORMAT_VERSION
    assert config["source"] == "graphs"
    assert config["graphs"] == ["gw_general_companies", "gw_general_companies_freebase", "gw_general_movies"]
    assert not any("metaqa" in graph for graph in config["graphs"])
    assert config["type_links"] == {}  # links are one graph's schema; this model walks others
    decider = LearnedDecider.load(directory, OnnxMiniLMEmbedder())  # lazy: nothing is encoded
    assert len(decider.members) == 3


class NoGraphModels:
    """A store whose graphs have no model of their own recorded (``GET_GRAPH_MODEL`` finds nothing)."""

    async def read(self, query: object, **params: object) -> list[dict[str, str]]:
        return []


@pytest.mark.parametrize(
    ("settings", "model", "shown"),
    [
        (Settings(), "general", "decider: general, the learned decider trained on other graphs (this graph has no"),
        (Settings(embedder="minilm"), "general", "decider: general, the learned decider trained on other graphs"),
        (Settings(embedder="fake"), None, "decider: local (this graph has no trained model;"),
        (Settings(typesafe_api_key=SecretStr("k")), None, "decider: jev-1.13.0 (this graph has no trained model;"),
    ],
)
async def test_a_graph_without_its_own_model_walks_with_the_general_one_where_it_fits(
    settings: Settings, model: str | None, shown: str
) -> None:
    """No model named, none set, none trained for the graph: Jev with a key; else the shipped general model when the
    embedder gives the vectors it was trained over; else local. The line says which and how to train one."""
    choice = await graph_model_choice(NoGraphModels(), settings, "g", None)  # type: ignore[arg-type]
    assert (choice.model, choice.reason) == (model, "default")
    assert choice.note.startswith(shown)
    assert "`gw-neo4j decider train --graph g --out DIR` trains one from the graph alone" in choice.note
    if model == "general":
        assert choice.note.endswith("; `--model local` walks with the embedding-similarity decider)")
