"""The standing hostile probe: every test here is marked ``hostile`` (``pytest -m hostile`` runs it alone; the
normal suite and CI run it too)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/hostile/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.hostile)
