"""The decision-backend contract shared by every backend (Jev, local, LLM, fake).

One request carries one shared ``state`` (the question) and several choice questions, one per active beam;
each question offers labelled options with descriptions. The answer is, per question, a distribution over
exactly the offered labels (see :mod:`graphwalk_neo4j.decide.normalize` for the rules).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from graphwalk_neo4j.decide.request import DecisionContext

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

JSONContent = str | dict[str, Any] | list[Any]


class ChoiceQuestion(BaseModel):
    """One choice question. ``options`` maps label -> description in offer order (which breaks ties).

    ``context`` is the same question as structure (:mod:`graphwalk_neo4j.decide.request`), for backends that
    score structure instead of reading text; it is never sent over the wire and is left out of dumps."""

    key: str
    instructions: JSONContent | None = None
    options: dict[str, JSONContent | None]
    context: DecisionContext | None = Field(default=None, exclude=True, repr=False)


class DecisionRequest(BaseModel):
    state: JSONContent
    questions: list[ChoiceQuestion]


class Usage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None

    def __add__(self, other: Usage) -> Usage:
        cost: float | None
        if self.cost_usd is None and other.cost_usd is None:
            cost = None
        else:
            cost = (self.cost_usd or 0.0) + (other.cost_usd or 0.0)
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cost_usd=cost,
        )


class ChoiceResult(BaseModel):
    key: str
    probabilities: dict[str, float]  # normalised, keys == offered labels in offer order, sums to 1
    raw_probabilities: dict[str, float] = Field(default_factory=dict)  # as the backend returned them
    top: str
    confidence: float | None = None  # the backend's own confidence when it reports one (Jev does)
    warnings: list[str] = Field(default_factory=list)


class DecisionResponse(BaseModel):
    results: dict[str, ChoiceResult]
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    model: str = ""  # as echoed by the server
    request_id: str | None = None
    provider: str | None = None  # the route: "typesafe", "openrouter", "local", "fake", "litellm"
    calls: int = 1  # wire calls made (a request may be split)
    request_ids: list[str] = Field(default_factory=list)  # one per wire call when the provider reports them
    served_by: str | None = None  # the upstream that answered, when a router reports it (OpenRouter)


class MentionScorer(Protocol):
    """Scores candidate mentions ``(span, best entity row)`` of a question; the highest starts the walk."""

    def __call__(self, question: str, candidates: Sequence[tuple[str, Mapping[str, Any]]]) -> Sequence[float]: ...


@runtime_checkable
class DecisionBackend(Protocol):
    """What every backend offers. A backend subclasses this protocol, so it inherits the no-op defaults of the
    three optional parts (:meth:`verify`, :attr:`walk_defaults`, :attr:`mention_scorer`) and overrides the ones
    it has; callers use them directly, never by looking them up."""

    @property
    def model_id(self) -> str: ...

    @property
    def max_options(self) -> int: ...

    async def decide(self, request: DecisionRequest) -> DecisionResponse: ...

    async def aclose(self) -> None: ...

    async def verify(self) -> str | None:
        """Check at start-up, before the first walk, that the backend can answer; return the model id
        checked. Default: nothing to check (``None``). Jev checks that its pinned id is listed."""
        return None

    @property
    def walk_defaults(self) -> Mapping[str, Any]:
        """The walk settings the backend was trained under and walks best with (WalkConfig field -> value).
        Default: none. A learned decider returns its recorded exclusion rule."""
        return {}

    @property
    def mention_scorer(self) -> MentionScorer | None:
        """A scorer for linking a question's mentions from plain text. Default: none (longest match first).
        A learned decider trained with one returns it."""
        return None
