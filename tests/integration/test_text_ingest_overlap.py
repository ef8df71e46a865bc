"""Text ingest overlaps its extraction calls: the extraction stand-in holds every call until two are in flight at
once (``flight.gate``), so the check needs no timing; a run that never overlapped would leave the gate missed.
Throughput itself (documents/s, where the time goes) is a benchmark: ``python -m bench.run --only text``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.decide.fake import FakeBackend
from graphwalk_neo4j.ingest.documents import TextIngest
from graphwalk_neo4j.ingest.extraction import Extractor
from graphwalk_neo4j.ingest.routing import Router
from tests.integration.text_ingest_corpus import make_corpus
from tests.integration.text_ingest_support import MODEL, reader_answer
from tests.standins.extraction import ExtractionStandIn

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.neo4j


async def test_extraction_calls_overlap(store: Any, graph_name: str, tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    scripts = make_corpus(folder, 12)
    with ExtractionStandIn(scripts) as standin:
        standin.flight.gate = 2
        extractor = Extractor(MODEL, api_base=standin.api_base, api_key="sk-test", concurrency=8, num_retries=0)
        router = Router(store, graph_name, decider=FakeBackend(answer=reader_answer(unsure=False)))
        report = await TextIngest(store, graph=graph_name, extractor=extractor, router=router).run([folder])
    assert report.ok
    assert not standin.flight.gate_missed, "extraction calls never overlapped"
    assert standin.max_in_flight >= 2
    assert len(standin.passages) == 24
    assert report.as_dict()["routing"]["mentions"] > 0
