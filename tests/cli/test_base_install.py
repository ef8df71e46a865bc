"""What the base install runs: `gw-neo4j --help`, `ingest FILE`, `embed` and a walk with the default (ONNX)
embedder and the local decider, in a fresh interpreter where every extra's packages (torch,
sentence-transformers, transformers, litellm, SQLAlchemy, matplotlib, neo4j-graphrag) cannot be imported, as in
`pip install graphwalk-neo4j` without extras. The ONNX export is made beforehand (it is the one step that uses
torch, once per machine; `make onnx`), here into the test's own folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.embed.onnx import export_minilm_onnx

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings

pytestmark = pytest.mark.neo4j

EXTRAS_ONLY = (
    "torch",
    "sentence_transformers",
    "transformers",
    "litellm",
    "sqlalchemy",
    "matplotlib",
    "neo4j_graphrag",
)
ROOT = Path(__file__).resolve().parents[2]

# Block the extras' packages, run the CLI, and report what was imported after all.
PROBE = f"""
import json, sys
for name in {EXTRAS_ONLY!r}:
    sys.modules[name] = None  # `import name` raises ImportError, as when it is not installed
from graphwalk_neo4j.cli import main
try:
    main(sys.argv[1:], prog_name="gw-neo4j")
except SystemExit as exc:
    code = exc.code
print(json.dumps({{"code": code, "imported": sorted({{m.split(".")[0] for m, v in sys.modules.items() if v}})}}))
"""

KB = """Memento|directed_by|Christopher Nolan
Inception|directed_by|Christopher Nolan
Inception|starred_actors|Leonardo DiCaprio
Titanic|starred_actors|Leonardo DiCaprio
Titanic|directed_by|James Cameron
"""


def base_cli(args: list[str], env: dict[str, str]) -> tuple[dict[str, object], str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, cwd=ROOT, check=False
    )
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr
    report: dict[str, object] = json.loads(lines[-1])
    return report, "\n".join(lines[:-1])


@pytest.fixture(scope="module")
def onnx_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_minilm_onnx(tmp_path_factory.mktemp("onnx") / "minilm.onnx")


def test_the_base_install_ingests_embeds_and_walks(
    neo4j_settings: Settings, graph_name: str, tmp_path: Path, onnx_model: Path
) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB, encoding="utf-8")
    env = {
        "PATH": "",
        "HOME": str(tmp_path),
        "PYTHONPATH": str(ROOT),
        "GW_NEO4J_URI": neo4j_settings.uri,
        "GW_NEO4J_ONNX_PATH": str(onnx_model),
    }
    try:
        report, _ = base_cli(["--help"], env)
        assert report["code"] == 0
        report, output = base_cli(["ingest", str(kb), "--graph", graph_name, "--embed"], env)
        assert report["code"] == 0, output
        report, output = base_cli(["walk", "who directed Inception", "--graph", graph_name, "--json"], env)
        assert report["code"] == 0, output
        bundle = json.loads(output)
        assert [a["name"] for a in bundle["answers"]] == ["Christopher Nolan"]
        assert bundle["linking"]["start"] == ["Inception"]
        imported = set(report["imported"])  # type: ignore[call-overload]
        assert {"onnxruntime", "neo4j", "numpy"} <= imported
        assert imported.isdisjoint(EXTRAS_ONLY)
    finally:
        base_cli(["drop-graph", graph_name, "--yes"], env)
