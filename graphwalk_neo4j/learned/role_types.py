"""Node types for a graph that has none, read from its structure: which relation ends share their nodes.

A graph loaded as it comes (``subject|relation|object`` lines, no ``--type-map``) has no node types, and the
learned decider reads types everywhere: the type an option reaches, the type the walk stands on (STOP), the kind
a question word asks for, the question words of the graph's own questions (``who``, ``which city``). Trained
from such a graph alone, it answered 0.37 / 0.20 of the `companies` dev graph's 2 / 3-hop questions, against
0.82 / 0.81 with the graph's types (docs/eval.md).

:func:`infer_role_types` gives every relation end (a *role*: the subjects of ``born_in``, the objects of
``born_in``) a type:

1. **Roles that share nodes are one type.** Two roles are joined when the nodes they share are at least
   :data:`MIN_SHARE` of the smaller role's nodes and at least :data:`MIN_SHARED` nodes (union-find, so
   joins chain): the subjects of ``born_in``, ``works_at`` and ``manages`` are people; the objects of
   ``born_in`` and ``headquartered_in`` and the subjects of ``city_in`` are cities. No relation's name is
   read here, and no list of relations is kept.
2. **A type is named from its roles' own words** (:func:`role_name`), by English morphology and Freebase's
   ``/domain/type/property`` layout, never from a dictionary of relations: the object of a noun-like relation
   is its head noun (``has_genre``: genre, ``release_year``: year, ``place_of_birth``: place, ``starred_actors``:
   actor; a one-word ``-ing`` relation its verb as a noun where that names an agent, ``starring``: star), the
   subject of a ``<noun> of`` relation that noun (``director_of``: director), the object of a
   ``<participle> by`` relation its agent noun (``directed_by``: director, ``founded_by``: founder; not where
   the verb only places one thing by another, :data:`RELATIVE_VERBS`: ``contained_by`` names no "container"),
   the subject of a one-word present verb its agent noun (``manages``: manager), the subject of a verb in the
   past (Neo4j's ``DIRECTED``, ``ACTED_IN``) its agent noun when that noun names an agent (director, actor;
   ``released`` gives no "releaser"), the object of a verb phrase followed by more words their head noun
   (``plays_in_club``: club, ``studied_at_university``: university), the subject of a ``<noun> <preposition>``
   name whose first word is no verb that noun (``city_in``: city), and the subject of a Freebase-style
   ``/people/person/place_of_birth`` its type segment (person; as directly as a noun when the type stands under
   a domain of its own name, ``people/person``, ``location/location``, else last), and, last of all, the object
   of a verb of being somewhere before ``in`` or ``at`` a ``place`` (``born_in``, ``based_in``, ``OCCURRED_AT``;
   not where most of its nodes are numbers, the years of ``born_in`` 1970). Candidates rank in that
   order of how directly they name the nodes (:func:`role_name` returns the rank), then by how many nodes their
   role has; a type whose roles name two kinds of agent (``director`` and ``writer``) is a ``person``. A type
   no role names is an ``item`` (``item 2``, ... when there are several): the relations' words around it would
   be misread (the subjects of ``release_year`` named after it would read as a time).

The types live in the artifact (``config.json`` ``role_types``), keyed ``relation|subject`` and
``relation|object``; the graph is not changed. :func:`~.inputs.typed_inputs` gives a decision's untyped options
and STOP their role's type, in training and in every walk the artifact decides.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from graphwalk_neo4j.decide.answer_types import kind_of, singular
from graphwalk_neo4j.errors import QueryError
from graphwalk_neo4j.identifiers import name_segments, relation_words
from graphwalk_neo4j.learned.graph_questions import (
    IRREGULAR_PAST,
    PARTICIPLES,
    UNTYPED,
    agent_noun,
    base_form,
    plural_of,
    present_agent,
    present_third_person,
    read_graph,
    read_relation,
)
from graphwalk_neo4j.learned.inputs import PLACE_TYPE, UNNAMED_TYPE, role_key
from graphwalk_neo4j.store.queries import COUNTS, GET_ROLE_TYPES, PUT_ROLE_TYPES

if TYPE_CHECKING:
    from graphwalk_neo4j.graph.profile import GraphProfile
    from graphwalk_neo4j.learned.graph_questions import GraphIndex
    from graphwalk_neo4j.store import GraphStore
    from graphwalk_neo4j.store.queries import RoleTypesRow

log = logging.getLogger(__name__)

MIN_SHARE = 0.2  # of the smaller role's nodes, shared with the other role
MIN_SHARED = 3  # nodes, so that a handful of coincidences (a film called "1969") joins nothing
TYPED_SHARE = 0.5  # a graph whose nodes have a type this often keeps its own types
# The inference's version in a walked graph's stored reading (graph_role_types): raised when infer_role_types or
# type_links would give a graph other types, so readings stored by older code are inferred again.
ROLE_TYPES_VERSION = 8
TYPED_SAMPLE = 1_000  # entities whose types tell a walked graph with types from one without (graph_role_types)
# A walked graph's types are inferred from the relationships of at most this many of its nodes (uid order), so a
# walk on a large graph loaded without types does not hold all of it in memory once (MetaQA: 43k, read whole).
INFER_NODES = 100_000
SUBJECT, OBJECT = "subject", "object"
# A type no role names. Not a relation's words: ``release year subject`` for films would read as a time.
UNNAMED = UNNAMED_TYPE
# A type whose roles name two kinds of agent (directed_by's and written_by's objects: director, writer): the one
# thing every node of it is. Named so, the graph's questions ask ``who`` and ``which person`` of them, and STOP
# on them reads as people, not as the writers a question about directors would walk past.
PEOPLE = "person"


COPULA_FORMS = frozenset("is are was were be".split())  # is_in: no city_in's noun before the preposition
# Verbs that say where a thing stands to another of its kind, not what someone did: the object of ``<verb>ed_by``
# is then no agent (a city ``contained_by`` a country, a film ``followed_by`` its sequel), so no "container" or
# "follower" names it
RELATIVE_VERBS = frozenset("contain include border surround cover follow precede succeed replace".split())
# Verbs that say where a thing is, was or happened: the object of ``<verb> in`` / ``<verb> at`` is a place (``born_in``,
# ``based_in``, ``OCCURRED_AT``), named so only where no other role names it (rank 4) and its nodes are not numbers
# (``born_in`` 1970 is a time). A place is what ``where`` asks for, in the graph's questions and in walks.
LOCATIVE_VERBS = frozenset(
    "base locate situate headquarter live reside die bury occur happen hold host station sit stand".split()
)
LOCATIVE_IRREGULAR = frozenset({"born", "held", "sat", "stood"})
LOCATIVE_PREPOSITIONS = frozenset({"in", "at"})


def _verb_form(word: str) -> bool:
    """Whether ``word`` reads as a verb form rather than a noun (``born``, ``located``, ``works``, ``living``)."""
    if word in PARTICIPLES or word in IRREGULAR_PAST or word in COPULA_FORMS or word.endswith(("ed", "ing")):
        return True
    return word.endswith("s") and not word.endswith(("ss", "us", "is"))


def _head_noun(noun: str) -> str:
    """The head of a noun phrase: the word before ``of`` (``place of birth``: place), else the last word
    (``release year``: year), in the singular."""
    words = noun.split()
    if "of" in words[1:]:
        return singular(words[words.index("of") - 1])
    return singular(words[-1])


def role_name(relation: str, end: str) -> tuple[int, str] | None:
    """What the nodes at one end of ``relation`` are called, by the relation's own words, with its rank (lower:
    named more directly; module docstring, 2); ``None`` when the name says nothing about that end."""
    reading = read_relation(relation)
    segments = name_segments(relation)
    core = reading.core.split()
    if not core:
        return None
    if end == SUBJECT:
        if reading.of_noun:
            return 0, _head_noun(reading.noun)  # director_of: the subject is the director
        active = reading.active
        if active is not None and not active.past and " " not in active.phrase and active.base:
            return 1, present_agent(active.base)  # manages: the subject is the manager
        if active is not None and active.past and kind_of(agent := agent_noun(core[0]) or "") == "agent":
            return 1, agent  # DIRECTED, ACTED_IN: the subject is the director, the actor (never a "releaser")
        if (player := _present_agent_noun(core)) is not None:
            return 1, player  # plays_for, plays_position: the subject is a player (never a "liver" of lives_in)
        if reading.verb and active is None and len(core) == 2 and not _verb_form(core[0]):
            return 2, core[0]  # city_in: the subject is a city
        if len(segments) >= 3:
            # /people/person/place_of_birth: a person. Freebase names a property /domain/type/property after its
            # subject's type; a type under a domain of its own name (people/person, location/location) is one
            # of the domain's main types, named as directly as a noun; another (the business/employment of a
            # collapsed __business__employment__employer) may be a link between two types, named last
            domain, kind = relation_words(segments[-3]), relation_words(segments[-2])
            return (0 if domain in (kind, plural_of(kind)) else 3), kind
        return None
    if reading.verb:
        # contained_by names no "container": another role names what contains a place, or none does
        if core[-1] == "by" and len(core) == 2 and not _relative(core[0]):
            found = agent_noun(core[0])
            return (1, found) if found else None  # directed_by: the object is the director
        if core[-1] in LOCATIVE_PREPOSITIONS and 2 <= len(core) <= 3 and _locative(core[-2]):
            return 4, PLACE_TYPE  # born_in, based_in, OCCURRED_AT: the object is where
        return None
    if reading.active is not None and reading.active.object:
        return 0, _head_noun(reading.active.object)  # plays_in_club, studied_at_university: a club, a university
    if reading.active is not None or reading.of_noun:
        return None
    if (performer := _ing_agent(core)) is not None:
        return 0, performer  # starring: the object is a star
    return 0, _head_noun(reading.noun)  # has_genre: the object is a genre


def _relative(participle: str) -> bool:
    """Whether a past participle is one of :data:`RELATIVE_VERBS` (``contained``, ``replaced``, ``succeeded``)."""
    stem = participle[:-2] if participle.endswith("ed") else participle
    return stem in RELATIVE_VERBS or stem + "e" in RELATIVE_VERBS


def _locative(word: str) -> bool:
    """Whether ``word`` is a form of one of :data:`LOCATIVE_VERBS` (``born``, ``based``, ``lives``, ``occurred``,
    ``buried``, ``living``)."""
    if word in LOCATIVE_IRREGULAR:
        return True
    stems = {word}
    if word.endswith("ied"):
        stems.add(word[:-3] + "y")  # buried: bury
    if word.endswith("ed"):
        stems |= {word[:-1], word[:-2], word[:-3]}  # based: base, hosted: host, occurred: occur
    if word.endswith("ing"):
        stems |= {word[:-3], word[:-3] + "e"}  # living: live
    if word.endswith("s"):
        stems.add(base_form(word))  # lives: live
    return bool(stems & LOCATIVE_VERBS)


def _numbers(index: GraphIndex, nodes: set[str]) -> bool:
    """Whether most of ``nodes`` are named by a number (years: ``born_in`` 1970 names no place)."""
    numeric = sum(1 for node in nodes if (index.names.get(node) or node).strip().isdigit())
    return 2 * numeric > len(nodes)


def _present_agent_noun(core: list[str]) -> str | None:
    """The subject of a relation of several words that opens with a present verb in ``-s`` (``plays for``,
    ``plays position``) named by the verb's agent noun (:func:`present_agent`), where that noun names an agent
    (``player``); ``None`` otherwise (``lives in``, ``knows sn``, ``has phone``)."""
    if len(core) < 2 or not present_third_person(core[0]):
        return None
    agent = present_agent(base_form(core[0]))
    return agent if kind_of(agent) == "agent" else None


def _ing_agent(core: list[str]) -> str | None:
    """The object of a one-word relation in ``-ing`` named by its verb as a noun, where that noun names an agent
    (``starring``: a star, as DBpedia's and Freebase's films name their cast); ``None`` otherwise (``including``)."""
    if len(core) != 1 or not core[0].endswith("ing") or len(core[0]) < 6:
        return None
    stem = core[0][:-3]
    for noun in (stem, stem[:-1] if stem[-1] == stem[-2] else stem, stem + "e"):
        if kind_of(noun) == "agent":
            return noun
    return None


def _roles(index: GraphIndex) -> dict[tuple[str, str], set[str]]:
    roles: dict[tuple[str, str], set[str]] = {}
    for node, moves in index.adjacent.items():
        for relation, direction in moves:
            roles.setdefault((relation, SUBJECT if direction == "out" else OBJECT), set()).add(node)
    return roles


def _has_type(index: GraphIndex, node: str) -> bool:
    return (index.types.get(node) or "").lower() not in UNTYPED | {""}


def untyped(index: GraphIndex) -> bool:
    """Whether ``index``'s nodes mostly have no type (fewer than :data:`TYPED_SHARE` of them carry one)."""
    if not index.adjacent:
        return False
    typed = sum(1 for node in index.adjacent if _has_type(index, node))
    return typed < TYPED_SHARE * len(index.adjacent)


