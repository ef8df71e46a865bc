"""A small Server-Sent Events reader for the tests: ``(event, data)`` pairs from an httpx streamed response."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

    import httpx


def events(response: httpx.Response) -> Iterator[tuple[str, Any]]:
    event = "message"
    data: list[str] = []
    for line in response.iter_lines():
        if line == "":
            if data:
                yield event, json.loads("\n".join(data))
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
