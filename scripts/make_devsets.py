"""Build the foreign dev sets in ``graphwalk_neo4j/data/devsets/`` (docs/eval.md, "Foreign dev sets").

    python scripts/make_devsets.py --movies-cypher PATH/movies.cypher --northwind-csv NORTHWIND/import \
        --pole-zip POLE/data/pole-data-importer.zip

Each set is a folder in MetaQA's layout, so ``gw-neo4j eval metaqa --data FOLDER`` walks it with the path ceiling:
``kb.txt`` (``subject|relation|object``), ``types.json`` (relation -> [subject type, object type]),
``qa_{split}_{k}hop.txt`` (``question with one [topic]<TAB>answer|answer``) and beside each its
``_qtype.txt``, whose lines are the gold paths written out (``[["works_at", "out"], ...]``). Answers are computed
from the graph by following that path with the ceiling's own rule (:func:`graphwalk_neo4j.eval.metaqa.follow_path`:
on paths of two or more hops the topic is never passed through or answered), so every ceiling is 1.

* ``companies``: a generated graph of people, companies, universities, cities and countries (seeded, so the
  same files every run), with split ``dev`` (2- and 3-hop questions from templates, several wordings each) and
  split ``hand`` (the questions in :data:`HAND`, each worded by hand; the topic is drawn from the graph).
* ``companies_freebase``: the same graph and questions with Freebase-style relation names
  (``/people/person/place_of_birth``, and ``__``-joined compound ones such as ``__business__employment__employer``).
* ``companies_wikidata``: the same with Wikidata property ids as relation names (``P19``) and the English labels
  of entities as names; ``relations.json`` keeps each id's label (what a user's Wikidata export would carry).
* ``people``: a generated biographical graph (:func:`people_graph`), relations named plainly, and
  ``people_freebase``: the same graph and questions with the names Freebase gives those properties
  (``/people/person/nationality``, ``/people/deceased_person/cause_of_death``, ``__people__person__spouse_s``).
* ``football``: a generated league graph (:func:`football_graph`) with its relations named as verb phrases
  (``plays_for``, ``wears_number``, ``coached_by``), splits ``dev`` and ``hand``.
* ``movies``: Neo4j's Movies example graph (``:play movies``, 38 movies, 133 people; read from its Cypher script,
  e.g. ``docker/db/import/movies.cypher`` in neo4j-examples/movies-php-client) as triples, with ``released`` and
  ``born`` years as year nodes, and split ``hand`` (1- to 3-hop questions written by hand, :data:`MOVIE_HAND`).
* ``northwind``: Neo4j's Northwind example (neo4j-graph-examples/northwind, the CSV files in ``import/``) with
  its relationship types (``SUPPLIES``, ``PART_OF``, ``PURCHASED``, ``ORDERS``, ...) and the orders of 1997
  (:func:`northwind_graph`), split ``dev`` (:data:`NORTHWIND_TEMPLATES`) and split ``hand`` (1- to 3-hop
  questions written for their topics, :data:`NORTHWIND_HAND`).
* ``pole``: Neo4j's POLE crime-investigation example (neo4j-graph-examples/pole, ``data/pole-data-importer.zip``),
  every person and the crimes around them (:func:`pole_graph`), splits ``dev`` (:data:`POLE_TEMPLATES`) and
  ``hand`` (:data:`POLE_HAND`).

Node names are unique in each graph: a name two nodes share gets the label or a key in brackets
(``Seattle (city)``, ``NewYork (10019)``).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import random
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from graphwalk_neo4j.eval.metaqa import PathStep, build_adjacency, follow_path, path_qtype

if TYPE_CHECKING:
    from collections.abc import Sequence

OUT = Path(__file__).resolve().parents[1] / "graphwalk_neo4j" / "data" / "devsets"
MAX_ANSWERS = 25  # a question with more answers than this is too broad to be a fair question

FIRST = (
    "Ada Anil Bea Cato Dara Elif Emil Femi Gita Hana Ines Ivo Jana Joel Kai Kira Lars Lea Lina Luca Maja Malik Mei "
    "Mila Nadia Nils Noor Omar Oskar Pia Rafa Rosa Sami Sana Tariq Teo Una Vera Yara Zeno"
).split()
LAST = (
    "Abara Berg Castell Dunmore Eklund Farrow Galdos Haldane Ivers Jansen Kovac Lindqvist Moreau Nakamura Okafor "
    "Petrov Quist Rahman Sandoval Takeda Ulloa Varga Weller Xu Yilmaz Zoric Brandt Costa Dahl Esposito"
).split()
COMPANY_HEAD = (
    "Amber Basalt Cobalt Delta Ember Fjord Granite Harbor Indigo Juniper Kestrel Lumen Meridian Nimbus Onyx Pioneer "
    "Quarry Redwood Summit Tidal Umber Vantage Willow Zenith"
).split()
COMPANY_TAIL = "Systems Foods Logistics Energy Labs Media Motors Textiles Robotics Health".split()
INDUSTRIES = (
    "software", "food processing", "shipping", "renewable energy", "biotechnology", "publishing", "automotive",
    "textiles", "robotics", "health care",
)  # fmt: skip
COUNTRIES = ("Norvania", "Estmark", "Calderra", "Ostravia", "Veloria", "Tamsin Isles", "Brevia", "Kharland")
CITY_PARTS = ("Al", "Bran", "Cor", "Dun", "Esk", "Fen", "Gal", "Hol", "Ist", "Kel", "Lor", "Mar", "Nor", "Ost")
CITY_ENDS = ("bury", "haven", "holt", "mere", "stad", "ford", "vik", "port")

# relation -> (subject type, object type); the plain names of the companies graph.
TYPES = {
    "works_at": ("Person", "Company"),
    "born_in": ("Person", "City"),
    "studied_at": ("Person", "University"),
    "manages": ("Person", "Person"),
    "headquartered_in": ("Company", "City"),
    "founded_by": ("Company", "Person"),
    "in_industry": ("Company", "Industry"),
    "subsidiary_of": ("Company", "Company"),
    "city_in": ("City", "Country"),
    "campus_in": ("University", "City"),
}
FREEBASE = {
    "works_at": "__business__employment__employer",
    "born_in": "/people/person/place_of_birth",
    "studied_at": "__education__education__institution",
    "manages": "/business/employment/manager",
    "headquartered_in": "/organization/organization/headquarters",
    "founded_by": "/organization/organization/founders",
    "in_industry": "/business/business_operation/industry",
    "subsidiary_of": "/organization/organization/parent",
    "city_in": "/location/location/containedby",
    "campus_in": "/education/educational_institution/campuses",
}
WIKIDATA = {  # property id, its English label
    "works_at": ("P108", "employer"),
    "born_in": ("P19", "place of birth"),
    "studied_at": ("P69", "educated at"),
    "manages": ("P1037", "director / manager"),
    "headquartered_in": ("P159", "headquarters location"),
    "founded_by": ("P112", "founded by"),
    "in_industry": ("P452", "industry"),
    "subsidiary_of": ("P749", "parent organization"),
    "city_in": ("P17", "country"),
    "campus_in": ("P131", "located in the administrative territorial entity"),
}

Path_ = tuple[tuple[str, str], ...]
# Template questions: (start type, path, wordings). ``{}`` is the topic.
TEMPLATES: list[tuple[str, Path_, tuple[str, ...]]] = [
    ("Person", (("works_at", "out"), ("headquartered_in", "out")),
     ("which city is the company [{}] works for based in", "where is the employer of [{}] headquartered")),
    ("Person", (("born_in", "out"), ("city_in", "out")),
     ("in which country was [{}] born", "what country is the birthplace of [{}] in")),
    ("Company", (("founded_by", "out"), ("born_in", "out")),
     ("where was the founder of [{}] born", "in which city were the founders of [{}] born")),
    ("Person", (("works_at", "out"), ("works_at", "in")),
     ("who works at the same company as [{}]", "name the colleagues of [{}]")),
    ("City", (("headquartered_in", "in"), ("in_industry", "out")),
     ("what industries are the companies based in [{}] in", "which industries have headquarters in [{}]")),
    ("University", (("studied_at", "in"), ("works_at", "out")),
     ("which companies employ people who studied at [{}]", "where do graduates of [{}] work")),
    ("Company", (("subsidiary_of", "out"), ("headquartered_in", "out")),
     ("where is the parent company of [{}] headquartered", "in which city is the owner of [{}] based")),
    ("Person", (("manages", "out"), ("studied_at", "out")),
     ("where did the people managed by [{}] study", "which universities did the reports of [{}] attend")),
    ("Person", (("works_at", "out"), ("headquartered_in", "out"), ("city_in", "out")),
     ("in which country is the employer of [{}] headquartered", "what country is the company of [{}] based in")),
    ("Person", (("studied_at", "out"), ("studied_at", "in"), ("works_at", "out")),
     ("which companies employ people who went to the same university as [{}]",
      "where do the fellow alumni of [{}] work")),
    ("Company", (("founded_by", "out"), ("studied_at", "out"), ("campus_in", "out")),
     ("in which city is the university the founder of [{}] attended",
      "where is the campus of the school that the founders of [{}] went to")),
    ("Industry", (("in_industry", "in"), ("headquartered_in", "out"), ("city_in", "out")),
     ("in which countries are [{}] companies headquartered", "what countries host the head offices of [{}] firms")),
    ("City", (("born_in", "in"), ("works_at", "out"), ("in_industry", "out")),
     ("which industries employ people born in [{}]", "what industries do natives of [{}] work in")),
    ("Company", (("subsidiary_of", "in"), ("founded_by", "out"), ("born_in", "out")),
     ("where were the founders of the subsidiaries of [{}] born",
      "in which cities were the people who founded companies owned by [{}] born")),
]  # fmt: skip

# Hand-written questions over the companies graph: each worded once, by hand; the topic is drawn from the graph.
HAND: list[tuple[str, Path_, str]] = [
    ("Person", (("born_in", "out"), ("city_in", "out")), "which country does [{}] come from"),
    ("Person", (("works_at", "out"), ("in_industry", "out")), "what line of business is [{}] in"),
    ("Person", (("works_at", "out"), ("founded_by", "out")), "who started the firm that [{}] works for"),
    ("Person", (("studied_at", "out"), ("campus_in", "out")), "in what city did [{}] go to university"),
    ("Person", (("manages", "in"), ("works_at", "out")), "which company does the boss of [{}] work for"),
    ("Person", (("manages", "out"), ("born_in", "out")), "where are the people [{}] supervises from"),
    ("Person", (("works_at", "out"), ("subsidiary_of", "out")), "which group owns the company [{}] is employed by"),
    ("Person", (("founded_by", "in"), ("headquartered_in", "out")), "where are the companies [{}] founded based"),
    ("Company", (("headquartered_in", "out"), ("city_in", "out")), "which country is [{}] based in"),
    ("Company", (("works_at", "in"), ("born_in", "out")), "where do the employees of [{}] come from"),
    ("Company", (("works_at", "in"), ("studied_at", "out")), "which schools did the staff of [{}] attend"),
    ("Company", (("founded_by", "out"), ("works_at", "out")), "where does the founder of [{}] work today"),
    ("Company", (("subsidiary_of", "in"), ("in_industry", "out")), "what do the subsidiaries of [{}] do"),
    ("City", (("born_in", "in"), ("studied_at", "out")), "where did people from [{}] study"),
    ("City", (("campus_in", "in"), ("studied_at", "in")), "who studied at a university in [{}]"),
    ("City", (("headquartered_in", "in"), ("founded_by", "out")), "who founded the companies with offices in [{}]"),
    ("Country", (("city_in", "in"), ("headquartered_in", "in")), "which companies are headquartered in [{}]"),
    ("University", (("studied_at", "in"), ("born_in", "out")), "where were the alumni of [{}] born"),
    ("University", (("campus_in", "out"), ("city_in", "out")), "in which country is [{}]"),
    ("Industry", (("in_industry", "in"), ("founded_by", "out")), "who founded the [{}] companies"),
    ("Person", (("works_at", "out"), ("headquartered_in", "out"), ("city_in", "out")),
     "[{}] works for a company based in which country"),
    ("Person", (("born_in", "out"), ("born_in", "in"), ("works_at", "out")),
     "which companies do people from the hometown of [{}] work for"),
    ("Person", (("manages", "out"), ("studied_at", "out"), ("campus_in", "out")),
     "in which cities did the team of [{}] go to university"),
    ("Person", (("works_at", "out"), ("subsidiary_of", "out"), ("headquartered_in", "out")),
     "where is the parent of the company employing [{}] based"),
    ("Person", (("manages", "in"), ("born_in", "out"), ("city_in", "out")),
     "which country is the manager of [{}] from"),
    ("Company", (("works_at", "in"), ("born_in", "out"), ("city_in", "out")),
     "what countries do the people at [{}] come from"),
    ("Company", (("founded_by", "out"), ("studied_at", "out"), ("studied_at", "in")),
     "who went to school with the founder of [{}]"),
    ("Company", (("headquartered_in", "out"), ("headquartered_in", "in"), ("in_industry", "out")),
     "what industries are the neighbours of [{}] in, the firms based in the same city"),
    ("City", (("born_in", "in"), ("works_at", "out"), ("headquartered_in", "out")),
     "where are the employers of people born in [{}] based"),
    ("City", (("city_in", "out"), ("city_in", "in"), ("campus_in", "in")),
     "which universities are in the same country as [{}]"),
    ("Country", (("city_in", "in"), ("born_in", "in"), ("works_at", "out")),
     "which companies employ people born in [{}]"),
    ("University", (("studied_at", "in"), ("works_at", "out"), ("in_industry", "out")),
     "what industries do graduates of [{}] end up in"),
    ("University", (("studied_at", "in"), ("founded_by", "in"), ("headquartered_in", "out")),
     "where are the companies founded by alumni of [{}] based"),
    ("Industry", (("in_industry", "in"), ("works_at", "in"), ("studied_at", "out")),
     "which universities did people working in [{}] attend"),
    ("Industry", (("in_industry", "in"), ("subsidiary_of", "out"), ("headquartered_in", "out")),
     "where are the parents of [{}] companies headquartered"),
    ("Person", (("studied_at", "out"), ("studied_at", "in"), ("born_in", "out")),
     "where do the classmates of [{}] come from"),
]  # fmt: skip

# Hand-written questions over the Movies graph: (topic, path, wording), every one written for its topic.
MOVIE_HAND: list[tuple[str, Path_, str]] = [
    ("The Matrix", (("DIRECTED", "in"),), "who directed [The Matrix]"),
    ("Top Gun", (("ACTED_IN", "in"),), "who was in the cast of [Top Gun]"),
    ("Tom Hanks", (("ACTED_IN", "out"),), "which films did [Tom Hanks] act in"),
    ("Rob Reiner", (("DIRECTED", "out"),), "what movies did [Rob Reiner] direct"),
    ("Keanu Reeves", (("born", "out"),), "what year was [Keanu Reeves] born"),
    ("Unforgiven", (("released", "out"),), "when did [Unforgiven] come out"),
    ("Cameron Crowe", (("WROTE", "out"),), "which scripts did [Cameron Crowe] write"),
    ("Jerry Maguire", (("PRODUCED", "in"),), "who produced [Jerry Maguire]"),
    ("Jessica Thompson", (("REVIEWED", "out"),), "which movies has [Jessica Thompson] reviewed"),
    ("James Thompson", (("FOLLOWS", "out"),), "who does [James Thompson] follow"),
    ("The Matrix", (("ACTED_IN", "in"), ("ACTED_IN", "out")), "what else did the actors of [The Matrix] star in"),
    ("Tom Cruise", (("ACTED_IN", "out"), ("DIRECTED", "in")), "who has directed [Tom Cruise]"),
    ("Meg Ryan", (("ACTED_IN", "out"), ("ACTED_IN", "in")), "who has shared the screen with [Meg Ryan]"),
    ("Nora Ephron", (("DIRECTED", "out"), ("released", "out")), "in which years did [Nora Ephron] release films"),
    ("Clint Eastwood", (("DIRECTED", "out"), ("ACTED_IN", "in")), "who acted in movies [Clint Eastwood] directed"),
    ("When Harry Met Sally", (("WROTE", "in"), ("DIRECTED", "out")),
     "which films did the writer of [When Harry Met Sally] direct"),
    ("Cloud Atlas", (("DIRECTED", "in"), ("DIRECTED", "out")),
     "what other films come from the directors of [Cloud Atlas]"),
    ("Apollo 13", (("ACTED_IN", "in"), ("born", "out")), "what years were the stars of [Apollo 13] born in"),
    ("1999", (("released", "in"), ("DIRECTED", "in")), "who directed the movies released in [1999]"),
    ("Jack Nicholson", (("ACTED_IN", "out"), ("PRODUCED", "in")), "who produced the films [Jack Nicholson] was in"),
    ("Lana Wachowski", (("DIRECTED", "out"), ("ACTED_IN", "in")), "name the actors [Lana Wachowski] has directed"),
    ("Ron Howard", (("DIRECTED", "out"), ("released", "out")), "when were [Ron Howard]'s movies released"),
    ("Jessica Thompson", (("REVIEWED", "out"), ("DIRECTED", "in")),
     "who directed the movies [Jessica Thompson] reviewed"),
    ("Tom Hanks", (("ACTED_IN", "out"), ("DIRECTED", "in"), ("DIRECTED", "out")),
     "what other films did the directors of [Tom Hanks]'s movies make"),
    ("Keanu Reeves", (("ACTED_IN", "out"), ("DIRECTED", "in"), ("born", "out")),
     "in which years were the directors who worked with [Keanu Reeves] born"),
    ("Top Gun", (("ACTED_IN", "in"), ("ACTED_IN", "out"), ("released", "out")),
     "when were the other films of the [Top Gun] cast released"),
    ("Aaron Sorkin", (("WROTE", "out"), ("ACTED_IN", "in"), ("ACTED_IN", "out")),
     "which movies star actors from the films written by [Aaron Sorkin]"),
    ("Rob Reiner", (("DIRECTED", "out"), ("ACTED_IN", "in"), ("ACTED_IN", "out")),
     "what else have the actors of [Rob Reiner]'s films appeared in"),
    ("James Thompson", (("FOLLOWS", "out"), ("REVIEWED", "out"), ("DIRECTED", "in")),
     "who directed the films reviewed by the people [James Thompson] follows"),
    ("The Birdcage", (("DIRECTED", "in"), ("DIRECTED", "out"), ("ACTED_IN", "in")),
     "who acted in the films by the director of [The Birdcage]"),
]  # fmt: skip


def _path(steps: Path_, names: dict[str, str] | None = None) -> tuple[PathStep, ...]:
    return tuple(PathStep((names or {}).get(r, r), d) for r, d in steps)  # type: ignore[arg-type]


def city_names(rng: random.Random, count: int) -> list[str]:
    """``count`` distinct made-up city names (a prefix of :data:`CITY_PARTS` and an ending of :data:`CITY_ENDS`),
    drawn in order from ``rng``."""
    cities: list[str] = []
    while len(cities) < count:
        name = rng.choice(CITY_PARTS) + rng.choice(CITY_ENDS)
        if name not in cities:
            cities.append(name)
    return cities


def person_names(rng: random.Random) -> list[str]:
    """Every first name of :data:`FIRST` with every surname of :data:`LAST`, shuffled by ``rng``."""
    return rng.sample([f"{f} {last}" for f in FIRST for last in LAST], len(FIRST) * len(LAST))


def company_graph(seed: int = 7) -> tuple[list[tuple[str, str, str]], dict[str, list[str]]]:
    """The companies graph: triples with the plain relation names, and the entities of each type."""
    rng = random.Random(seed)
    cities = city_names(rng, 36)
    people = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], 420)
    companies = rng.sample([f"{h} {t}" for h in COMPANY_HEAD for t in COMPANY_TAIL], 70)
    universities = [f"University of {c}" for c in rng.sample(cities, 12)] + [
        f"{h} Institute of Technology" for h in rng.sample(COMPANY_HEAD, 6)
    ]
    triples: list[tuple[str, str, str]] = []
    for city in cities:
        triples.append((city, "city_in", rng.choice(COUNTRIES)))
    for uni in universities:
        home = uni.removeprefix("University of ") if uni.startswith("University of ") else rng.choice(cities)
        triples.append((uni, "campus_in", home))
    for company in companies:
        triples.append((company, "headquartered_in", rng.choice(cities)))
        triples.append((company, "in_industry", rng.choice(INDUSTRIES)))
        for founder in rng.sample(people, rng.choice((1, 1, 2))):
            triples.append((company, "founded_by", founder))
    for company in rng.sample(companies, 24):
        parent = rng.choice([c for c in companies if c != company])
        triples.append((company, "subsidiary_of", parent))
    for person in people:
        triples.append((person, "born_in", rng.choice(cities)))
        triples.append((person, "works_at", rng.choice(companies)))
        if rng.random() < 0.8:
            triples.append((person, "studied_at", rng.choice(universities)))
    for manager in rng.sample(people, 90):
        for report in rng.sample(people, rng.choice((1, 2, 3))):
            if report != manager:
                triples.append((manager, "manages", report))
    triples = sorted(set(triples))
    kinds = {
        "Person": people,
        "Company": companies,
        "University": universities,
        "City": cities,
        "Country": sorted(set(COUNTRIES) & {o for _, r, o in triples if r == "city_in"}),
        "Industry": sorted(set(INDUSTRIES) & {o for _, r, o in triples if r == "in_industry"}),
    }
    return triples, kinds


def _answers(adj: dict[str, dict[PathStep, set[str]]], topic: str, path: Sequence[PathStep]) -> list[str]:
    found = follow_path(adj, topic, path)
    return sorted(found) if 0 < len(found) <= MAX_ANSWERS else []


Question = tuple[str, list[str], tuple[PathStep, ...]]


def template_questions(
    triples: list[tuple[str, str, str]],
    kinds: dict[str, list[str]],
    per_template: int,
    seed: int = 11,
    templates: Sequence[tuple[str, Path_, tuple[str, ...]]] = TEMPLATES,
) -> dict[int, list[Question]]:
    adj = build_adjacency(triples)
    rng = random.Random(seed)
    out: dict[int, list[Question]] = {2: [], 3: []}
    for kind, steps, wordings in templates:
        path = _path(steps)
        topics = [t for t in sorted(kinds[kind]) if _answers(adj, t, path)]
        for i, topic in enumerate(rng.sample(topics, min(per_template, len(topics)))):
            out[len(path)].append((wordings[i % len(wordings)].format(topic), _answers(adj, topic, path), path))
    return out


def hand_questions(
    triples: list[tuple[str, str, str]],
    kinds: dict[str, list[str]],
    seed: int = 13,
    hand: Sequence[tuple[str, Path_, str]] = HAND,
) -> dict[int, list[Question]]:
    adj = build_adjacency(triples)
    rng = random.Random(seed)
    out: dict[int, list[Question]] = {2: [], 3: []}
    for kind, steps, wording in hand:
        path = _path(steps)
        topics = [t for t in sorted(kinds[kind]) if _answers(adj, t, path)]
        topic = rng.choice(topics)
        out[len(path)].append((wording.format(topic), _answers(adj, topic, path), path))
    return out


def rename(questions: dict[int, list[Question]], names: dict[str, str]) -> dict[int, list[Question]]:
    return {
        hops: [(q, a, tuple(PathStep(names[s.relation], s.direction) for s in p)) for q, a, p in qs]
        for hops, qs in questions.items()
    }


def write_set(
    folder: Path,
    triples: Sequence[tuple[str, str, str]],
    types: dict[str, tuple[str, str]],
    splits: dict[str, dict[int, list[Question]]],
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for s, r, o in triples:
        assert not any(c in x for x in (s, r, o) for c in "|\t\n"), (s, r, o)
    (folder / "kb.txt").write_text("".join(f"{s}|{r}|{o}\n" for s, r, o in triples), encoding="utf-8")
    (folder / "types.json").write_text(json.dumps(types, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for split, by_hops in splits.items():
        for hops, questions in by_hops.items():
            if not questions:
                continue
            stem = folder / f"qa_{split}_{hops}hop"
            stem.with_suffix(".txt").write_text(
                "".join(f"{q}\t{'|'.join(a)}\n" for q, a, _ in questions), encoding="utf-8"
            )
            Path(f"{stem}_qtype.txt").write_text(
                "".join(path_qtype(p) + "\n" for _, _, p in questions), encoding="utf-8"
            )


_NODE = re.compile(r"CREATE \((\w+):(Movie|Person) \{(.*)\}\)")
_TITLE = re.compile(r"""(title|name):\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")""")
_YEAR = re.compile(r"(released|born):\s*(\d+)")
_EDGE = re.compile(r"\((\w+)\)-\[:(\w+)(?:\s*\{[^}]*\})?\]->\((\w+)\)")


