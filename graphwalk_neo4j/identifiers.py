"""Validation of identifiers that come from data: labels, relationship types and property keys.

Values always travel as ``$parameters``; identifiers cannot, so the few that are spliced into Cypher (or handed to
APOC) must pass :func:`validate_identifier` first. The rule is deliberately narrow: ASCII letters, digits and
underscores, starting with a letter, at most 64 characters. That rejects backticks, braces, spaces, newlines, empty
names and unicode look-alikes (U+0430 CYRILLIC SMALL LETTER A in "starred_by" is not an ASCII "a").
"""

from __future__ import annotations

import re
import unicodedata

from graphwalk_neo4j.errors import InvalidIdentifierError

_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
RESERVED_LABELS = frozenset(
    {
        "Entity",
        "Walk",
        "Step",
        "Call",
        "Source",
        "Document",
        "Chunk",
        "Ledger",
        "Conflict",
        "DocSegment",
        "RetractedEntity",
    }
)


def validate_identifier(name: object, kind: str = "identifier") -> str:
    """Return ``name`` unchanged when it is a safe identifier, else raise :class:`InvalidIdentifierError`."""
    if not isinstance(name, str):
        raise InvalidIdentifierError(f"{kind} must be a string, got {type(name).__name__}")
    if name == "":
        raise InvalidIdentifierError(f"{kind} is empty; give a name such as 'directed_by'")
    if _IDENT.fullmatch(name):
        return name
    bad = _first_bad_char(name)
    raise InvalidIdentifierError(
        f"{kind} {name!r} is not allowed: {bad}. Use ASCII letters, digits and '_' (starting with a letter, "
        "at most 64 characters), e.g. 'directed_by'."
    )


def _first_bad_char(name: str) -> str:
    if len(name) > 64:
        return f"it is {len(name)} characters long"
    if name[0].isascii() and not name[0].isalpha():
        return f"it starts with {name[0]!r}"
    for ch in name:
        if not ch.isascii():
            label = unicodedata.name(ch, "unknown character")
            return f"it contains the non-ASCII character {ch!r} (U+{ord(ch):04X} {label})"
        if not (ch.isalnum() or ch == "_"):
            return f"it contains {ch!r}"
    return "it does not match [A-Za-z][A-Za-z0-9_]*"


def relation_type(name: str) -> str:
    """Validate a relationship type taken from data. Types are stored as given (MetaQA's ``directed_by``)."""
    return validate_identifier(name, "relationship type")


def type_label(name: str) -> str:
    """Validate an entity type label; the bookkeeping labels are reserved."""
    label = validate_identifier(name, "entity type label")
    if label in RESERVED_LABELS:
        raise InvalidIdentifierError(f"entity type label {label!r} is reserved for graphwalk's own nodes")
    return label


def property_key(name: str) -> str:
    return validate_identifier(name, "property key")


def graph_name(name: object) -> str:
    """Validate a graph name (the ``graph`` property every node of ours carries). The one rule, used by every
    command and library entry point that takes a graph, so nothing is ever stored under a name that
    ``drop-graph`` would refuse."""
    return validate_identifier(name, "graph name")


def data_name(name: object, kind: str = "name") -> str:
    """Validate a label, relationship type or property key read from a user's own graph (adopt).

    These names are the user's, so any printable text is allowed (spaces, unicode, even backticks): they only
    ever travel as ``$parameters`` (list membership, dynamic labels), never spliced into a statement. What is
    refused is what no sane schema holds and what would garble a table or a log line: empty names, control
    characters (newlines, NUL), and names over 256 characters.
    """
    if not isinstance(name, str):
        raise InvalidIdentifierError(f"{kind} must be a string, got {type(name).__name__}")
    if name == "":
        raise InvalidIdentifierError(f"{kind} is empty; leave it out with --exclude-labels / --exclude-rels")
    if len(name) > 256:
        raise InvalidIdentifierError(f"{kind} {name[:40]!r}... is {len(name)} characters long (at most 256)")
    bad = next((ch for ch in name if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")), None)
    if bad is not None:
        raise InvalidIdentifierError(
            f"{kind} {name!r} contains the control character U+{ord(bad):04X}; leave it out with "
            "--exclude-labels / --exclude-rels"
        )
    return name
