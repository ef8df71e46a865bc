"""Files that ship inside the package (``graphwalk_neo4j/data/``), found the same way in a checkout, an editable
install and a wheel."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path


def data_file(name: str) -> Path:
    """The path of ``graphwalk_neo4j/data/<name>``."""
    return Path(str(resources.files("graphwalk_neo4j") / "data" / name))


def metaqa_type_map() -> dict[str, tuple[str | None, str | None]]:
    """MetaQA relation -> (subject type, object type) labels (``data/metaqa_types.json``), for ``type_map``."""
    raw = json.loads(data_file("metaqa_types.json").read_text(encoding="utf-8"))
    return {relation: (pair[0], pair[1]) for relation, pair in raw.items()}