def movies_graph(cypher: str) -> list[tuple[str, str, str]]:
    """The Movies example's nodes and relationships as triples (``Person|ACTED_IN|Movie``, ``Movie|released|1999``,
    ``Person|born|1964``)."""
    names: dict[str, str] = {}
    triples: set[tuple[str, str, str]] = set()
    for var, _label, props in _NODE.findall(cypher):
        title = _TITLE.search(props)
        assert title, props
        names[var] = (title.group(2) or title.group(3) or "").replace("\\'", "'")
        year = _YEAR.search(props)
        if year:
            triples.add((names[var], year.group(1), year.group(2)))
    for src, rel, dst in _EDGE.findall(cypher):
        triples.add((names[src], rel, names[dst]))
    return sorted(triples)


MOVIE_TYPES = {
    "ACTED_IN": ("Person", "Movie"),
    "DIRECTED": ("Person", "Movie"),
    "PRODUCED": ("Person", "Movie"),
    "WROTE": ("Person", "Movie"),
    "REVIEWED": ("Person", "Movie"),
    "FOLLOWS": ("Person", "Person"),
    "released": ("Movie", "Year"),
    "born": ("Person", "Year"),
}


def _disambiguate(nodes: dict[tuple[str, str], tuple[str, str]]) -> dict[tuple[str, str], str]:
    """Unique node names: ``(label, key) -> (name, tiebreak)`` gives each node its name, or, where two nodes share
    a name, the name with the label (``Seattle (city)``) when it is the only one of its label so named, else with
    its tiebreak (``NewYork (10019)``)."""
    by_name: dict[str, list[tuple[str, str]]] = {}
    for node, (name, _) in sorted(nodes.items()):
        assert name, node
        assert name == name.strip(), node
        assert not any(c in name for c in "[]|\t\n"), node
        by_name.setdefault(name, []).append(node)
    out: dict[tuple[str, str], str] = {}
    for name, same in by_name.items():
        labels = [label for label, _ in same]
        for node in same:
            if len(same) == 1:
                out[node] = name
            elif labels.count(node[0]) == 1:
                out[node] = f"{name} ({node[0].lower()})"
            else:
                out[node] = f"{name} ({nodes[node][1]})"
    assert len(set(out.values())) == len(out), "names still shared"
    return out


