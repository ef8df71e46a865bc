"""Walk settings: :class:`WalkConfig` (one frozen pydantic model), its :class:`Budget`, the named presets, and
:func:`with_backend_defaults` (the walk settings a decision backend was trained under, applied where the caller
chose none).

Owns every knob the engine reads and their validation; nothing here does I/O. Every preset shares one
evaluation set-up: no STOP at the start node, ``max_frontier=2000``, ``Budget(max_depth=4, max_decision_calls=12)``.
``relation-hint`` / ``relation-beam-hint`` add the expected answer type to the prompt (their former names
``relation-v2`` / ``relation-beam-v2`` are refused with the new name, :data:`RENAMED_PRESETS`).

Every knob a caller can set has a maximum here, and nowhere else: the fields below carry it (``le=``), the CLI's
ranges, the HTTP schema and the MCP tools read it from them, and docs/surface.md lists them with their reasons.
The maxima are what a demanding walk needs (MetaQA's longest questions take three hops plus STOP; the beams in
docs/eval.md are 3 wide), with room to spare; beyond them a request is refused with the limit named.
The work budget (``Budget.max_nodes_read``, ``Budget.max_memory_mb``) cuts a walk whose allowed options still
add up to too much work, with a partial answer and ``status="budget"`` like the other budgets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from graphwalk_neo4j.errors import ConfigError, InputError, OptionValueError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

Strategy = Literal["greedy", "beam", "sample"]
HopMode = Literal["entity", "relation"]
Direction = Literal["out", "in", "both"]

# The maxima (see the module docstring; docs/surface.md gives each one's reason).
MAX_QUESTION_CHARS = 2000  # entity linking's work grows with the question's n-grams
MAX_START_ENTITIES = 16  # entity mode starts one beam per start entity before the first cut to the width
MAX_START_CHARS = 200  # one start entity's name or id
MAX_BEAM_WIDTH = 64  # one decision request per depth carries a question per kept beam
MAX_SAMPLES = 64  # as the beam width: one question per sampled walk and depth
MAX_DEPTH = 8  # decision depths including the STOP: seven hops
MAX_NEIGHBORS = 200  # options per question (a backend may take fewer; the engine says so)
MAX_FRONTIER = 10_000  # relation mode: targets kept per option
MAX_SAMPLE_NAMES = 20  # names shown per option in a question
MAX_DECISION_CALLS = 256
MAX_INPUT_TOKENS = 10_000_000
MAX_NODES_READ = 1_000_000  # Budget.max_nodes_read's ceiling (its default is 200,000)
MAX_MEMORY_MB = 1024  # Budget.max_memory_mb's ceiling (its default is 256)
MAX_TEMPERATURE = 10.0
MAX_LENGTH_ALPHA = 4.0
MAX_SEED = 2**32 - 1

# Why each maximum is what it is (docs/surface.md shows these beside the options).
LIMIT_REASONS: dict[str, str] = {
    "beam_width": "a decision request carries one question per kept beam; docs/eval.md's beams are 3 wide",
    "n_samples": "as the beam width: one question per sampled walk and depth",
    "max_depth": "MetaQA's longest questions take 3 hops plus STOP; 8 allows 7 hops",
    "max_neighbors": "options per question; Jev takes 255, the local decider slows past a few hundred",
    "prefilter_keep": "as max_neighbors",
    "max_frontier": "targets one option keeps; a MetaQA hub such as Drama has thousands",
    "sample_names": "names per option in a question; more only costs tokens",
    "max_decision_calls": "21 times the default; the work budget cuts earlier",
    "max_nodes_read": "about 92 MB of recorded ids at the ceiling; MetaQA walks read at most 12,170 (docs/eval.md)",
    "max_memory_mb": "one walk may not take more than this of the service's memory, by the estimate",
}

# What the memory estimate counts (measured with tracemalloc on MetaQA-like names): a NodeRef the walk holds
# (name, type, id) and an entity id string kept in the step records.
NODE_REF_BYTES = 800
NODE_ID_BYTES = 92


class Budget(BaseModel):
    """Per-walk limits. ``max_depth`` counts decision depths including the STOP (4 = three hops plus STOP).

    ``max_decision_calls`` and ``max_input_tokens`` are checked before each decision request, so tokens can
    overshoot by at most one request (the count is only known from the response), and calls by the extra wire
    calls of a request the backend had to split. ``None`` means no limit of that kind; the depth and the work
    budget still bound the walk.

    The work budget is checked after each expansion: ``max_nodes_read`` counts every node the expander returned
    (the targets of offered and pruned options and the frontiers reached, across beams and depths; the step
    records keep each of their ids), and ``max_memory_mb`` an estimate of what the walk holds: the NodeRefs of
    this depth's expansions and of the beams' frontiers (:data:`NODE_REF_BYTES` each) plus the recorded ids
    (:data:`NODE_ID_BYTES` each). The engine also caps each request's frontier at its share of the nodes left,
    so one depth cannot read far past the budget.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_depth: int = Field(default=4, ge=1, le=MAX_DEPTH, description="Decision depths including the STOP.")
    max_decision_calls: int | None = Field(
        default=12, ge=1, le=MAX_DECISION_CALLS, description="Decision calls (wire calls) per walk."
    )
    max_input_tokens: int | None = Field(
        default=None, ge=1, le=MAX_INPUT_TOKENS, description="Input tokens per walk (none: no token budget)."
    )
    max_nodes_read: int = Field(
        default=200_000, ge=1, le=MAX_NODES_READ, description="Work budget: nodes read by the walk's expansions."
    )
    max_memory_mb: int = Field(
        default=256, ge=1, le=MAX_MEMORY_MB, description="Work budget: estimated memory the walk holds, in MiB."
    )


