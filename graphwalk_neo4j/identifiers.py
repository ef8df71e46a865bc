"""Validation of names: graph names (ours) and the labels, relationship types and property keys of a user's data.

Graph names are ours and strict (:func:`validate_identifier`: ASCII letters, digits and underscores, starting with
a letter, at most 64 characters), because they are part of every uid and of index names.

Names from data are the user's and are stored as given (docs/names.md): Neo4j 5 takes a label or type as a
value (``SET n:$(label)``, ``MERGE (a)-[:$(type)]->(b)``) and escapes it itself, so ``/film/film/directed_by``,
``P57``, ``directed by`` or ``a`b`` are data like any other and never part of a statement's text.
:func:`data_name` refuses only what Neo4j cannot store and what would garble a prompt or a log line;
:func:`relation_type` and :func:`type_label` also refuse graphwalk's own bookkeeping types and labels.
"""

from __future__ import annotations

import re
import unicodedata

from graphwalk_neo4j.errors import InvalidIdentifierError

MAX_IDENTIFIER_CHARS = 64  # graph names, and the identifiers of our own schema
_IDENT = re.compile(rf"[A-Za-z][A-Za-z0-9_]{{0,{MAX_IDENTIFIER_CHARS - 1}}}")
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
        "GwGraphProfile",
        "GwDoctorScratch",
    }
)
# The label adopt puts on a user's nodes (graph/profile.NS_LABEL): not a type data may carry either.
ADOPTED_LABEL = "GwAdopted"
# Relationship types graphwalk writes that touch entities: a stored walk's links (TRACE_LINK_TYPES) and text
# provenance. Degrees, moves and deletes skip them, so data may not use them (graph/writes re-exports them).
TRACE_LINK_TYPES = ("AT", "CHOSE", "ANSWERED", "STARTED_AT")
BOOKKEEPING_TYPES = (*TRACE_LINK_TYPES, "FROM_CHUNK")
RESERVED_RELATION_TYPES = BOOKKEEPING_TYPES
# The longest label, relationship type or property key taken from data (Neo4j itself has no practical limit).
MAX_NAME_CHARS = 1000
# Unicode categories refused in data names: control (Cc: NUL, newline, tab), format (Cf: bidi overrides,
# zero-width characters), line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


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
    if len(name) > MAX_IDENTIFIER_CHARS:
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


def relation_type(name: object) -> str:
    """A relationship type taken from data, stored as given (MetaQA's ``directed_by``, Freebase's
    ``/film/film/directed_by``, Wikidata's ``P57``): any :func:`data_name` except graphwalk's own link types."""
    rel = data_name(name, "relationship type")
    if rel in RESERVED_RELATION_TYPES:
        raise InvalidIdentifierError(
            f"relationship type {rel!r} is reserved for graphwalk's own links ({', '.join(RESERVED_RELATION_TYPES)}); "
            "rename it in the data, e.g. to 'has_' + the name in lower case"
        )
    return rel


def type_label(name: object) -> str:
    """An entity type label taken from data, stored as given; graphwalk's own labels are reserved."""
    label = data_name(name, "entity type label")
    if label in RESERVED_LABELS or label == ADOPTED_LABEL:
        raise InvalidIdentifierError(
            f"entity type label {label!r} is reserved for graphwalk's own nodes; rename the type in the data"
        )
    return label


def property_key(name: object) -> str:
    """An attribute key taken from data (any :func:`data_name`; graph/writes.RESERVED_KEYS are refused there)."""
    return data_name(name, "property key")


def graph_name(name: object) -> str:
    """Validate a graph name (the ``graph`` property every node of ours carries). The one rule, used by every
    command and library entry point that takes a graph, so nothing is ever stored under a name that
    ``drop-graph`` would refuse."""
    return validate_identifier(name, "graph name")