def _csv_rows(text: str) -> list[dict[str, str]]:
    """The rows of a CSV file as dicts. Some Northwind rows carry an unquoted comma inside a name or an address
    (``Pavlova, Ltd.``, ``Rua do Paço, 67``); while a row has too many fields, the first field followed by one that
    starts with a space is joined to it again."""
    header, *lines = csv.reader(io.StringIO(text))
    out = []
    for fields in lines:
        while len(fields) > len(header):
            i = next(i for i in range(len(fields) - 1) if fields[i + 1].startswith(" "))
            fields[i : i + 2] = [f"{fields[i]},{fields[i + 1]}"]
        assert len(fields) == len(header), fields
        out.append({k: v.strip() for k, v in zip(header, fields, strict=True)})
    return out


NORTHWIND_YEAR = "1997"  # the orders kept: those placed in this year (408 of 830)


def northwind_graph(folder: Path) -> tuple[list[tuple[str, str, str]], dict[str, list[str]]]:
    """Neo4j's Northwind example from its ``import/`` CSV files (neo4j-graph-examples/northwind), with the
    relationship types of that repository's import model: ``SUPPLIES``, ``PART_OF``, ``PURCHASED``, ``ORDERS``,
    ``SOLD``, ``SHIPS``, ``REPORTS_TO``, ``IN_TERRITORY``, ``IN_REGION``; the properties ``country`` (of a
    supplier), ``city`` (of a customer) and ``shipCountry`` (of an order) as nodes. Only the orders of
    :data:`NORTHWIND_YEAR` are kept."""

    def rows(name: str) -> list[dict[str, str]]:
        return _csv_rows((folder / f"{name}.csv").read_text(encoding="utf-8"))

    nodes: dict[tuple[str, str], tuple[str, str]] = {}
    edges: list[tuple[tuple[str, str], str, tuple[str, str]]] = []

    def node(label: str, key: str, name: str, tiebreak: str = "") -> tuple[str, str]:
        nodes[(label, key)] = (name, tiebreak or key)
        return (label, key)

    def value(label: str, name: str) -> tuple[str, str]:
        return node(label, name, name)

    categories = {r["categoryID"]: node("Category", r["categoryID"], r["categoryName"]) for r in rows("categories")}
    suppliers = {r["supplierID"]: node("Supplier", r["supplierID"], r["companyName"]) for r in rows("suppliers")}
    for r in rows("suppliers"):
        edges.append((suppliers[r["supplierID"]], "country", value("Country", r["country"])))
    for r in rows("products"):
        product = node("Product", r["productID"], r["productName"])
        edges.append((product, "PART_OF", categories[r["categoryID"]]))
        edges.append((suppliers[r["supplierID"]], "SUPPLIES", product))
    customers = {}
    for r in rows("customers"):
        customers[r["customerID"]] = node("Customer", r["customerID"], r["companyName"])
        edges.append((customers[r["customerID"]], "city", value("City", r["city"])))
    employees = {}
    for r in rows("employees"):
        employees[r["employeeID"]] = node("Employee", r["employeeID"], f"{r['firstName']} {r['lastName']}")
    for r in rows("employees"):
        if r["reportsTo"] in employees:
            edges.append((employees[r["employeeID"]], "REPORTS_TO", employees[r["reportsTo"]]))
    regions = {r["regionID"]: node("Region", r["regionID"], r["regionDescription"]) for r in rows("regions")}
    territories = {}
    for r in rows("territories"):
        territories[r["territoryID"]] = node("Territory", r["territoryID"], r["territoryDescription"])
        edges.append((territories[r["territoryID"]], "IN_REGION", regions[r["regionID"]]))
    for r in rows("employee-territories"):
        edges.append((employees[r["employeeID"]], "IN_TERRITORY", territories[r["territoryID"]]))
    shippers = {r["shipperID"]: node("Shipper", r["shipperID"], r["companyName"]) for r in rows("shippers")}
    orders = {}
    for r in rows("orders"):
        if not r["orderDate"].startswith(NORTHWIND_YEAR):
            continue
        order = orders[r["orderID"]] = node("Order", r["orderID"], f"Order {r['orderID']}")
        edges.append((customers[r["customerID"]], "PURCHASED", order))
        edges.append((employees[r["employeeID"]], "SOLD", order))
        edges.append((shippers[r["shipVia"]], "SHIPS", order))
        edges.append((order, "shipCountry", value("Country", r["shipCountry"])))
    products = {key: (label, key) for label, key in nodes if label == "Product"}
    for r in rows("order-details"):
        if r["orderID"] in orders:
            edges.append((orders[r["orderID"]], "ORDERS", products[r["productID"]]))
    return _named(nodes, edges)


