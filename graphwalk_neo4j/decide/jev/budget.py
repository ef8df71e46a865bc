"""Jev's token budgets: a request is split into batches that each fit (see :func:`plan_batches`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from graphwalk_neo4j.decide.jev.wire import question_wire
from graphwalk_neo4j.decide.text import compact_json
from graphwalk_neo4j.errors import DecisionError

if TYPE_CHECKING:
    from graphwalk_neo4j.decide.base import ChoiceQuestion, DecisionRequest

MAX_REQUEST_TOKENS = 64_000  # documented context per request
MAX_QUESTION_TOKENS = 32_000  # documented budget for state + the longest single question
CHARS_PER_TOKEN = 4  # estimate: len(compact JSON) / 4
REQUEST_OVERHEAD_TOKENS = 16  # {"model":..., "state":..., "questions":{...}} framing
DEFAULT_TOKEN_MARGIN = 0.9  # plan against 90% of each budget


def estimate_tokens(content: Any) -> int:
    """Estimated tokens of ``content`` as sent: ``ceil(len(compact JSON) / 4)``. Jev's tokenizer is not
    public; English JSON runs about 3.5-4.5 characters per token, and the planner keeps a 10% margin below
    each limit."""
    return math.ceil(len(compact_json(content)) / CHARS_PER_TOKEN)


def plan_batches(
    request: DecisionRequest,
    *,
    max_request_tokens: int = MAX_REQUEST_TOKENS,
    max_question_tokens: int = MAX_QUESTION_TOKENS,
    margin: float = DEFAULT_TOKEN_MARGIN,
) -> list[list[ChoiceQuestion]]:
    """Split ``request.questions`` (in order) into batches that fit Jev's two budgets.

    With ``S`` = state tokens and ``Q_i`` = question tokens (both :func:`estimate_tokens` of the JSON sent):
    each question needs ``S + Q_i <= margin * max_question_tokens`` (else :class:`DecisionError`: splitting
    can't help, the walk must send less); a batch is filled greedily while
    ``overhead + S + sum(Q_i) <= margin * max_request_tokens``.
    """
    state_tokens = estimate_tokens(request.state)
    request_budget = margin * max_request_tokens
    question_budget = margin * max_question_tokens
    batches: list[list[ChoiceQuestion]] = []
    current: list[ChoiceQuestion] = []
    used = REQUEST_OVERHEAD_TOKENS + state_tokens
    for question in request.questions:
        tokens = estimate_tokens({question.key: question_wire(question)})
        if state_tokens + tokens > question_budget:
            raise DecisionError(
                f"question {question.key!r} is too large for Jev: about {state_tokens} state + {tokens} "
                f"question tokens exceeds the {int(question_budget)}-token budget (documented limit "
                f"{max_question_tokens}, estimated as JSON characters / 4); offer fewer options or shorter "
                "descriptions"
            )
        if current and used + tokens > request_budget:
            batches.append(current)
            current, used = [], REQUEST_OVERHEAD_TOKENS + state_tokens
        current.append(question)
        used += tokens
    if current:
        batches.append(current)
    return batches
