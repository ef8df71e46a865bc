"""Build the foreign dev sets in ``graphwalk_neo4j/data/devsets/`` (docs/eval.md, "Foreign dev sets").

    python scripts/make_devsets.py --movies-cypher PATH/movies.cypher

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
* ``movies``: Neo4j's Movies example graph (``:play movies``, 38 movies, 133 people; read from its Cypher script,
  e.g. ``docker/db/import/movies.cypher`` in neo4j-examples/movies-php-client) as triples, with ``released`` and
  ``born`` years as year nodes, and split ``hand`` (1- to 3-hop questions written by hand, :data:`MOVIE_HAND`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
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


def company_graph(seed: int = 7) -> tuple[list[tuple[str, str, str]], dict[str, list[str]]]:
    """The companies graph: triples with the plain relation names, and the entities of each type."""
    rng = random.Random(seed)
    cities: list[str] = []
    while len(cities) < 36:
        name = rng.choice(CITY_PARTS) + rng.choice(CITY_ENDS)
        if name not in cities:
            cities.append(name)
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
    triples: list[tuple[str, str, str]], kinds: dict[str, list[str]], per_template: int, seed: int = 11
) -> dict[int, list[Question]]:
    adj = build_adjacency(triples)
    rng = random.Random(seed)
    out: dict[int, list[Question]] = {2: [], 3: []}
    for kind, steps, wordings in TEMPLATES:
        path = _path(steps)
        topics = [t for t in sorted(kinds[kind]) if _answers(adj, t, path)]
        for i, topic in enumerate(rng.sample(topics, min(per_template, len(topics)))):
            out[len(path)].append((wordings[i % len(wordings)].format(topic), _answers(adj, topic, path), path))
    return out


def hand_questions(
    triples: list[tuple[str, str, str]], kinds: dict[str, list[str]], seed: int = 13
) -> dict[int, list[Question]]:
    adj = build_adjacency(triples)
    rng = random.Random(seed)
    out: dict[int, list[Question]] = {2: [], 3: []}
    for kind, steps, wording in HAND:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--movies-cypher", type=Path, required=True, help="The Movies example's Cypher script.")
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

    movies = movies_graph(args.movies_cypher.read_text(encoding="utf-8"))
    adj = build_adjacency(movies)
    hand: dict[int, list[Question]] = {1: [], 2: [], 3: []}
    for topic, steps, wording in MOVIE_HAND:
        path = _path(steps)
        answers = sorted(follow_path(adj, topic, path))
        assert answers, (topic, steps)
        hand[len(path)].append((wording, answers, path))
    write_set(args.out / "movies", movies, MOVIE_TYPES, {"hand": hand})
    for folder in sorted(args.out.iterdir()):
        files = sorted(p.name for p in folder.glob("qa_*hop.txt"))
        counts = {f: len(p.read_text().splitlines()) for f in files for p in [folder / f]}
        print(folder.name, len((folder / "kb.txt").read_text().splitlines()), "triples", counts)


if __name__ == "__main__":
    main()
