"""The loopback HTTP plumbing the test stand-ins share.

:class:`LoopbackStandIn` runs a :class:`ThreadingHTTPServer` on ``127.0.0.1`` (a free port) from a daemon thread:
``start()``/``stop()``, or use it as a context manager; ``url`` is ``http://host:port``. A subclass says which
handler serves the requests (:meth:`LoopbackStandIn.handler`) and names its thread (``thread_name``).

:class:`JSONHandler` is the handler base: HTTP/1.1, no request logging, ``_send`` answers with a JSON body (or raw
bytes) and its ``Content-Length``, ``_read_body``/``_read_json`` read the request body.

:class:`InFlight` counts the requests a stand-in is answering at once, for concurrency checks that wait on events
instead of timing: :meth:`InFlight.wait_until` blocks until ``n`` are in flight together, and ``gate = n`` holds
every request until ``n`` were in flight together (so a client that never overlaps its calls is caught, however
slow the machine).
"""

from __future__ import annotations

import json
import threading
from abc import ABC, abstractmethod
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    from collections.abc import Iterator


class JSONHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # stdlib signature
        return

    def _extra_headers(self) -> dict[str, str]:
        """Headers sent with every answer, before the per-answer ones (none by default)."""
        return {}

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        """Answer ``payload`` as JSON (bytes are sent as they are); a client that hung up is ignored."""
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in [*self._extra_headers().items(), *(headers or {}).items()]:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _read_json(self) -> Any:
        """The request body as JSON; an empty body reads as ``{}``."""
        return json.loads(self._read_body() or b"{}")


class InFlight:
    """Requests being answered at once (``now``) and the most at once (``most``), with waits on those counts."""

    def __init__(self, gate_timeout_s: float = 30.0) -> None:
        self._cond = threading.Condition()
        self.gate_timeout_s = gate_timeout_s
        self.now = 0  # a live count: reset() leaves it alone, the requests themselves bring it back to 0
        self.reset()

    def reset(self) -> None:
        with self._cond:
            self.most = self.now
            self.gate: int | None = None
            self.gate_missed = False  # a request gave up waiting for the gate

    @contextmanager
    def request(self) -> Iterator[None]:
        """Around answering one request: counted while inside; waits at the gate first when one is set."""
        with self._cond:
            self.now += 1
            self.most = max(self.most, self.now)
            self._cond.notify_all()
            gate = self.gate
            if gate is not None and not self._cond.wait_for(lambda: self.most >= gate, self.gate_timeout_s):
                self.gate_missed = True
        try:
            yield
        finally:
            with self._cond:
                self.now -= 1
                self._cond.notify_all()

    def drain(self, timeout_s: float = 30.0) -> bool:
        """Block until no request is being answered; False when some still were after the timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self.now == 0, timeout_s)

    def wait_until(self, n: int, timeout_s: float = 30.0) -> bool:
        """Block until ``n`` requests are in flight together; False when that did not happen within the timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self.now >= n, timeout_s)


class LoopbackStandIn(ABC):
    thread_name = "standin"

    def __init__(self) -> None:
        self._server: ThreadingHTTPServer | None = None
        self._lock = threading.Lock()

    @abstractmethod
    def handler(self) -> type[BaseHTTPRequestHandler]:
        """The request handler class bound to this stand-in."""

    def start(self) -> Self:
        server = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        server.daemon_threads = True
        server.block_on_close = False
        self._server = server
        threading.Thread(target=server.serve_forever, name=self.thread_name, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._server is not None, "stand-in not started"
        host, port = str(self._server.server_address[0]), int(self._server.server_address[1])
        return f"http://{host}:{port}"
