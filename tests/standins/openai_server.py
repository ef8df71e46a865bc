"""An OpenAI-compatible ``POST /v1/chat/completions`` stand-in on 127.0.0.1 for litellm tests.

It reads the JSON payload that :mod:`graphwalk_neo4j.decide.llm` puts in the first user message (``question``,
``task``, ``options: [{key, label, description}]``) and answers deterministically (hash-seeded, ``prefer``
boosts a label):

* when the request asks for ``logprobs`` and ``logprobs=True`` here: content = the best option's key, with the
  first token's ``top_logprobs`` over the keys;
* otherwise: content = a JSON object ``{label: probability}`` (rounded to 3 decimals).

Controls: ``logprobs`` (provider supports them), ``garbage_times`` (that many replies are prose, not JSON;
``None`` with ``garbage=True`` means always), ``status`` (an HTTP error for every call), ``unoffered_label``,
``echo_credentials`` (an error's message quotes the request's Authorization header, as a careless proxy would).
Requests are recorded in ``requests``; ``flight`` (:class:`~tests.standins.http.InFlight`) counts the ones being
answered at once (``max_in_flight``; ``flight.gate`` for deterministic overlap checks).

It is the one stand-in for this wire protocol: :class:`tests.standins.extraction.ExtractionStandIn` subclasses it
and overrides :meth:`OpenAIStandIn.content` to answer extraction prompts.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from typing import TYPE_CHECKING, Any

from tests.standins.http import InFlight, JSONHandler, LoopbackStandIn

if TYPE_CHECKING:
    from http.server import BaseHTTPRequestHandler


class OpenAIStandIn(LoopbackStandIn):
    thread_name = "openai-standin"

    def __init__(self) -> None:
        super().__init__()
        self.flight = InFlight()
        self.reset()

    def reset(self) -> None:
        self.flight.reset()
        self.logprobs = True
        self.garbage = False
        self.garbage_times: int | None = None
        self.status: int | None = None
        self.latency_s = 0.0  # a simulated model latency, for benchmarks only (tests wait on ``flight`` instead)
        self.echo_credentials = False
        self.prefer: str | None = None
        self.unoffered_label: str | None = None
        self.requests: list[dict[str, Any]] = []
        self.authorizations: list[str | None] = []  # the Authorization header of each request

    # -- lifecycle ------------------------------------------------------------------------------------------

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _make_handler(self)

    @property
    def api_base(self) -> str:
        return self.url + "/v1"

    @property
    def max_in_flight(self) -> int:
        """The most requests being answered at once."""
        return self.flight.most

    # -- behaviour ------------------------------------------------------------------------------------------

    def distribution(self, payload: dict[str, Any]) -> dict[str, float]:
        options = payload.get("options") or []
        material = json.dumps(payload, sort_keys=True).encode("utf-8")
        rng = random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "little"))
        weights = {opt["label"]: rng.random() ** 2 + 0.05 for opt in options}
        if self.prefer in weights:
            weights[self.prefer] = sum(weights.values()) * 3
        total = sum(weights.values())
        return {label: w / total for label, w in weights.items()}

    def _take_garbage(self) -> bool:
        with self._lock:
            if not self.garbage:
                return False
            if self.garbage_times is None:
                return True
            if self.garbage_times > 0:
                self.garbage_times -= 1
                return True
            return False

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """The chat completion answering ``body``: :meth:`content` in the OpenAI envelope."""
        content, logprobs = self.content(body)
        messages = body.get("messages") or []
        prompt_tokens = sum(len(m.get("content") or "") for m in messages) // 4
        completion_tokens = max(1, len(content) // 4)
        return {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": 1_790_000_000,
            "model": body.get("model", "test-model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "logprobs": logprobs,
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def content(self, body: dict[str, Any]) -> tuple[str, Any]:
        """The assistant message answering a decision request, and its logprobs block (or ``None``)."""
        messages = body.get("messages") or []
        user = next((m for m in messages if m.get("role") == "user"), {"content": ""})
        text = user.get("content") or ""
        payload = json.loads(text.split("\n\n", 1)[0]) if text.startswith("{") else {"options": []}
        dist = self.distribution(payload)
        keys = {opt["label"]: opt["key"] for opt in payload.get("options", [])}
        logprobs: Any = None
        if self._take_garbage():
            content = "I would probably go with the first one, it looks right."
        elif body.get("logprobs") and self.logprobs:
            ranked = sorted(dist.items(), key=lambda item: -item[1])
            content = keys[ranked[0][0]]
            top = [
                {"token": keys[label], "logprob": math.log(p), "bytes": list(keys[label].encode())}
                for label, p in ranked[: int(body.get("top_logprobs") or 5)]
            ]
            logprobs = {
                "content": [
                    {
                        "token": content,
                        "logprob": top[0]["logprob"],
                        "bytes": top[0]["bytes"],
                        "top_logprobs": top,
                    }
                ]
            }
        else:
            answer = {label: round(p, 3) for label, p in dist.items()}
            if self.unoffered_label:
                answer[self.unoffered_label] = 0.1
            content = json.dumps(answer)
        return content, logprobs


def _make_handler(standin: OpenAIStandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(JSONHandler):
        def do_POST(self) -> None:  # stdlib name
            body = self._read_json()
            with standin._lock:
                standin.requests.append(body)
                standin.authorizations.append(self.headers.get("Authorization"))
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
                return
            with standin.flight.request():
                if standin.latency_s:
                    time.sleep(standin.latency_s)
                if standin.status is not None:
                    message = "stand-in error"
                    if standin.echo_credentials:
                        message += f" for credentials {self.headers.get('Authorization')}"
                    self._send(standin.status, {"error": {"message": message, "type": "server_error"}})
                    return
                self._send(200, standin.reply(body))

    return Handler
