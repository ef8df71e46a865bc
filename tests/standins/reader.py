"""The reader stand-in: the OpenAI-compatible stand-in (:mod:`tests.standins.openai_server`) playing the LLM of a
retrieval-augmented chain. It reads the ``Context:`` block of the last user message (neo4j-graphrag's RAG prompt)
and answers with the name that starts each context line (before its ``(type)`` and ``:``), joined by ``", "`` in
context order: a deterministic reader that can only answer what the retriever handed it (``"I don't know"`` for
no context).
"""

from __future__ import annotations

import re
from typing import Any

from tests.standins.openai_server import OpenAIStandIn

NO_CONTEXT = "I don't know"
LEADING_NAME = re.compile(r"^(.*?)(?: \([^()]*\))?:")


def context_lines(prompt: str) -> list[str]:
    """The non-empty lines between ``Context:`` and the next blank line of ``prompt``."""
    if "Context:\n" not in prompt:
        return []
    block = prompt.split("Context:\n", 1)[1].split("\n\n", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


class ReaderStandIn(OpenAIStandIn):
    thread_name = "reader-standin"

    def content(self, body: dict[str, Any]) -> tuple[str, Any]:
        users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
        prompt = (users[-1].get("content") or "") if users else ""
        names = [m.group(1) for m in map(LEADING_NAME.match, context_lines(prompt)) if m]
        return (", ".join(names) if names else NO_CONTEXT), None
