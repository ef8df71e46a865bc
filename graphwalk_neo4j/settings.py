"""Settings, read once at the edge (CLI or caller) and passed down. Environment prefix: ``GW_NEO4J_``.

API keys also accept the providers' conventional names (``TYPESAFE_API_KEY``, ``OPENROUTER_API_KEY``). Secrets are
``SecretStr`` and never printed.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from pydantic import AliasChoices, Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from graphwalk_neo4j.errors import ConfigError

# The pool rule (docs/service.md, "Sizing"): an admitted walk holds at most this many connections at once (its
# depth's round trip and its trace write, which runs in the background one at a time) ...
CONNECTIONS_PER_WALK = 2
# ... and this many more are kept for requests that are not walks (search, listings, readiness, ingest jobs).
SPARE_CONNECTIONS = 8
# A request waits for a connection at most this share of the request timeout, so a starved pool is answered
# 503 (retry) well before the request would run into its 504.
ACQUIRE_SHARE = 0.25
MAX_ACQUIRE_S = 60.0


class PoolPlan(NamedTuple):
    """The driver pool and the admission limit, sized together (:meth:`Settings.pool_plan`)."""

    max_walks: int  # walks admitted at once; more are answered 429 + Retry-After
    max_connections: int  # the driver's pool: max_walks x CONNECTIONS_PER_WALK + SPARE_CONNECTIONS
    acquire_timeout_s: float  # wait for a free connection before a 503 + Retry-After
    request_timeout_s: float  # per request, 504 past it


EMBED_BATCH_SIZE = 64  # GW_NEO4J_EMBED_BATCH_SIZE's default (see the field)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GW_NEO4J_", extra="ignore", populate_by_name=True)

    # Neo4j
    uri: str = "bolt://127.0.0.1:7687"
    user: str = "neo4j"
    password: SecretStr = SecretStr("graphwalk-local")
    database: str = "neo4j"
    http_port: int = 7474
    browser_url: str | None = None
    connect_timeout_s: float = 10.0
    # the driver's pool; unset: sized by pool_plan() from the walk limit (set it only to test or to cap it)
    pool_size: int | None = Field(default=None, ge=1, le=10_000)
    pool_acquire_timeout_s: float | None = Field(default=None, gt=0, le=600)  # unset: from pool_plan()

    # Writes
    batch_size: int = Field(default=5000, ge=1, le=100_000)

    # Embeddings
    embedder: str = "minilm-onnx"  # "minilm-onnx" (ONNX Runtime), "minilm" (torch), "fake" (tests only)
    # texts per encode run: small batches of length-sorted texts keep MiniLM's matrices in the CPU's caches (the
    # int8 ONNX export on the 1M scale graph: 1,028 entities/s end to end with 64 against 945 with 256, 2026-12-04)
    embed_batch_size: int = Field(default=EMBED_BATCH_SIZE, ge=1, le=4096)

    # Decisions
    model: str | None = None  # see graphwalk_neo4j.backends for the rules
    jev_provider: Literal["typesafe", "openrouter"] | None = None
    jev_base_url: str | None = None
    typesafe_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("GW_NEO4J_TYPESAFE_API_KEY", "TYPESAFE_API_KEY")
    )
    openrouter_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("GW_NEO4J_OPENROUTER_API_KEY", "OPENROUTER_API_KEY")
    )
    decision_concurrency: int = Field(default=8, ge=1)
    decision_timeout_s: float = Field(default=30.0, gt=0)
    llm_api_base: str | None = None
    llm_api_key: SecretStr | None = None

    # Service (`gw-neo4j serve`, see docs/service.md)
    service_host: str = "127.0.0.1"
    service_port: int = Field(default=8765, ge=0, le=65535)
    service_token: SecretStr | None = None  # GW_NEO4J_SERVICE_TOKEN: bearer token; required off loopback
    service_max_walks: int = Field(default=64, ge=1, le=4096)  # walks in flight; more get 429 + Retry-After
    service_timeout_s: float = Field(default=120.0, gt=0, le=3600)  # per request
    service_max_body_bytes: int = Field(default=1_000_000, ge=1024)
    service_graphs: str | None = None  # comma-separated graphs to warm at start (default: every graph found)
    service_drain_s: float = Field(default=60.0, ge=0)  # SIGTERM: how long in-flight work may take to finish
    # GW_NEO4J_SERVICE_WORKER_NICE: how many niceness steps below the event loop the walks' CPU pool and the driver's
    # thread run (Linux; 0: as the loop), so that a woken loop (a /healthz probe) gets a core first; with a walk
    # process, how far below the serving process that whole process runs
    service_worker_nice: int = Field(default=10, ge=0, le=19)
    # GW_NEO4J_SERVICE_WALK_PROCESS: `gw-neo4j serve` runs the walks in a child process of their own, so that
    # their Python never holds the lock the requests' event loop needs (service/walk_process.py); false: in-process
    service_walk_process: bool = True
    # GW_NEO4J_SERVICE_LEARNED_DIRS: comma-separated folders under which a caller may name a learned decider
    # (`"model": "learned:DIR"`); the service's own default model is always allowed. Unset: callers may not.
    service_learned_dirs: str | None = None
    service_ingest_sql: bool = False  # allow POST /v1/ingest to connect to a database URL the caller names

    def pool_plan(self) -> PoolPlan:
        """One rule for the pool, the admission limit and the timeouts: every admitted walk can hold its
        connections at once with spares for the other requests, so walks never wait on the pool; a wait
        (other work holding connections) is bounded by a quarter of the request timeout (at most 60 s) and
        answered 503 + Retry-After. ``GW_NEO4J_POOL_SIZE`` / ``GW_NEO4J_POOL_ACQUIRE_TIMEOUT_S`` override it."""
        walks = self.service_max_walks
        return PoolPlan(
            max_walks=walks,
            max_connections=self.pool_size or walks * CONNECTIONS_PER_WALK + SPARE_CONNECTIONS,
            acquire_timeout_s=self.pool_acquire_timeout_s or min(MAX_ACQUIRE_S, self.service_timeout_s * ACQUIRE_SHARE),
            request_timeout_s=self.service_timeout_s,
        )

    def resolved_service_url(self) -> str:
        """Where `gw-neo4j serve` answers (``0.0.0.0`` / ``::`` binds are reached on loopback)."""
        host = self.service_host
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.service_port}"

    def resolved_browser_url(self) -> str:
        if self.browser_url:
            return self.browser_url
        host = "127.0.0.1"
        if "://" in self.uri:
            host = self.uri.split("://", 1)[1].split(":", 1)[0].split("/", 1)[0] or host
        return f"http://{host}:{self.http_port}/browser/"


_SECRET_FIELDS = frozenset({"password", "typesafe_api_key", "openrouter_api_key", "llm_api_key"})


def settings_error(exc: ValidationError) -> ConfigError:
    """One line naming each bad variable (``GW_NEO4J_BATCH_SIZE=0: Input should be ...``); secrets not echoed."""
    parts = []
    for error in exc.errors():
        loc = str(error["loc"][0]) if error.get("loc") else "?"
        field = loc.lower().removeprefix("gw_neo4j_")
        env = loc if loc.upper().startswith(("GW_NEO4J_", "TYPESAFE_", "OPENROUTER_")) else f"GW_NEO4J_{loc.upper()}"
        shown = "" if field in _SECRET_FIELDS or "input" not in error else f"={error['input']!r}"
        parts.append(f"{env}{shown}: {error['msg']}")
    return ConfigError("invalid setting " + "; ".join(parts) + " (fix or unset the environment variable)")


def load_settings(**overrides: Any) -> Settings:
    """Settings from the environment plus ``overrides``; a bad value is a one-line :class:`ConfigError`."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise settings_error(exc) from None
