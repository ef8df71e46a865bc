"""Shared pieces of the walk tests: a scripted decision backend and the small film graph.

:class:`ScriptedBackend` answers each question from ``script[question key]``, else from
``script[current node text]`` (``question.instructions["current"]``): ``{label | option-description prefix |
"--rel-->"/"<--rel--" substring of the description: p}``; unnamed options get 0, and the probabilities must sum
to 1. Usage per request: 100 input / 10 output tokens and $0.001 per question, 0.25 s; ``fail_on`` lists the
calls (1-based) that fail with a DecisionError. Every request is kept in ``requests``.

``FILM_NODES``/``FILM_EDGES``: two Nolan films with their director, writer, stars and years.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.decide.base import (
    ChoiceQuestion,
    ChoiceResult,
    DecisionBackend,
    DecisionRequest,
    DecisionResponse,
    Usage,
)
from graphwalk_neo4j.errors import DecisionError
from graphwalk_neo4j.walk.ports import NodeRef

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

REPO_ROOT = Path(__file__).resolve().parent.parent


def json_object(value: object) -> dict[str, Any]:
    """``value`` (a JSON-shaped field such as a question's ``instructions``), checked to be an object."""
    assert isinstance(value, dict), value
    return value


def shared_dir() -> Path:
    """The project's shared data: ``$GW_NEO4J_SHARED``, else ``../shared`` beside the repository root.

    The project ships this data, so a missing folder is a broken checkout, not a reason to skip: tests fail.
    """
    path = Path(os.environ.get("GW_NEO4J_SHARED") or REPO_ROOT.parent / "shared")
    if not (path / "datasets" / "metaqa" / "kb.txt").is_file():
        raise FileNotFoundError(
            f"shared data not found at {path} (expected datasets/metaqa/kb.txt); put the project's shared/ folder "
            "beside the repository or set GW_NEO4J_SHARED"
        )
    return path


def missing_service(reason: str) -> None:
    """Skip for an external service a user could also lack; under CI (``GW_NEO4J_REQUIRE_SERVICES=1``, set by
    ``.ci/run``, which installs them) the same absence is a failure, so these tests cannot silently stop running."""
    if os.environ.get("GW_NEO4J_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{reason} (GW_NEO4J_REQUIRE_SERVICES=1: CI installs it, so its absence is a failure)")
    pytest.skip(reason)


FILM_NODES: list[NodeRef] = [
    NodeRef(id="memento", name="Memento", type="film"),
    NodeRef(id="inception", name="Inception", type="film"),
    NodeRef(id="nolan", name="Christopher Nolan", type="person"),
    NodeRef(id="jnolan", name="Jonathan Nolan", type="person"),
    NodeRef(id="pearce", name="Guy Pearce", type="person"),
    NodeRef(id="dicaprio", name="Leonardo DiCaprio", type="person"),
    NodeRef(id="y2000", name="2000", type="year"),
    NodeRef(id="y2010", name="2010", type="year"),
]
FILM_EDGES: list[tuple[str, str, str]] = [
    ("memento", "directed_by", "nolan"),
    ("memento", "written_by", "jnolan"),
    ("memento", "starred_actors", "pearce"),
    ("memento", "release_year", "y2000"),
    ("inception", "directed_by", "nolan"),
    ("inception", "starred_actors", "dicaprio"),
    ("inception", "release_year", "y2010"),
]


def _matches(key: str, label: str, text: str) -> bool:
    return key == label or text.startswith(key) or (key.startswith(("--", "<--")) and key in text)


class ScriptedBackend(DecisionBackend):
    """A DecisionBackend answering from a script (see the module docstring)."""

    def __init__(
        self,
        script: Mapping[str, Mapping[str, float]],
        *,
        max_options: int = 255,
        fail_on: Sequence[int] = (),
    ) -> None:
        self.script = script
        self._max_options = max_options
        self.fail_on = set(fail_on)
        self.requests: list[DecisionRequest] = []

    @property
    def model_id(self) -> str:
        return "scripted-1"

    @property
    def max_options(self) -> int:
        return self._max_options

    async def aclose(self) -> None:
        return None

    def distribution(self, question: ChoiceQuestion) -> dict[str, float]:
        wanted = self.script.get(question.key)
        if wanted is None and isinstance(question.instructions, dict):
            wanted = self.script.get(question.instructions["current"])
        assert wanted is not None, f"unscripted question: {question.instructions}"
        probs = {
            label: next((p for key, p in wanted.items() if _matches(key, label, str(text or ""))), 0.0)
            for label, text in question.options.items()
        }
        assert abs(sum(probs.values()) - 1.0) < 1e-9, (question.instructions, probs)
        return probs

    def response(self, results: dict[str, ChoiceResult], request: DecisionRequest) -> DecisionResponse:
        """The answer to the ``len(self.requests)``-th request, around its ``results``."""
        k = len(request.questions)
        return DecisionResponse(
            results=results,
            usage=Usage(input_tokens=100 * k, output_tokens=10 * k, cost_usd=0.001 * k),
            latency_s=0.25,
            model="scripted-1-20260917",
            request_id=f"req-{len(self.requests)}",
            provider="scripted",
        )

    async def decide(self, request: DecisionRequest) -> DecisionResponse:
        self.requests.append(request)
        n = len(self.requests)
        if n in self.fail_on:
            raise DecisionError(f"scripted failure on call {n}")
        results = {}
        for question in request.questions:
            probs = self.distribution(question)
            top = max(probs, key=lambda k: probs[k])
            results[question.key] = ChoiceResult(
                key=question.key, probabilities=probs, raw_probabilities=probs, top=top
            )
        return self.response(results, request)
