"""Extraction: reply parsing, cleanup rules (exact values), and the one-retry protocol (litellm replaced)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from graphwalk_neo4j.errors import ConfigError, ExtractionError
from graphwalk_neo4j.ingest.extraction import (
    PROMPT_VERSION,
    CleanExtraction,
    Extraction,
    Extractor,
    Fact,
    Mention,
    attribute_key,
    attribute_value,
    cache_key,
    clean_extraction,
    parse_reply,
    pascal_label,
    relation_name,
)


@pytest.mark.parametrize(
    ("raw", "label"),
    [
        ("person", "Person"),
        ("sea captain", "SeaCaptain"),
        ("LIGHTHOUSE", "Lighthouse"),
        ("boat-yard", "BoatYard"),
        ("organizationName", "OrganizationName"),
        ("Café owner", "CafeOwner"),
        ("映画監督", "映画監督"),
        ("морской капитан", "МорскойКапитан"),
        ("19th century fort", "T19thCenturyFort"),
        ("Document", "ExtractedDocument"),
        ("entity", None),
        ("Thing", None),
        ("", None),
        (None, None),
        ("!!", None),
    ],
)
def test_pascal_labels(raw: str | None, label: str | None) -> None:
    assert pascal_label(raw) == label


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("designed by", "designed_by"),
        ("wasBornIn", "was_born_in"),
        ("DESIGNED-BY", "designed_by"),
        ("1st owner of", "rel_1st_owner_of"),
        ("---", "related_to"),
        ("x" * 80, "x" * 64),
        ("監督する", "監督する"),
        ("снят режиссёром", "снят_режиссёром"),
    ],
)
def test_relation_names(raw: str, name: str) -> None:
    assert relation_name(raw) == name


def test_attribute_keys_and_values() -> None:
    assert [attribute_key(k) for k in ("Built Year", "name", "id", "updated_at", "9lives")] == [
        "built_year",
        "attr_name",
        "attr_id",
        "attr_updated_at",
        "attr_9lives",
    ]
    assert [attribute_value(v) for v in (3, 2.5, True, " x ", "", float("nan"), ["a", 1], [], {"a": 1}, None)] == [
        3,
        2.5,
        True,
        "x",
        None,
        None,
        "a; 1",
        None,
        None,
        None,
    ]


def test_clean_extraction_exactly() -> None:
    raw = Extraction.model_validate(
        {
            "entities": [
                {
                    "name": " Ada  Lovelace ",
                    "type": "person",
                    "description": "A  mathematician.",
                    "attributes": {"Born": 1815, "name": "x", "notes": {"a": 1}},
                },
                {
                    "name": "ada lovelace",
                    "type": "Scientist",
                    "description": "Later text.",
                    "attributes": {"born": 1816},
                },
                {"name": "Analytical Engine", "type": "machine"},
            ],
            "relations": [
                {"source": "Ada Lovelace", "type": "wrote about", "target": "analytical engine"},
                {"source": "ADA LOVELACE", "type": "wrote_about", "target": "Analytical Engine"},
                {"source": "Ada Lovelace", "type": "knows", "target": "Charles Babbage"},
                {"source": "Ada Lovelace", "type": "is", "target": "ada lovelace"},
            ],
        }
    )
    assert clean_extraction(raw) == CleanExtraction(
        mentions=[
            Mention(
                name="Ada Lovelace",
                type="Person",
                description="A mathematician.",
                attributes={"born": 1815, "attr_name": "x"},
            ),
            Mention(name="Analytical Engine", type="Machine"),
            Mention(name="Charles Babbage"),
        ],
        facts=[
            Fact(source="Ada Lovelace", type="wrote_about", target="Analytical Engine"),
            Fact(source="Ada Lovelace", type="knows", target="Charles Babbage"),
        ],
        dropped=["attribute 'notes' of 'Ada Lovelace' (not a scalar)", "self-loop 'Ada Lovelace' -is-> 'ada lovelace'"],
    )


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("I think there are two people.", "no JSON object"),
        ("{entities: []}", "not valid JSON"),
        ('{"entities": [{"type": "Person"}]}', "entities.0.name: Field required"),
        ('{"entities": [], "relations": [{"source": "a", "type": "", "target": "b"}]}', "relations.0.type"),
    ],
)
def test_parse_reply_errors_are_model_readable(reply: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_reply(reply)


def test_parse_reply_tolerates_fences_and_prose() -> None:
    reply = 'Here you go:\n```json\n{"entities": [{"name": "Saltmere"}]}\n```'
    assert parse_reply(reply).entities[0].name == "Saltmere"


def test_cache_key_depends_on_chunk_model_and_prompt_version() -> None:
    assert cache_key("h", "m") == cache_key("h", "m") != cache_key("h", "m2") != cache_key("h2", "m")
    assert PROMPT_VERSION == "extract-1"


class Scripted(Extractor):
    def __init__(self, replies: list[str], **kwargs: Any) -> None:
        super().__init__("openai/scripted", **kwargs)
        self.replies = replies
        self.seen: list[list[dict[str, str]]] = []

    async def _complete(self, messages: list[dict[str, str]]) -> Any:
        self.seen.append(messages)
        return self.replies.pop(0)


async def test_one_retry_with_the_validation_error() -> None:
    good = json.dumps({"entities": [{"name": "Saltmere", "type": "town"}]})
    extractor = Scripted(["not json", good])
    result = await extractor.extract("Saltmere is a town.")
    assert result.mentions == [Mention(name="Saltmere", type="Town")]
    assert (extractor.stats.calls, extractor.stats.retries, extractor.stats.failures) == (2, 1, 0)
    retry = extractor.seen[1]
    assert [m["role"] for m in retry] == ["system", "user", "assistant", "user"]
    assert retry[2]["content"] == "not json"
    assert retry[3]["content"].startswith("Your reply was not valid: the reply contains no JSON object.")


async def test_garbage_twice_raises() -> None:
    extractor = Scripted(["nope", '{"entities": "many"}'])
    with pytest.raises(ExtractionError, match=r"invalid reply twice for doc chunk 3: the JSON does not match"):
        await extractor.extract("text", label="doc chunk 3")
    assert (extractor.stats.calls, extractor.stats.failures) == (2, 1)


def test_extractor_needs_a_model() -> None:
    with pytest.raises(ConfigError, match="--llm-model"):
        Extractor("")
