import re
from pathlib import Path

import pytest

from graphwalk_neo4j.errors import TemplateError
from graphwalk_neo4j.store import registry

ROOT = Path(__file__).resolve().parents[2]
_AREAS = "schema|server|doctor|graph|ledger|search|walk|trace|ingest|eval|recipes|adopt"
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
