"""The HTTP API's request and response bodies (pydantic; FastAPI turns them into the OpenAPI document).

The walk request and response follow the shared contract in docs/service.md: ``POST /v1/walk`` takes
``{question, graph, start, preset, model, config, stream}`` and answers ``{walk_id, graph, status, answers:
[{name, uid, value, score}], bundle}``, where ``bundle`` is the context bundle exactly as ``gw-neo4j walk --json``
prints it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graphwalk_neo4j.graph.identity import entity_uid
from graphwalk_neo4j.graph.search import MAX_SEARCH_HITS
from graphwalk_neo4j.identifiers import MAX_IDENTIFIER_CHARS
from graphwalk_neo4j.walk.config import MAX_QUESTION_CHARS, MAX_START_CHARS, MAX_START_ENTITIES
from graphwalk_neo4j.walk.cpu import off_loop, walk_deadline

if TYPE_CHECKING:
    from graphwalk_neo4j.walk.result import DepthEvent, Totals
    from graphwalk_neo4j.walk.service import WalkOutcome

GRAPH_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
# The walk's own arguments, with the limits walk/config.py owns (HTTP bodies and MCP tools use these types).
Question = Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS, description="The question to answer.")]
GraphName = Annotated[str, Field(pattern=GRAPH_PATTERN, max_length=MAX_IDENTIFIER_CHARS)]
StartName = Annotated[str, Field(min_length=1, max_length=MAX_START_CHARS)]
StartList = Annotated[list[StartName], Field(max_length=MAX_START_ENTITIES)]


class WalkRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: Question
    graph: GraphName = "default"
    start: StartName | StartList | None = Field(
        default=None, description="Start entity name(s) or id(s); default: linked from the question."
    )
    preset: str | None = Field(default=None, description="A named walk configuration (see `gw-neo4j walk -h`).")
    model: str | None = Field(
        default=None, description="Decision model: jev, jev-<version>, local, general, learned:DIR, fake, ..."
    )
    config: dict[str, Any] | None = Field(
        default=None, description='WalkConfig field overrides, e.g. {"hop_mode": "relation", "max_depth": 3}.'
    )
    stream: bool = Field(default=False, description="Stream one Server-Sent Event per depth, then the result.")
    choose_start: bool = Field(default=False, description="Spend one decision call choosing among link candidates.")


class AnswerOut(BaseModel):
    name: str
    uid: str | None = None
    value: Any | None = None
    score: float


class WalkResponse(BaseModel):
    walk_id: str
    graph: str
    status: str
    answers: list[AnswerOut]
    bundle: dict[str, Any]

    @classmethod
    def of(cls, graph: str, outcome: WalkOutcome) -> WalkResponse:
        result = outcome.result
        return cls(
            walk_id=result.walk_id,
            graph=graph,
            status=result.status,
            answers=[AnswerOut(name=a.name, uid=entity_uid(graph, a.node_id), score=a.score) for a in result.answers],
            bundle=outcome.bundle(),
        )


@dataclass(frozen=True)
class FinishedWalk:
    """A finished walk as the service answers it: what its metrics and log need, and its response body as JSON
    text, built where the walk ran (with a walk process, there: the serving process then never holds, unpickles
    or validates a big walk's objects, 12 MB pickled and 1.6 s of one interpreter lock for a 64-beam hub walk)."""

    walk_id: str
    status: str
    totals: Totals
    body: str  # the WalkResponse, serialised

    @classmethod
    async def of(cls, graph: str, outcome: WalkOutcome) -> FinishedWalk:
        """Render ``outcome``'s response body in the walks' CPU pool (a 64-beam hub walk's bundle is megabytes:
        serialising it on the event loop would hold every other request)."""
        with walk_deadline(time.monotonic()):  # a finished walk's answer goes before running walks' steps
            body = await off_loop(lambda: WalkResponse.of(graph, outcome).model_dump_json())
        result = outcome.result
        return cls(walk_id=result.walk_id, status=result.status, totals=result.totals, body=body)

    async def data(self) -> dict[str, Any]:
        """The response body as JSON-ready data (MCP's structured result), parsed off the loop."""
        parsed: dict[str, Any] = await off_loop(json.loads, self.body)
        return parsed


def depth_payload(graph: str, event: DepthEvent) -> dict[str, Any]:
    """One streamed depth: for every step, where it stood, the options offered with their probabilities, what
    was chosen; the decision call's usage; and the answers of the walks finished so far."""
    steps = []
    for step in event.record.steps:
        steps.append(
            {
                "beam": step.beam,
                "kind": step.kind,
                "kept": step.kept,
                "at": step.node_names[:10],
                "options": [
                    {
                        "label": o.label,
                        "relation": o.relation,
                        "direction": o.direction,
                        "is_stop": o.is_stop,
                        "count": o.count,
                        "targets": o.target_names[:10],
                        "p": step.distribution.get(o.label),
                    }
                    for o in step.options
                ],
                "chosen": step.chosen,
                "chosen_relation": step.chosen_relation,
                "chosen_direction": step.chosen_direction,
                "p": step.p,
                "score": step.score,
            }
        )
    call = event.record.call
    return {
        "walk_id": event.walk_id,
        "graph": graph,
        "depth": event.depth,
        "seconds": round(event.seconds, 6),
        "call": call.model_dump(mode="json") if call is not None else None,
        "steps": steps,
        "answers": [
            AnswerOut(name=a.name, uid=entity_uid(graph, a.node_id), score=a.score).model_dump() for a in event.answers
        ],
    }


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=1000)
    graph: GraphName = "default"
    limit: int = Field(default=10, ge=1, le=MAX_SEARCH_HITS, description="Hits to return (`k`: its former name).")
    vector: bool = True

    @model_validator(mode="before")
    @classmethod
    def _former_k(cls, data: Any) -> Any:
        if isinstance(data, dict) and "k" in data and "limit" not in data:
            data = {**data, "limit": data["k"]}
            del data["k"]
        return data


class SearchHit(BaseModel):
    id: str
    uid: str
    name: str
    type: str | None
    score: float
    reasons: list[str]


class SearchResponse(BaseModel):
    query: str
    graph: str
    hits: list[SearchHit]


class GraphInfo(BaseModel):
    graph: str
    entities: int
    relationships: int
    warm: bool = Field(description="The graph's embedding cache is loaded in this process.")


class GraphsResponse(BaseModel):
    graphs: list[GraphInfo]


class Problem(BaseModel):
    """RFC 9457 problem details (``application/problem+json``)."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    instance: str | None = None
    request_id: str | None = None


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    version: str


class Readiness(BaseModel):
    ready: bool
    checks: dict[str, Any]
