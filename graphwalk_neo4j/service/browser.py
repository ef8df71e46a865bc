"""Neo4j Browser support served by ``gw-neo4j serve``: the Browser guide (``GET /guide``, ``GET /guide/walk/{id}``)
and the GraSS stylesheet (``GET /style.grass``), as the FastAPI ``router`` the service app includes.

In the Browser: ``:guide http://localhost:8765/guide`` opens the guide in the sidebar (Browser 5 reads remote
guides as HTML, one ``<slide>`` per page; a ``<pre class="code runnable">`` block runs when its play icon is
clicked), and
``:style http://localhost:8765/style.grass`` loads the style. Browser fetches both cross-origin and only from hosts
on its remote-content allowlist (``localhost`` by default, not ``127.0.0.1``), so every link here says
``localhost`` and every answer carries the CORS headers Browser needs (its guide fetch sends ``pragma``,
``cache-control`` and tracing headers, so it is preflighted).

Guides are built per request from the stored walks (one read: :func:`graphwalk_neo4j.stored_walks.recent_walks` or
:func:`~graphwalk_neo4j.stored_walks.get_walk`) and the recipes in ``cypher/recipes/``; every stored text (questions,
answers, graph names) is HTML-escaped, and values reach Cypher only through ``:param`` lines.
"""

from __future__ import annotations

import json
import re
from html import escape
from importlib import resources
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import HTMLResponse, PlainTextResponse

from graphwalk_neo4j.service.models import GRAPH_PATTERN
from graphwalk_neo4j.store import GraphStore, template
from graphwalk_neo4j.stored_walks import StoredWalk, WalkNotFoundError, get_walk, guide_url, recent_walks
from graphwalk_neo4j.stored_walks.read import browser_base, guide_key_valid

router = APIRouter(tags=["browser"])

RECENT = 10  # walks listed in the guide
GRAPH_RECIPES = ["dead_end_walks", "confidence_per_relation", "unsure_steps", "pruned_steps", "costliest_walks"]
EXAMPLE_QUESTION = "which movies did Christopher Nolan direct"
EXAMPLE_GRAPH = "demo"
STYLE_FILE = "walk.grass"
CORS = {"Access-Control-Allow-Origin": "*"}
PREFLIGHT_HEADERS = "pragma, cache-control, sentry-trace, baggage"  # what Browser 5.24 sends with a guide fetch
_SAFE_PARAM = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$")  # walk ids a guide may quote into a statement


def style_sheet() -> str:
    """The GraSS stylesheet (``graphwalk_neo4j/data/walk.grass``)."""
    return (resources.files("graphwalk_neo4j") / "data" / STYLE_FILE).read_text(encoding="utf-8")


def param_line(**params: Any) -> str:
    """A Browser ``:params`` / ``:param`` line setting ``params`` (values JSON-encoded, which Cypher reads as
    literals: strings, numbers, booleans, null)."""
    for name in params:
        if not _SAFE_PARAM.match(name):
            raise ValueError(f"not a parameter name: {name!r}")
    if len(params) == 1:
        [(name, value)] = params.items()
        return f":param {name} => {json.dumps(value, ensure_ascii=False)}"
    body = ", ".join(f"{name}: {json.dumps(value, ensure_ascii=False)}" for name, value in params.items())
    return f":params {{{body}}}"


def runnable(statement: str, *, compact: bool = False) -> str:
    """A guide code block: Browser runs it when its play icon is clicked, and puts it in the editor when the text
    is clicked. ``compact`` shows only its first lines (the list of recent walks)."""
    style = ' style="max-height: 3.2em; overflow: hidden"' if compact else ""
    return f'<pre class="code runnable"{style}>{escape(statement)}</pre>'


def _slide(title: str, *parts: str) -> str:
    return (
        f'<slide class="row-fluid">\n<div class="col-sm-12">\n<h3>{escape(title)}</h3>\n'
        + "\n".join(parts)
        + ("\n</div>\n</slide>")
    )


def _page(title: str, slides: list[str]) -> str:
    return (
        f'<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title>{escape(title)}</title></head>\n<body>\n'
        f'<article class="guide">\n' + "\n".join(slides) + "\n</article>\n</body>\n</html>\n"
    )


