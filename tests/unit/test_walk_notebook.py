"""A walk's notebook display (walk/notebook.py, WalkResult._repr_html_): parsed as XML, exact content, every
text from the walk escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from graphwalk_neo4j.walk.expansion import NodeRef
from graphwalk_neo4j.walk.result import Answer, PathStep, WalkPath, WalkResult
from graphwalk_neo4j.walk.service import WalkOutcome
from graphwalk_neo4j.walk.trace_records import OfferedOption, StepRecord

SVG = "{http://www.w3.org/2000/svg}"
NOLAN = NodeRef(id="e_nolan", name="Christopher Nolan", type="Person")
MOVIES = [NodeRef(id=f"e_{n.lower()}", name=n, type="Movie") for n in ("Inception", "Memento", "The Prestige")]


def result(question: str = "which movies did Christopher Nolan direct", name: str = "Christopher Nolan") -> WalkResult:
    start = NOLAN.model_copy(update={"name": name})
    hop = PathStep(
        step_id="s1",
        depth=1,
        kind="decision",
        label="o1",
        relation="directed_by",
        direction="in",
        from_ids=[start.id],
        from_names=[name],
        nodes=MOVIES,
        p=0.91,
    )
    stop = PathStep(step_id="s2", depth=2, kind="decision", label="STOP", is_stop=True, p=0.8)
    path = WalkPath(
        beam="b0",
        start=[start],
        steps=[hop, stop],
        end=MOVIES,
        cum_logp=-0.3,
        n_decisions=2,
        n_choices=2,
        score=-0.15,
        finished=True,
        terminated_by="stop",
    )
    options = [
        OfferedOption(label="STOP", is_stop=True),
        OfferedOption(
            label="o1",
            description="<--directed_by-- Inception, Memento, The Prestige",
            relation="directed_by",
            direction="in",
            count=3,
        ),
        OfferedOption(
            label="o2", description="<--written_by-- Inception, Memento", relation="written_by", direction="in", count=2
        ),
    ]
    step = StepRecord(
        step_id="s1",
        walk_id="w1",
        depth=1,
        beam="b0",
        decision_id="d1",
        parent_step_id=None,
        kind="decision",
        node_ids=[start.id],
        node_names=[name],
        options=options,
        chosen="o1",
        distribution={"STOP": 0.02, "o1": 0.91, "o2": 0.07},
    )
    return WalkResult(
        walk_id="w1",
        question=question,
        status="ok",
        stop_reason="stop: every kept walk stopped",
        strategy="greedy",
        hop_mode="relation",
        model="fake",
        paths=[path],
        steps=[step],
        answers=[Answer(node_id=m.id, name=m.name, type="Movie", score=-0.15, rank=i) for i, m in enumerate(MOVIES, 1)],
    )


def text(element: ET.Element) -> str:
    return "".join(element.itertext())


def one(parent: ET.Element, path: str) -> ET.Element:
    found = parent.find(path)
    assert found is not None, f"no {path} in the display"
    return found


def test_question_answers_path_and_options() -> None:
    html = result()._repr_html_()
    root = ET.fromstring(html)
    assert root.get("class") == "gw-walk"
    assert text(one(root, "p[@class='gw-question']")) == "which movies did Christopher Nolan direct"
    assert text(one(root, "p[@class='gw-status']")) == "ok: stop: every kept walk stopped · walk w1 · model fake"
    assert [text(li) for li in one(root, "ol[@class='gw-answers']")] == [
        "Inception (Movie) score -0.150",
        "Memento (Movie) score -0.150",
        "The Prestige (Movie) score -0.150",
    ]
    svg = one(root, f"{SVG}svg")
    assert one(svg, f"{SVG}title").text == "Christopher Nolan <--directed_by-- Inception, Memento, The Prestige -> STOP"
    boxes = svg.findall(f"{SVG}g")
    assert [one(b, f"{SVG}text").text for b in boxes] == ["Christopher Nolan", "Inception", "Memento", "The Prestige"]
    assert [one(b, f"{SVG}rect").get("fill") for b in boxes] == ["#eef", "#c6e9c6", "#c6e9c6", "#c6e9c6"]
    assert [t.text for t in svg.findall(f"{SVG}text[@class='gw-hop']")] == ["directed_by ← p 0.91"]
    assert len(svg.findall(f"{SVG}line")) == 3  # one start to three movies
    details = one(root, "details")
    assert details.get("open") is None  # closed until asked
    assert text(one(details, "summary")) == "the options at each depth: 1 decision"
    rows = [[text(td) for td in tr] for tr in one(details, "table/tbody")]
    assert rows == [
        ["1", "b0", "Christopher Nolan", "<--directed_by-- Inception, Memento, The Prestige", "0.910", "chosen"],
        ["1", "b0", "Christopher Nolan", "<--written_by-- Inception, Memento", "0.070", ""],
        ["1", "b0", "Christopher Nolan", "STOP", "0.020", ""],
    ]
    assert [tr.get("class") for tr in one(details, "table/tbody")] == ["gw-chosen", None, None]


def test_an_outcome_shows_its_walk() -> None:
    walk = result()
    assert WalkOutcome(result=walk, linking=None, round_trips=2)._repr_html_() == walk._repr_html_()


def test_user_text_is_escaped() -> None:
    hostile = '<script>alert("x")</script> & <b onload=1>'
    root = ET.fromstring(result(question=hostile, name=hostile)._repr_html_())
    assert text(one(root, "p[@class='gw-question']")) == hostile
    assert not root.findall(".//script")
    assert not root.findall(f".//{SVG}script")
    assert not [e for e in root.iter() if e.get("onload") is not None]
    svg = one(root, f"{SVG}svg")
    start = svg.findall(f"{SVG}g")[0]
    assert one(start, f"{SVG}title").text == hostile  # the whole name on hover
    assert one(start, f"{SVG}text").text == hostile[:25] + "…"  # cut in the box
    assert [text(tr[2]) for tr in one(root, "details/table/tbody")] == [hostile] * 3


def test_long_frontier_is_counted_not_drawn() -> None:
    walk = result()
    many = [NodeRef(id=f"e_{i}", name=f"Movie {i}") for i in range(10)]
    walk.paths[0].steps[0].nodes = many
    svg = one(ET.fromstring(walk._repr_html_()), f"{SVG}svg")
    assert [one(b, f"{SVG}text").text for b in svg.findall(f"{SVG}g")][1:] == [f"Movie {i}" for i in range(6)]
    assert [t.text for t in svg.findall(f"{SVG}text[@class='gw-more']")] == ["+4 more"]
