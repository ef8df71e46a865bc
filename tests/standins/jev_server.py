"""A stand-in for the Jev API on 127.0.0.1, speaking both providers' dialects, for tests.

Routes (TypeSafe at the root, OpenRouter under ``/api``):

* ``POST /v1/systemone`` and ``POST /api/v1/systemone``
* ``GET /v1/models`` (``{"models": [{"name", "description", "release_date"}]}``) and ``GET /api/v1/models``
  (``{"data": [{"id"}]}``), plus ``GET /api/v1/models/{id}/endpoints``

Answers mimic the live service: probabilities rounded to 2 decimals, keys in shuffled order, a
``confidence``, token usage; OpenRouter adds ``id``, ``provider`` and ``usage.cost = input_tokens * 0.042e-6``
and echoes a dated model id. The distribution is deterministic: seeded by a hash of (state, question), with
``prefer`` naming a label per question key that gets most of the mass.

``flight`` (:class:`~tests.standins.http.InFlight`) counts the systemone requests answered at once;
``max_in_flight`` is its high-water mark (for concurrency caps).

Faults are set as attributes (``reset()`` restores the defaults): ``status``/``status_times``/``retry_after``
(e.g. 401; 429 with ``Retry-After`` N times then success, or always; 500), ``malformed``, ``omit_question``,
``extra_label``, ``stall_s``; ``hold`` (a ``threading.Event``) keeps each systemone request waiting until the test
sets it, and ``arrived`` is set as soon as one is waiting (a controllable decision for shutdown tests). Every
request is recorded in ``requests`` (the Authorization header is reduced
to whether it matched ``api_key``).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.standins.http import InFlight, JSONHandler, LoopbackStandIn

if TYPE_CHECKING:
    from http.server import BaseHTTPRequestHandler

OPENROUTER_PRICE_PER_INPUT_TOKEN = 0.042e-6
OPENROUTER_DATED_SUFFIX = "-20260917"


@dataclass
class RecordedRequest:
    method: str
    path: str
    body: Any
    authorized: bool
    headers: dict[str, str] = field(default_factory=dict)


def standin_distribution(state: Any, key: str, question: dict[str, Any], prefer: str | None) -> dict[str, float]:
    """The stand-in's deterministic answer: hash-seeded weights, ``prefer`` boosted, rounded to 2 decimals."""
    labels = list(question.get("criteria") or {})
    material = json.dumps([state, question], sort_keys=True, separators=(",", ":")).encode("utf-8")
    rng = random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "little"))
    weights = {label: rng.random() ** 3 + 0.01 for label in labels}
    if prefer in weights:
        weights[prefer] = sum(weights.values()) * 4 + 1.0
    total = sum(weights.values())
    return {label: round(w / total, 2) for label, w in weights.items()}