def _p(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def _walk_line(walk: StoredWalk) -> str:
    answers = ", ".join(walk.answer_names[:5]) + (
        f" (+{len(walk.answer_names) - 5})" if len(walk.answer_names) > 5 else ""
    )
    started = walk.started_at.strftime("%Y-%m-%d %H:%M:%S") if walk.started_at else ""
    return (
        f"<p><b>{escape(walk.question)}</b><br><small>{escape(walk.graph)} · {escape(walk.status)} · "
        f"{escape(started)} · <code>{escape(walk.id)}</code></small><br>→ {escape(answers or '-')}</p>"
    )


def bound_recipe(name: str, walk_id: str | None) -> str | None:
    """Recipe ``name`` with its ``$walkId`` bound, as one statement a guide block runs with one click (``None``:
    the latest walk), or ``None`` when ``walk_id`` is not a plain id (then the guide sets ``:param walkId``).

    Browser runs a block of several statements (``:param ...;`` then the query) as a list whose results need a
    second click each, so one-click blocks must be one statement. Only ids of :data:`SAFE_ID` characters (the
    service's and the CLI's uuid hex ids, test ids) are written into the statement, quoted; nothing else is.
    """
    if walk_id is None:
        literal = "null"
    elif SAFE_ID.match(walk_id):
        literal = f"'{walk_id}'"
    else:
        return None
    return template(f"recipes/{name}").body.replace("$walkId", literal)


def walk_blocks(name: str, walk_id: str | None, *, compact: bool = False) -> list[str]:
    """The block(s) that run recipe ``name`` on one walk: one click, or ``:param walkId`` then the recipe."""
    bound = bound_recipe(name, walk_id)
    if bound is not None:
        return [runnable(bound, compact=compact)]
    return [runnable(param_line(walkId=walk_id)), runnable(template(f"recipes/{name}").body, compact=compact)]


def run_blocks(service_url: str, graph: str) -> list[str]:
    """Set the walk's parameters (edit the question there), then run the walk-from-Cypher statement."""
    return [
        runnable(param_line(question=EXAMPLE_QUESTION, graph=graph, preset=None, service=service_url)),
        runnable(template("recipes/run_walk").body),
    ]


def style_line(service_url: str, key: str | None = None) -> str:
    """The Browser command that loads the style; ``key`` (the guide key the page was opened with) goes along."""
    url = f"{browser_base(service_url)}/style.grass"
    return f":style {url}" if key is None else f":style {url}?key={quote(key, safe='')}"


def guide_page(walks: list[StoredWalk], service_url: str, graph: str | None = None, key: str | None = None) -> str:
    """The overview guide: style, run a walk, replay the latest, options, recent walks, the graph recipes.
    ``graph`` is the graph the run and recipe slides use (default: the newest walk's, else ``demo``); ``key`` is
    the guide key the page was opened with (a token-protected service), carried into the style link."""
    style = style_line(service_url, key)
    graph = graph or (walks[0].graph if walks else EXAMPLE_GRAPH)
    slides = [
        _slide(
            "graphwalk: walks in Neo4j Browser",
            _p(
                "Each walk answers a question by moving through the graph hop by hop; the service stores every walk "
                "as :Walk / :Step nodes. Click a block to run it (or to put it in the editor)."
            ),
            _p("1. Load the style: walks violet, steps amber, answers red, entities by type."),
            runnable(style),
            _p(
                "2. Optional: stop Browser from adding every relationship between the shown entities, so only the "
                'walk is drawn (Browser setting "Connect result nodes"; `:config autoComplete: true` undoes it).'
            ),
            runnable(":config autoComplete: false"),
        ),
        _slide(
            "Run a walk",
            _p(
                "Set the parameters (click the text to edit the question in the editor first), then run the "
                "statement: it asks the service to walk (GET /v1/walk, with apoc.load.json), waits until the "
                "walk is stored, and returns the answers and draws the walk. The Cypher side only reads."
            ),
            *run_blocks(service_url, graph),
        ),
        _slide(
            "Replay the latest walk",
            _p(
                "The question, its start, one arrow per hop captioned with the relation and its probability "
                "(← : walked against the relationship's direction), the entities reached and the answers."
            ),
            *walk_blocks("draw_walk", None),
            _p("What it did not take (unchosen options, pruned relations), on demand:"),
            *walk_blocks("walk_options", None),
        ),
        _slide(
            "Recent walks",
            _p("Click a walk's play icon to draw it."),
            *(
                [part for w in walks for part in (_walk_line(w), *walk_blocks("draw_walk", w.id, compact=True))]
                or [_p("No walks stored yet: run one on the previous slides, or `gw-neo4j walk QUESTION`.")]
            ),
        ),
        _slide(
            "Recipes over one graph",
            _p(f"Set the graph once (here {graph!r}), then run any recipe (docs/cypher-recipes.md)."),
            runnable(param_line(graph=graph)),
            *[
                part
                for name in GRAPH_RECIPES
                for part in (
                    f"<p><b>{escape(name)}</b>: {escape(template(f'recipes/{name}').summary)}</p>",
                    runnable(template(f"recipes/{name}").body),
                )
            ],
        ),
    ]
    return _page("graphwalk: walks in Neo4j Browser", slides)


def walk_page(walk: StoredWalk, service_url: str, key: str | None = None) -> str:
    """The guide for one walk: draw it, then its options."""
    slides = [
        _slide(
            "Draw this walk",
            _walk_line(walk),
            *walk_blocks("draw_walk", walk.id),
            _p(f"Style: {style_line(service_url, key)} · all walks: :guide {guide_url(service_url, key=key)}"),
        ),
        _slide(
            "What it did not take",
            _p("Unchosen options and pruned relations, step by step."),
            *walk_blocks("walk_options", walk.id),
        ),
    ]
    return _page(f"walk {walk.id}", slides)


def _store(request: Request) -> GraphStore:
    store: GraphStore = request.app.state.ctx.store
    return store


def _guide_key(request: Request) -> str | None:
    """The valid guide key this page was opened with, to carry into its links (``None`` without a token)."""
    token = request.app.state.ctx.settings.service_token
    key = request.query_params.get("key")
    if token is None or key is None or not guide_key_valid(token.get_secret_value(), key):
        return None
    return key


def _service_url(request: Request) -> str:
    """This service's base URL as Neo4j (APOC) should call it: the address the request came to, loopback by IP so
    the JVM does not try ``localhost``'s IPv6 address first."""
    url = str(request.base_url).rstrip("/")
    return url.replace("://localhost", "://127.0.0.1", 1)


@router.options("/guide")
@router.options("/guide/walk/{walk_id:path}")
@router.options("/style.grass")
async def preflight(request: Request) -> Response:
    """CORS preflight: Browser's guide fetch sends non-simple headers (``pragma``, ``cache-control`` and its
    tracing headers), so it asks first; the answer allows GET with the headers it asked for."""
    asked = request.headers.get("access-control-request-headers") or PREFLIGHT_HEADERS
    return Response(
        status_code=204,
        headers={
            **CORS,
            "Access-Control-Allow-Methods": "GET, OPTIONS",
            "Access-Control-Allow-Headers": asked,
            "Access-Control-Max-Age": "600",
        },
    )


@router.get("/guide", response_class=HTMLResponse, summary="Neo4j Browser guide (:guide http://localhost:8765/guide)")
async def guide(
    request: Request, graph: str | None = Query(None, pattern=GRAPH_PATTERN, max_length=100)
) -> HTMLResponse:
    """``?graph=G``: the graph the run-a-walk and recipe slides use (default: the newest walk's graph)."""
    walks = await recent_walks(_store(request), RECENT)
    return HTMLResponse(guide_page(walks, _service_url(request), graph, _guide_key(request)), headers=CORS)


@router.get("/guide/walk/{walk_id:path}", response_class=HTMLResponse, summary="Browser guide drawing one walk")
async def walk_guide(walk_id: str, request: Request) -> HTMLResponse:
    try:
        walk = await get_walk(_store(request), None, walk_id)
    except WalkNotFoundError as exc:
        return HTMLResponse(
            _page("walk not found", [_slide("Walk not found", _p(str(exc)))]), status_code=404, headers=CORS
        )
    return HTMLResponse(walk_page(walk, _service_url(request), _guide_key(request)), headers=CORS)


@router.get("/style.grass", response_class=PlainTextResponse, summary="GraSS style for walks (:style URL)")
async def style() -> PlainTextResponse:
    return PlainTextResponse(style_sheet(), headers=CORS)
