"""The extraction stand-in: the OpenAI-compatible stand-in (:mod:`tests.standins.openai_server`) answering the
extraction prompts of :mod:`graphwalk_neo4j.ingest.extraction`, so text ingest runs the real litellm client.

An extraction request (recognised by its system prompt) is answered with the first script whose ``needle``
occurs in the passage (``{"entities": [], "relations": []}`` when none does); ``garbage_passages[needle] = n``
answers that passage with prose ``n`` times. A decision request (from ``LLMBackend`` acting as adjudicator) is
answered by ``decide(payload)`` with a JSON distribution (uniform without one). The base class's ``status``,
``requests`` and ``flight`` (requests at once; ``flight.gate`` holds calls until that many overlap) apply.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.ingest.extraction import SYSTEM_PROMPT
from tests.standins.openai_server import OpenAIStandIn

if TYPE_CHECKING:
    from collections.abc import Callable

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"


def load_scripts() -> list[dict[str, Any]]:
    scripts: list[dict[str, Any]] = json.loads((CORPUS / "extractions.json").read_text(encoding="utf-8"))["scripts"]
    return scripts


class ExtractionStandIn(OpenAIStandIn):
    thread_name = "extraction-standin"

    def __init__(self, scripts: list[dict[str, Any]] | None = None) -> None:
        self.scripts = scripts if scripts is not None else load_scripts()
        super().__init__()

    def reset(self) -> None:
        super().reset()
        self.garbage_passages: dict[str, int] = {}
        self.decide: Callable[[dict[str, Any]], dict[str, float]] | None = None
        self.passages: list[str] = []  # the passage of every extraction call, in arrival order

    @property
    def extraction_calls(self) -> int:
        return len(self.passages)

    def _extraction(self, passage: str) -> str:
        for script in self.scripts:
            if script["needle"] in passage:
                with self._lock:
                    left = self.garbage_passages.get(script["needle"], 0)
                    if left:
                        self.garbage_passages[script["needle"]] = left - 1
                        return "Sure! The passage is about a lighthouse and some people."
                reply = script["reply"]
                return reply if isinstance(reply, str) else json.dumps(reply)
        return json.dumps({"entities": [], "relations": []})

    def content(self, body: dict[str, Any]) -> tuple[str, Any]:
        messages = body.get("messages") or []
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        user = next((m["content"] for m in messages if m.get("role") == "user"), "")
        if system == SYSTEM_PROMPT:
            passage = user.split("\n\n", 1)[1] if "\n\n" in user else user
            with self._lock:
                self.passages.append(passage)
            return self._extraction(passage), None
        if body.get("logprobs"):
            return "A", None  # no logprobs offered: LLMBackend falls back to JSON
        payload = json.loads(user.split("\n\n", 1)[0])
        labels = [o["label"] for o in payload.get("options", [])]
        dist = self.decide(payload) if self.decide else {label: 1.0 / len(labels) for label in labels}
        return json.dumps(dist), None
