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


def compact_json(content: Any) -> str:
    """Compact JSON (no spaces, UTF-8 kept), the form used for token estimates and prompts."""
    return json.dumps(content, separators=(",", ":"), ensure_ascii=False, default=str)