def infer_role_types(index: GraphIndex) -> dict[str, str]:
    """``{"relation|subject": type, "relation|object": type}`` for a graph without types (module docstring);
    ``{}`` when the graph has its own (:func:`untyped`)."""
    if not untyped(index):
        return {}
    roles = _roles(index)
    keys = sorted(roles)
    parent = {k: k for k in keys}

    def find(k: tuple[str, str]) -> tuple[str, str]:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            shared = len(roles[a] & roles[b])
            if shared >= MIN_SHARED and shared >= MIN_SHARE * min(len(roles[a]), len(roles[b])):
                parent[find(a)] = find(b)
    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for k in keys:
        groups.setdefault(find(k), []).append(k)
    names: dict[tuple[str, str], str] = {}
    taken: Counter[str] = Counter()
    for members in sorted(groups.values(), key=lambda m: (-sum(len(roles[k]) for k in m), m)):
        candidates = [
            (found, -len(roles[k]), k)
            for k in members
            if (found := role_name(*k)) and not (found[1] == PLACE_TYPE and _numbers(index, roles[k]))
        ]
        if len({found[1] for found, _, _ in candidates if kind_of(found[1]) == "agent"}) >= 2:
            name = PEOPLE  # directors who are also writers: what they share is being people
        elif candidates:
            (_, name), _, _ = min(candidates, key=lambda c: (c[0][0], c[1], c[2]))
        else:
            name = UNNAMED
        taken[name] += 1
        name = name if taken[name] == 1 else f"{name} {taken[name]}"  # two types one name: told apart
        for k in members:
            names[k] = name
    return {f"{relation}|{end}": name for (relation, end), name in sorted(names.items())}


