"""Exact-value tests for the eval report: summary rows, qtype rows, the k sweep, results.json and summary.md."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from graphwalk_neo4j.eval.records import QuestionRecord
from graphwalk_neo4j.eval.report import (
    build_results,
    fmt,
    k_sweep,
    qtype_rows,
    render_markdown,
    rich_table,
    summary_rows,
)


def rec(system: str, qid: str, hops: int, f1: float, **kw: Any) -> QuestionRecord:
    base: dict[str, Any] = {
        "system": system,
        "question_id": qid,
        "hops": hops,
        "line": int(qid[-1]),
        "qtype": kw.pop("qtype", "a_to_b"),
        "text": "q",
        "topic": "t",
        "gold": kw.pop("gold", ["x"]),
        "answers": kw.pop("answers", ["x"]),
        "hits_at_1": kw.pop("hits_at_1", f1),
        "exact_match": kw.pop("exact_match", f1),
        "precision": f1,
        "recall": f1,
        "f1": f1,
        "answered": kw.pop("answered", True),
        "status": "ok",
    }
    return QuestionRecord(**{**base, **kw})


RECORDS = [
    rec("gw", "q1", 1, 1.0, decision_calls=2, round_trips=3, latency_s=0.1, linking_ok=True, input_tokens=100),
    rec(
        "gw",
        "q2",
        1,
        0.5,
        decision_calls=2,
        round_trips=3,
        latency_s=0.3,
        linking_ok=True,
        exact_match=0.0,
        qtype="c_to_d",
    ),
    rec(
        "gw",
        "q3",
        2,
        0.0,
        decision_calls=3,
        round_trips=5,
        latency_s=0.5,
        linking_ok=False,
        answered=False,
        cost_usd=0.002,
    ),
    rec("ceiling", "q1", 1, 1.0),
    rec("ceiling", "q2", 1, 1.0),
    rec("ceiling", "q3", 2, 0.5),
]


def test_summary_rows_exact() -> None:
    rows = {(r.system, r.hops): r for r in summary_rows(RECORDS)}
    assert [k for k in rows] == [
        ("gw", "1"),
        ("gw", "2"),
        ("gw", "all"),
        ("ceiling", "1"),
        ("ceiling", "2"),
        ("ceiling", "all"),
    ]
    one = rows[("gw", "1")]
    assert (one.n, one.f1, one.exact_match, one.ceiling_f1, one.f1_over_ceiling) == (2, 0.75, 0.5, 1.0, 0.75)
    assert (one.decision_calls, one.round_trips, one.input_tokens, one.answered) == (2.0, 3.0, 50.0, 1.0)
    assert one.p50_s == pytest.approx(0.2)
    assert one.p95_s == pytest.approx(0.29)
    assert (one.linking_accuracy, one.f1_linked, one.cost_usd) == (1.0, 0.75, None)
    every = rows[("gw", "all")]
    assert every.n == 3
    assert every.f1 == pytest.approx(0.5)
    assert every.ceiling_f1 == pytest.approx(2.5 / 3)
    assert every.f1_over_ceiling == pytest.approx(0.6)
    assert every.linking_accuracy == pytest.approx(2 / 3)
    assert every.f1_linked == pytest.approx(0.75)
    assert every.answered == pytest.approx(2 / 3)
    assert every.cost_usd == pytest.approx(0.002 / 3)
    assert rows[("ceiling", "2")].f1 == 0.5
    assert rows[("ceiling", "2")].f1_over_ceiling is None


def test_qtype_rows_exact() -> None:
    rows = [(r.system, r.hops, r.qtype, r.n, r.f1, r.ceiling_f1) for r in qtype_rows(RECORDS)]
    assert rows == [
        ("gw", 1, "a_to_b", 1, 1.0, 1.0),
        ("gw", 1, "c_to_d", 1, 0.5, 1.0),
        ("gw", 2, "a_to_b", 1, 0.0, 0.5),
    ]


def test_k_sweep_picks_the_smallest_best_k() -> None:
    records = [
        rec("v", "q1", 1, 0.0, gold=["a"], ranked=["a", "b", "c"]),
        rec("v", "q2", 2, 0.0, gold=["b", "c"], ranked=["a", "b", "c"]),
    ]
    sweep = k_sweep(records, "v", [1, 2, 3])
    assert sweep["f1_by_hop"] == {"1": [1.0, 2 / 3, 0.5], "2": [0.0, 0.5, 0.8]}
    assert sweep["f1_mean_over_hops"] == pytest.approx([0.5, 7 / 12, 0.65])
    assert sweep["best_k"] == 3
    tie = k_sweep([rec("v", "q1", 1, 0.0, gold=["a"], ranked=["a", "a"])], "v", [1, 2])
    assert tie["best_k"] == 1
    assert k_sweep(records, "nobody", [1]) == {}


def test_build_results_and_markdown() -> None:
    run = {
        "spec": {
            "run_id": "r1",
            "dataset": "metaqa",
            "split": "dev",
            "hops": [1, 2],
            "n": 2,
            "seed": 0,
            "graph": "g",
            "linking": "gold",
            "concurrency": 1,
        },
        "systems": {"gw": {"kind": "graphwalk", "config": {"x": 1}}},
        "environment": {"git_revision": "abc", "machine": "2 cores"},
    }
    records = [*RECORDS, rec("v", "q1", 1, 0.0, gold=["a"], ranked=["a", "b"])]
    results = build_results(run, records, sweep_ks=[1, 2])
    assert results["spec"]["run_id"] == "r1"
    assert len(results["questions"]) == 7
    assert [s["best_k"] for s in results["k_sweeps"]] == [1]
    md = render_markdown(results)
    assert md.startswith("# Evaluation r1\n")
    assert "| gw | 1 | 2 | 0.750 | 0.500 | 0.750 | 1.000 | 0.750 | 1.000 | 2.00 | 3.0 | 50 | 0.200 | 0.290 |" in md
    assert "| ceiling | 2 | 1 | 0.500 | 0.500 | 0.500 | 0.500 | — | 1.000 | — | — | — | — | — |" in md
    assert "| gw | 0.667 | 0.750 | 0.00 | 0.000667 | 0 |" in md
    assert "| gw | 2 | a_to_b | 1 | 0.000 | 0.500 |" in md
    assert "## k sweep of `v` (F1 of the top k answers; best k = 1)" in md
    assert "| 2 | 0.667 | 0.667 |" in md
    assert "- `gw`: {'kind': 'graphwalk'}" in md  # the walk config is in results.json, not in the summary


def test_rich_table_has_every_row() -> None:
    console = Console(width=250, record=True)
    console.print(rich_table(summary_rows(RECORDS), title="t"))
    text = console.export_text()
    assert "F1/ceiling" in text
    assert text.count("ceiling ") >= 3
    assert fmt(None) == "—"
    assert fmt(float("nan")) == "—"
    assert fmt(0.12345, 2) == "0.12"
