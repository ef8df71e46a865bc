"""The provider's model listing, and the rule that a model id is pinned (no floating ``-latest``)."""

from __future__ import annotations

from typing import Any

from graphwalk_neo4j.errors import ConfigError


def listed_model_ids(body: Any) -> list[str]:
    """Model ids in a listing: TypeSafe ``{"models": [{"name"}]}`` or OpenRouter ``{"data": [{"id"}]}``."""
    ids: list[str] = []
    if not isinstance(body, dict):
        return ids
    for key, field in (("models", "name"), ("data", "id")):
        entries = body.get(key)
        if isinstance(entries, list):
            for entry in entries:
                if isinstance(entry, dict):
                    for name in (entry.get(field), entry.get("id"), entry.get("canonical_slug")):
                        if isinstance(name, str) and name not in ids:
                            ids.append(name)
                elif isinstance(entry, str) and entry not in ids:
                    ids.append(entry)
    return ids


def check_pinned_model(model: str) -> None:
    if model.strip().lower().endswith("-latest") or model.strip().lower() == "latest":
        raise ConfigError(
            f"refusing the floating model alias {model!r}: pin a version (e.g. jev-1.13.0 on TypeSafe, "
            "typesafe/jev-1.13 on OpenRouter) so traces and evals are reproducible"
        )


def echoed_matches(requested: str, echoed: str) -> bool:
    """The server may echo a dated endpoint id (``typesafe/jev-1.13-20260917`` for ``typesafe/jev-1.13``)."""
    return echoed == requested or echoed.startswith(requested + "-") or echoed.startswith(requested + ".")