def fill_node_types(index: GraphIndex, role_types: dict[str, str]) -> None:
    """Give each untyped node of ``index`` the type of the role it has most often (ties: the role first in
    order), so the questions written from the graph ask for it by name (``which city``, ``who``)."""
    if not role_types:
        return
    for node, moves in index.adjacent.items():
        if _has_type(index, node):
            continue
        seen: Counter[str] = Counter()
        for (relation, direction), targets in sorted(moves.items()):
            found = role_types.get(role_key(relation, direction, reached=False))
            if found:
                seen[found] += len(targets)
        if seen:
            index.types[node] = seen.most_common(1)[0][0]


def type_links(index: GraphIndex, role_types: dict[str, str]) -> dict[str, list[str]]:
    """Per type, the types one move away from it, either way along a relation: the graph's schema at the level of
    types, which the STOP rule reads to look a move past an option (:func:`~.inputs.stop_ruled_out`). Each relation
    links the type of its subjects to the type of its objects: on a graph given types from its structure
    (``role_types``) its ends' types, as a walk's decisions see them (:func:`~.inputs.typed_inputs`); on a graph
    with its own types the type most of each end's nodes have, so that a few nodes of two kinds (MetaQA's film
    and genre ``Drama``, one node typed once) link nothing."""
    ends = dict(role_types)
    if not ends:
        seen: dict[str, Counter[str]] = {}
        for node, moves in index.adjacent.items():
            if _has_type(index, node):
                for (relation, direction), targets in moves.items():
                    key = role_key(relation, direction, reached=False)
                    seen.setdefault(key, Counter())[str(index.types[node])] += len(targets)
        ends = {key: counts.most_common(1)[0][0] for key, counts in seen.items()}
    links: dict[str, set[str]] = {}
    for key, subjects in ends.items():
        relation, _, end = key.rpartition("|")
        if end == SUBJECT and (objects := ends.get(f"{relation}|{OBJECT}")):
            links.setdefault(subjects, set()).add(objects)
            links.setdefault(objects, set()).add(subjects)
    return {t: sorted(linked) for t, linked in sorted(links.items())}


