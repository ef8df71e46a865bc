"""A small Movies-like graph in a user's own schema, written with plain Cypher (never through our ingest).

Modelled on the kind of graph Neo4j Browser's ``:play movies`` creates: ``:Person {name, born}``,
``:Movie {title, released, tagline}``, ``ACTED_IN {roles}``, ``DIRECTED``, ``PRODUCED``, ``WROTE``,
``REVIEWED {summary, rating}``, ``FOLLOWS``, plus the awkward parts a real graph has: a second label on some
nodes, a node without a name, a self-loop, parallel relationships, a label and a relationship type that need
backtick quoting, a user index, and a graphwalk-managed ``:Entity`` node carrying the same label (adopt must leave
it alone). The database is shared, so every label carries a per-test suffix (``Person_ab12cd``); the fixture
returns the label names and ``checksum`` fingerprints everything the user owns.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore

PEOPLE = [  # name, born
    ("Keanu Reeves", 1964),
    ("Carrie-Anne Moss", 1967),
    ("Laurence Fishburne", 1961),
    ("Hugo Weaving", 1960),
    ("Lana Wachowski", 1965),
    ("Lilly Wachowski", 1967),
    ("Joel Silver", 1952),
    ("Al Pacino", 1940),
    ("Charlize Theron", 1975),
    ("Taylor Hackford", 1944),
    ("Tom Cruise", 1962),
    ("Jack Nicholson", 1937),
    ("Rob Reiner", 1947),
    ("Aaron Sorkin", 1961),
    ("Jessica Thompson", None),
    ("James Thompson", None),
]
MOVIES = [  # title, released, tagline (written for this fixture)
    ("The Matrix", 1999, "A hacker learns that his world is a simulation"),
    ("The Matrix Reloaded", 2003, "The fight for Zion goes on"),
    ("The Matrix Revolutions", 2003, "The war between humans and machines ends"),
    ("The Devil's Advocate", 1997, "A lawyer meets a very persuasive employer"),
    ("A Few Good Men", 1992, "Military lawyers go after the truth"),
]
ACTED = [  # person, movie, roles
    ("Keanu Reeves", "The Matrix", ["Neo"]),
    ("Carrie-Anne Moss", "The Matrix", ["Trinity"]),
    ("Laurence Fishburne", "The Matrix", ["Morpheus"]),
    ("Hugo Weaving", "The Matrix", ["Agent Smith"]),
    ("Keanu Reeves", "The Matrix Reloaded", ["Neo"]),
    ("Carrie-Anne Moss", "The Matrix Reloaded", ["Trinity"]),
    ("Keanu Reeves", "The Matrix Revolutions", ["Neo"]),
    ("Keanu Reeves", "The Devil's Advocate", ["Kevin Lomax"]),
    ("Al Pacino", "The Devil's Advocate", ["John Milton"]),
    ("Charlize Theron", "The Devil's Advocate", ["Mary Ann Lomax"]),
    ("Tom Cruise", "A Few Good Men", ["Lt. Daniel Kaffee"]),
    ("Jack Nicholson", "A Few Good Men", ["Col. Jessup"]),
]
DIRECTED = (
    [("Lana Wachowski", m) for m in ("The Matrix", "The Matrix Reloaded", "The Matrix Revolutions")]
    + [("Lilly Wachowski", m) for m in ("The Matrix", "The Matrix Reloaded", "The Matrix Revolutions")]
    + [("Taylor Hackford", "The Devil's Advocate"), ("Rob Reiner", "A Few Good Men")]
)
PRODUCED = [("Joel Silver", m) for m in ("The Matrix", "The Matrix Reloaded", "The Matrix Revolutions")]
WROTE = [("Aaron Sorkin", "A Few Good Men")]
REVIEWED = [  # parallel: two reviews of The Matrix by the same reviewer
    ("Jessica Thompson", "The Matrix", "Still sharp after many viewings", 92),
    ("Jessica Thompson", "The Matrix", "A second look: the action holds up", 88),
    ("James Thompson", "A Few Good Men", "Courtroom drama at its best", 80),
]


@dataclass
class MoviesGraph:
    suffix: str
    person: str
    movie: str
    director: str
    studio: str  # needs backtick quoting (space, non-ASCII)
    distributed: str  # relationship type that needs quoting

    @property
    def labels(self) -> list[str]:
        return [self.person, self.movie, self.director, self.studio]

    @property
    def types(self) -> dict[str, str]:
        """The kinds the walk shows (the labels without the per-test suffix)."""
        return {self.person: "Person", self.movie: "Movie", self.director: "Director", self.studio: "Studio"}


def _q(name: str) -> str:
    """Backtick-quote a test-made label (the suffix is hex; the names are this module's own)."""
    assert "`" not in name
    return f"`{name}`"


async def create_movies(store: GraphStore, graph_name: str) -> MoviesGraph:
    sfx = uuid.uuid4().hex[:8]
    assert re.fullmatch(r"[0-9a-f]{8}", sfx)
    g = MoviesGraph(
        suffix=sfx,
        person=f"Person_{sfx}",
        movie=f"Movie_{sfx}",
        director=f"Director_{sfx}",
        studio=f"Stüdio Ω {sfx}",
        distributed=f"DISTRIBUTED BY {sfx}",
    )
    P, M, D, S = _q(g.person), _q(g.movie), _q(g.director), _q(g.studio)
    await store.query(
        f"UNWIND $rows AS r CREATE (p:{P} {{name: r[0]}}) FOREACH (b IN CASE WHEN r[1] IS NULL "
        f"THEN [] ELSE [r[1]] END | SET p.born = b)",
        {"rows": [list(p) for p in PEOPLE]},
    )
    await store.query(
        f"UNWIND $rows AS r CREATE (:{M} {{title: r[0], released: r[1], tagline: r[2]}})",
        {"rows": [list(m) for m in MOVIES]},
    )
    await store.query(f"MATCH (p:{P}) WHERE p.name IN ['Lana Wachowski', 'Lilly Wachowski'] SET p:{D}", {})
    for rel, rows, props in (
        ("ACTED_IN", ACTED, "{roles: r[2]}"),
        ("DIRECTED", DIRECTED, ""),
        ("PRODUCED", PRODUCED, ""),
        ("WROTE", WROTE, ""),
        ("REVIEWED", REVIEWED, "{summary: r[2], rating: r[3]}"),
    ):
        await store.query(
            f"UNWIND $rows AS r MATCH (p:{P} {{name: r[0]}}), (m:{M} {{title: r[1]}}) CREATE (p)-[:{rel} {props}]->(m)",
            {"rows": [list(x) for x in rows]},
        )
    await store.query(
        f"MATCH (a:{P} {{name: 'James Thompson'}}), (b:{P} {{name: 'Jessica Thompson'}}) "
        f"CREATE (a)-[:FOLLOWS]->(b), (a)-[:FOLLOWS]->(a)",
        {},
    )  # the second one is a self-loop
    await store.query(
        f"MATCH (m:{M} {{title: 'A Few Good Men'}}) CREATE (:{P} {{born: 1980}})-[:ACTED_IN {{roles: ['Extra']}}]->(m)",
        {},
    )  # a person without a name
    await store.query(
        f"MATCH (m:{M}) WHERE m.title STARTS WITH 'The Matrix' MERGE (s:{S} {{name: 'Warner Bros.'}}) "
        f"CREATE (m)-[:{_q(g.distributed)}]->(s)",
        {},
    )
    # graphwalk's own node with a user label: adopt must never take it in
    await store.query(
        f"CREATE (:Entity:{P} {{graph: $g, uid: $g + ':e_fixture', id: 'e_fixture', "
        f"name: 'Keanu Reeves', name_lc: 'keanu reeves', type: 'Person'}})",
        {"g": f"{graph_name}_ingested"},
    )
    await store.query(f"CREATE INDEX {_q('user_person_name_' + sfx)} IF NOT EXISTS FOR (p:{P}) ON (p.name)", {})
    return g


async def checksum(store: GraphStore, g: MoviesGraph) -> str:
    """A fingerprint of every label, property and relationship of the fixture's nodes (graphwalk's own :Entity
    node included) and of the indexes on its labels."""
    nodes = await store.query(
        "MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels) "
        "RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props",
        {"labels": g.labels},
        read=True,
    )
    rels = await store.query(
        "MATCH (a)-[r]->(b) WHERE any(l IN labels(a) + labels(b) WHERE l IN $labels) "
        "RETURN elementId(r) AS id, type(r) AS type, properties(r) AS props, elementId(a) AS a, elementId(b) AS b",
        {"labels": g.labels},
        read=True,
    )
    indexes = await store.query(
        "SHOW INDEXES YIELD name, labelsOrTypes, properties WHERE any(l IN coalesce(labelsOrTypes, []) "
        "WHERE l IN $labels) RETURN name, labelsOrTypes, properties",
        {"labels": g.labels},
        read=True,
    )

    def canon(rows: list[dict[str, Any]]) -> list[Any]:
        out = []
        for r in rows:
            r = dict(r)
            if "labels" in r:
                r["labels"] = sorted(r["labels"])
            out.append(json.dumps(r, sort_keys=True, default=str))
        return sorted(out)

    blob = json.dumps([canon(nodes), canon(rels), canon(indexes)])
    assert nodes, "the fixture has no nodes"
    assert rels, "the fixture has no relationships"
    return hashlib.sha256(blob.encode()).hexdigest()


async def drop_movies(store: GraphStore, g: MoviesGraph) -> None:
    await store.query("MATCH (n) WHERE any(l IN labels(n) WHERE l IN $labels) DETACH DELETE n", {"labels": g.labels})
    await store.query(f"DROP INDEX {_q('user_person_name_' + g.suffix)} IF EXISTS", {})