class WalkConfig(BaseModel):
    """How one walk searches. Frozen; derive variants with :meth:`with_overrides`.

    ``max_depth`` may be given at the top level as a shorthand for ``budget.max_depth``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategy: Strategy = Field(default="greedy", description="greedy (one path), beam (the best k), sample (votes).")
    beam_width: int = Field(default=3, ge=1, le=MAX_BEAM_WIDTH, description="Beams kept per depth (strategy beam).")
    # relation hops answer best (docs/eval.md, MetaQA dev, local decider: F1 0.639 against entity's 0.364): a
    # relation move reaches all its targets, so "who directed The Matrix" answers both Wachowskis
    hop_mode: HopMode = Field(
        default="relation", description="relation: a move reaches all its targets; entity: one node per move."
    )
    direction: Direction = Field(default="both", description="Which way relationships may be followed.")
    # the second half: by the move that reached that frontier, made again, or by undoing the one that left it
    # (engine._goes_back); sampled walks follow their draw
    exclude_visited: bool = Field(
        default=True,
        description="Later hops skip nodes per exclude_scope; no greedy or beam move only returns to a frontier.",
    )
    # (MetaQA's rule: "movies whose directors also directed [X]" excludes X, but a director who also wrote the
    # films is still their writer)
    exclude_scope: Literal["visited", "start"] = Field(
        default="visited", description="What later hops skip: every visited node, or only the start entities."
    )
    allow_stop_at_start: bool = Field(default=False, description="May the walk STOP before its first hop.")

    # scoring: score = sum(log max(p, prob_floor)) / L ** length_alpha
    prob_floor: float = Field(default=1e-3, gt=0.0, lt=1.0, description="Smallest probability a step scores.")
    length_alpha: float = Field(
        default=1.0, ge=0.0, le=MAX_LENGTH_ALPHA, description="Length normalisation of a path's score."
    )

    # sampling (strategy="sample" only; applied client-side to the returned distribution)
    temperature: float = Field(default=1.0, ge=0.0, le=MAX_TEMPERATURE, description="Sampling temperature.")
    top_p: float = Field(default=1.0, gt=0.0, le=1.0, description="Sampling nucleus.")
    n_samples: int = Field(default=1, ge=1, le=MAX_SAMPLES, description="Walks sampled (strategy sample).")
    seed: int = Field(default=0, ge=0, le=MAX_SEED, description="Seed of the sampled walks.")

    # expansion limits (the expander applies them; the engine checks them)
    max_neighbors: int = Field(
        default=50, ge=1, le=MAX_NEIGHBORS, description="Offer every option when there are at most this many."
    )
    prefilter_keep: int = Field(
        default=30, ge=1, le=MAX_NEIGHBORS, description="Otherwise keep this many, the most similar to the question."
    )
    max_frontier: int = Field(
        default=2000, ge=1, le=MAX_FRONTIER, description="Relation hops: targets kept per option."
    )

    # prompt layout
    labels: Literal["short", "readable"] = Field(default="short", description="How options are labelled.")
    show_types: bool = Field(default=True, description="Show node types in questions.")
    relation_glosses: bool = Field(default=True, description="Show relations as words (directed by).")
    sample_names: int = Field(
        default=5, ge=0, le=MAX_SAMPLE_NAMES, description="Relation hops: names shown per option."
    )
    answer_type: Literal["off", "hint"] = Field(default="off", description="Ask for the answer's type first.")

    budget: Budget = Field(default_factory=Budget)

    @model_validator(mode="before")
    @classmethod
    def _depth_shorthand(cls, data: Any) -> Any:
        if isinstance(data, dict) and "max_depth" in data:
            data = dict(data)
            depth = data.pop("max_depth")
            budget = data.get("budget") or {}
            if isinstance(budget, Budget):
                budget = budget.model_dump()
            if isinstance(budget, dict):  # anything else is refused by the field's own validation
                data["budget"] = {**budget, "max_depth": depth}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> WalkConfig:
        if self.prefilter_keep > self.max_neighbors:
            raise ValueError(f"prefilter_keep ({self.prefilter_keep}) must be <= max_neighbors ({self.max_neighbors})")
        if self.n_samples > 1 and self.strategy != "sample":
            raise ValueError(f"n_samples={self.n_samples} needs strategy='sample' (got {self.strategy!r})")
        return self

    @property
    def max_depth(self) -> int:
        return self.budget.max_depth

    @property
    def width(self) -> int:
        """Beams kept per depth: 1 for greedy, ``beam_width`` for beam, ``n_samples`` walks for sample."""
        if self.strategy == "greedy":
            return 1
        if self.strategy == "beam":
            return self.beam_width
        return self.n_samples

    def with_overrides(self, **changes: Any) -> WalkConfig:
        """A validated copy with ``changes`` applied (``budget`` may be a partial dict). The copy's
        ``model_fields_set`` is this one's plus the changed fields: a field nobody set stays a default, so
        :func:`with_backend_defaults` can still tell it from a choice."""
        data = self.model_dump(exclude_unset=True)
        budget = changes.pop("budget", None)
        if isinstance(budget, (Budget, dict)):
            extra = budget.model_dump() if isinstance(budget, Budget) else budget
            data["budget"] = {**data.get("budget", {}), **extra}
        elif budget is not None:  # not a budget: refused by the field's own validation
            data["budget"] = budget
        data.update(changes)
        return WalkConfig.model_validate(data)


def check_question(question: str) -> str:
    """A question must be non-empty and at most :data:`MAX_QUESTION_CHARS` characters (:class:`InputError`)."""
    if not question.strip():
        raise InputError("the question is empty; ask something, e.g. 'which movies did Christopher Nolan direct'")
    if len(question) > MAX_QUESTION_CHARS:
        raise InputError(
            f"the question is {len(question):,} characters long; the limit is "
            f"{MAX_QUESTION_CHARS:,}. Shorten it to the question itself"
        )
    return question


def check_starts(start: Sequence[str] | None) -> list[str] | None:
    """Given start entities: at most :data:`MAX_START_ENTITIES`, each a non-empty name or id of at most
    :data:`MAX_START_CHARS` characters (:class:`InputError`). ``None`` or empty: link from the question."""
    if not start:
        return None
    if len(start) > MAX_START_ENTITIES:
        raise InputError(
            f"{len(start)} start entities given; the limit is {MAX_START_ENTITIES}. Name the few the question is about"
        )
    for name in start:
        if not name.strip() or len(name) > MAX_START_CHARS:
            raise InputError(
                f"start entity {name[:40]!r} is empty or longer than {MAX_START_CHARS} characters; give an entity "
                "name or id (see `gw-neo4j search`)"
            )
    return list(start)


def field_range(name: str) -> tuple[int, int]:
    """``(minimum, maximum)`` of the integer walk option ``name`` (a WalkConfig or Budget field), read from the
    field itself, so a door's range (the CLI's ``IntRange``) cannot drift from the model's."""
    field = WalkConfig.model_fields.get(name) or Budget.model_fields[name]
    low = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
    high = next((m.le for m in field.metadata if hasattr(m, "le")), None)
    if not isinstance(low, int) or not isinstance(high, int):
        raise KeyError(f"{name} is not a bounded integer walk option")
    return low, high