@dataclass(frozen=True)
class GraphRoleTypes:
    """A walked graph's types as a learned decider reads them (:func:`graph_role_types`): ``role_types`` (empty
    for a graph with its own) and ``links`` (:func:`type_links`)."""

    role_types: dict[str, str] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)


async def _typed_reading(store: GraphStore, graph: str) -> RoleTypesRow | None:
    """The graph's stored reading (``graph/get_role_types``), or ``None`` when the graph has types of its own
    (or no ingested entities: an adopted graph's labels are its types)."""
    rows = await store.read(GET_ROLE_TYPES, graph=graph, sample=TYPED_SAMPLE, untyped=sorted(UNTYPED | {""}))
    row = rows[0]
    if row["sampled"] == 0 or row["typed"] >= TYPED_SHARE * row["sampled"]:
        return None
    return row


async def role_types_note(store: GraphStore, graph: str) -> str | None:
    """For ``doctor``: a line saying that ``graph`` has no node types and which a learned model not trained on it
    reads (those stored by :func:`graph_role_types`, or that its first walk infers them); ``None`` for a graph with
    types of its own."""
    row = await _typed_reading(store, graph)
    if row is None:
        return None
    if row["role_types"] is None:
        return "no node types: a learned model not trained on it infers them from its structure on its first walk"
    names = sorted(set(json.loads(row["role_types"]).values()))
    return f"no node types: {len(names)} read from its structure ({', '.join(names)})"


