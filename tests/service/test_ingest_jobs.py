"""POST /v1/ingest as a background job over real HTTP into the real Neo4j: progress, results, walking what was
loaded, refusals, and cancelling mid-file, which leaves whole batches only (the ledger says how many)."""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from typing import TYPE_CHECKING

import httpx
import pytest

from graphwalk_neo4j import faults
from graphwalk_neo4j.graph.ledger import list_documents
from graphwalk_neo4j.store import GraphStore
from tests.service.conftest import ServedApp, drop, service_settings

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graphwalk_neo4j.settings import Settings


def wait_finished(client: httpx.Client, job_id: str) -> dict:  # type: ignore[type-arg]
    for _ in range(6000):  # polls until the job leaves queued/running (bounded; nothing timed is asserted)
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] not in ("queued", "running"):
            return job  # type: ignore[no-any-return]
        time.sleep(0.01)
    raise AssertionError(f"job {job_id} did not finish: {job}")


@pytest.fixture
def served_graph(neo4j_settings: Settings, graph_name: str) -> Iterator[tuple[ServedApp, str]]:
    app = ServedApp(service_settings(neo4j_settings, "")).start()
    yield app, graph_name
    app.stop()
    asyncio.run(drop(neo4j_settings, graph_name))


def test_ingest_job_loads_embeds_and_the_graph_is_walkable(served_graph: tuple[ServedApp, str]) -> None:
    app, graph = served_graph
    kb = "Heat|directed_by|Michael Mann\nHeat|starred_actors|Al Pacino\nCollateral|directed_by|Michael Mann\n"
    with httpx.Client(base_url=app.url, timeout=60) as c:
        started = c.post(
            "/v1/ingest", json={"graph": graph, "files": [{"name": "kb.txt", "content": kb}], "embed": True}
        )
        assert started.status_code == 202, started.text
        job = started.json()
        assert started.headers["location"] == f"/v1/jobs/{job['id']}"
        assert job["kind"] == "structured"
        done = wait_finished(c, job["id"])
        assert done["status"] == "done", done
        [file] = done["result"]["files"]
        assert (file["status"], file["rows"], file["counts"]["rels_created"]) == ("loaded", 3, 3)
        assert done["result"]["embed"]["embedded"] == 4
        assert done["progress"] == {
            "file": "kb.txt",
            "rows_done": 3,
            "rows_total": 3,
            "files_done": 1,
            "files_total": 1,
            "embed": {"done": 4, "total": 4},
        }
        walked = c.post(
            "/v1/walk", json={"question": "which films did Michael Mann direct", "graph": graph, "preset": "relation"}
        )
        assert walked.status_code == 200, walked.text
        assert walked.json()["bundle"]["linking"]["start"] == ["Michael Mann"]
        again = wait_finished(
            c, c.post("/v1/ingest", json={"graph": graph, "files": [{"name": "kb.txt", "content": kb}]}).json()["id"]
        )
        assert again["result"]["files"][0]["status"] == "unchanged"  # the ledger's hash check, as in the CLI


def test_ingest_refusals(served_graph: tuple[ServedApp, str]) -> None:
    app, graph = served_graph
    with httpx.Client(base_url=app.url, timeout=60) as c:
        both = c.post(
            "/v1/ingest",
            json={"graph": graph, "files": [{"name": "a.txt", "content": "x|y|z"}], "sql": "sqlite:///x.db"},
        )
        assert both.status_code == 422
        assert "either `files`" in both.json()["detail"]
        sql = c.post("/v1/ingest", json={"graph": graph, "sql": "sqlite:////etc/passwd"})
        assert sql.status_code == 400
        assert "GW_NEO4J_SERVICE_INGEST_SQL=true" in sql.json()["detail"]
        sneaky = c.post("/v1/ingest", json={"graph": graph, "files": [{"name": "../x.txt", "content": "a|b|c"}]})
        assert sneaky.status_code == 422
        bad = wait_finished(
            c,
            c.post(
                "/v1/ingest", json={"graph": graph, "files": [{"name": "kb.txt", "content": "a|b|c\nbroken line\n"}]}
            ).json()["id"],
        )
        assert bad["status"] == "failed"
        assert bad["error"].startswith("kb.txt:2: "), bad["error"]
        assert c.get("/v1/jobs/nope").status_code == 404


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (
            {"files": [{"name": "kb.txt", "content": "a|b|c\n"}], "db_schema": "public"},
            "db_schema does not apply to structured files (triples, CSV, JSON lines): it is for a database URL",
        ),
        (
            {"files": [{"name": "kb.txt", "content": "a|b|c\n"}], "llm_model": "openai/gpt-4o-mini"},
            "llm_model does not apply to structured files (triples, CSV, JSON lines): it is for text documents",
        ),
        (
            {"files": [{"name": "notes.md", "content": "# Heat\n"}], "type_map": {"directed_by": ["Film", None]}},
            "type_map does not apply to text documents: it is for structured files",
        ),
        (
            {"files": [{"name": "notes.md", "content": "# Heat\n"}], "on_error": "skip"},
            "on_error does not apply to text documents: it is for structured files",
        ),
    ],
)
def test_an_option_the_pipeline_does_not_use_is_refused_before_a_job_starts(
    served_graph: tuple[ServedApp, str],
    body: dict[str, object],
    detail: str,
) -> None:
    app, graph = served_graph
    with httpx.Client(base_url=app.url, timeout=60) as c:
        refused = c.post("/v1/ingest", json={"graph": graph, **body})
        assert refused.status_code == 400, refused.text
        assert refused.json()["detail"] == detail + "; leave it out"
        assert refused.headers["content-type"] == "application/problem+json"
    assert asyncio.run(documents_of(app.settings, graph)) == []  # no job ran, nothing is in the ledger