# What every preset shares (the evaluation set-up of docs/eval.md).
_SHARED = {
    "allow_stop_at_start": False,
    "max_frontier": 2000,
    "budget": {"max_depth": 4, "max_decision_calls": 12},
}

PRESETS: dict[str, dict[str, Any]] = {
    "greedy": {**_SHARED, "strategy": "greedy", "hop_mode": "entity"},
    "beam": {**_SHARED, "strategy": "beam", "beam_width": 3, "hop_mode": "entity"},
    "relation": {**_SHARED, "strategy": "greedy", "hop_mode": "relation"},
    "relation-beam": {**_SHARED, "strategy": "beam", "beam_width": 3, "hop_mode": "relation"},
    "sample": {**_SHARED, "strategy": "sample", "hop_mode": "entity", "n_samples": 4, "temperature": 1.0},
    "relation-hint": {**_SHARED, "strategy": "greedy", "hop_mode": "relation", "answer_type": "hint"},
    "relation-beam-hint": {
        **_SHARED,
        "strategy": "beam",
        "beam_width": 3,
        "hop_mode": "relation",
        "answer_type": "hint",
    },
}


# Presets renamed once: their former names said a version, not what they do. They are no longer accepted (one
# name per preset on every door); the refusal names the new one.
RENAMED_PRESETS: dict[str, str] = {"relation-v2": "relation-hint", "relation-beam-v2": "relation-beam-hint"}


