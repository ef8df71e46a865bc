"""How a walk shows itself in Jupyter: :func:`walk_html`, behind ``WalkResult._repr_html_`` (and
``WalkOutcome._repr_html_``). One self-contained block: the question and status, the ranked answers, the best
path drawn as inline SVG (one column per depth, each hop's relation, direction and probability over its arrows,
answers filled), and the options each decision offered with their probabilities in a ``<details>`` element that
opens on demand. Every text from the walk (question, names, labels) is escaped; the markup is well-formed XML, so
tests read it with a parser. Standard library only.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graphwalk_neo4j.walk.expansion import NodeRef
    from graphwalk_neo4j.walk.result import WalkPath, WalkResult
    from graphwalk_neo4j.walk.trace_records import OfferedOption, StepRecord

NODES_SHOWN = 6  # per column of the drawing; the rest are counted in a "+N more" box
NAME_CHARS = 26  # a longer name is cut with "…" in the drawing (the answers list keeps it whole)
BOX_W, BOX_H, GAP_X, GAP_Y, TOP = 190, 28, 90, 10, 34
STYLE = (
    ".gw-walk{font-family:sans-serif;font-size:13px}.gw-walk table{border-collapse:collapse}"
    ".gw-walk td,.gw-walk th{padding:2px 8px;text-align:left;border-bottom:1px solid #ddd}"
    ".gw-walk tr.gw-chosen{font-weight:bold}"
)


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _arrow(direction: str | None) -> str:
    return "←" if direction == "in" else "→"


def _columns(path: WalkPath) -> list[tuple[str, list[NodeRef]]]:
    """(label over the arrows into it, nodes) per column: the start, then every hop that is not STOP."""
    columns: list[tuple[str, list[NodeRef]]] = [("", list(path.start))]
    for step in path.steps:
        if step.is_stop:
            continue
        p = f" p {step.p:.2f}" if step.p is not None else ""
        columns.append((f"{step.relation} {_arrow(step.direction)}{p}", list(step.nodes)))
    return columns


def path_svg(path: WalkPath, answer_ids: set[str]) -> str:
    """The path as an SVG drawing: boxes per depth, arrows between neighbouring depths, answers filled."""
    columns = _columns(path)
    rows = max(min(len(nodes), NODES_SHOWN + 1) for _, nodes in columns)
    width = len(columns) * BOX_W + (len(columns) - 1) * GAP_X + 2
    height = TOP + rows * (BOX_H + GAP_Y)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gw-path" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img"><title>{_e(path.describe())}</title>'
    ]
    previous: list[float] = []
    for col, (label, nodes) in enumerate(columns):
        x = 1 + col * (BOX_W + GAP_X)
        shown = nodes[:NODES_SHOWN]
        centres = [TOP + i * (BOX_H + GAP_Y) + BOX_H / 2 for i in range(len(shown) + (len(nodes) > NODES_SHOWN))]
        if label:
            parts.append(f'<text class="gw-hop" x="{x - GAP_X / 2:g}" y="16" text-anchor="middle">{_e(label)}</text>')
            for y0 in previous:
                for y1 in centres:
                    parts.append(
                        f'<line x1="{x - GAP_X:g}" y1="{y0:g}" x2="{x:g}" y2="{y1:g}" stroke="#888" stroke-width="1"/>'
                    )
        for i, node in enumerate(shown):
            fill = "#c6e9c6" if node.id in answer_ids else "#eef"
            y = TOP + i * (BOX_H + GAP_Y)
            parts.append(
                f'<g class="gw-node"><title>{_e(node.name)}</title><rect x="{x}" y="{y}" width="{BOX_W}" '
                f'height="{BOX_H}" rx="5" fill="{fill}" stroke="#557"/><text x="{x + 8}" y="{y + 18}">'
                f"{_e(_short(node.name))}</text></g>"
            )
        if len(nodes) > NODES_SHOWN:
            y = TOP + len(shown) * (BOX_H + GAP_Y)
            parts.append(f'<text class="gw-more" x="{x + 8}" y="{y + 18}">+{len(nodes) - NODES_SHOWN} more</text>')
        previous = centres
    parts.append("</svg>")
    return "".join(parts)


def _option_text(option: OfferedOption) -> str:
    if option.is_stop:
        return "STOP"
    return option.description or f"{option.label} {_arrow(option.direction)} {option.relation}"


def options_table(steps: list[StepRecord]) -> str:
    """Every decision's offered options with their probabilities, most likely first, the chosen one marked."""
    rows = []
    for step in steps:
        at = _e(
            ", ".join(step.node_names[:3]) + (f" (+{len(step.node_names) - 3})" if len(step.node_names) > 3 else "")
        )
        ranked = sorted(step.options, key=lambda o: -step.distribution.get(o.label, 0.0))
        for option in ranked:
            p = step.distribution.get(option.label)
            chosen = option.label == step.chosen
            mark = ' class="gw-chosen"' if chosen else ""
            rows.append(
                f"<tr{mark}><td>{step.depth}</td><td>{_e(step.beam)}</td>"
                f"<td>{at}</td><td>{_e(_option_text(option))}</td><td>{'' if p is None else f'{p:.3f}'}</td>"
                f"<td>{'chosen' if chosen else ''}</td></tr>"
            )
    return (
        "<table><thead><tr><th>depth</th><th>beam</th><th>at</th><th>option</th><th>p</th><th></th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def walk_html(result: WalkResult) -> str:
    """The walk as one HTML block for a notebook cell."""
    answers = "".join(
        f"<li><b>{_e(a.name)}</b>{f' ({_e(a.type)})' if a.type else ''} "
        f'<span class="gw-score">score {a.score:.3f}</span></li>'
        for a in result.answers[:20]
    )
    more = f"<p>… {len(result.answers) - 20} more answers</p>" if len(result.answers) > 20 else ""
    best = result.best_path
    drawing = path_svg(best, {a.node_id for a in result.answers}) if best is not None else "<p>no path</p>"
    decisions = [s for s in result.steps if s.options]
    return (
        f'<div class="gw-walk"><style>{STYLE}</style>'
        f'<p class="gw-question"><b>{_e(result.question)}</b></p>'
        f'<p class="gw-status">{_e(result.status)}: {_e(result.stop_reason)} · walk <code>{_e(result.walk_id)}</code>'
        f" · model {_e(result.model)}</p>"
        f'<ol class="gw-answers">{answers}</ol>{more}{drawing}'
        f'<details class="gw-options"><summary>the options at each depth: {len(decisions)} decision'
        f"{'' if len(decisions) == 1 else 's'}</summary>"
        f"{options_table(decisions)}</details></div>"
    )
