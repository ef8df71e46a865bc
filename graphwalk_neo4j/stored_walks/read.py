"""Read access to stored walks: :func:`list_walks` and :func:`get_walk`, one read round trip each, returning the
typed models of :mod:`graphwalk_neo4j.stored_walks.models`.

Also owns :func:`replay_snippet` (the ready-to-paste Browser commands that draw one walk with the
``recipes/draw_walk`` recipe) and :func:`browser_line` (the one short Browser command the CLI and the demo print:
the service's guide for that walk). A missing walk raises :class:`~graphwalk_neo4j.errors.WalkNotFoundError`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit, urlunsplit

from graphwalk_neo4j.errors import WalkNotFoundError
from graphwalk_neo4j.limits import MAX_LISTED_WALKS as MAX_LISTED_WALKS
from graphwalk_neo4j.store import GraphStore, template
from graphwalk_neo4j.store.queries import GET_WALK, LIST_WALKS, RECENT_WALKS
from graphwalk_neo4j.stored_walks.models import StoredAnswer, StoredCall, StoredStep, StoredWalk

if TYPE_CHECKING:
    from graphwalk_neo4j.settings import Settings

DRAW_RECIPE = "recipes/draw_walk"
OPTIONS_RECIPE = "recipes/walk_options"
LOOPBACK = {"127.0.0.1", "::1", "localhost"}
GUIDE_KEY_TTL_S = 12 * 3600  # how long a signed guide link opens the guide of a token-protected service


async def list_walks(store: GraphStore, graph: str, limit: int = 20, status: str | None = None) -> list[StoredWalk]:
    """The walks of ``graph``, newest first (``status`` keeps only walks with that status). Steps, calls and
    answers are left empty; ``answer_names``, ``best_path`` and the totals are filled."""
    if limit < 1:
        return []
    rows = await store.read(LIST_WALKS, graph=graph, status=status, limit=limit)
    return [StoredWalk.from_props(r["walk"]) for r in rows]


async def recent_walks(store: GraphStore, limit: int = 10) -> list[StoredWalk]:
    """The newest walks of every graph (steps, calls and answers left empty, as in :func:`list_walks`)."""
    if limit < 1:
        return []
    rows = await store.read(RECENT_WALKS, limit=limit)
    return [StoredWalk.from_props(r["walk"]) for r in rows]


async def get_walk(store: GraphStore, graph: str | None, walk_id: str) -> StoredWalk:
    """The walk ``walk_id`` with its steps (by depth, beam, position), calls and answers. Walk ids are unique, so
    ``graph=None`` finds it in any graph; a graph name only finds it there.

    Raises :class:`WalkNotFoundError` when there is none.
    """
    rows = await store.read(GET_WALK, graph=graph, walk_id=walk_id)
    if not rows:
        where = f" in graph {graph!r}" if graph is not None else ""
        raise WalkNotFoundError(
            f"no stored walk {walk_id!r}{where}; list them with `gw-neo4j walks list --graph {graph or 'GRAPH'}`"
        )
    row = rows[0]
    walk = StoredWalk.from_props(
        row["walk"],
        steps=[StoredStep.model_validate(s) for s in row["steps"]],
        calls=[StoredCall.model_validate(c) for c in row["calls"]],
        answers=[StoredAnswer.model_validate(a) for a in row["answers"]],
    )
    # An adopted graph's nodes and property values have no :Entity to link; their answers live in the lists.
    walk.answers = sorted(walk.answers + walk.unlinked_answers(), key=lambda a: a.rank)
    return walk


def replay_snippet(walk_id: str) -> str:
    """Browser commands that set ``walkId`` and run the draw recipe (paste both into the Browser editor)."""
    return f":param walkId => {json.dumps(walk_id)}\n\n{template(DRAW_RECIPE).body}\n"


def browser_base(service_url: str) -> str:
    """``service_url`` as Neo4j Browser must name it: Browser fetches guides and styles only from hosts on its
    remote-content allowlist, which by default admits ``localhost`` but not ``127.0.0.1``."""
    parts = urlsplit(service_url.rstrip("/"))
    host = parts.hostname or "localhost"
    if host in LOOPBACK:
        netloc = "localhost" + (f":{parts.port}" if parts.port else "")
        parts = parts._replace(netloc=netloc)
    return urlunsplit(parts)


def guide_key(token: str, now: float | None = None) -> str:
    """A signed, short-lived key that opens the Browser guide of a service started with ``token``
    (``GW_NEO4J_SERVICE_TOKEN``): ``EXPIRY.SIGNATURE``, the signature an HMAC-SHA256 of the expiry (unix seconds,
    :data:`GUIDE_KEY_TTL_S` from ``now``) under the token. It proves the token's holder made the link without
    carrying the token, and opens only the guide routes (``GET``/``OPTIONS`` of ``/guide``, ``/guide/walk/ID``,
    ``/style.grass``), never the API."""
    expiry = int((time.time() if now is None else now) + GUIDE_KEY_TTL_S)
    return f"{expiry}.{_guide_signature(token, expiry)}"


def _guide_signature(token: str, expiry: int) -> str:
    return hmac.new(token.encode("utf-8"), f"graphwalk-guide|{expiry}".encode(), hashlib.sha256).hexdigest()


def guide_key_valid(token: str, key: str, now: float | None = None) -> bool:
    """Whether ``key`` was made by :func:`guide_key` under ``token`` and has not expired (signatures are
    compared in constant time)."""
    expiry_text, _, signature = key.partition(".")
    if not expiry_text.isdigit() or len(expiry_text) > 12:
        return False
    expiry = int(expiry_text)
    fresh = (time.time() if now is None else now) <= expiry
    return hmac.compare_digest(signature.encode("ascii", "replace"), _guide_signature(token, expiry).encode()) and fresh


def guide_url(service_url: str, walk_id: str | None = None, *, key: str | None = None) -> str:
    """The service's Browser guide: the overview, or the guide that draws ``walk_id``; ``key`` (a
    :func:`guide_key`) is added as ``?key=`` for a service that wants a token."""
    base = browser_base(service_url) + "/guide"
    url = base if walk_id is None else f"{base}/walk/{quote(walk_id, safe='')}"
    return url if key is None else f"{url}?key={quote(key, safe='')}"


def browser_line(walk_id: str | None, service_url: str, token: str | None = None) -> str:
    """The one Browser command that opens the service's guide (``gw-neo4j serve`` running): the one that draws
    ``walk_id``, or the overview for ``None``. With the service's ``token`` the link carries a fresh guide key."""
    return f":guide {guide_url(service_url, walk_id, key=guide_key(token) if token else None)}"


def settings_guide_line(settings: Settings, walk_id: str | None = None) -> str:
    """:func:`browser_line` for the service these settings describe (its URL, and its token when one is set)."""
    token = settings.service_token.get_secret_value() if settings.service_token is not None else None
    return browser_line(walk_id, settings.resolved_service_url(), token or None)
