"""The foreign dev sets shipped in graphwalk_neo4j/data/devsets/ (scripts/make_devsets.py): every question loads, its
written-out gold path over its own kb.txt gives exactly its answers, the relation names parse as data, and the
type map beside each KB is the one eval uses."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.errors import InputError
from graphwalk_neo4j.eval.metaqa import PathStep, build_adjacency, follow_path, load_questions, path_qtype, qtype_path
from graphwalk_neo4j.eval.runner import kb_type_map
from graphwalk_neo4j.ingest.parsers import parse_file
from graphwalk_neo4j.resources import data_file, metaqa_type_map

if TYPE_CHECKING:
    from pathlib import Path

DEVSETS = data_file("devsets")
SETS: dict[str, dict[str, tuple[int, ...]]] = {
    "companies": {"dev": (2, 3), "hand": (2, 3)},
    "companies_freebase": {"dev": (2, 3), "hand": (2, 3)},
    "companies_wikidata": {"dev": (2, 3), "hand": (2, 3)},
    "football": {"dev": (2, 3), "hand": (2, 3)},
    "movies": {"hand": (1, 2, 3)},
    "northwind": {"dev": (2, 3), "hand": (1, 2, 3)},
    "people": {"dev": (2, 3), "hand": (2, 3)},
    "people_freebase": {"dev": (2, 3), "hand": (2, 3)},
    "pole": {"dev": (2, 3), "hand": (1, 2, 3)},
}


def test_the_shipped_sets_are_the_documented_ones() -> None:
    assert sorted(p.name for p in DEVSETS.iterdir() if p.is_dir()) == sorted(SETS)


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_question_is_answered_by_its_gold_path_over_its_own_graph(name: str) -> None:
    folder = DEVSETS / name
    batches, report = parse_file(folder / "kb.txt")
    assert report.ok
    triples = [(r.subject, r.relation, r.object) for batch in batches for r in batch]
    relations = {r for _, r, _ in triples}
    assert set(kb_type_map(folder)[1]) == relations  # every relation typed, nothing else
    adjacency = build_adjacency(triples)
    asked = 0
    for split, hops in SETS[name].items():
        for k in hops:
            questions = load_questions(folder, split, k)
            assert len(questions) >= 7
            for q in questions:
                path = qtype_path(q.qtype or "")
                assert len(path) == k
                assert {step.relation for step in path} <= relations
                assert sorted(follow_path(adjacency, q.topic, path)) == sorted(q.answers), q.id
            asked += len(questions)
    assert asked >= 30


def test_the_three_namings_ask_the_same_questions_over_the_same_graph() -> None:
    plain, freebase, wikidata = (DEVSETS / n for n in ("companies", "companies_freebase", "companies_wikidata"))
    names = [
        {(s, o) for s, _, o in (line.split("|") for line in (d / "kb.txt").read_text().splitlines())}
        for d in (plain, freebase, wikidata)
    ]
    assert names[0] == names[1] == names[2]
    for split in ("dev", "hand"):
        for k in (2, 3):
            texts = [[q.text for q in load_questions(d, split, k)] for d in (plain, freebase, wikidata)]
            assert texts[0] == texts[1] == texts[2]
    relations = {line.split("|")[1] for line in (freebase / "kb.txt").read_text().splitlines()}
    assert "/people/person/place_of_birth" in relations
    assert "__business__employment__employer" in relations
    assert json.loads((wikidata / "relations.json").read_text())["P19"] == "place of birth"


def test_the_people_graph_under_freebase_names_asks_the_same_questions() -> None:
    plain, freebase = DEVSETS / "people", DEVSETS / "people_freebase"
    pairs = [
        [(s, o) for s, _, o in (line.split("|") for line in (d / "kb.txt").read_text().splitlines())]
        for d in (plain, freebase)
    ]
    assert pairs[0] == pairs[1]
    for split in ("dev", "hand"):
        for k in (2, 3):
            assert [q.text for q in load_questions(plain, split, k)] == [
                q.text for q in load_questions(freebase, split, k)
            ]
    relations = {line.split("|")[1] for line in (freebase / "kb.txt").read_text().splitlines()}
    assert {"__people__person__spouse_s", "/people/deceased_person/cause_of_death"} <= relations
    assert len(relations) == 13


def test_a_written_out_path_round_trips_and_a_bad_one_is_refused() -> None:
    path = (PathStep("/film/film/directed_by", "in"), PathStep("P57", "out"))
    assert qtype_path(path_qtype(path)) == path
    assert qtype_path("director_to_movie") == (PathStep("directed_by", "in"),)
    with pytest.raises(InputError, match="is not JSON"):
        qtype_path("[oops")
    with pytest.raises(InputError, match=r'a JSON list of \[relation, "out" or "in"\] pairs'):
        qtype_path('[["directed_by", "sideways"]]')


def test_a_folder_without_types_json_gets_the_metaqa_map() -> None:
    assert kb_type_map(DEVSETS) == ("metaqa", metaqa_type_map())


def test_type_map_asked_for_by_name_or_file_wins_over_the_folder(tmp_path: Path) -> None:
    folder = DEVSETS / "people"
    assert kb_type_map(folder, "none") == ("none", {})
    assert kb_type_map(folder, "metaqa") == ("metaqa", metaqa_type_map())
    own = tmp_path / "own.json"
    own.write_text('{"knows": ["Person", null]}', encoding="utf-8")
    assert kb_type_map(folder, str(own)) == (str(own), {"knows": ("Person", None)})
    with pytest.raises(InputError, match="cannot read the type map"):
        kb_type_map(folder, str(tmp_path / "missing.json"))


@pytest.mark.parametrize(
    ("name", "relations", "types"),
    [
        (
            "northwind",
            {"SUPPLIES", "PART_OF", "PURCHASED", "ORDERS", "SOLD", "SHIPS", "REPORTS_TO", "IN_TERRITORY", "IN_REGION"},
            {"Supplier", "Product", "Category", "Customer", "Order", "Employee", "Shipper", "Territory", "Region"},
        ),
        (
            "pole",
            {"KNOWS", "FAMILY_REL", "CURRENT_ADDRESS", "PARTY_TO", "OCCURRED_AT", "INVESTIGATED_BY", "INVOLVED_IN"},
            {"Person", "Location", "Crime", "Officer", "Vehicle", "Area", "Phone", "Email"},
        ),
    ],
)
def test_the_example_graphs_keep_their_own_names_and_unique_nodes(
    name: str, relations: set[str], types: set[str]
) -> None:
    """Northwind and POLE keep the relationship types and labels their example datasets write, each node's name
    stands for one node only (a name shared by two labels would merge them), and the template split is sized."""
    folder = DEVSETS / name
    typed = json.loads((folder / "types.json").read_text())
    assert relations <= set(typed)
    assert types <= {t for pair in typed.values() for t in pair}
    label_of: dict[str, str] = {}
    for line in (folder / "kb.txt").read_text(encoding="utf-8").splitlines():
        subject, relation, obj = line.split("|")
        for node, label in zip((subject, obj), typed[relation], strict=True):
            assert label_of.setdefault(node, label) == label, (node, label, label_of[node])
    for k in (2, 3):
        questions = load_questions(folder, "dev", k)
        assert 100 <= len(questions) <= 200
        assert all(1 <= len(q.answers) <= 30 for q in questions)
        assert len({q.text for q in questions}) == len(questions)
