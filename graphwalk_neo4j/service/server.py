"""Running the app under uvicorn: the bind check (loopback, or a token), JSON logs, and graceful shutdown.

SIGTERM (or a first Ctrl-C) starts draining: new requests get 503 with ``Retry-After`` and ``/readyz`` turns 503
while in-flight requests and walks finish and their traces complete; then uvicorn shuts down and the process
exits 0. A second signal, or ``GW_NEO4J_SERVICE_DRAIN_S`` running out, stops waiting (a walk cut that way is
stored with status ``interrupted``).
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import logging
import signal
from typing import TYPE_CHECKING

import uvicorn

from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.service import logs
from graphwalk_neo4j.service.app import create_app
from graphwalk_neo4j.service.context import ServiceContext, tune_interpreter
from graphwalk_neo4j.service.walk_process import WalkProcess

if TYPE_CHECKING:
    import socket
    from types import FrameType

    from graphwalk_neo4j.settings import Settings

log = logging.getLogger("graphwalk_neo4j.service")


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(settings: Settings, host: str) -> None:
    """Off loopback, a bearer token is required: refuse to start without one."""
    token = settings.service_token.get_secret_value().strip() if settings.service_token is not None else ""
    if not is_loopback(host) and not token:
        raise ConfigError(
            f"refusing to listen on {host}: a non-loopback address needs a bearer token. Set "
            "GW_NEO4J_SERVICE_TOKEN (callers send `Authorization: Bearer <token>`), or bind 127.0.0.1"
        )
    if token and len(token) < 16:
        raise ConfigError("GW_NEO4J_SERVICE_TOKEN is shorter than 16 characters; use a long random token")


class DrainingServer(uvicorn.Server):
    """uvicorn's server, but the first SIGTERM/SIGINT drains before shutting down."""

    def __init__(self, config: uvicorn.Config, ctx: ServiceContext, drain_s: float) -> None:
        super().__init__(config)
        self.ctx = ctx
        self.drain_s = drain_s
        self._drain: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        gc.collect()
        gc.freeze()  # the warm caches and everything start-up built: no collection need walk them again

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.ctx.draining or self._loop is None:
            self.force_exit = self.should_exit  # a second signal while shutting down: now
            self.should_exit = True
            return
        self.ctx.draining = True
        self._loop.call_soon_threadsafe(self._start_drain, sig)

    def _start_drain(self, sig: int) -> None:
        log.info(
            "draining",
            extra={
                "signal": signal.Signals(sig).name,
                "walks_in_flight": self.ctx.walks_in_flight,
                "grace_s": self.drain_s,
            },
        )
        self._drain = asyncio.ensure_future(self._drain_then_exit())

    async def _drain_then_exit(self) -> None:
        try:
            await asyncio.wait_for(self.ctx.wait_idle(), timeout=self.drain_s)
            log.info("drained")
        except TimeoutError:
            log.warning("drain time ran out", extra={"walks_in_flight": self.ctx.walks_in_flight})
        self.should_exit = True


def serve(settings: Settings, host: str, port: int, *, log_level: str = "info") -> None:
    """Start the service in the foreground until SIGTERM/SIGINT (see the module docstring)."""
    check_bind(settings, host)
    logs.configure(log_level)
    tune_interpreter()
    ctx = ServiceContext(settings, walk_process=WalkProcess(settings) if settings.service_walk_process else None)
    app = create_app(settings, context=ctx)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=int(settings.service_drain_s) or None,
        server_header=False,
    )
    server = DrainingServer(config, ctx, settings.service_drain_s)
    log.info("listening", extra={"host": host, "port": port, "auth": settings.service_token is not None})
    server.run()
