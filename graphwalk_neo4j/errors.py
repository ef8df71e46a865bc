"""The project's one error tree. Lower-layer errors (driver, SDK, HTTP) are translated at the boundary with the
cause kept (``raise X(...) from exc``).

    GraphwalkError
    ├── ConfigError                  bad settings or options (exit code 2 in the CLI)
    │   ├── OptionValueError         a walk option out of its range or unknown (HTTP 422, the limit named)
    │   └── MissingExtraError        the command needs an optional extra that is not installed
    ├── InvalidIdentifierError       a label / relationship type / property key failed validation
    ├── InputError                   bad user input (files, lines, encodings); carries file and line
    ├── StoreError                   anything from Neo4j
    │   ├── StoreUnavailableError    not reachable (fix: `make neo4j-up` or GW_NEO4J_URI)
    │   ├── StoreBusyError           no pooled connection came free in time (overload: retry; 503 in the service)
    │   ├── StoreAuthError           wrong user or password
    │   ├── CapabilityError          server too old, APOC missing, vector index unsupported
    │   ├── QueryError               a Cypher statement failed
    │   └── BookmarkError            a bookmark this database did not issue (also an InputError: the caller's)
    ├── TemplateError                a Cypher template is missing or malformed
    ├── EmbeddingError               the embedder could not load or encode
    ├── DecisionError                a decision backend failed (auth, rate limit, bad response, timeout)
    │   ├── DecisionAuthError
    │   ├── DecisionRateLimitError
    │   └── DecisionResponseError
    ├── ExtractionError              the LLM could not produce a valid extraction (after one retry)
    ├── LLMError                     a chat-model call failed (graphwalk_neo4j.llm); kind: auth, rate_limit,
    │                                timeout, connection, other; the text never holds the API key
    ├── NotFoundError                a stored walk / document that does not exist
    │   └── WalkNotFoundError        no stored walk with this id in this graph (exit code 1)
    ├── LinkingError                 no start entity could be found for a walk
    ├── WalkFailedError              a walk ended with status error (a framework retriever raises it)
    ├── Interrupted                  Ctrl-C / SIGTERM, with what was committed (exit code 130)
    ├── ExpanderContractError        an expander broke the engine's contract (a bug, not data)
    ├── BudgetExceededError          a walk budget ran out (normally caught by the engine)
    ├── LocalServerError             the local Neo4j could not be prepared, started or reached
    └── ServiceError                 the service refused or cut a request (HTTP status in docs/service.md)
        ├── SaturatedError           every walk slot taken (429 + Retry-After)
        ├── DrainingError            shutting down, no new work (503 + Retry-After)
        ├── RequestTimeoutError      past the per-request timeout (504)
        └── ClientGoneError          the caller disconnected mid-walk; the walk was cancelled (499, never sent)

This module uses the standard library only: the launcher (``localserver``) imports it before any dependency is
installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


class GraphwalkError(Exception):
    """Root of every error this package raises on purpose."""

    exit_code = 1


class ConfigError(GraphwalkError):
    exit_code = 2


class OptionValueError(ConfigError):
    """A caller's walk option is unknown or outside its documented range; the message names the limit."""


class MissingExtraError(ConfigError):
    """What was asked for needs an optional extra (``pip install 'graphwalk-neo4j[NAME]'``); see extras.py."""


class InvalidIdentifierError(GraphwalkError, ValueError):
    exit_code = 2


class InputError(GraphwalkError):
    """Bad input data. ``path`` and ``line`` point at the problem when known."""

    exit_code = 2

    def __init__(self, message: str, *, path: str | Path | None = None, line: int | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        where = ""
        if self.path is not None:
            where = f"{self.path}:{line}: " if line is not None else f"{self.path}: "
        super().__init__(where + message)
        self.reason = message


class StoreError(GraphwalkError):
    pass


class StoreUnavailableError(StoreError):
    pass


class StoreBusyError(StoreError):
    pass


class StoreAuthError(StoreError):
    pass


class CapabilityError(StoreError):
    pass


class QueryError(StoreError):
    pass


class BookmarkError(StoreError, InputError):
    """A caller's bookmark (``X-Graphwalk-Bookmark``) that the database refuses."""


class TemplateError(GraphwalkError):
    pass


class EmbeddingError(GraphwalkError):
    pass


class DecisionError(GraphwalkError):
    pass


class DecisionAuthError(DecisionError):
    pass


class DecisionRateLimitError(DecisionError):
    pass


class DecisionResponseError(DecisionError):
    pass


class ExtractionError(GraphwalkError):
    """The LLM could not produce a valid extraction (after one retry), or could not be reached."""


class LLMError(GraphwalkError):
    """A chat-model call failed. Callers translate it into their own error by ``kind``."""

    def __init__(self, message: str, *, kind: str, where: str, detail: str, cause: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.where = where
        self.detail = detail
        self.cause = cause


class NotFoundError(GraphwalkError):
    """A stored walk or document that does not exist."""


class WalkNotFoundError(NotFoundError):
    """No stored walk has this id in this graph (exit code 1 in the CLI)."""


class WalkFailedError(GraphwalkError):
    """A walk ended with status ``error`` (its decider or the store failed); the message names the walk id."""

    exit_code = 1


class LinkingError(GraphwalkError):
    pass


class Interrupted(GraphwalkError):
    """The run was interrupted (Ctrl-C, SIGTERM); the message says what was committed before it stopped."""

    exit_code = 130


class ExpanderContractError(GraphwalkError):
    """An expander returned something the engine cannot use (missing beam, too many options). A bug, not
    data."""


class LocalServerError(GraphwalkError):
    """The local server could not be prepared, started or reached."""


class BudgetExceededError(GraphwalkError):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ServiceError(GraphwalkError):
    pass


class SaturatedError(ServiceError):
    """Every walk slot is taken (``GW_NEO4J_SERVICE_MAX_WALKS``)."""


class DrainingError(ServiceError):
    """The service is shutting down and takes no new work."""


class RequestTimeoutError(ServiceError):
    """A request ran past ``GW_NEO4J_SERVICE_TIMEOUT_S``."""


class WalkProcessError(ServiceError):
    """The service's walk process ended or could not start; the walk it held did not finish (a 503: the next walk
    starts a new one)."""


class ClientGoneError(ServiceError):
    """The HTTP caller disconnected before its walk ended; the walk was cancelled (stored as ``interrupted``)."""