def _named(
    nodes: dict[tuple[str, str], tuple[str, str]], edges: list[tuple[tuple[str, str], str, tuple[str, str]]]
) -> tuple[list[tuple[str, str, str]], dict[str, list[str]]]:
    """Triples and the entities of each label, for the nodes that take part in an edge, by their unique names."""
    names = _disambiguate({n: nodes[n] for s, _, o in edges for n in (s, o)})
    triples = sorted({(names[s], r, names[o]) for s, r, o in edges})
    kinds: dict[str, list[str]] = {}
    for (label, _), name in sorted(names.items()):
        kinds.setdefault(label, []).append(name)
    return triples, {label: sorted(v) for label, v in kinds.items()}


NORTHWIND_TYPES = {
    "SUPPLIES": ("Supplier", "Product"),
    "PART_OF": ("Product", "Category"),
    "PURCHASED": ("Customer", "Order"),
    "ORDERS": ("Order", "Product"),
    "SOLD": ("Employee", "Order"),
    "SHIPS": ("Shipper", "Order"),
    "REPORTS_TO": ("Employee", "Employee"),
    "IN_TERRITORY": ("Employee", "Territory"),
    "IN_REGION": ("Territory", "Region"),
    "country": ("Supplier", "Country"),
    "city": ("Customer", "City"),
    "shipCountry": ("Order", "Country"),
}

POLE_PERSON_RELATIONS = ("KNOWS", "KNOWS_LW", "KNOWS_SN", "KNOWS_PHONE", "FAMILY_REL")


def pole_graph(archive: Path) -> tuple[list[tuple[str, str, str]], dict[str, list[str]]]:
    """Neo4j's POLE example (crime investigation: persons, objects, locations, events) from the Data Importer
    archive of neo4j-graph-examples/pole (``data/pole-data-importer.zip``). The whole graph holds 28,762 crimes at
    14,904 locations; kept are every person with their links (``KNOWS``, ``KNOWS_LW``, ``KNOWS_SN``,
    ``KNOWS_PHONE``, ``FAMILY_REL``, ``CURRENT_ADDRESS``, ``HAS_PHONE``, ``HAS_EMAIL``, ``PARTY_TO``), the crimes
    a person was party to or that occurred at a person's current address (``OCCURRED_AT``, ``INVESTIGATED_BY``,
    their ``type`` and ``last_outcome`` as nodes), the vehicles ``INVOLVED_IN`` those crimes (with ``make`` and
    ``year``), the officers who investigated them (with ``rank``) and the ``LOCATION_IN_AREA`` of every location
    kept. Crimes are named ``<type> at <address> on <date>``, locations by their address."""
    with zipfile.ZipFile(archive) as z:

        def rows(name: str) -> list[dict[str, str]]:
            return _csv_rows(z.read(f"crime-investigation.{name}.csv").decode("utf-8"))

        persons = {r[":ID"]: r for r in rows("nodes.Person")}
        locations = {r[":ID"]: r for r in rows("nodes.Location")}
        crimes = {r[":ID"]: r for r in rows("nodes.Crime")}
        links = {
            rel: [(r[":START_ID"], r[":END_ID"]) for r in rows(f"relationships.{rel}")]
            for rel in (
                *POLE_PERSON_RELATIONS, "CURRENT_ADDRESS", "HAS_PHONE", "HAS_EMAIL", "PARTY_TO", "OCCURRED_AT",
                "INVESTIGATED_BY", "INVOLVED_IN", "LOCATION_IN_AREA",
            )
        }  # fmt: skip
        phones = {r[":ID"]: r["phoneNo"] for r in rows("nodes.Phone")}
        emails = {r[":ID"]: r["email_address"] for r in rows("nodes.Email")}
        officers = {r[":ID"]: r for r in rows("nodes.Officer")}
        vehicles = {r[":ID"]: r for r in rows("nodes.Vehicle")}
        areas = {r[":ID"]: r["areaCode"] for r in rows("nodes.Area")}

    nodes: dict[tuple[str, str], tuple[str, str]] = {}
    edges: list[tuple[tuple[str, str], str, tuple[str, str]]] = []

    def node(label: str, key: str, name: str, tiebreak: str = "") -> tuple[str, str]:
        nodes[(label, key)] = (name, tiebreak or key)
        return (label, key)

    def person(key: str) -> tuple[str, str]:
        r = persons[key]
        return node("Person", key, f"{r['name']} {r['surname']}", r["nhs_no"])

    def location(key: str) -> tuple[str, str]:
        return node("Location", key, locations[key]["address"], locations[key]["postcode"])

    for rel in POLE_PERSON_RELATIONS:
        edges.extend((person(s), rel, person(o)) for s, o in links[rel])
    homes = set()
    for s, o in links["CURRENT_ADDRESS"]:
        edges.append((person(s), "CURRENT_ADDRESS", location(o)))
        homes.add(o)
    edges.extend((person(s), "HAS_PHONE", node("Phone", o, phones[o])) for s, o in links["HAS_PHONE"])
    edges.extend((person(s), "HAS_EMAIL", node("Email", o, emails[o])) for s, o in links["HAS_EMAIL"])
    occurred = dict(links["OCCURRED_AT"])
    kept = {o for _, o in links["PARTY_TO"]} | {c for c, loc in occurred.items() if loc in homes}

    def crime(key: str) -> tuple[str, str]:
        r = crimes[key]
        day, month, year = r["date"].split("/")
        where = locations[occurred[key]]["address"]
        when = f"{year}-{int(month):02d}-{int(day):02d}"
        return node("Crime", key, f"{r['type'] or 'Crime'} at {where} on {when}", r["id"][:8])

    edges.extend((person(s), "PARTY_TO", crime(o)) for s, o in links["PARTY_TO"])
    for key in sorted(kept):
        edges.append((crime(key), "OCCURRED_AT", location(occurred[key])))
        for attribute in ("type", "last_outcome"):
            if crimes[key][attribute]:
                label = "CrimeType" if attribute == "type" else "Outcome"
                edges.append((crime(key), attribute, node(label, crimes[key][attribute], crimes[key][attribute])))
    for c, o in links["INVESTIGATED_BY"]:
        if c in kept:
            r = officers[o]
            officer = node("Officer", o, f"{r['name']} {r['surname']}", r["badge_no"])
            edges.append((crime(c), "INVESTIGATED_BY", officer))
            edges.append((officer, "rank", node("Rank", r["rank"], r["rank"])))
    for v, c in links["INVOLVED_IN"]:
        if c in kept and v in vehicles:  # the few evidence objects are left out
            r = vehicles[v]
            vehicle = node("Vehicle", v, f"{r['make']} {r['model']} {r['reg']}")
            edges.append((vehicle, "INVOLVED_IN", crime(c)))
            edges.append((vehicle, "make", node("Make", r["make"], r["make"])))
            edges.append((vehicle, "year", node("Year", r["year"], r["year"])))
    for loc, area in links["LOCATION_IN_AREA"]:
        if ("Location", loc) in nodes:
            edges.append((location(loc), "LOCATION_IN_AREA", node("Area", area, areas[area])))
    return _named(nodes, edges)


POLE_TYPES = {
    **{rel: ("Person", "Person") for rel in POLE_PERSON_RELATIONS},
    "CURRENT_ADDRESS": ("Person", "Location"),
    "HAS_PHONE": ("Person", "Phone"),
    "HAS_EMAIL": ("Person", "Email"),
    "PARTY_TO": ("Person", "Crime"),
    "OCCURRED_AT": ("Crime", "Location"),
    "INVESTIGATED_BY": ("Crime", "Officer"),
    "INVOLVED_IN": ("Vehicle", "Crime"),
    "LOCATION_IN_AREA": ("Location", "Area"),
    "type": ("Crime", "CrimeType"),
    "last_outcome": ("Crime", "Outcome"),
    "rank": ("Officer", "Rank"),
    "make": ("Vehicle", "Make"),
    "year": ("Vehicle", "Year"),
}


