"""The walk-from-one-Cypher-statement recipe (``cypher/recipes/run_walk.cypher``) against a real `gw-neo4j serve`
process on a free port with the offline local decider: the statement GETs /v1/walk through apoc.load.json (APOC
core), the service walks and commits the trace, and the same statement returns the answers and the drawn walk. A
service that is not there, or refuses the walk, is an error naming its URL, never an empty result."""

from __future__ import annotations

import os
import re
import uuid
from typing import TYPE_CHECKING

import pytest

import neo4j
from graphwalk_neo4j.store import template
from tests.service.test_shutdown import ROOT, ServeProcess

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graphwalk_neo4j.settings import Settings

QUESTION = "who directed Memento"


@pytest.fixture
def service(neo4j_settings: Settings, movie_graph: str) -> Iterator[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "GW_NEO4J_URI": neo4j_settings.uri,
        "GW_NEO4J_MODEL": "local",
        "GW_NEO4J_SERVICE_GRAPHS": movie_graph,
    }
    server = ServeProcess(env)
    try:
        yield server.wait_started()
    finally:
        server.proc.terminate()
        server.proc.wait(timeout=60)


def driver(settings: Settings) -> neo4j.Driver:
    return neo4j.GraphDatabase.driver(settings.uri, auth=(settings.user, settings.password.get_secret_value()))


def test_one_statement_walks_through_the_service_and_returns_answers_and_the_drawn_walk(
    neo4j_settings: Settings, movie_graph: str, service: str
) -> None:
    tmpl = template("recipes/run_walk")
    params = {"question": QUESTION, "graph": movie_graph, "preset": None, "service": service}
    with (
        driver(neo4j_settings) as d,
        d.session(database=neo4j_settings.database, default_access_mode=neo4j.READ_ACCESS) as session,
    ):
        # a read transaction: the Cypher side writes nothing (the service writes the trace in its own transactions)
        [row] = session.execute_read(lambda tx: list(tx.run(tmpl.body, params)))
        assert tuple(row.keys()) == tmpl.returns
        stored = session.run(
            "MATCH (w:Walk {id: $id}) RETURN w.graph AS graph, w.status AS status, "
            "w.answer_names AS answers, w.question AS question",
            id=row["walk_id"],
        ).single()
    assert stored is not None
    assert stored["graph"] == movie_graph
    assert stored["question"] == QUESTION
    assert row["status"] == stored["status"] == "ok"
    assert row["answers"] == stored["answers"] == ["Christopher Nolan"]
    # the drawn walk: question -> Memento -> one virtual hop -> the answer
    assert row["walk"]["id"] == row["walk_id"]
    assert [p.end_node["name"] for p in row["start"]] == ["Memento"]
    [hop] = row["hops"]
    assert (hop.start_node["name"], hop.end_node["name"]) == ("Memento", "Christopher Nolan")
    assert re.fullmatch(r"directed_by → (\.\d\d|1)", hop.relationships[0].type), hop.relationships[0].type
    assert hop.relationships[0]["relation"] == "directed_by"
    assert 0 < hop.relationships[0]["p"] <= 1
    assert [p.end_node["name"] for p in row["answered"]] == ["Christopher Nolan"]


def test_a_missing_or_refusing_service_is_an_error_naming_it(
    neo4j_settings: Settings, movie_graph: str, service: str
) -> None:
    tmpl = template("recipes/run_walk")
    nowhere = f"t_{uuid.uuid4().hex[:12]}"  # a graph no service has: 404 from any service on the default port
    cases: list[tuple[dict[str, str | None], str]] = [
        ({"service": None, "graph": nowhere}, "http://127.0.0.1:8765"),  # the documented default
        ({"service": service, "graph": nowhere}, service),  # running, but refuses
        ({"service": "http://127.0.0.1:9", "graph": movie_graph}, "http://127.0.0.1:9"),  # nothing listening
    ]
    with driver(neo4j_settings) as d, d.session(database=neo4j_settings.database) as session:
        for given, named in cases:
            params = {"question": QUESTION, "preset": None, **given}
            with pytest.raises(neo4j.exceptions.ClientError) as failed:
                session.run(tmpl.body, params).consume()
            assert f"no walk from the graphwalk service at {named}: it is not running" in str(failed.value.message)
