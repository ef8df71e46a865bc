import pytest

from graphwalk_neo4j.errors import InvalidIdentifierError
from graphwalk_neo4j.identifiers import property_key, relation_type, type_label, validate_identifier


@pytest.mark.parametrize("name", ["directed_by", "Movie", "has_imdb_rating", "A1", "x" * 64])
def test_valid_identifiers_pass_unchanged(name: str) -> None:
    assert validate_identifier(name) == name


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("", "is empty"),
        ("directed`by", "contains '`'"),
        ("a}b", "contains '}'"),
        ("x{y", "contains '{'"),
        ("has tags", "contains ' '"),
        ("line\nbreak", "contains '\\n'"),
        ("st\u0430rred_by", "U+0430 CYRILLIC SMALL LETTER A"),
        ("1abc", "starts with '1'"),
        ("_x", "starts with '_'"),
        ("x" * 65, "65 characters"),
        ("a-b", "contains '-'"),
        ("n) DETACH DELETE (m", "contains ')'"),
    ],
)
def test_hostile_identifiers_are_rejected_with_the_reason(name: str, fragment: str) -> None:
    with pytest.raises(InvalidIdentifierError) as info:
        relation_type(name)
    assert fragment in str(info.value)
    assert "relationship type" in str(info.value)


def test_non_string_is_rejected() -> None:
    with pytest.raises(InvalidIdentifierError, match="must be a string"):
        validate_identifier(7)


def test_reserved_labels_are_refused_for_entity_types() -> None:
    with pytest.raises(InvalidIdentifierError, match="reserved"):
        type_label("Walk")
    assert type_label("Person") == "Person"


def test_property_key_uses_the_same_rule() -> None:
    with pytest.raises(InvalidIdentifierError, match="property key"):
        property_key("a.b")