def data_name(name: object, kind: str = "name", *, fix: str = "rename it in the data") -> str:
    """Validate a label, relationship type or property key that comes from a user's data (ingest or adopt).

    These names are the user's, so any printable text is allowed (spaces, punctuation, ``/``, backticks, braces,
    ``$``, any script): they only ever travel as ``$parameters`` (list membership, dynamic types and labels
    ``$(...)``, APOC maps), never spliced into a statement. What is refused is what Neo4j cannot store (empty
    names, NUL) and what would garble a prompt, a table or a log line: control and format characters (newlines,
    tabs, the bidirectional overrides U+202A-U+202E / U+2066-U+2069), line and paragraph separators, names of
    only spaces, and names over :data:`MAX_NAME_CHARS` characters. ``fix`` ends the message with the way out.
    """
    if not isinstance(name, str):
        raise InvalidIdentifierError(f"{kind} must be a string, got {type(name).__name__}")
    if name.strip() == "":
        raise InvalidIdentifierError(f"{kind} {name!r} is empty; {fix}")
    if len(name) > MAX_NAME_CHARS:
        raise InvalidIdentifierError(
            f"{kind} {name[:40]!r}... is {len(name)} characters long (at most {MAX_NAME_CHARS}); {fix}"
        )
    bad = next((ch for ch in name if unicodedata.category(ch) in _REFUSED_CATEGORIES), None)
    if bad is not None:
        label = unicodedata.name(bad, "control character")
        raise InvalidIdentifierError(
            f"{kind} {name[:80]!r} contains the control character U+{ord(bad):04X} ({label}); {fix}"
        )
    return name


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD_BREAKS = re.compile(r"[\s_\-/.:]+")
_GLUED_BY = re.compile(r"([a-z]{3,}(?:ed|en))by")  # containedby: a participle and its "by" written as one word


def name_segments(relation: str) -> list[str]:
    """The segments of a path-like relation name, Freebase's ``/domain/type/property`` or its ``__``-joined form
    (``__film__film__directed_by`` -> ``film``, ``film``, ``directed_by``); a plain name is one segment."""
    return [s for s in relation.replace("__", "/").split("/") if s.strip()]


def property_words(relation: str) -> str:
    """What a relation says it is, in words: a path-like name (Freebase's ``/domain/type/property``, or its
    ``__``-joined form) by its last segment, the property (``/film/film/directed_by`` -> ``directed by``), and by
    the type segment before it too where the property only repeats the domain (``__film__director__film``, a
    director's films -> ``director film``; ``/film/cinematographer/film`` -> ``cinematographer film``); any other
    name as :func:`relation_words` reads it whole."""
    segments = name_segments(relation)
    if len(segments) < 2:
        return relation_words(relation)
    last = relation_words(segments[-1])
    if len(segments) >= 3 and last == relation_words(segments[0]):
        return relation_words(f"{segments[-2]}_{segments[-1]}")
    return last


def relation_words(relation: str) -> str:
    """A relation name read as words, the one reading every decider, prompt and profile uses.

    ``directed_by`` / ``DIRECTED_BY`` / ``directedBy`` / ``directed-by`` -> ``directed by``; Freebase's
    ``/film/film/directed_by`` and ``__film__film__directed_by`` -> ``film directed by`` (a word repeated right
    after itself is read once); a name with no word breaks (``P57``) reads as itself, lower-cased. Two of
    Freebase's spellings are read as the words they are: the plural's ``s`` set apart (``spouse_s``, ``sibling_s``:
    ``spouse``, ``sibling``, as most names are written) and a participle glued to its ``by`` (``containedby``:
    ``contained by``).
    """
    words: list[str] = []
    for word in _WORD_BREAKS.split(_CAMEL.sub(" ", relation).lower()):
        if word == "s" and words:  # spouse_s: the spouse property, written as holding several
            continue
        glued = _GLUED_BY.fullmatch(word)
        for part in (glued.group(1), "by") if glued else (word,):
            if part and (not words or words[-1] != part):
                words.append(part)
    return " ".join(words) or relation
