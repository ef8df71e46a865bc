"""A dataclass of named int counters that can be summed and listed."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass
class Counters:
    """Base for counter dataclasses: subclasses declare ``name: int = 0`` fields."""

    def add(self, other: Any) -> None:
        """Add ``other``'s counters of the same names (another instance, or any object with those attributes)."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
