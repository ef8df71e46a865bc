"""The Cypher template registry.

Every query lives in ``cypher/<area>/<verb_object>.cypher``, one statement per file, opening with a header::

    // <one line saying what it does>
    // params: $rows, $graph          (or "none")
    // returns: created, updated       (or "none")

Templates are loaded once by name (``"graph/merge_entities"``). The top-level ``cypher/`` folder is reached through
the ``graphwalk_neo4j/cypher`` link, so it ships inside the wheel and works in an editable install alike.
A missing or malformed template fails at load time with :class:`TemplateError`, never at query time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from graphwalk_neo4j.errors import TemplateError

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class Template:
    name: str
    text: str
    summary: str
    params: tuple[str, ...]
    returns: tuple[str, ...]
    path: str

    @property
    def body(self) -> str:
        """The statement without its header comments."""
        return "\n".join(line for line in self.text.splitlines() if not line.lstrip().startswith("//")).strip()


def cypher_root() -> Path:
    root = resources.files("graphwalk_neo4j") / "cypher"
    path = Path(str(root))
    if not path.is_dir():
        raise TemplateError(f"Cypher templates folder not found at {path}; reinstall the package")
    return path


def _parse(name: str, path: Path) -> Template:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    header = [ln.strip()[2:].strip() for ln in lines if ln.strip().startswith("//")]
    if not header:
        raise TemplateError(f"{path}: missing header comment (summary, params:, returns:)")
    fields = {}
    for ln in header[1:]:
        if ":" in ln:
            key, _, value = ln.partition(":")
            fields[key.strip().lower()] = value.strip()
    if "params" not in fields or "returns" not in fields:
        raise TemplateError(f"{path}: header must have 'params:' and 'returns:' lines")
    declared = tuple(p.lstrip("$").strip() for p in fields["params"].split(",") if p.strip() and p.strip() != "none")
    returns = tuple(r.strip() for r in fields["returns"].split(",") if r.strip() and r.strip() != "none")
    tmpl = Template(name=name, text=text, summary=header[0], params=declared, returns=returns, path=str(path))
    used = set(_PARAM.findall(tmpl.body))
    if used != set(declared):
        raise TemplateError(f"{path}: header declares params {sorted(declared)} but the query uses {sorted(used)}")
    if not tmpl.body:
        raise TemplateError(f"{path}: empty statement")
    return tmpl


@lru_cache(maxsize=1)
def load_all() -> dict[str, Template]:
    root = cypher_root()
    out: dict[str, Template] = {}
    for path in sorted(root.rglob("*.cypher")):
        name = path.relative_to(root).with_suffix("").as_posix()
        out[name] = _parse(name, path)
    return out


def template(name: str) -> Template:
    try:
        return load_all()[name]
    except KeyError:
        raise TemplateError(f"no Cypher template named {name!r} under {cypher_root()}") from None


def names(prefix: str = "") -> list[str]:
    return sorted(n for n in load_all() if n.startswith(prefix))
