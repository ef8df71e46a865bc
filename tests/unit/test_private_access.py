"""No module reads another package's private names: ``x._name`` or ``from ... import _name`` is allowed only where
``_name`` is defined in the reader's own package (a top-level module such as ``backends.py`` is a package of its
own; ``decide/jev/`` belongs to ``decide``). A package that needs something of another offers it publicly (the
embedding cache's ``vector_entries``, a backend's ``verify``), so the two can change apart. Tests may reach into
what they test; this checks the package only."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

import graphwalk_neo4j

if TYPE_CHECKING:
    from collections.abc import Mapping

ROOT = Path(graphwalk_neo4j.__file__).parent
# Public API that starts with an underscore so as not to clash with field names: named tuples', and SQLAlchemy's
# Row._mapping.
PUBLIC_UNDERSCORE = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults", "_mapping"})


def package_of(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORE


def defined_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, assignments (module, class or attribute
    targets such as ``self._x = ...``), annotated fields, ``import ... as _alias``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.alias) and node.asname:  # a private alias of something public
            names.add(node.asname)
    return {n for n in names if private(n)}


def private_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, name)`` of every private attribute read (``x._name`` where ``x`` is not ``self`` or ``cls``)
    and every private name imported from another module."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("graphwalk_neo4j"):
            found.extend((node.lineno, a.name) for a in node.names if private(a.name))
    return found


def violations(files: Mapping[Path, ast.AST]) -> list[str]:
    defined: dict[str, set[str]] = {}
    for path, tree in files.items():
        defined.setdefault(package_of(path), set()).update(defined_names(tree))
    out = []
    for path, tree in files.items():
        own = defined[package_of(path)]
        for line, name in private_reads(tree):
            if name not in own:
                out.append(f"{path.relative_to(ROOT.parent)}:{line}: reads {name}, private to another package")
    return out


def test_no_private_name_is_read_across_packages() -> None:
    files = {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(ROOT.rglob("*.py"))}
    assert violations(files) == []


def test_the_check_sees_a_read_across_packages() -> None:
    walk = ROOT / "walk" / "cache.py"
    service = ROOT / "service" / "stats.py"
    files = {
        walk: ast.parse("class Cache:\n    def __init__(self):\n        self._vectors = {}\n        self._n = 0\n"),
        service: ast.parse(
            "from graphwalk_neo4j.walk.cache import _helper\n"
            "def count(cache, self):\n    return len(cache._vectors) + self._n\n"
        ),
    }
    assert violations(files) == [
        "graphwalk_neo4j/service/stats.py:1: reads _helper, private to another package",
        "graphwalk_neo4j/service/stats.py:3: reads _vectors, private to another package",
    ]
    files[service] = ast.parse("def count(cache):\n    return cache._replace(n=1)\n")
    assert violations(files) == []


def backend_probes(tree: ast.AST) -> list[int]:
    """Lines that look a backend's member up by name (``getattr(backend, ...)``, ``hasattr(self.backend, ...)``):
    the decision-backend contract has every member, with no-op defaults, so callers call them."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {"getattr", "hasattr"}:
            target = ast.unparse(node.args[0]) if node.args else ""
            if "backend" in target.lower() or "decider" in target.lower():
                out.append(node.lineno)
    return out


def test_no_backend_member_is_looked_up_by_name() -> None:
    found = [
        f"{p.relative_to(ROOT.parent)}:{line}"
        for p in sorted(ROOT.rglob("*.py"))
        for line in backend_probes(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert found == []
    assert backend_probes(ast.parse("x = getattr(self._backend, 'verify', None)\ny = hasattr(decider, 'a')")) == [1, 2]