# Template questions over Northwind and POLE: (start label, path, two wordings), as TEMPLATES for the companies.
NORTHWIND_TEMPLATES: list[tuple[str, Path_, tuple[str, ...]]] = [
    ("Customer", (("PURCHASED", "out"), ("ORDERS", "out")),
     ("which products did [{}] order", "what has [{}] bought from us")),
    ("Product", (("ORDERS", "in"), ("PURCHASED", "in")),
     ("which customers bought [{}]", "who has placed an order for [{}]")),
    ("Product", (("SUPPLIES", "in"), ("country", "out")),
     ("what country does the supplier of [{}] operate from", "where is [{}] sourced from, by country")),
    ("Category", (("PART_OF", "in"), ("SUPPLIES", "in")),
     ("which suppliers deliver [{}]", "who provides the goods in the [{}] category")),
    ("Supplier", (("SUPPLIES", "out"), ("PART_OF", "out")),
     ("which categories do the products of [{}] fall under", "what kinds of goods does [{}] supply")),
    ("Employee", (("SOLD", "out"), ("PURCHASED", "in")),
     ("which customers has [{}] sold to", "who bought from the sales rep [{}]")),
    ("Customer", (("PURCHASED", "out"), ("SOLD", "in")),
     ("which employees handled the orders of [{}]", "who sold to [{}]")),
    ("Employee", (("IN_TERRITORY", "out"), ("IN_REGION", "out")),
     ("which sales region does [{}] cover", "in what region are the territories of [{}]")),
    ("City", (("city", "in"), ("PURCHASED", "out")),
     ("which orders came from customers in [{}]", "list the orders placed by companies located in [{}]")),
    ("Customer", (("PURCHASED", "out"), ("shipCountry", "out")),
     ("to which countries were the orders of [{}] shipped", "where did [{}] have its orders delivered")),
    ("Customer", (("PURCHASED", "out"), ("ORDERS", "out"), ("PART_OF", "out")),
     ("what categories of products has [{}] ordered", "which kinds of goods does [{}] buy")),
    ("Customer", (("PURCHASED", "out"), ("ORDERS", "out"), ("SUPPLIES", "in")),
     ("which suppliers make the products that [{}] bought", "whose goods ended up in the orders of [{}]")),
    ("Product", (("ORDERS", "in"), ("PURCHASED", "in"), ("city", "out")),
     ("in which cities are the customers who ordered [{}]", "where are the buyers of [{}] located")),
    ("Country", (("country", "in"), ("SUPPLIES", "out"), ("PART_OF", "out")),
     ("which product categories do suppliers from [{}] offer", "what kinds of products come from suppliers in [{}]")),
    ("City", (("city", "in"), ("PURCHASED", "out"), ("SOLD", "in")),
     ("which employees sold to customers in [{}]", "who handled orders for companies based in [{}]")),
    ("Employee", (("SOLD", "out"), ("ORDERS", "out"), ("PART_OF", "out")),
     ("which product categories has [{}] sold", "what kinds of goods were in the orders [{}] took")),
    ("Supplier", (("SUPPLIES", "out"), ("ORDERS", "in"), ("shipCountry", "out")),
     ("to which countries were the products of [{}] shipped", "where do the goods of [{}] get delivered")),
    ("Product", (("PART_OF", "out"), ("PART_OF", "in"), ("SUPPLIES", "in")),
     ("who supplies products in the same category as [{}]",
      "which suppliers sell goods of the same kind as [{}]")),
    ("Category", (("PART_OF", "in"), ("SUPPLIES", "in"), ("country", "out")),
     ("from which countries do the suppliers of [{}] come", "where are the makers of [{}] products based")),
]  # fmt: skip

POLE_TEMPLATES: list[tuple[str, Path_, tuple[str, ...]]] = [
    ("Person", (("CURRENT_ADDRESS", "out"), ("LOCATION_IN_AREA", "out")),
     ("in which area does [{}] live", "what area is the home of [{}] in")),
    ("Person", (("PARTY_TO", "out"), ("INVESTIGATED_BY", "out")),
     ("which officer investigated the crimes [{}] was party to", "who looked into the offences involving [{}]")),
    ("Person", (("KNOWS", "out"), ("CURRENT_ADDRESS", "out")),
     ("where do the people [{}] knows live", "what are the addresses of the acquaintances of [{}]")),
    ("Person", (("CURRENT_ADDRESS", "out"), ("OCCURRED_AT", "in")),
     ("which crimes happened at the address of [{}]", "what was reported at the place where [{}] lives")),
    ("Person", (("FAMILY_REL", "out"), ("HAS_PHONE", "out")),
     ("what are the phone numbers of the relatives of [{}]", "how can the family of [{}] be reached by phone")),
    ("Officer", (("INVESTIGATED_BY", "in"), ("type", "out")),
     ("what kinds of crime has [{}] investigated", "which crime types did officer [{}] handle")),
    ("Officer", (("INVESTIGATED_BY", "in"), ("last_outcome", "out")),
     ("how did the cases of [{}] end", "what were the outcomes of the investigations led by [{}]")),
    ("Location", (("OCCURRED_AT", "in"), ("INVESTIGATED_BY", "out")),
     ("which officers investigated crimes at [{}]", "who handled the incidents reported at [{}]")),
    ("Person", (("KNOWS_SN", "out"), ("HAS_EMAIL", "out")),
     ("what are the email addresses of the social network contacts of [{}]",
      "which emails belong to the people [{}] knows online")),
    ("Person", (("KNOWS", "out"), ("PARTY_TO", "out"), ("type", "out")),
     ("what kinds of crime have the acquaintances of [{}] been party to",
      "which offence types are the people [{}] knows involved in")),
    ("Person", (("CURRENT_ADDRESS", "out"), ("OCCURRED_AT", "in"), ("INVESTIGATED_BY", "out")),
     ("which officers investigated crimes at the home of [{}]", "who looked into incidents at the address of [{}]")),
    ("Person", (("FAMILY_REL", "out"), ("CURRENT_ADDRESS", "out"), ("LOCATION_IN_AREA", "out")),
     ("in which areas do the relatives of [{}] live", "what areas are the family members of [{}] based in")),
    ("Area", (("LOCATION_IN_AREA", "in"), ("OCCURRED_AT", "in"), ("type", "out")),
     ("what types of crime were reported in [{}]", "which kinds of offences happened in the area [{}]")),
    ("Person", (("KNOWS_SN", "out"), ("CURRENT_ADDRESS", "out"), ("LOCATION_IN_AREA", "out")),
     ("in which areas do the online contacts of [{}] live", "where, by area, are the social network friends of [{}]")),
    ("Person", (("PARTY_TO", "out"), ("OCCURRED_AT", "out"), ("LOCATION_IN_AREA", "out")),
     ("in which areas did the crimes [{}] took part in happen", "where did the offences of [{}] take place, by area")),
    ("Officer", (("INVESTIGATED_BY", "in"), ("OCCURRED_AT", "out"), ("LOCATION_IN_AREA", "out")),
     ("in which areas has [{}] investigated crimes", "what areas did the cases of officer [{}] take place in")),
    ("Area", (("LOCATION_IN_AREA", "in"), ("CURRENT_ADDRESS", "in"), ("KNOWS", "out")),
     ("who do the residents of [{}] know", "which people are acquainted with someone living in [{}]")),
    ("Vehicle", (("INVOLVED_IN", "out"), ("INVESTIGATED_BY", "out"), ("rank", "out")),
     ("what rank is the officer investigating the crime [{}] was involved in",
      "which rank holds the investigator of the case involving [{}]")),
]  # fmt: skip


# Hand-written questions over Northwind and POLE: (topic, path, wording), each written for its topic.
NORTHWIND_HAND: list[tuple[str, Path_, str]] = [
    ("Boston Crab Meat", (("SUPPLIES", "in"),), "who supplies [Boston Crab Meat]"),
    ("Dairy Products", (("PART_OF", "in"),), "what products belong to the [Dairy Products] category"),
    ("Margaret Peacock", (("REPORTS_TO", "out"),), "who is the manager of [Margaret Peacock]"),
    ("Steven Buchanan", (("REPORTS_TO", "in"),), "which employees report to [Steven Buchanan]"),
    ("Simons bistro", (("city", "out"),), "what city is [Simons bistro] located in"),
    ("Karkki Oy", (("country", "out"),), "which country is the supplier [Karkki Oy] from"),
    ("Robert King", (("IN_TERRITORY", "out"),), "what territories is [Robert King] responsible for"),
    ("Order 10574", (("ORDERS", "out"),), "what items were on [Order 10574]"),
    ("Order 10431", (("SHIPS", "in"),), "which shipping company carried [Order 10431]"),
    ("Canada", (("country", "in"),), "name the suppliers based in [Canada]"),
    ("Teatime Chocolate Biscuits", (("SUPPLIES", "in"), ("SUPPLIES", "out")),
     "what else does the maker of [Teatime Chocolate Biscuits] sell"),
    ("Order 10785", (("ORDERS", "out"), ("PART_OF", "out")),
     "which categories do the items in [Order 10785] belong to"),
    ("Order 10531", (("PURCHASED", "in"), ("city", "out")), "which city did [Order 10531] come from"),
    ("Western", (("IN_REGION", "in"), ("IN_TERRITORY", "in")), "who works the territories of the [Western] region"),
    ("Margaret Peacock", (("REPORTS_TO", "out"), ("IN_TERRITORY", "out")),
     "which territories does the boss of [Margaret Peacock] look after"),
    ("Norway", (("country", "in"), ("SUPPLIES", "out")), "what products come from suppliers in [Norway]"),
    ("Cowes", (("city", "in"), ("PURCHASED", "out")), "which orders were placed by shops in [Cowes]"),
    ("Gustaf's Knäckebröd", (("ORDERS", "in"), ("SOLD", "in")), "which sales staff have sold [Gustaf's Knäckebröd]"),
    ("Escargots Nouveaux", (("SUPPLIES", "out"), ("ORDERS", "in")),
     "in which orders did goods from [Escargots Nouveaux] appear"),
    ("Order 10431", (("ORDERS", "out"), ("SUPPLIES", "in")), "whose products were packed into [Order 10431]"),
    ("Switzerland", (("shipCountry", "in"), ("PURCHASED", "in")),
     "which customers had orders delivered to [Switzerland]"),
    ("Produce", (("PART_OF", "in"), ("SUPPLIES", "in")), "who are the suppliers of [Produce]"),
    ("Order 10574", (("SOLD", "in"), ("REPORTS_TO", "out")),
     "who manages the employee that took [Order 10574]"),
    ("Tarte au sucre", (("ORDERS", "in"), ("PURCHASED", "in")), "which customers have ordered [Tarte au sucre]"),
    ("Richter Supermarkt", (("PURCHASED", "out"), ("SHIPS", "in")), "which carriers has [Richter Supermarkt] used"),
    ("Order 10574", (("ORDERS", "out"), ("SUPPLIES", "in"), ("country", "out")),
     "from which countries did the goods in [Order 10574] originate"),
    ("Kobenhavn", (("city", "in"), ("PURCHASED", "out"), ("ORDERS", "out")),
     "what products did customers in [Kobenhavn] buy"),
    ("Andrew Fuller", (("REPORTS_TO", "in"), ("IN_TERRITORY", "out"), ("IN_REGION", "out")),
     "which regions are covered by the people who report to [Andrew Fuller]"),
    ("Order 10531", (("SOLD", "in"), ("IN_TERRITORY", "out"), ("IN_REGION", "out")),
     "in which region does the seller of [Order 10531] work"),
    ("Mellvile", (("IN_TERRITORY", "in"), ("SOLD", "out"), ("PURCHASED", "in")),
     "which customers bought from the rep who covers [Mellvile]"),
    ("Familia Arquibaldo", (("city", "out"), ("city", "in"), ("PURCHASED", "out")),
     "what orders came from other customers in the same city as [Familia Arquibaldo]"),
    ("Inlagd Sill", (("SUPPLIES", "in"), ("SUPPLIES", "out"), ("PART_OF", "out")),
     "what categories does the producer of [Inlagd Sill] cover"),
    ("Brazil", (("country", "in"), ("SUPPLIES", "out"), ("ORDERS", "in")),
     "which orders contained goods from suppliers in [Brazil]"),
    ("Michael Suyama", (("SOLD", "out"), ("PURCHASED", "in"), ("city", "out")),
     "in which cities are the clients of [Michael Suyama]"),
    ("Tokyo Traders", (("SUPPLIES", "out"), ("ORDERS", "in"), ("PURCHASED", "in")),
     "who has bought anything made by [Tokyo Traders]"),
]  # fmt: skip

