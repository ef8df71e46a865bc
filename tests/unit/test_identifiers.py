import pytest

from graphwalk_neo4j.errors import InvalidIdentifierError
from graphwalk_neo4j.identifiers import (
    BOOKKEEPING_TYPES,
    MAX_NAME_CHARS,
    data_name,
    graph_name,
    property_key,
    relation_type,
    relation_words,
    type_label,
    validate_identifier,
)

# Names real data carries, and names built to break a statement or a display: all stored as given.
DATA_NAMES = [
    "directed_by",
    "/film/film/directed_by",
    "__film__cinematographer__film",
    "P57",
    "directed by",
    "Regisseur:in",
    "監督",
    "режиссёр",
    "مخرج",  # right-to-left script (letters, not the bidi override characters)
    "directed`by",
    "a}b",
    "x{y",
    "${graph}",
    "n) DETACH DELETE (m",
    "x'}) DETACH DELETE n //",
    "st\u0430rred_by",  # a Cyrillic look-alike is a different name, stored as such
    "1abc",
    "_x",
    "x" * MAX_NAME_CHARS,
]


@pytest.mark.parametrize("name", DATA_NAMES)
def test_data_names_pass_unchanged_as_relations_labels_and_keys(name: str) -> None:
    assert relation_type(name) == name
    assert type_label(name) == name
    assert property_key(name) == name


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("", "'' is empty; rename it in the data"),
        ("   ", "'   ' is empty"),
        ("line\nbreak", "control character U+000A"),
        ("nul\x00byte", "control character U+0000"),
        ("tab\there", "control character U+0009"),
        ("\u202eevil\u202c", "control character U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("zero\u200bwidth", "control character U+200B (ZERO WIDTH SPACE)"),
        ("para\u2029sep", "control character U+2029 (PARAGRAPH SEPARATOR)"),
        ("x" * (MAX_NAME_CHARS + 1), f"is {MAX_NAME_CHARS + 1} characters long (at most {MAX_NAME_CHARS})"),
    ],
)
def test_names_that_would_garble_output_are_refused_with_the_reason(name: str, fragment: str) -> None:
    with pytest.raises(InvalidIdentifierError) as info:
        relation_type(name)
    assert fragment in str(info.value)
    assert str(info.value).startswith("relationship type ")
    assert "\n" not in str(info.value)


def test_non_string_is_rejected() -> None:
    with pytest.raises(InvalidIdentifierError, match="must be a string"):
        validate_identifier(7)
    with pytest.raises(InvalidIdentifierError, match="relationship type must be a string, got int"):
        relation_type(7)


@pytest.mark.parametrize("relation", BOOKKEEPING_TYPES)
def test_bookkeeping_types_are_refused_as_data_relations(relation: str) -> None:
    with pytest.raises(InvalidIdentifierError, match=f"relationship type '{relation}' is reserved"):
        relation_type(relation)
    assert relation_type(relation.lower()) == relation.lower()  # types are case-sensitive: 'at' is data


@pytest.mark.parametrize("label", ["Walk", "Entity", "Document", "GwAdopted", "GwGraphProfile", "GwDoctorScratch"])
def test_reserved_labels_are_refused_for_entity_types(label: str) -> None:
    with pytest.raises(InvalidIdentifierError, match=f"entity type label '{label}' is reserved"):
        type_label(label)
    assert type_label("Person") == "Person"


def test_fix_ends_the_message() -> None:
    with pytest.raises(InvalidIdentifierError, match=r"; leave it out with --exclude-rels$"):
        data_name("a\nb", "relationship type", fix="leave it out with --exclude-rels")


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("", "is empty"),
        ("has tags", "contains ' '"),
        ("a`b", "contains '`'"),
        ("st\u0430rred", "U+0430 CYRILLIC SMALL LETTER A"),
        ("1abc", "starts with '1'"),
        ("x" * 65, "65 characters"),
    ],
)
def test_graph_names_keep_the_strict_rule(name: str, fragment: str) -> None:
    with pytest.raises(InvalidIdentifierError) as info:
        graph_name(name)
    assert fragment in str(info.value)
    assert graph_name("x" * 64) == "x" * 64


@pytest.mark.parametrize(
    ("relation", "words"),
    [
        ("directed_by", "directed by"),
        ("DIRECTED_BY", "directed by"),
        ("directedBy", "directed by"),
        ("/film/film/directed_by", "film directed by"),
        ("__film__film__directed_by", "film directed by"),
        ("/people/person/place_of_birth", "people person place of birth"),
        ("film.film.directed_by", "film directed by"),
        ("P57", "p57"),
        ("監督", "監督"),
        ("///", "///"),
    ],
)
def test_relation_words_read_freebase_and_wikidata_names(relation: str, words: str) -> None:
    assert relation_words(relation) == words
