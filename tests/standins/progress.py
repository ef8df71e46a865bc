"""A :class:`graphwalk_neo4j.progress.Progress` that records what it is told, for exact assertions."""

from __future__ import annotations


class RecordingProgress:
    def __init__(self) -> None:
        self.stages: list[str] = []
        self.updates: list[tuple[str, int, int]] = []

    def stage(self, message: str) -> None:
        self.stages.append(message)

    def advance(self, label: str, done: int, total: int) -> None:
        self.updates.append((label, done, total))

    def of(self, label: str) -> list[tuple[int, int]]:
        """The (done, total) pairs reported for ``label``, in order."""
        return [(done, total) for name, done, total in self.updates if name == label]
