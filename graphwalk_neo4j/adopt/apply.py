"""Adopt and undo: the only writes adopt makes, all inside the namespace (see :mod:`graphwalk_neo4j.graph.profile`).

``adopt_graph`` stores the profile first (so an interrupted run can always be undone or resumed), creates the
``gw_adopt_name``, ``gw_adopt_names`` and ``gw_adopt_embedding`` indexes, then marks user nodes in batches of
``batch_size``, one transaction each: the label ``GwAdopted`` and the properties ``gw_graph``, ``gw_name``,
``gw_name_lc``, ``gw_type``, ``gw_hash``. A node whose ``gw_hash`` already matches is skipped, so a rerun (after
an interruption, or just twice) writes only what is missing or changed, and nothing at all when everything is in
place. Nodes that no longer carry a profile label lose the namespace. Nodes graphwalk manages and nodes another
adopted graph holds are never taken in.

``undo_graph`` removes exactly that: the namespace label and every ``gw_`` property of the graph's nodes (in
batches), the graph's stored walks, its profile node, and the shared indexes once no adopted node is left.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.graph.profile import (
    MANAGED_LABELS,
    GraphProfile,
    delete_profile,
    node_name,
    save_profile,
    stored_profile,
)
from graphwalk_neo4j.progress import QUIET, Progress
from graphwalk_neo4j.schema import EMBEDDING_DIMENSIONS

if TYPE_CHECKING:
    from graphwalk_neo4j.store import GraphStore, QueryName

BATCH = 2000


@dataclass
class AdoptReport:
    graph: str
    dry_run: bool = False
    scanned: int = 0
    marked: int = 0
    unchanged: int = 0
    foreign: int = 0  # held by another adopted graph
    released: int = 0  # lost the namespace (no profile label any more)
    unnamed: int = 0
    batches: int = 0
    seconds: float = 0.0
    per_label: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "graph": self.graph,
            "dry_run": self.dry_run,
            "scanned": self.scanned,
            "marked": self.marked,
            "unchanged": self.unchanged,
            "held_by_other_graph": self.foreign,
            "released": self.released,
            "without_name": self.unnamed,
            "batches": self.batches,
            "seconds": round(self.seconds, 3),
            "per_label": self.per_label,
        }


@dataclass
class UndoReport:
    graph: str
    released: int = 0
    walks_deleted: bool = False
    profile_deleted: int = 0
    indexes_dropped: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "graph": self.graph,
            "released": self.released,
            "profile_deleted": self.profile_deleted,
            "indexes_dropped": self.indexes_dropped,
            "seconds": round(self.seconds, 3),
        }


def row_hash(name: str | None, type_: str) -> str:
    return hashlib.sha256(f"{name}\x1f{type_}".encode()).hexdigest()[:24]


async def check_graph_name(store: GraphStore, graph: str) -> None:
    """Refuse a name our own ingest already uses (its walks and indexes would mix with the adopted graph's)."""
    if not graph.strip():
        raise ConfigError("--graph is empty; give the adopted graph a name, e.g. --graph movies")
    rows = await store.read("adopt/ingested_graph_exists", graph=graph)
    if rows and rows[0]["n"]:
        raise ConfigError(
            f"graph {graph!r} was written by `gw-neo4j ingest`; adopt under another name "
            f"(e.g. --graph {graph}_adopted) or drop it first with `gw-neo4j drop-graph`"
        )


async def pending_rows(store: GraphStore, profile: GraphProfile, report: AdoptReport) -> list[dict[str, Any]]:
    """The rows ``mark_nodes`` still has to write (missing or changed), counting the rest in ``report``."""
    order = [lp.label for lp in profile.labels]
    todo: list[dict[str, Any]] = []
    for lp in profile.labels:
        rows = await store.read("adopt/node_rows", label=lp.label, keys=lp.name_props, managed=list(MANAGED_LABELS))
        counted = 0
        for r in rows:
            primary = next(lab for lab in order if lab in r["labels"])
            if primary != lp.label:
                continue  # a multi-label node is of its first profile label's kind
            counted += 1
            report.scanned += 1
            raw = next((v for v in r["values"] if v is not None and str(v).strip()), None)
            name = str(raw) if raw is not None else None
            if name is None:
                report.unnamed += 1
            digest = row_hash(name, lp.type)
            if r["gw_graph"] not in (None, profile.graph):
                report.foreign += 1
            elif r["gw_graph"] == profile.graph and r["gw_hash"] == digest:
                report.unchanged += 1
            else:
                todo.append(
                    {
                        "id": r["id"],
                        "name": name if name is not None else node_name(None, lp.type, r["id"]),
                        "name_lc": name.strip().lower() if name is not None else None,
                        "type": lp.type,
                        "hash": digest,
                    }
                )
        report.per_label[lp.label] = counted
    return todo


async def adopt_graph(
    store: GraphStore,
    profile: GraphProfile,
    *,
    batch_size: int = BATCH,
    dry_run: bool = False,
    progress: Progress = QUIET,
) -> AdoptReport:
    started = time.perf_counter()
    profile.validate_names()
    await check_graph_name(store, profile.graph)
    report = AdoptReport(graph=profile.graph, dry_run=dry_run)
    todo = await pending_rows(store, profile, report)
    if dry_run:
        report.seconds = time.perf_counter() - started
        return report
    before = await stored_profile(store, profile.graph)
    if before is None or before.model_dump(exclude={"created_at"}) != profile.model_dump(exclude={"created_at"}):
        await save_profile(store, profile)
    await store.write("adopt/create_name_index")
    await store.write("adopt/create_fulltext_index")
    await store.write("adopt/create_vector_index", dimensions=EMBEDDING_DIMENSIONS)
    managed = list(MANAGED_LABELS)
    for i in range(0, len(todo), batch_size):
        rows = await store.write(
            "adopt/mark_nodes", rows=todo[i : i + batch_size], graph=profile.graph, managed=managed
        )
        report.marked += int(rows[0]["n"]) if rows else 0
        report.batches += 1
        progress.advance("adopt", min(i + batch_size, len(todo)), len(todo))
    keep = [lp.label for lp in profile.labels]
    while True:
        rows = await store.write("adopt/release_nodes", graph=profile.graph, keep=keep, limit=batch_size)
        n = int(rows[0]["n"]) if rows else 0
        report.released += n
        if n < batch_size:
            break
    if report.marked or report.released:
        await store.write("schema/await_fulltext_refresh")
    report.seconds = time.perf_counter() - started
    return report


async def undo_graph(
    store: GraphStore, graph: str, *, batch_size: int = BATCH, progress: Progress = QUIET
) -> UndoReport:
    """Remove everything adopt (and walks, and embed) added for ``graph``; idempotent."""
    started = time.perf_counter()
    report = UndoReport(graph=graph)
    if await stored_profile(store, graph) is None:
        await check_graph_name(store, graph)  # an ingested graph is not undone here
    for name in ("adopt/release_nodes", "adopt/strip_orphans"):
        while True:
            params: dict[str, Any] = {"graph": graph, "limit": batch_size}
            if name == "adopt/release_nodes":
                params["keep"] = None
            rows = await store.write(name, **params)
            n = int(rows[0]["n"]) if rows else 0
            report.released += n if name == "adopt/release_nodes" else 0
            progress.advance("undo", report.released, report.released)
            if n < batch_size:
                break
    await store.autocommit("adopt/delete_traces", graph=graph)
    report.walks_deleted = True
    report.profile_deleted = await delete_profile(store, graph)
    left = await store.read("adopt/count_adopted")
    if not left or not left[0]["n"]:
        drops: tuple[tuple[QueryName, str], ...] = (
            ("adopt/drop_index_name", "gw_adopt_name"),
            ("adopt/drop_index_names", "gw_adopt_names"),
            ("adopt/drop_index_embedding", "gw_adopt_embedding"),
        )
        for template, index in drops:
            await store.write(template)
            report.indexes_dropped.append(index)
    report.seconds = time.perf_counter() - started
    return report