POLE_HAND: list[tuple[str, Path_, str]] = [
    ("Jonathan Hunt", (("HAS_PHONE", "out"),), "what is the phone number of [Jonathan Hunt]"),
    ("Frances Sullivan", (("HAS_EMAIL", "out"),), "which email address does [Frances Sullivan] use"),
    ("Jennifer Rogers", (("CURRENT_ADDRESS", "out"),), "where does [Jennifer Rogers] live at the moment"),
    ("Denise Brown", (("KNOWS", "out"),), "who does [Denise Brown] know"),
    ("Harold Oliver", (("FAMILY_REL", "out"),), "who are the relatives of [Harold Oliver]"),
    ("Diana Murray", (("PARTY_TO", "out"),), "which crimes was [Diana Murray] a party to"),
    ("Tori Stamps", (("rank", "out"),), "what rank does officer [Tori Stamps] hold"),
    ("Ford", (("make", "in"),), "which vehicles on file were made by [Ford]"),
    ("BL3", (("LOCATION_IN_AREA", "in"),), "which addresses lie in the [BL3] area"),
    ("Robbery at 140 Mardale Avenue on 2017-08-31", (("INVESTIGATED_BY", "out"),),
     "who is investigating the [Robbery at 140 Mardale Avenue on 2017-08-31]"),
    ("181 Cayton Street", (("CURRENT_ADDRESS", "in"),), "who lives at [181 Cayton Street]"),
    ("Wanda Weaver", (("KNOWS_LW", "out"), ("HAS_PHONE", "out")),
     "what numbers do the people [Wanda Weaver] lives with have"),
    ("Diana Murray", (("PARTY_TO", "out"), ("last_outcome", "out")),
     "how did the cases [Diana Murray] was involved in turn out"),
    ("Ernest Clark", (("KNOWS", "in"), ("CURRENT_ADDRESS", "out")), "where do the people who know [Ernest Clark] live"),
    ("Jessica Kelly", (("PARTY_TO", "out"), ("type", "out")),
     "what sort of crime has [Jessica Kelly] been mixed up in"),
    ("115 Middleham Street", (("LOCATION_IN_AREA", "out"), ("LOCATION_IN_AREA", "in")),
     "which other addresses are in the same area as [115 Middleham Street]"),
    ("Carl Fuller", (("KNOWS", "out"), ("KNOWS", "out")), "who are the friends of friends of [Carl Fuller]"),
    ("Ford", (("make", "in"), ("INVOLVED_IN", "out")), "which crimes involved a [Ford]"),
    ("2011", (("year", "in"), ("INVOLVED_IN", "out")), "which crimes involved cars built in [2011]"),
    ("Tilly Burkert", (("INVESTIGATED_BY", "in"), ("INVOLVED_IN", "in")),
     "which vehicle turned up in a case handled by [Tilly Burkert]"),
    ("Buick Century YN52 EAY", (("INVOLVED_IN", "out"), ("OCCURRED_AT", "out")),
     "where did the incident with the [Buick Century YN52 EAY] take place"),
    ("Donald Robinson", (("PARTY_TO", "out"), ("OCCURRED_AT", "out")),
     "at which places did the crimes involving [Donald Robinson] happen"),
    ("Harry Sims", (("CURRENT_ADDRESS", "out"), ("CURRENT_ADDRESS", "in")), "who shares a home with [Harry Sims]"),
    ("Carl Hayes", (("KNOWS_PHONE", "out"), ("HAS_EMAIL", "out")),
     "what is the email of the person [Carl Hayes] knows from phone calls"),
    ("Anne Clark", (("FAMILY_REL", "out"), ("CURRENT_ADDRESS", "out")), "where does the family of [Anne Clark] live"),
    ("SK4", (("LOCATION_IN_AREA", "in"), ("CURRENT_ADDRESS", "in")), "who lives in the [SK4] area"),
    ("Brian Morales", (("KNOWS", "out"), ("PARTY_TO", "out"), ("INVESTIGATED_BY", "out")),
     "which officers have investigated crimes committed by people [Brian Morales] knows"),
    ("Kathy Wheeler", (("FAMILY_REL", "out"), ("PARTY_TO", "out"), ("type", "out")),
     "what kind of offence has a relative of [Kathy Wheeler] been party to"),
    ("Ruth Hansen", (("KNOWS", "out"), ("KNOWS", "out"), ("CURRENT_ADDRESS", "out")),
     "where do the friends of the friends of [Ruth Hansen] live"),
    ("Jessica Kelly", (("PARTY_TO", "out"), ("INVESTIGATED_BY", "out"), ("rank", "out")),
     "what ranks do the officers on the cases of [Jessica Kelly] hold"),
    ("SK4", (("LOCATION_IN_AREA", "in"), ("CURRENT_ADDRESS", "in"), ("HAS_PHONE", "out")),
     "list the phone numbers of residents of [SK4]"),
    ("Phillip Williamson", (("PARTY_TO", "out"), ("INVOLVED_IN", "in"), ("make", "out")),
     "what makes of car featured in the crimes [Phillip Williamson] took part in"),
    ("Rachel Hunter", (("CURRENT_ADDRESS", "out"), ("CURRENT_ADDRESS", "in"), ("KNOWS", "out")),
     "who do the housemates of [Rachel Hunter] know"),
    ("Eugene Ferguson", (("KNOWS_LW", "out"), ("CURRENT_ADDRESS", "out"), ("OCCURRED_AT", "in")),
     "which crimes occurred at the home of the person [Eugene Ferguson] lives with"),
    ("Subaru XT UT72 FOP", (("INVOLVED_IN", "out"), ("PARTY_TO", "in"), ("FAMILY_REL", "out")),
     "who are the relatives of the people linked to the crime involving the [Subaru XT UT72 FOP]"),
    ("Drugs at 38 Browning Road on 2017-08-27", (("PARTY_TO", "in"), ("KNOWS", "out"), ("CURRENT_ADDRESS", "out")),
     "where do the acquaintances of those party to the [Drugs at 38 Browning Road on 2017-08-27] live"),
]  # fmt: skip


