"""Shared pieces of the text-ingest tests: the corpus, a scripted decider, the expected graph and readers of it.

:func:`ingest` runs text ingest with the extraction stand-in (:class:`tests.standins.extraction.ExtractionStandIn`)
and the scripted decider. The module holds no tests; the test
modules import from it (the ``standin`` fixture is in ``conftest.py``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.graph.writes import RESERVED_KEYS
from graphwalk_neo4j.ingest.documents import TextIngest, TextIngestReport
from graphwalk_neo4j.ingest.extraction import Extractor
from graphwalk_neo4j.ingest.routing import Router
from tests.helpers import json_object
from tests.standins.extraction import CORPUS, ExtractionStandIn

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from graphwalk_neo4j.decide.base import ChoiceQuestion

DOCS = CORPUS / "docs"
MODEL = "openai/standin-extractor"

# The decider reads like a person would: these mentions are other names of existing entities.
SAME_AS = {"harrow point light": "harrow point lighthouse", "m. quill": "marta quill"}
UNSURE = {"m. quill"}  # answered with p = 0.55, below the 0.6 threshold, so the adjudicator decides


def reader_answer(unsure: bool = True) -> Callable[[ChoiceQuestion, Any], Any]:
    def answer(question: ChoiceQuestion, state: Any) -> Any:
        mention = json_object(question.instructions)["mention"]["name"].casefold()
        wanted = SAME_AS.get(mention, mention)
        for label, card in question.options.items():
            if label != "NEW" and isinstance(card, dict) and card["name"].casefold() == wanted:
                return {label: 0.55, "NEW": 0.45} if unsure and mention in UNSURE else label
        return "NEW"

    return answer


def scripted_decider() -> FakeBackend:
    return FakeBackend(answer=reader_answer(unsure=True), model="fake-router")


def scripted_adjudicator() -> FakeBackend:
    return FakeBackend(answer=reader_answer(unsure=False), model="fake-adjudicator")


async def ingest(
    store: Any,
    graph: str,
    standin: ExtractionStandIn,
    paths: list[Path],
    *,
    timeout_s: float | None = None,
    **kwargs: Any,
) -> TextIngestReport:
    """Text-ingest ``paths``: ``standin`` extracts (no retries; ``timeout_s`` replaces the extractor's default), the
    scripted decider and adjudicator route in "decide" mode (``decider``, ``adjudicator``, ``mode`` replace them);
    other keywords go to :class:`TextIngest`."""
    decider = kwargs.pop("decider", scripted_decider())
    adjudicator = kwargs.pop("adjudicator", scripted_adjudicator())
    mode = kwargs.pop("mode", "decide")
    extractor = Extractor(
        MODEL,
        api_base=standin.api_base,
        api_key="sk-test",
        num_retries=0,
        timeout_s=60.0 if timeout_s is None else timeout_s,
    )
    router = Router(store, graph, decider=decider, adjudicator=adjudicator, mode=mode)
    return await TextIngest(store, graph=graph, extractor=extractor, router=router, **kwargs).run(paths)


# ---- reading the graph back ---------------------------------------------------------------------------------

ENTITY_KEYS = RESERVED_KEYS  # the project's own properties; everything else on an entity is an attribute


def doc_of(key: str) -> str:
    return key.split("|", 2)[2]


async def entities(store: Any, graph: str) -> dict[str, dict[str, Any]]:
    """name -> {type, labels, aliases, sources (doc ids), attributes, conflicts {key: {value: [doc ids]}}}."""
    rows = await store.query(
        "MATCH (n:Entity {graph: $g}) RETURN properties(n) AS p, labels(n) AS labels", {"g": graph}, read=True
    )
    out = {}
    for row in rows:
        p = row["p"]
        conflicts: dict[str, dict[Any, list[str]]] = {}
        for text in p["claims"]:
            claim = json.loads(text)
            if claim["key"] in p["conflict_keys"]:
                conflicts.setdefault(claim["key"], {}).setdefault(claim["value"], []).append(doc_of(claim["source"]))
        out[p["name"]] = {
            "type": p.get("type"),
            "labels": sorted(row["labels"]),
            "aliases": p["aliases"],
            "sources": sorted(doc_of(s) for s in p["sources"]),
            "attributes": {k: v for k, v in p.items() if k not in ENTITY_KEYS},
            "conflicts": conflicts,
        }
    return out


async def relations(store: Any, graph: str) -> set[tuple[str, str, str, tuple[str, ...], tuple[str, ...]]]:
    """(source name, type, target name, doc ids, chunk keys as 'doc#index') of every relationship."""
    rows = await store.query(
        "MATCH (a:Entity {graph: $g})-[r]->(b:Entity) RETURN a.name AS a, type(r) AS t, b.name AS b, "
        "r.sources AS sources, r.chunks AS chunks",
        {"g": graph},
        read=True,
    )
    return {
        (
            r["a"],
            r["t"],
            r["b"],
            tuple(sorted(doc_of(s) for s in r["sources"])),
            tuple(sorted(doc_of(c) for c in (r["chunks"] or []))),
        )
        for r in rows
    }


async def from_chunks(store: Any, graph: str) -> set[tuple[str, str]]:
    """(entity name, 'doc#index') for every FROM_CHUNK link that reaches a document through HAS_CHUNK."""
    rows = await store.query(
        "MATCH (n:Entity {graph: $g})-[:FROM_CHUNK]->(c:Chunk)<-[:HAS_CHUNK]-(d:Document) "
        "RETURN n.name AS n, d.doc_id + '#' + toString(c.index) AS c",
        {"g": graph},
        read=True,
    )
    return {(r["n"], r["c"]) for r in rows}


S, H, Q, R, C = (
    "01-saltmere.md",
    "02-harrow-light.txt",
    "03-quill-family.md",
    "04-renn-letters.json",
    "05-harbour-register.csv",
)


def entity(
    type_: str | None,
    sources: list[str],
    aliases: list[str] | None = None,
    attributes: dict[str, Any] | None = None,
    conflicts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "type": type_,
        "labels": sorted(["Entity", *([type_] if type_ else [])]),
        "aliases": aliases or [],
        "sources": sorted(sources),
        "attributes": attributes or {},
        "conflicts": conflicts or {},
    }


def expected_entities() -> dict[str, dict[str, Any]]:
    """The corpus graph with the reader-like decider: two alias merges, one attribute conflict."""
    return {
        "Saltmere": entity("Town", [S, Q], attributes={"charter_year": 1642, "population": 4100}),
        "Brackwater Estuary": entity("Estuary", [S]),
        "Harrow Point Lighthouse": entity(
            "Lighthouse",
            [S, H, R],
            aliases=["Harrow Point Light"],
            attributes={"completed": 1873, "height_m": 31},
            conflicts={"completed": {1873: [S], 1875: [H]}},
        ),
        "Marta Quill": entity(
            "Person", [S, Q, R], aliases=["M. Quill"], attributes={"years_as_keeper": 31, "born": 1841, "died": 1919}
        ),
        "Saltmere Regatta": entity("Event", [S], attributes={"month": "August"}),
        "Quill & Daughters": entity("Organization", [S, Q, C]),
        "Saltmere Rowing Club": entity(None, [S]),
        "Tobias Renn": entity("Person", [H, R]),
        "Kestle Quarry": entity("Quarry", [H]),
        "Ilse Quill": entity("Person", [Q]),
        "Gannet": entity("Vessel", [C], attributes={"launched": 1884}),
        "Curlew": entity("Vessel", [C], attributes={"launched": 1891}),
    }


def expected_relations() -> set[tuple[str, str, str, tuple[str, ...], tuple[str, ...]]]:
    def rel(a: str, t: str, b: str, *chunks: str) -> tuple[str, str, str, tuple[str, ...], tuple[str, ...]]:
        return (a, t, b, tuple(sorted({c.split("#")[0] for c in chunks})), tuple(sorted(chunks)))

    return {
        rel("Saltmere", "located_on", "Brackwater Estuary", f"{S}#0"),
        rel("Harrow Point Lighthouse", "located_in", "Saltmere", f"{S}#0"),
        rel("Marta Quill", "keeper_of", "Harrow Point Lighthouse", f"{S}#0"),
        rel("Saltmere Regatta", "held_in", "Saltmere", f"{S}#1"),
        rel("Quill & Daughters", "builds_boats_for", "Saltmere Regatta", f"{S}#1"),
        rel("Marta Quill", "founded", "Quill & Daughters", f"{S}#1", f"{Q}#0"),
        rel("Saltmere Rowing Club", "organises", "Saltmere Regatta", f"{S}#1"),
        rel("Tobias Renn", "designed", "Harrow Point Lighthouse", f"{H}#0", f"{R}#0"),
        rel("Harrow Point Lighthouse", "built_with_granite_from", "Kestle Quarry", f"{H}#0"),
        rel("Ilse Quill", "daughter_of", "Marta Quill", f"{Q}#0"),
        rel("Ilse Quill", "managed", "Quill & Daughters", f"{Q}#0"),
        rel("Quill & Daughters", "located_in", "Saltmere", f"{Q}#0"),
        rel("Tobias Renn", "wrote_to", "Marta Quill", f"{R}#0"),
        rel("Gannet", "built_by", "Quill & Daughters", f"{C}#0"),
        rel("Curlew", "built_by", "Quill & Daughters", f"{C}#0"),
    }


def expected_from_chunks() -> set[tuple[str, str]]:
    return {
        ("Saltmere", f"{S}#0"),
        ("Saltmere", f"{S}#1"),
        ("Saltmere", f"{Q}#0"),
        ("Brackwater Estuary", f"{S}#0"),
        ("Harrow Point Lighthouse", f"{S}#0"),
        ("Harrow Point Lighthouse", f"{H}#0"),
        ("Harrow Point Lighthouse", f"{R}#0"),
        ("Marta Quill", f"{S}#0"),
        ("Marta Quill", f"{S}#1"),
        ("Marta Quill", f"{Q}#0"),
        ("Marta Quill", f"{R}#0"),
        ("Saltmere Regatta", f"{S}#1"),
        ("Saltmere Rowing Club", f"{S}#1"),
        ("Quill & Daughters", f"{S}#1"),
        ("Quill & Daughters", f"{Q}#0"),
        ("Quill & Daughters", f"{C}#0"),
        ("Tobias Renn", f"{H}#0"),
        ("Tobias Renn", f"{R}#0"),
        ("Kestle Quarry", f"{H}#0"),
        ("Ilse Quill", f"{Q}#0"),
        ("Gannet", f"{C}#0"),
        ("Curlew", f"{C}#0"),
    }
