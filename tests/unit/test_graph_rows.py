"""The graph's identity rules and write rows: one uid rule, rows built by one model, exact values."""

from __future__ import annotations

import hashlib
import json

from graphwalk_neo4j.graph.identity import (
    SEP,
    canonical_json,
    entity_id,
    entity_uid,
    hashed_entity_id,
    id_of_uid,
    relation_id,
)
from graphwalk_neo4j.graph.rows import ClaimRow, EntityRow, RelationRow, TripleRecord, params
from graphwalk_neo4j.graph.writes import prepare_batch


def test_uid_round_trip() -> None:
    assert entity_uid("movies", "e_1") == "movies:e_1"
    assert id_of_uid("movies:e_1") == "e_1"


def test_hashed_entity_id_is_sha256_prefix() -> None:
    key = SEP.join(("src", "doc", "Person", "Ada"))
    assert hashed_entity_id(key) == "e_" + hashlib.sha256(key.encode()).hexdigest()[:32]
    assert hashed_entity_id(canonical_json(["s", "t", [1]])) == (
        "e_" + hashlib.sha256(b'["s","t",[1]]').hexdigest()[:32]
    )


def test_entity_row_param() -> None:
    row = EntityRow.of("g", "e_1", "Kismet", "Movie")
    assert row.param() == {
        "uid": "g:e_1",
        "id": "e_1",
        "name": "Kismet",
        "name_lc": "kismet",
        "type": "Movie",
        "summary": None,
        "aliases": [],
    }


def test_relation_row_id_comes_from_the_entity_ids() -> None:
    row = RelationRow.of("g:e_a", "directed_by", "g:e_b")
    assert row.id == relation_id("e_a", "directed_by", "e_b")
    assert params([row]) == [
        {"src": "g:e_a", "dst": "g:e_b", "type": "directed_by", "id": row.id, "chunk": None, "confidence": None}
    ]


def test_claim_row_text() -> None:
    row = ClaimRow.of("g:e_a", "year", 1944, "doc1")
    assert json.loads(row.claim) == {"key": "year", "value": 1944, "source": "doc1"}
    assert row.param() == {"uid": "g:e_a", "key": "year", "value": 1944, "claim": row.claim}


def test_prepare_batch_builds_rows_from_the_model() -> None:
    records = [
        TripleRecord(subject="Kismet", relation="directed_by", object="William Dieterle", attributes={"year": 1944}),
        TripleRecord(subject="Kismet", relation="directed_by", object="William Dieterle"),
    ]
    batch = prepare_batch(records, "g", "doc", {"directed_by": ("Movie", "Person")})
    kismet, dieterle = entity_id("Kismet"), entity_id("William Dieterle")
    assert [(e.uid, e.name, e.type) for e in batch.entities] == [
        (f"g:{kismet}", "Kismet", "Movie"),
        (f"g:{dieterle}", "William Dieterle", "Person"),
    ]
    assert [(r.src, r.dst, r.id) for r in batch.relations] == [
        (f"g:{kismet}", f"g:{dieterle}", relation_id(kismet, "directed_by", dieterle)),
    ]
    assert [(c.uid, c.key, c.value) for c in batch.claims] == [(f"g:{kismet}", "year", 1944)]