class JevStandIn(LoopbackStandIn):
    thread_name = "jev-standin"

    def __init__(self, *, api_key: str | None = "test-key") -> None:
        super().__init__()
        self.api_key = api_key
        self.requests: list[RecordedRequest] = []
        self.usages: list[dict[str, Any]] = []
        self._counter = 0
        self.flight = InFlight()
        self.hold: threading.Event | None = None
        self.reset()

    # -- configuration --------------------------------------------------------------------------------------

    def reset(self) -> None:
        """Clear faults and recorded requests; back to healthy defaults.

        A request that the last test left held or still being answered is let go and waited for first, so its
        answer is not recorded into the next test's requests and usages.
        """
        if self.hold is not None:
            self.hold.set()
        self.flight.drain()
        self.typesafe_models: list[str] = ["jev-1.13.0", "jev-latest"]
        self.openrouter_models: list[str] = ["typesafe/jev-1.13", "openai/gpt-4o-mini"]
        self.openrouter_endpoints: list[str] = ["typesafe/jev-1.13"]
        self.prefer: dict[str, str] = {}
        self.status: int | None = None
        self.status_times: int | None = None  # None: every systemone request; N: the first N
        self.retry_after: str | None = None
        self.malformed: bool = False
        self.omit_question: str | None = None
        self.extra_label: str | None = None
        self.stall_s: float = 0.0
        self.hold = None
        self.arrived = threading.Event()
        self.echo_model: str | None = None  # override the echoed model id
        self.flight.reset()
        with self._lock:
            self.requests = []
            self.usages = []  # the usage block of every answer sent

    @property
    def max_in_flight(self) -> int:
        """The most systemone requests being answered at once."""
        return self.flight.most

    @property
    def systemone_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/v1/systemone")]

    # -- lifecycle ------------------------------------------------------------------------------------------

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _make_handler(self)

    @property
    def typesafe_base_url(self) -> str:
        return self.url

    @property
    def openrouter_base_url(self) -> str:
        return self.url + "/api"

    # -- behaviour ------------------------------------------------------------------------------------------

    def _next_id(self) -> int:
        with self._lock:
            self._counter += 1
            return self._counter

    def _take_fault(self) -> int | None:
        with self._lock:
            if self.status is None:
                return None
            if self.status_times is None:
                return self.status
            if self.status_times > 0:
                self.status_times -= 1
                return self.status
            return None

    def answer(self, body: dict[str, Any], *, openrouter: bool, raw_length: int) -> dict[str, Any]:
        model = body.get("model", "")
        state = body.get("state")
        questions: dict[str, Any] = body.get("questions") or {}
        answers: dict[str, Any] = {}
        for key, question in questions.items():
            if key == self.omit_question:
                continue
            rng = random.Random(key)
            probabilities = standin_distribution(state, key, question, self.prefer.get(key))
            if self.extra_label is not None:
                probabilities[self.extra_label] = 0.01
            items = list(probabilities.items())
            rng.shuffle(items)
            shuffled = dict(items)
            n = len(probabilities)
            choice = max(probabilities, key=lambda label: probabilities[label])
            confidence = round((n * probabilities[choice] - 1) / (n - 1), 2) if n > 1 else 1.0
            answers[key] = {
                "type": "choice",
                "choice": choice,
                "confidence": confidence,
                "probabilities": shuffled,
            }
        input_tokens = max(1, raw_length // 4)
        usage: dict[str, Any] = {"input_tokens": input_tokens, "output_tokens": 10 * len(questions)}
        echoed = self.echo_model or (model + OPENROUTER_DATED_SUFFIX if openrouter else model)
        out: dict[str, Any] = {"model": echoed, "answers": answers, "usage": usage}
        if openrouter:
            usage["cost"] = input_tokens * OPENROUTER_PRICE_PER_INPUT_TOKEN
            out = {"id": f"gen-dec-{self._next_id()}", "provider": "TypeSafe", **out}
        with self._lock:
            self.usages.append(dict(usage))
        return out


def _decode_body(raw: bytes, encoding: str | None) -> bytes:
    if not encoding:
        return raw
    if encoding == "zstd":
        try:
            module = importlib.import_module("compression.zstd")  # Python 3.14+
        except ImportError:
            module = importlib.import_module("backports.zstd")
        return bytes(module.decompress(raw))
    raise ValueError(f"unsupported Content-Encoding {encoding}")


def _make_handler(standin: JevStandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(JSONHandler):
        def _extra_headers(self) -> dict[str, str]:
            return {"x-typesafe-request-id": f"req-{standin._next_id()}"}

        def _authorized(self) -> bool:
            if standin.api_key is None:
                return True
            return self.headers.get("Authorization", "") == f"Bearer {standin.api_key}"

        def _record(self, body: Any, authorized: bool) -> None:
            headers = {k.lower(): v for k, v in self.headers.items() if k.lower() != "authorization"}
            with standin._lock:
                standin.requests.append(RecordedRequest(self.command, self.path, body, authorized, headers))

        def do_GET(self) -> None:  # stdlib name
            authorized = self._authorized()
            self._record(None, authorized)
            if not authorized:
                self._send(401, {"error": {"message": "Invalid API key", "code": 401}})
                return
            path = self.path.split("?", 1)[0]
            if path == "/v1/models":
                models = [
                    {"name": m, "description": "stand-in", "release_date": "2026-09-15"}
                    for m in standin.typesafe_models
                ]
                self._send(200, {"models": models})
            elif path == "/api/v1/models":
                self._send(200, {"data": [{"id": m, "name": m} for m in standin.openrouter_models]})
            elif path.startswith("/api/v1/models/") and path.endswith("/endpoints"):
                model = path[len("/api/v1/models/") : -len("/endpoints")]
                if model in standin.openrouter_endpoints:
                    self._send(200, {"data": {"id": model, "endpoints": [{"name": "TypeSafe"}]}})
                else:
                    self._send(404, {"error": {"message": "Model not found", "code": 404}})
            else:
                self._send(404, {"error": "not found"})

        def do_POST(self) -> None:  # stdlib name
            raw = self._read_body()
            try:
                decoded = _decode_body(raw, self.headers.get("Content-Encoding"))
                body = json.loads(decoded or b"null")
            except Exception as exc:  # report any decoding problem as a 400
                self._record(None, self._authorized())
                self._send(400, {"error": f"bad body: {exc}"})
                return
            authorized = self._authorized()
            self._record(body, authorized)
            path = self.path.split("?", 1)[0]
            if path not in ("/v1/systemone", "/api/v1/systemone"):
                self._send(404, {"error": "not found"})
                return
            if not authorized:
                self._send(401, {"error": {"message": "Invalid API key", "code": 401}})
                return
            with standin.flight.request():
                self._answer(body, path, decoded)

        def _answer(self, body: Any, path: str, decoded: bytes) -> None:
            standin.arrived.set()
            if standin.hold is not None:
                standin.hold.wait(timeout=120)
            if standin.stall_s:
                time.sleep(standin.stall_s)
            fault = standin._take_fault()
            if fault is not None:
                headers = {"Retry-After": standin.retry_after} if standin.retry_after is not None else {}
                message = {401: "Invalid API key", 429: "Rate limit exceeded"}.get(fault, "Internal error")
                self._send(fault, {"error": {"message": message, "code": fault}}, headers)
                return
            if standin.malformed:
                self._send(200, b'{"model": "jev-1.13.0", "answers": {"oops": ')
                return
            openrouter = path.startswith("/api/")
            self._send(200, standin.answer(body, openrouter=openrouter, raw_length=len(decoded)))

    return Handler