def test_text_without_an_extraction_model_is_refused_before_a_job_starts(served_graph: tuple[ServedApp, str]) -> None:
    """The service reads no GW_NEO4J_LLM_MODEL (that is the CLI's): the request names the model, and the refusal
    says so in the request's own words."""
    app, graph = served_graph
    with httpx.Client(base_url=app.url, timeout=60) as c:
        refused = c.post("/v1/ingest", json={"graph": graph, "files": [{"name": "notes.md", "content": "# Heat\n"}]})
        assert refused.status_code == 400, refused.text
        assert refused.json()["detail"] == (
            "text ingest needs an extraction model: pass llm_model (a litellm name such as openai/gpt-4o-mini)"
        )
    assert asyncio.run(documents_of(app.settings, graph)) == []


async def documents_of(settings: Settings, graph: str) -> list[object]:
    store = GraphStore(settings)
    await store.connect()
    try:
        return list(await list_documents(store, graph))
    finally:
        await store.close()


def test_job_errors_and_results_name_the_callers_file(served_graph: tuple[ServedApp, str]) -> None:
    """The caller sent ``films.txt``; the server's temporary folder is in no message, failed or skipped."""
    app, graph = served_graph
    server_folder = tempfile.gettempdir()
    with httpx.Client(base_url=app.url, timeout=60) as c:
        failed = wait_finished(
            c,
            c.post(
                "/v1/ingest",
                json={"graph": graph, "files": [{"name": "films.txt", "content": "Heat|directed_by|Mann\nno bars\n"}]},
            ).json()["id"],
        )
        skipped = wait_finished(
            c,
            c.post(
                "/v1/ingest",
                json={
                    "graph": graph,
                    "on_error": "skip",
                    "files": [{"name": "films.txt", "content": "Heat|directed_by|Mann\nno bars\n"}],
                },
            ).json()["id"],
        )
    assert failed["status"] == "failed"
    assert failed["error"].startswith("films.txt:2: "), failed["error"]
    assert skipped["status"] == "done", skipped
    [file] = skipped["result"]["files"]
    assert file["path"] == "films.txt"
    assert [problem.split(": ", 1)[0] for problem in file["problems"]] == ["films.txt:2"]
    for job in (failed, skipped):
        assert server_folder not in json.dumps(job)
        assert "gw-ingest-" not in json.dumps(job)


def test_cancelling_a_job_keeps_whole_batches_only(
    served_graph: tuple[ServedApp, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, graph = served_graph
    faults._passes.clear()
    monkeypatch.setenv(faults.ENV, "ingest.batch@2")  # the job stops after its second committed batch
    kb = "".join(f"s{i}|rel|o{i}\n" for i in range(500))
    with httpx.Client(base_url=app.url, timeout=60) as c:
        job = c.post(
            "/v1/ingest", json={"graph": graph, "batch_size": 50, "files": [{"name": "big.txt", "content": kb}]}
        ).json()
        for _ in range(6000):  # until the job reports its second batch (then it is paused there)
            progress = c.get(f"/v1/jobs/{job['id']}").json()["progress"]
            if progress.get("rows_done") == 100:
                break
            time.sleep(0.01)
        assert progress["rows_done"] == 100
        cancelled = c.delete(f"/v1/jobs/{job['id']}")
        assert cancelled.status_code == 200
        assert cancelled.json()["status"] == "cancelled"
        assert c.get(f"/v1/jobs/{job['id']}").json()["status"] == "cancelled"

    async def ledger() -> tuple[dict, dict]:  # type: ignore[type-arg]
        async with GraphStore(app.settings) as store:
            [doc] = await list_documents(store, graph)
            counts = (await store.read("graph/counts", graph=graph))[0]
        return doc, counts

    doc, counts = asyncio.run(ledger())
    assert doc["doc_id"] == "big.txt"
    assert doc["complete"] is not True
    assert counts["relationships"] == 100
    assert counts["entities"] == 200