async def graph_role_types(store: GraphStore, graph: str, profile: GraphProfile) -> GraphRoleTypes:
    """The role types and type links of ``graph`` for a learned decider that was not trained on it: none for an
    adopted graph or an ingested one whose sampled entities mostly carry a type (:data:`TYPED_SAMPLE`,
    :data:`TYPED_SHARE`); else the ones stored for it (one ``:GwRoleTypes`` node, ``graph/put_role_types``) when
    the graph still has the counts they were read from and they are of this code's inference
    (:data:`ROLE_TYPES_VERSION`), else inferred now (the graph read once, as ``decider train`` reads it, up to
    :data:`INFER_NODES` nodes) and stored for the next walk, so a graph is read once per change, not per walk (a
    user who may not write gets them all the same, inferred again by each walk service)."""
    if profile.adopted or (row := await _typed_reading(store, graph)) is None:
        return GraphRoleTypes()
    counted = await store.read(COUNTS, graph=graph)
    entities, relationships = counted[0]["entities"], counted[0]["relationships"]
    stored = (row["entities"], row["relationships"], row["version"])
    if row["role_types"] is not None and stored == (entities, relationships, ROLE_TYPES_VERSION):
        return GraphRoleTypes(json.loads(row["role_types"]), json.loads(row["type_links"] or "{}"))
    index = await read_graph(store, graph, profile=profile, max_nodes=INFER_NODES)
    role_types = infer_role_types(index)
    found = GraphRoleTypes(role_types, type_links(index, role_types))
    try:
        await store.write(
            PUT_ROLE_TYPES,
            graph=graph,
            role_types=json.dumps(found.role_types, sort_keys=True),
            type_links=json.dumps(found.links, sort_keys=True),
            entities=entities,
            relationships=relationships,
            version=ROLE_TYPES_VERSION,
            inferred_at=datetime.now(UTC).isoformat(),
        )
    except QueryError as exc:  # a user who may only read: the walk goes on, the next walk service infers again
        log.warning("the types inferred for graph %r could not be stored: %s", graph, exc)
    return found