# The people graph (:func:`people_graph`): a biographical graph of three generations of families, with the
# properties a general knowledge base gives a person (a spouse, children and parents both ways, where they were born
# and died, what they did, their religion and ethnicity, where they studied); relations named plainly.
PEOPLE_TYPES = {
    "spouse": ("Person", "Person"),
    "children": ("Person", "Person"),
    "parents": ("Person", "Person"),
    "gender": ("Person", "Gender"),
    "nationality": ("Person", "Country"),
    "place_of_birth": ("Person", "City"),
    "place_of_death": ("Person", "City"),
    "cause_of_death": ("Person", "CauseOfDeath"),
    "profession": ("Person", "Profession"),
    "religion": ("Person", "Religion"),
    "ethnicity": ("Person", "EthnicGroup"),
    "institution": ("Person", "University"),
    "located_in": ("City", "Country"),
}
# ``people_freebase``: the people graph with the names Freebase gives these properties, some as a plain
# ``/domain/type/property`` path and the ones reached through a mediator node collapsed into one ``__``-joined name
# (a marriage, an education), as a Freebase export that skips the mediators writes them.
PEOPLE_FREEBASE = {
    "spouse": "__people__person__spouse_s",
    "children": "/people/person/children",
    "parents": "/people/person/parents",
    "gender": "/people/person/gender",
    "nationality": "/people/person/nationality",
    "place_of_birth": "/people/person/place_of_birth",
    "place_of_death": "/people/deceased_person/place_of_death",
    "cause_of_death": "/people/deceased_person/cause_of_death",
    "profession": "/people/person/profession",
    "religion": "/people/person/religion",
    "ethnicity": "/people/person/ethnicity",
    "institution": "__education__education__institution",
    "located_in": "/location/location/containedby",
}
PROFESSIONS = (
    "actor", "architect", "banker", "composer", "diplomat", "engineer", "farmer", "journalist", "judge", "lawyer",
    "merchant", "nurse", "painter", "physician", "poet", "politician", "sailor", "scientist", "soldier", "teacher",
)  # fmt: skip
RELIGIONS = ("Velorian Church", "Old Rite", "Khar Faith", "Brevian Order", "Isle Way")
ETHNIC_GROUPS = ("Norvanians", "Estmarkers", "Calderrans", "Ostravians", "Velorians", "Isle folk", "Kharls")
CAUSES = ("heart failure", "pneumonia", "stroke", "cancer", "a fall", "old age", "tuberculosis", "drowning")
PEOPLE_TEMPLATES: list[tuple[str, Path_, tuple[str, ...]]] = [
    ("Person", (("spouse", "out"), ("nationality", "out")),
     ("what nationality is the spouse of [{}]", "which country is the husband or wife of [{}] a citizen of")),
    ("Person", (("parents", "out"), ("profession", "out")),
     ("what was the profession of the parents of [{}]", "what did [{}]'s mother and father do for a living")),
    ("Person", (("children", "out"), ("place_of_birth", "out")),
     ("where were the children of [{}] born", "in which cities were [{}]'s kids born")),
    ("Person", (("spouse", "out"), ("religion", "out")),
     ("what religion does the spouse of [{}] follow", "which faith is [{}]'s partner")),
    ("Person", (("place_of_birth", "out"), ("located_in", "out")),
     ("in which country was [{}] born", "what country is the birthplace of [{}] in")),
    ("City", (("place_of_birth", "in"), ("profession", "out")),
     ("what professions do people born in [{}] have", "what do natives of [{}] work as")),
    ("Person", (("children", "out"), ("spouse", "out")),
     ("who are the spouses of the children of [{}]", "who did the kids of [{}] marry")),
    ("Person", (("parents", "out"), ("place_of_death", "out")),
     ("where did the parents of [{}] die", "in which city did [{}]'s mother or father pass away")),
    ("Person", (("spouse", "out"), ("institution", "out")),
     ("where did the spouse of [{}] study", "which university did [{}]'s wife or husband attend")),
    ("University", (("institution", "in"), ("nationality", "out")),
     ("what nationalities do the alumni of [{}] have", "which countries are graduates of [{}] citizens of")),
    ("Person", (("spouse", "out"), ("parents", "out"), ("nationality", "out")),
     ("what is the nationality of the parents of [{}]'s spouse", "which country are the in-laws of [{}] from")),
    ("Person", (("parents", "out"), ("parents", "out"), ("place_of_birth", "out")),
     ("where were the parents of the parents of [{}] born", "in which cities were [{}]'s grandparents born")),
    ("Person", (("children", "out"), ("spouse", "out"), ("profession", "out")),
     ("what do the spouses of [{}]'s children do",
      "what is the profession of the people the children of [{}] married")),
    ("Person", (("parents", "out"), ("children", "out"), ("religion", "out")),
     ("what religion do the siblings of [{}] follow", "which faith do the brothers and sisters of [{}] have")),
    ("Person", (("spouse", "out"), ("place_of_birth", "out"), ("located_in", "out")),
     ("in which country was the spouse of [{}] born", "what country does [{}]'s partner come from by birth")),
    ("City", (("place_of_birth", "in"), ("spouse", "out"), ("ethnicity", "out")),
     ("what ethnicity are the spouses of people born in [{}]",
      "which ethnic groups did natives of [{}] marry into")),
    ("Person", (("children", "out"), ("children", "out"), ("profession", "out")),
     ("what do the grandchildren of [{}] do for work", "what are the professions of the children of [{}]'s children")),
]  # fmt: skip
PEOPLE_HAND: list[tuple[str, Path_, str]] = [
    ("Person", (("spouse", "out"), ("profession", "out")), "what does the partner of [{}] do"),
    ("Person", (("parents", "out"), ("religion", "out")), "what faith were [{}]'s parents"),
    ("Person", (("children", "out"), ("institution", "out")),
     "which colleges did the sons and daughters of [{}] go to"),
    ("Person", (("place_of_death", "out"), ("located_in", "out")), "in what country did [{}] die"),
    ("Person", (("spouse", "out"), ("place_of_birth", "out")), "where is the wife or husband of [{}] from"),
    ("Person", (("parents", "out"), ("ethnicity", "out")), "what ethnic background do the parents of [{}] have"),
    ("Person", (("children", "out"), ("profession", "out")), "what jobs do [{}]'s children have"),
    ("City", (("place_of_death", "in"), ("cause_of_death", "out")), "what did the people who died in [{}] die of"),
    ("University", (("institution", "in"), ("place_of_birth", "out")), "where were the graduates of [{}] born"),
    ("Person", (("parents", "out"), ("spouse", "out")), "who are the parents of [{}] married to"),
    ("Person", (("parents", "out"), ("parents", "out"), ("profession", "out")),
     "what did the grandparents of [{}] do for a living"),
    ("Person", (("spouse", "out"), ("children", "out"), ("institution", "out")),
     "where did the kids of [{}]'s spouse study"),
    ("Person", (("parents", "out"), ("place_of_birth", "out"), ("located_in", "out")),
     "which countries were the parents of [{}] born in"),
    ("Person", (("children", "out"), ("spouse", "out"), ("nationality", "out")),
     "what nationality are the people [{}]'s children married"),
    ("City", (("place_of_birth", "in"), ("parents", "out"), ("profession", "out")),
     "what did the parents of people born in [{}] work as"),
    ("Person", (("parents", "out"), ("children", "out"), ("place_of_birth", "out")),
     "where were the brothers and sisters of [{}] born"),
    ("Person", (("spouse", "out"), ("parents", "out"), ("religion", "out")), "what religion were the in-laws of [{}]"),
    ("University", (("institution", "in"), ("spouse", "out"), ("profession", "out")),
     "what do the husbands and wives of [{}] graduates do"),
]  # fmt: skip


def people_graph(seed: int = 17) -> tuple[list[tuple[str, str, str]], dict[str, list[str]]]:
    """The people graph (:data:`PEOPLE_TYPES`): three generations of couples and their children, each person with a
    gender, a nationality, a birthplace, a profession and now and then a religion, an ethnic group and a university;
    the dead with where they died and mostly of what. ``children`` and ``parents`` are both stored, as a general
    knowledge base stores them."""
    rng = random.Random(seed)
    names = iter(person_names(rng))
    cities = city_names(rng, 30)
    universities = [f"University of {c}" for c in rng.sample(cities, 10)]
    home = {city: rng.choice(COUNTRIES) for city in cities}
    triples: list[tuple[str, str, str]] = [(c, "located_in", home[c]) for c in cities]
    people: list[str] = []

    def person(dead: float) -> str:
        who = next(names)
        people.append(who)
        born = rng.choice(cities)
        triples.extend(
            [
                (who, "gender", rng.choice(("female", "male"))),
                (who, "place_of_birth", born),
                (who, "nationality", home[born] if rng.random() < 0.85 else rng.choice(COUNTRIES)),
                (who, "profession", rng.choice(PROFESSIONS)),
            ]
        )
        for relation, values, share in (("religion", RELIGIONS, 0.6), ("ethnicity", ETHNIC_GROUPS, 0.5)):
            if rng.random() < share:
                triples.append((who, relation, rng.choice(values)))
        if rng.random() < 0.4:
            triples.append((who, "institution", rng.choice(universities)))
        if rng.random() < dead:
            triples.append((who, "place_of_death", rng.choice(cities)))
            if rng.random() < 0.8:
                triples.append((who, "cause_of_death", rng.choice(CAUSES)))
        return who

    def marry(a: str, b: str) -> None:
        triples.extend([(a, "spouse", b), (b, "spouse", a)])

    def children(a: str, b: str, dead: float) -> list[str]:
        kids = [person(dead) for _ in range(rng.choice((1, 2, 2, 3)))]
        for kid in kids:
            for parent in (a, b):
                triples.extend([(parent, "children", kid), (kid, "parents", parent)])
        return kids

    couples = []
    for _ in range(35):
        a, b = person(0.9), person(0.9)
        marry(a, b)
        couples.append((a, b))
    second = [kid for a, b in couples for kid in children(a, b, 0.3)]
    for kid in second:
        if rng.random() < 0.7:
            spouse = person(0.3)
            marry(kid, spouse)
            children(kid, spouse, 0.05)
    triples = sorted(set(triples))
    kinds = {"Person": people, "City": cities, "University": universities}
    return triples, kinds


