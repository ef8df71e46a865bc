"""Fixtures shared by the integration tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.standins.extraction import ExtractionStandIn

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def standin() -> Iterator[ExtractionStandIn]:
    """A started extraction stand-in (the default corpus scripts), stopped after the test."""
    with ExtractionStandIn() as server:
        yield server
