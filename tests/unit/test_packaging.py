"""The wheel a user installs, built the way an installer builds it: sdist first, then a wheel from that sdist. It
must carry every Cypher template (the package's `cypher/` is a link to the repository's top-level folder), the
`py.typed` marker, the packaged data files and the license; a non-editable install would break without them."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from typing import TYPE_CHECKING

from tests.helpers import REPO_ROOT

if TYPE_CHECKING:
    from pathlib import Path


def test_wheel_built_from_the_sdist_carries_templates_data_and_marker(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(tmp_path), str(REPO_ROOT)],
        check=True,
        capture_output=True,
    )
    (sdist,) = tmp_path.glob("*.tar.gz")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(sdist),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {
        f"graphwalk_neo4j/cypher/{p.relative_to(REPO_ROOT / 'cypher').as_posix()}"
        for p in (REPO_ROOT / "cypher").rglob("*.cypher")
    }
    assert len(templates) > 100
    assert templates <= names, sorted(templates - names)[:5]
    data = {
        p.relative_to(REPO_ROOT).as_posix() for p in (REPO_ROOT / "graphwalk_neo4j" / "data").rglob("*") if p.is_file()
    }
    assert data
    assert data <= names, sorted(data - names)
    assert "graphwalk_neo4j/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
