"""The typed face of the Cypher files (graphwalk_neo4j/store/queries.py) matches the files on disk."""

import typing

from graphwalk_neo4j.store import queries, registry


def test_query_names_are_exactly_the_template_files() -> None:
    on_disk = sorted(registry.load_all())
    if list(typing.get_args(queries.QueryName)) != on_disk:
        block = "\n".join(["QueryName = Literal[", *(f'    "{n}",' for n in on_disk), "]"])
        raise AssertionError(f"store/queries.py is out of date with cypher/; replace QueryName with:\n{block}")


def _typed_queries() -> dict[str, queries.Query[typing.Any]]:
    return {name: q for name, q in vars(queries).items() if isinstance(q, queries.Query)}


def test_every_row_type_has_exactly_its_templates_returns_columns() -> None:
    typed = _typed_queries()
    assert len(typed) >= 16
    for constant, query in typed.items():
        columns = set(registry.template(query.name).returns)
        fields = set(typing.get_type_hints(query.row))
        assert fields == columns, (
            f"{constant} ({query.name}): row type {query.row.__name__} has {sorted(fields)}, "
            f"the template returns {sorted(columns)}"
        )


def test_query_constants_are_named_after_their_templates() -> None:
    for constant, query in _typed_queries().items():
        tail = query.name.split("/", 1)[1]
        assert constant in {tail.upper(), query.name.replace("/", "_").upper()}, (constant, query.name)