def preset_names() -> list[str]:
    """The presets, in the order the help lists them."""
    return list(PRESETS)


def unknown_preset(name: str) -> ConfigError:
    """The one-line refusal of a preset name that is not one (a renamed one says its new name)."""
    renamed = RENAMED_PRESETS.get(name)
    hint = f" (it was renamed {renamed!r})" if renamed else ""
    return ConfigError(f"unknown walk preset {name!r}{hint}; valid presets: {', '.join(PRESETS)}")


def get_preset(name: str, **overrides: Any) -> WalkConfig:
    """The named preset as a :class:`WalkConfig`, with optional field overrides.

    Raises :class:`ConfigError` naming the valid presets when ``name`` is unknown.
    """
    try:
        base = PRESETS[name]
    except KeyError:
        raise unknown_preset(name) from None
    config = WalkConfig.model_validate(base)
    return config.with_overrides(**overrides) if overrides else config


# The walk a caller gets without naming a preset: relation hops with the presets' shared set-up, the search
# strategy left unset (WalkConfig's ``greedy``), so a decision backend that searches better with another one
# supplies it (:data:`SEARCH_FIELDS`); the ``relation`` preset sets it to greedy.
DEFAULT_WALK: dict[str, Any] = {**_SHARED, "hop_mode": "relation"}


def build_config(preset: str | None, overrides: Mapping[str, Any] | None = None) -> WalkConfig:
    """A preset with field overrides, as callers (CLI, service) ask for a walk. Without a preset: ``greedy``
    (entity hops) when the overrides ask for entity hops, else the default walk (:data:`DEFAULT_WALK`: the
    ``relation`` preset with its search strategy left to the decision backend). A bad name or value is a
    :class:`ConfigError` that names it."""
    changes = dict(overrides or {})
    try:
        if preset is None and changes.get("hop_mode") != "entity":
            return WalkConfig.model_validate(DEFAULT_WALK).with_overrides(**changes)
        return get_preset(preset or "greedy").with_overrides(**changes)
    except ValidationError as exc:
        raise OptionValueError(f"invalid walk options: {describe_invalid(exc)}") from exc


