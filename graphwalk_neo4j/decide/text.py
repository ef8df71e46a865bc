"""Render JSON content (text, object or array) as plain text for embedders and prompts."""

from __future__ import annotations

import json
from typing import Any


def content_text(content: Any) -> str:
    """Plain text for ``content``: strings as-is, objects as ``key: value; ...``, arrays comma-joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, bool):
        return "yes" if content else "no"
    if isinstance(content, int | float):
        return str(content)
    if isinstance(content, dict):
        parts = []
        for key, value in content.items():
            text = content_text(value)
            if text:
                parts.append(f"{key}: {text}")
        return "; ".join(parts)
    if isinstance(content, list | tuple):
        return ", ".join(text for text in (content_text(item) for item in content) if text)
    return str(content)


def value_strings(content: Any) -> list[str]:
    """The leaf values of ``content`` as strings, in order, without keys, skipping empties and repeats."""
    out: list[str] = []

    def walk(item: Any) -> None:
        if item is None:
            return
        if isinstance(item, dict):
            for value in item.values():
                walk(value)
        elif isinstance(item, list | tuple):
            for value in item:
                walk(value)
        else:
            text = content_text(item).strip()
            if text and text not in out:
                out.append(text)

    walk(content)
    return out


def values_text(content: Any) -> str:
    """Leaf values joined by spaces: the field names of structured content are left out (for embedders)."""
    return " ".join(value_strings(content))


def compact_json(content: Any) -> str:
    """Compact JSON (no spaces, UTF-8 kept), the form used for token estimates and prompts."""
    return json.dumps(content, separators=(",", ":"), ensure_ascii=False, default=str)
