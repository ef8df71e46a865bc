import re
from pathlib import Path

import pytest

from graphwalk_neo4j.errors import TemplateError
from graphwalk_neo4j.graph.writes import BOOKKEEPING_TYPES, TRACE_LINK_TYPES
from graphwalk_neo4j.schema import EMBEDDING_DIMENSIONS
from graphwalk_neo4j.store import registry

ROOT = Path(__file__).resolve().parents[2]
_AREAS = "schema|server|doctor|graph|ledger|search|walk|stored_walks|ingest|eval|recipes|adopt"
_USE = re.compile(r"""["']((?:""" + _AREAS + r""")/[a-z0-9_]+)["']""")


def test_every_template_parses_with_declared_params() -> None:
    templates = registry.load_all()
    assert len(templates) >= 30
    for tmpl in templates.values():
        assert tmpl.summary
        assert tmpl.body
        used = set(re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", tmpl.body))
        assert used == set(tmpl.params), tmpl.name


def test_every_template_used_in_code_exists_and_every_file_is_used() -> None:
    sources = "\n".join(p.read_text() for p in (ROOT / "graphwalk_neo4j").rglob("*.py"))
    used = set(_USE.findall(sources))
    templates = set(registry.load_all())
    missing = {u for u in used if u not in templates and not u.startswith("recipes/")}
    assert not missing, f"code names templates that have no file: {sorted(missing)}"
    schema_ddl = {n for n in templates if re.match(r"schema/\d", n)}
    recipes = {n for n in templates if n.startswith("recipes/")}
    unused = templates - used - schema_ddl - recipes
    assert not unused, f"template files no code uses: {sorted(unused)}"


def test_unknown_template_names_the_folder() -> None:
    with pytest.raises(TemplateError, match="no Cypher template named 'graph/nope'"):
        registry.template("graph/nope")


def test_malformed_header_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cypher"
    bad.write_text("// summary\n// params: a\n// returns: none\nRETURN $b\n")
    with pytest.raises(TemplateError, match="declares params"):
        registry._parse("x/bad", bad)
    bare = tmp_path / "bare.cypher"
    bare.write_text("RETURN 1\n")
    with pytest.raises(TemplateError, match="missing header"):
        registry._parse("x/bare", bare)


def test_templates_are_reached_through_the_package() -> None:
    root = registry.cypher_root()
    assert (root / "schema" / "05_entity_vector.cypher").is_file()


# The one recipe that must rebuild a uid: it runs in the Browser with only a walk id, where no Python can hand it
# finished uids, and the stored step options hold entity ids.
_UID_IN_CYPHER = {"recipes/walk_options"}


def test_templates_take_project_constants_as_parameters() -> None:
    """uids come from graph/identity.py, the bookkeeping relationship types from graph/writes.py and the vector
    dimensions from the packaged model: no template keeps its own copy."""
    links = "|".join(TRACE_LINK_TYPES)
    copies = {
        "uid built from a graph name": re.compile(r"""\+\s*':'\s*\+"""),
        # two of the types side by side (`AT|CHOSE`, `'AT', 'CHOSE'`): a list; one alone names one relationship
        # (the recipes' virtual `AT` / `CHOSE` / `ANSWERED` to an adopted graph's nodes)
        "bookkeeping type list": re.compile(rf"\b({links})\b['\"]?\s*[|,]\s*['\"]?({links})\b"),
        "vector dimensions": re.compile(rf"`vector\.dimensions`:\s*{EMBEDDING_DIMENSIONS}\b"),
    }
    found = {
        (name, what)
        for name, tmpl in registry.load_all().items()
        for what, pattern in copies.items()
        if pattern.search(tmpl.body) and not (what.startswith("uid") and name in _UID_IN_CYPHER)
    }
    assert not found, sorted(found)
    assert set(BOOKKEEPING_TYPES) > set(TRACE_LINK_TYPES)
    assert {"bookkeeping"} <= set(registry.template("walk/relation_moves").params)