def describe_invalid(exc: ValidationError) -> str:
    """One line for a refused walk config: each bad field with its value and the limit it broke."""
    parts = []
    for error in exc.errors():
        name = ".".join(str(p) for p in error["loc"]) or "config"
        limits = error.get("ctx") or {}
        value = error.get("input")
        if error["type"] == "less_than_equal":
            parts.append(f"{name}={value!r} is over its limit {limits['le']}")
        elif error["type"] == "greater_than_equal":
            parts.append(f"{name}={value!r} is under its minimum {limits['ge']}")
        elif error["type"] == "extra_forbidden":
            parts.append(f"{name} is not a walk option (they are listed in docs/surface.md)")
        else:
            message = error["msg"].removeprefix("Value error, ")
            parts.append(f"{name}: {message}" if error["loc"] else message)
    return "; ".join(parts)


# The fields that make up the exclusion rule (which nodes later hops may not offer again).
RULE_FIELDS: tuple[str, ...] = ("exclude_visited", "exclude_scope")
# A backend's search preference (a learned decider's beam of 3): taken where the caller set neither, like the
# training rule, but not a training setting, so a caller's other choice is no warning (``Configured.kept``).
SEARCH_FIELDS: tuple[str, ...] = ("strategy", "beam_width")


@dataclass(frozen=True)
class Configured:
    """A walk's settings after :func:`with_backend_defaults`: the config to walk under, the backend's settings it
    took (fields the caller left unset), the ones the caller set against the backend (``name -> (trained,
    chosen)``), and which fields the caller had set."""

    config: WalkConfig
    taken: dict[str, Any]
    kept: dict[str, tuple[Any, Any]]
    chosen: frozenset[str]

    def source(self, field: str) -> Literal["model", "chosen", "default"]:
        """Where the value of ``field`` came from: the backend's training, the caller (a preset, an option, a
        request field), or WalkConfig's default."""
        if field in self.taken:
            return "model"
        return "chosen" if field in self.chosen else "default"

    def rule(self) -> dict[str, Any]:
        """The exclusion rule this walk uses and where it came from: ``chosen`` when the caller set a part of
        it, else ``model`` when a part came from the backend's training, else ``default``."""
        sources = {self.source(f) for f in RULE_FIELDS}
        source = next(s for s in ("chosen", "model", "default") if s in sources)
        return {**{f: getattr(self.config, f) for f in RULE_FIELDS}, "source": source}

    def search(self) -> dict[str, Any]:
        """How this walk searches and where that came from: ``strategy``, ``width`` (beams kept per depth: 1 for
        greedy, ``beam_width``, or the sampled walks) and ``source`` (``model``: the backend's preference, as a
        learned model's beam; ``chosen``: a preset or option; ``default``: WalkConfig's greedy)."""
        return {"strategy": self.config.strategy, "width": self.config.width, "source": self.source("strategy")}

    def warning(self, model: str) -> str | None:
        """One line when the caller chose against the backend's training, else None."""
        if not self.kept:
            return None
        parts = ", ".join(f"{k}={chosen} (trained with {trained})" for k, (trained, chosen) in self.kept.items())
        return f"warning: {model} was trained under another walk rule; this walk uses {parts} as chosen"


def with_backend_defaults(config: WalkConfig, defaults: Mapping[str, Any]) -> Configured:
    """Merge a decision backend's training settings and search preference (:data:`SEARCH_FIELDS`) into
    ``config``: WalkConfig's defaults < ``defaults`` < the fields the caller set (``config.model_fields_set``: a
    preset's fields, options, request fields). Only names that are WalkConfig fields are taken; a value WalkConfig
    refuses is a :class:`ConfigError`."""
    known = {k: v for k, v in defaults.items() if k in WalkConfig.model_fields}
    chosen = frozenset(config.model_fields_set)
    taken = {k: v for k, v in known.items() if k not in chosen}
    kept = {
        k: (v, getattr(config, k))
        for k, v in known.items()
        if k in chosen and k not in SEARCH_FIELDS and getattr(config, k) != v
    }
    if taken:
        try:
            config = config.with_overrides(**taken)
        except ValueError as exc:
            raise ConfigError(f"the decision model's recorded walk settings {taken} are invalid: {exc}") from exc
    return Configured(config=config, taken=taken, kept=kept, chosen=chosen)