# ``football``: a generated league graph with its relations named as verb phrases, the way many users name them
# (``plays_for``, ``wears_number``, ``coached_by``) rather than as nouns (``people``) or in capitals (``pole``).
FOOTBALL_TYPES = {
    "plays_for": ("Player", "Club"),
    "formerly_played_for": ("Player", "Club"),
    "plays_position": ("Player", "Position"),
    "wears_number": ("Player", "ShirtNumber"),
    "born_in": ("Person", "City"),
    "represents": ("Player", "Country"),
    "based_in": ("Club", "City"),
    "competes_in": ("Club", "League"),
    "coached_by": ("Club", "Coach"),
    "in_country": ("City", "Country"),
    "held_in": ("League", "Country"),
}
CLUB_FORMS = ("{} United", "{} Rovers", "FC {}", "{} Athletic", "Real {}", "{} City", "Sporting {}", "{} Wanderers")
POSITIONS = ("goalkeeper", "defender", "midfielder", "forward")
FOOTBALL_TEMPLATES: list[tuple[str, Path_, tuple[str, ...]]] = [
    ("Player", (("plays_for", "out"), ("based_in", "out")),
     ("in which city is the club of [{}] based", "where does [{}]'s team play its home games")),
    ("Player", (("plays_for", "out"), ("coached_by", "out")),
     ("who coaches the club that [{}] plays for", "who is the manager of [{}]'s team")),
    ("Player", (("plays_for", "out"), ("competes_in", "out")),
     ("which league does the club of [{}] compete in", "in what league does [{}]'s team play")),
    ("Club", (("plays_for", "in"), ("represents", "out")),
     ("which countries do the players of [{}] represent", "what national teams are [{}] players capped for")),
    ("Player", (("born_in", "out"), ("in_country", "out")),
     ("in which country was [{}] born", "what country is the birthplace of [{}] in")),
    ("Coach", (("coached_by", "in"), ("plays_for", "in")),
     ("who plays for the club coached by [{}]", "which players are in the team [{}] manages")),
    ("City", (("based_in", "in"), ("plays_for", "in")),
     ("which players play for clubs based in [{}]", "who plays for a team from [{}]")),
    ("League", (("competes_in", "in"), ("based_in", "out")),
     ("in which cities are the clubs of [{}] based", "where are the teams that play in [{}] from")),
    ("Player", (("plays_for", "out"), ("plays_for", "in")),
     ("who are the teammates of [{}]", "which players share a club with [{}]")),
    ("Player", (("formerly_played_for", "out"), ("based_in", "out")),
     ("in which cities are the former clubs of [{}] based", "where are the teams [{}] used to play for")),
    ("Player", (("plays_for", "out"), ("based_in", "out"), ("in_country", "out")),
     ("in which country is the club of [{}] based", "what country does [{}]'s team come from")),
    ("Player", (("plays_for", "out"), ("coached_by", "out"), ("born_in", "out")),
     ("where was the coach of [{}]'s club born", "in which city was the manager of the team of [{}] born")),
    ("Coach", (("coached_by", "in"), ("plays_for", "in"), ("represents", "out")),
     ("which countries do the players coached by [{}] represent",
      "what national teams do the players of [{}]'s club play for")),
    ("League", (("competes_in", "in"), ("coached_by", "out"), ("born_in", "out")),
     ("where were the coaches of the clubs in [{}] born", "in which cities were the managers of [{}] teams born")),
    ("Player", (("plays_for", "out"), ("plays_for", "in"), ("born_in", "out")),
     ("where were the teammates of [{}] born", "in which cities were the players who share a club with [{}] born")),
    ("Player", (("formerly_played_for", "out"), ("coached_by", "out"), ("born_in", "out")),
     ("where were the coaches of [{}]'s former clubs born",
      "in which cities were the managers of the teams [{}] used to play for born")),
    ("Player", (("plays_for", "out"), ("competes_in", "out"), ("held_in", "out")),
     ("in which country is the league of [{}]'s club played", "which country's league does the team of [{}] play in")),
]  # fmt: skip
FOOTBALL_HAND: list[tuple[str, Path_, str]] = [
    ("Player", (("plays_for", "out"), ("coached_by", "out")), "who trains [{}]'s side"),
    ("Player", (("plays_for", "out"), ("based_in", "out")), "what town is [{}]'s club from"),
    ("Club", (("plays_for", "in"), ("plays_position", "out")), "what positions do [{}]'s players play"),
    ("Club", (("plays_for", "in"), ("born_in", "out")), "where were the members of [{}]'s squad born"),
    ("Player", (("plays_for", "out"), ("competes_in", "out")), "which division is [{}]'s team in"),
    ("City", (("born_in", "in"), ("plays_for", "out")), "which clubs do footballers born in [{}] play for"),
    ("Coach", (("coached_by", "in"), ("competes_in", "out")), "what league is the side of [{}] in"),
    ("Player", (("plays_for", "out"), ("plays_for", "in")), "who plays alongside [{}]"),
    ("League", (("competes_in", "in"), ("coached_by", "out")), "who manages the teams of [{}]"),
    ("Club", (("coached_by", "out"), ("born_in", "out")), "where does the manager of [{}] come from"),
    ("Player", (("plays_for", "out"), ("based_in", "out"), ("in_country", "out")), "what nation is [{}]'s club in"),
    ("Player", (("plays_for", "out"), ("plays_for", "in"), ("represents", "out")),
     "which national sides do [{}]'s club mates turn out for"),
    ("Coach", (("coached_by", "in"), ("plays_for", "in"), ("plays_position", "out")),
     "what positions do the players [{}] coaches play"),
    ("Coach", (("coached_by", "in"), ("based_in", "out"), ("in_country", "out")), "in what country does [{}] work"),
    ("Player", (("formerly_played_for", "out"), ("competes_in", "out"), ("held_in", "out")),
     "in which countries has [{}] played league football before"),
    ("City", (("based_in", "in"), ("plays_for", "in"), ("wears_number", "out")),
     "which shirt numbers do players of clubs from [{}] wear"),
    ("Club", (("plays_for", "in"), ("born_in", "out"), ("in_country", "out")),
     "what countries were the players of [{}] born in"),
]  # fmt: skip


def football_graph(seed: int = 23) -> tuple[list[tuple[str, str, str]], dict[str, list[str]]]:
    """The football graph (:data:`FOOTBALL_TYPES`): a league in each country, clubs in its cities each with a coach,
    and a squad of players per club with a position, a shirt number, a birthplace, the country they represent (mostly
    the one they were born in) and now and then a club they played for before."""
    rng = random.Random(seed)
    names = iter(person_names(rng))
    cities = city_names(rng, 32)
    home = {city: COUNTRIES[i % len(COUNTRIES)] for i, city in enumerate(cities)}
    leagues = {country: f"{country} First Division" for country in COUNTRIES}
    triples: list[tuple[str, str, str]] = [(c, "in_country", home[c]) for c in cities]
    triples += [(league, "held_in", country) for country, league in leagues.items()]
    clubs: list[str] = []
    coaches: list[str] = []
    for city in rng.sample(cities, 24):
        club = rng.choice(CLUB_FORMS).format(city)
        coach = next(names)
        clubs.append(club)
        coaches.append(coach)
        triples += [
            (club, "based_in", city),
            (club, "competes_in", leagues[home[city]]),
            (club, "coached_by", coach),
            (coach, "born_in", rng.choice(cities)),
        ]
    players: list[str] = []
    for club in clubs:
        numbers = rng.sample(range(1, 31), 11)
        for k, number in enumerate(numbers):
            player = next(names)
            players.append(player)
            born = rng.choice(cities)
            triples += [
                (player, "plays_for", club),
                (player, "plays_position", POSITIONS[k] if k < len(POSITIONS) else rng.choice(POSITIONS[1:])),
                (player, "wears_number", str(number)),
                (player, "born_in", born),
                (player, "represents", home[born] if rng.random() < 0.8 else rng.choice(COUNTRIES)),
            ]
            if rng.random() < 0.4:
                triples.append((player, "formerly_played_for", rng.choice([c for c in clubs if c != club])))
    triples = sorted(set(triples))
    kinds = {
        "Player": players,
        "Coach": coaches,
        "Club": clubs,
        "City": cities,
        "League": sorted(leagues.values()),
    }
    return triples, kinds


def written_questions(
    triples: Sequence[tuple[str, str, str]], written: Sequence[tuple[str, Path_, str]]
) -> dict[int, list[Question]]:
    """Questions written for their topics, each answered from the graph by its path (non-empty, not too broad)."""
    adj = build_adjacency(triples)
    out: dict[int, list[Question]] = {1: [], 2: [], 3: []}
    for topic, steps, wording in written:
        path = _path(steps)
        answers = _answers(adj, topic, path)
        assert answers, (topic, steps)
        out[len(path)].append((wording, answers, path))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # a set whose source is not given is left as it is: the generated sets are always written
    parser.add_argument("--movies-cypher", type=Path, help="The Movies example's Cypher script.")
    parser.add_argument("--northwind-csv", type=Path, help="The import/ folder of neo4j-graph-examples/northwind.")
    parser.add_argument("--pole-zip", type=Path, help="data/pole-data-importer.zip of neo4j-graph-examples/pole.")
    parser.add_argument("--per-template", type=int, default=22, help="Template questions per template.")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    triples, kinds = company_graph()
    splits = {"dev": template_questions(triples, kinds, args.per_template), "hand": hand_questions(triples, kinds)}
    write_set(args.out / "companies", triples, TYPES, splits)
    fb = {r: (FREEBASE[r]) for r in TYPES}
    write_set(
        args.out / "companies_freebase",
        [(s, fb[r], o) for s, r, o in triples],
        {fb[r]: t for r, t in TYPES.items()},
        {k: rename(v, fb) for k, v in splits.items()},
    )
    wd = {r: pid for r, (pid, _label) in WIKIDATA.items()}
    write_set(
        args.out / "companies_wikidata",
        [(s, wd[r], o) for s, r, o in triples],
        {wd[r]: t for r, t in TYPES.items()},
        {k: rename(v, wd) for k, v in splits.items()},
    )
    labels = {pid: label for pid, label in WIKIDATA.values()}
    (args.out / "companies_wikidata" / "relations.json").write_text(json.dumps(labels, indent=1) + "\n")

    people, kinds = people_graph()
    splits = {
        "dev": template_questions(people, kinds, args.per_template, templates=PEOPLE_TEMPLATES),
        "hand": hand_questions(people, kinds, hand=PEOPLE_HAND),
    }
    write_set(args.out / "people", people, PEOPLE_TYPES, splits)
    write_set(
        args.out / "people_freebase",
        [(s, PEOPLE_FREEBASE[r], o) for s, r, o in people],
        {PEOPLE_FREEBASE[r]: t for r, t in PEOPLE_TYPES.items()},
        {k: rename(v, PEOPLE_FREEBASE) for k, v in splits.items()},
    )

    football, kinds = football_graph()
    splits = {
        "dev": template_questions(football, kinds, args.per_template, templates=FOOTBALL_TEMPLATES),
        "hand": hand_questions(football, kinds, hand=FOOTBALL_HAND),
    }
    write_set(args.out / "football", football, FOOTBALL_TYPES, splits)

    if args.movies_cypher:
        movies = movies_graph(args.movies_cypher.read_text(encoding="utf-8"))
        write_set(args.out / "movies", movies, MOVIE_TYPES, {"hand": written_questions(movies, MOVIE_HAND)})

    sources = (
        ("northwind", args.northwind_csv, northwind_graph, NORTHWIND_TYPES, NORTHWIND_TEMPLATES, NORTHWIND_HAND),
        ("pole", args.pole_zip, pole_graph, POLE_TYPES, POLE_TEMPLATES, POLE_HAND),
    )
    for name, source, read, types, templates, written in sources:
        if source is None:
            continue
        graph, entities = read(source)
        assert {r for _, r, _ in graph} == set(types), name
        dev = template_questions(graph, entities, args.per_template, templates=templates)
        write_set(args.out / name, graph, types, {"dev": dev, "hand": written_questions(graph, written)})
    for folder in sorted(args.out.iterdir()):
        files = sorted(p.name for p in folder.glob("qa_*hop.txt"))
        counts = {f: len(p.read_text().splitlines()) for f in files for p in [folder / f]}
        print(folder.name, len((folder / "kb.txt").read_text().splitlines()), "triples", counts)


if __name__ == "__main__":
    main()
