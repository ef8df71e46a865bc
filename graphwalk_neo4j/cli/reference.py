"""The user surface written from the code: ``docs/surface.md`` (the walk's arguments and options, and the result
sizes, as the CLI, HTTP and MCP spell them, with defaults and limits) and ``docs/cli.md`` (every command's
``--help`` as click renders it). ``python -m graphwalk_neo4j.cli.reference`` writes both;
``tests/unit/test_surface.py`` fails when the three doors disagree or either file differs from the code.

Each door is read from itself: the click commands, the HTTP request models and OpenAPI document, the MCP tools'
input schemas (this module is for the docs and tests; no command imports it, so FastAPI and MCP load here
only). The one source they all answer to is :func:`graphwalk_neo4j.admission.walk_call` (its defaults) and the
limits in :mod:`graphwalk_neo4j.walk.config`.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

import click

from graphwalk_neo4j.admission import walk_call
from graphwalk_neo4j.cli import COMMANDS, main
from graphwalk_neo4j.graph.search import MAX_SEARCH_HITS
from graphwalk_neo4j.identifiers import MAX_IDENTIFIER_CHARS
from graphwalk_neo4j.ingest.sources import MAX_BYTES
from graphwalk_neo4j.service.app import create_app
from graphwalk_neo4j.service.context import ServiceContext
from graphwalk_neo4j.service.jobs import IngestRequest
from graphwalk_neo4j.service.mcp import build_server
from graphwalk_neo4j.service.models import SearchRequest, WalkRequest
from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.stored_walks.read import MAX_LISTED_WALKS
from graphwalk_neo4j.walk.config import LIMIT_REASONS, MAX_QUESTION_CHARS, MAX_START_ENTITIES, Budget, WalkConfig
from graphwalk_neo4j.wiring import CHOICES, CLI_ONLY, DEFAULTS, FORMATS, OPTIONS, RANGES, SERVICE_DEFAULTS, ingest_call

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from pydantic.fields import FieldInfo

DOCS = Path(__file__).resolve().parents[2] / "docs"
WIDTH = 100  # the help text's width in docs/cli.md
WALK_LIMITS: dict[str, int | None] = {  # the limit each walk argument has (walk_call checks them for every door)
    "question": MAX_QUESTION_CHARS,
    "graph": MAX_IDENTIFIER_CHARS,
    "start": MAX_START_ENTITIES,
    "preset": None,
    "model": None,
    "choose_start": None,
}
LIMIT_UNITS = {"question": "characters", "graph": "characters (letters, digits, _)", "start": "entities"}
INGEST_DOORS = ("CLI", "HTTP", "MCP")
INGEST_ARGUMENTS = ("inputs", "graph", "fmt")  # ingest_call's own parameters that a caller gives
DEFAULT_WORDS = {  # a default wiring leaves to the pipeline (None), as the docs say it
    "source": "`files` (a database: `sql:NAME`, from its URL)",
    "llm_model": "none (the CLI reads `GW_NEO4J_LLM_MODEL`)",
    "decision_model": "none (`GW_NEO4J_MODEL`)",
    "max_bytes": f"none ({MAX_BYTES:,} bytes)",
}
DOOR_ONLY = {"CLI": {"as_json"}, "HTTP": set(), "MCP": set()}  # how a door answers, not what it ingests


@dataclass(frozen=True)
class Spelling:
    """One argument as one door spells it: its name there, its default, its limit (``None``: none), and where
    the door says so its minimum and its choices."""

    name: str
    default: Any
    limit: int | None
    minimum: int | None = None
    choices: tuple[str, ...] | None = None


# ---- the source ---------------------------------------------------------------------------------------------
def walk_arguments() -> dict[str, Spelling]:
    """The walk's own arguments with walk_call's defaults and the limits it checks."""
    params = inspect.signature(walk_call).parameters
    return {n: Spelling(n, _none(params[n].default), WALK_LIMITS[n]) for n in WALK_LIMITS}


def walk_options() -> Iterator[tuple[str, FieldInfo]]:
    """Every walk option (HTTP's and MCP's ``config`` keys): WalkConfig's fields, then ``budget.*``."""
    for name, field in WalkConfig.model_fields.items():
        if name != "budget":
            yield name, field
    for name, field in Budget.model_fields.items():
        yield f"budget.{name}", field


def ingest_arguments() -> dict[str, Spelling]:
    """Every ingest argument and option: ingest_call's own (the inputs, the graph, the format) with its defaults,
    then :data:`graphwalk_neo4j.wiring.OPTIONS` with wiring's defaults, ranges and choices."""
    params = inspect.signature(ingest_call).parameters
    out = {
        "inputs": Spelling("inputs", None, None),
        "graph": Spelling("graph", params["graph"].default, MAX_IDENTIFIER_CHARS),
        "fmt": Spelling("fmt", params["fmt"].default, None, choices=FORMATS),
    }
    for name in OPTIONS:
        low, high = RANGES.get(name, (None, None))
        out[name] = Spelling(name, DEFAULTS[name], high, low, CHOICES.get(name))
    return out


def door_default(door: str, name: str) -> Any:
    """The default an ingest option has in ``door``: wiring's, or the service's where it records its own."""
    if door != "CLI" and name in SERVICE_DEFAULTS:
        return SERVICE_DEFAULTS[name][0]
    return ingest_arguments()[name].default


# ---- the doors ----------------------------------------------------------------------------------------------
def command(path: str) -> click.Command:
    """A command by its words (``"walks list"``)."""
    first, *rest = path.split()
    found = COMMANDS[first].load()
    for word in rest:
        assert isinstance(found, click.Group), path
        found = found.commands[word]
    return found


def cli_walk() -> dict[str, Spelling]:
    """``gw-neo4j walk``'s arguments (the question and start limits are walk_call's, which the command runs)."""
    return {p.name: _click_spelling(p, WALK_LIMITS[p.name]) for p in command("walk").params if p.name in WALK_LIMITS}


def cli_walk_flags() -> dict[str, click.Option]:
    """``gw-neo4j walk``'s flags that set a walk option, by option name."""
    names = {n.removeprefix("budget.") for n, _ in walk_options()}
    params = command("walk").params
    return {p.name: p for p in params if isinstance(p, click.Option) and p.name in names}


def http_walk() -> dict[str, Spelling]:
    """``POST /v1/walk``'s body fields."""
    return _schema_spellings(WalkRequest.model_json_schema())


def mcp_tools() -> dict[str, dict[str, Any]]:
    """The MCP tools' input schemas, by tool name."""
    server = build_server(ServiceContext(Settings(embedder="fake")))
    return {t.name: t.input_schema for t in asyncio.run(server.list_tools())}


def mcp_walk() -> dict[str, Spelling]:
    return _schema_spellings(mcp_tools()["walk"])


def ingest_doors() -> dict[str, dict[str, Spelling]]:
    """``gw-neo4j ingest``'s arguments, ``POST /v1/ingest``'s body fields and the MCP ``ingest`` tool's
    parameters, each keyed by the ingest argument it sets (the paths, or ``files`` and ``sql``: ``inputs``;
    ``format``: ``fmt``), plus what only that door has (:data:`DOOR_ONLY`)."""
    cli = {"inputs" if p.name == "paths" else str(p.name): p for p in command("ingest").params}
    doors = {
        "CLI": {name: _click_spelling(p, MAX_IDENTIFIER_CHARS if name == "graph" else None) for name, p in cli.items()},
        "HTTP": _schema_spellings(IngestRequest.model_json_schema()),
        "MCP": _schema_spellings(mcp_tools()["ingest"]),
    }
    for door in ("HTTP", "MCP"):
        spelled = doors[door]
        files, sql = spelled.pop("files"), spelled.pop("sql")
        spelled["inputs"] = Spelling(f"{files.name}` or `{sql.name}", None, None)
        spelled["fmt"] = spelled.pop("format")
    return doors


def result_sizes() -> dict[str, dict[str, Spelling]]:
    """How many hits a search returns and walks a listing returns, in each door: ``{what: {door: spelling}}``."""

    def cli(path: str, name: str) -> Spelling:
        [param] = [p for p in command(path).params if p.name == name]
        assert isinstance(param, click.Option), path
        assert isinstance(param.type, click.IntRange), path
        found = _click_spelling(param)
        return Spelling(found.name, found.default, found.limit)

    listing = create_app(Settings(embedder="fake")).openapi()["paths"]["/v1/walks"]["get"]["parameters"]
    [query] = [p["schema"] for p in listing if p["name"] == "limit"]
    tools = mcp_tools()
    return {
        "search hits": {
            "CLI `search`": cli("search", "limit"),
            "HTTP `POST /v1/search`": _schema_spellings(SearchRequest.model_json_schema())["limit"],
            "MCP `search`": _schema_spellings(tools["search"])["limit"],
            "source": Spelling("limit", 10, MAX_SEARCH_HITS),
        },
        "stored walks listed": {
            "CLI `walks list`": cli("walks list", "limit"),
            "HTTP `GET /v1/walks`": Spelling("limit", query.get("default"), query.get("maximum")),
            "MCP `list_walks`": _schema_spellings(tools["list_walks"])["limit"],
            "source": Spelling("limit", 20, MAX_LISTED_WALKS),
        },
    }


def _click_spelling(param: click.Parameter, limit: int | None = None) -> Spelling:
    """A click argument or option: its flag (or metavar), its default (a flag not given: ``False``), its
    bounds (an IntRange's, else ``limit``: one the command checks itself) and its choices."""
    flag = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
    default = _none(param.default)
    if isinstance(param, click.Option) and param.is_flag and default is None:
        default = False  # a flag not given
    low = None
    if isinstance(param.type, click.IntRange):
        low = param.type.min
        limit = param.type.max if param.type.max is not None else limit
    choices = tuple(str(c) for c in param.type.choices) if isinstance(param.type, click.Choice) else None
    return Spelling(flag, default, limit, low, choices)


def _schema_spellings(schema: Mapping[str, Any]) -> dict[str, Spelling]:
    out = {}
    for name, prop in schema["properties"].items():
        out[name] = Spelling(name, prop.get("default"), _limit(prop), _minimum(prop), _choices(prop))
    return out


def _minimum(prop: Mapping[str, Any]) -> int | None:
    if isinstance(found := prop.get("minimum"), int):
        return found
    return next((m for choice in prop.get("anyOf", ()) if (m := _minimum(choice)) is not None), None)


def _choices(prop: Mapping[str, Any]) -> tuple[str, ...] | None:
    if isinstance(found := prop.get("enum"), list):
        return tuple(found)
    return next((c for choice in prop.get("anyOf", ()) if (c := _choices(choice)) is not None), None)


def _limit(prop: Mapping[str, Any]) -> int | None:
    """The largest of maxLength / maxItems / maximum anywhere in a property (a union holds several)."""
    found = [v for k in ("maxLength", "maxItems", "maximum") if isinstance(v := prop.get(k), int)]
    for choice in prop.get("anyOf", ()):
        if choice.get("type") == "array" and isinstance(choice.get("maxItems"), int):
            return int(choice["maxItems"])  # a list of start entities: the count is the limit
        if (inner := _limit(choice)) is not None:
            found.append(inner)
    return max(found) if found else None


def _none(default: Any) -> Any:
    """A default as the docs show it: none for a required argument, an empty repeatable option, or no default."""
    if default is None or default == () or default is inspect.Parameter.empty or type(default).__name__ == "Sentinel":
        return None
    return default


# ---- rendering ----------------------------------------------------------------------------------------------
def _cell(value: Any) -> str:
    if value is None:
        return "none"
    return f"`{value}`" if not isinstance(value, str) or value else '`""`'


def _range(field: FieldInfo) -> tuple[str, str]:
    low = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
    low = low if low is not None else next((f"> {m.gt}" for m in field.metadata if hasattr(m, "gt")), None)
    high = next((m.le for m in field.metadata if hasattr(m, "le")), None)
    high = high if high is not None else next((f"< {m.lt}" for m in field.metadata if hasattr(m, "lt")), None)
    choices = get_args(field.annotation)
    if choices and all(isinstance(c, str) for c in choices):
        return " \\| ".join(f"`{c}`" for c in choices), ""
    return (str(low) if low is not None else "", str(high) if high is not None else "")


def render_surface() -> str:
    source, cli, http, mcp = walk_arguments(), cli_walk(), http_walk(), mcp_walk()
    lines = [
        "# The user surface: one walk, three doors",
        "",
        "Written by `python -m graphwalk_neo4j.cli.reference` from the code (the CLI's click commands, the HTTP",
        "request models, the MCP tools' schemas); `tests/unit/test_surface.py` fails when a door's name, default or",
        "limit differs from the others or this file from the code. Every door runs the same admission,",
        "`graphwalk_neo4j.admission.walk_call`, so a request past a limit gets the same one-line refusal in each",
        "(CLI exit 2, HTTP 422 naming the limit, an MCP tool error).",
        "",
        "## The walk's arguments",
        "",
        "| argument | CLI `gw-neo4j walk` | HTTP `POST /v1/walk` | MCP `walk` | default | limit |",
        "|---|---|---|---|---|---|",
    ]
    for name, spelling in source.items():
        limit = f"{spelling.limit:,} {LIMIT_UNITS[name]}" if spelling.limit is not None else ""
        lines.append(
            f"| `{name}` | `{cli[name].name}` | `{http[name].name}` | `{mcp[name].name}` | "
            f"{_cell(spelling.default)} | {limit} |"
        )
    lines += [
        "| walk options | the flags below, and `--set KEY=VALUE` for any | `config: {KEY: VALUE}` | "
        "`config: {KEY: VALUE}` | the default walk | each option's maximum below |",
        "",
        "HTTP only: `stream` (Server-Sent Events per depth). CLI only: `--json` (the context bundle on stdout).",
        "",
        "## Walk options",
        "",
        "The keys of `config` (HTTP, MCP) and of the CLI's `--set`; the CLI has a flag for the common ones. A",
        "default is the default walk's (the `relation` preset: greedy relation hops; a learned decider, `general`",
        "included, searches it with `strategy=beam, beam_width=3` unless the caller sets `strategy`); a preset sets",
        "some of them.",
        "`budget.max_depth` may be given as `max_depth`. Past a maximum the walk is refused with the limit named.",
        "",
        "| option | CLI flag | default | minimum / choices | maximum | meaning | why this maximum |",
        "|---|---|---|---|---|---|---|",
    ]
    flags = cli_walk_flags()
    defaults = WalkConfig()
    for name, field in walk_options():
        short = name.removeprefix("budget.")
        flag = flags.get(short)
        default = getattr(defaults.budget, short) if name.startswith("budget.") else getattr(defaults, name)
        low, high = _range(field)
        flag_text = f"`{flag.opts[0]}`" if flag is not None else ""
        why = LIMIT_REASONS.get(short, "")
        lines.append(
            f"| `{name}` | {flag_text} | {_cell(default)} | {low} | {high} | {field.description or ''} | {why} |"
        )
    lines += [
        "",
        "The work budget (`budget.max_nodes_read`, `budget.max_memory_mb`) cuts a walk whose allowed options still",
        "add up to too much work: it stops with its partial answer, status `budget` and the reason stored, like the",
        'depth and call budgets (docs/service.md, "Work per walk").',
        "",
        "## Result sizes",
        "",
        "| what | door | name | default | maximum |",
        "|---|---|---|---|---|",
    ]
    for what, doors in result_sizes().items():
        for door, spelling in doors.items():
            if door != "source":
                lines.append(f"| {what} | {door} | `{spelling.name}` | {spelling.default} | {spelling.limit:,} |")
    return "\n".join([*lines, *_render_ingest()]) + "\n"


def _render_ingest() -> list[str]:
    doors = ingest_doors()
    lines = [
        "",
        "## Ingest: one ingest, three doors",
        "",
        "`gw-neo4j ingest`, `POST /v1/ingest` (a job) and the MCP `ingest` tool all run",
        "`graphwalk_neo4j.wiring.ingest_call` and `run_ingest`: the pipeline comes from the inputs (structured",
        "files, text documents, or a database URL), and an option the pipeline does not use is refused with one line",
        "naming it (CLI exit 2, HTTP 400, an MCP tool error) before anything is written. A default is what a caller",
        "who leaves the option out gets; a limit or choice past which a door refuses is the same in every door that",
        "offers the option. The service's doors take data inline (`files`: `{name, content}`) or a database URL",
        "(`sql`, when `GW_NEO4J_SERVICE_INGEST_SQL=true`); `type_map` is a JSON file on the CLI and the object",
        "itself in HTTP and MCP.",
        "",
        "| argument | applies to | CLI `gw-neo4j ingest` | HTTP `POST /v1/ingest` | MCP `ingest` | default | "
        "limit / choices |",
        "|---|---|---|---|---|---|---|",
    ]
    absent = []
    for name, spelling in ingest_arguments().items():
        pipelines = ", ".join(sorted(OPTIONS[name])) if name in OPTIONS else "all"
        cells = [f"`{doors[d][name].name}`" if name in doors[d] else "no (below)" for d in INGEST_DOORS]
        default = DEFAULT_WORDS.get(name) or _cell(spelling.default)
        if name in SERVICE_DEFAULTS:
            default += f"; HTTP and MCP: {_cell(SERVICE_DEFAULTS[name][0])}"
        lines.append(f"| `{name}` | {pipelines} | {' | '.join(cells)} | {default} | {_bounds(spelling, name)} |")
        if name in CLI_ONLY:
            absent.append(f"- `{name}`: {CLI_ONLY[name]}.")
    lines += ["", "Not in HTTP or MCP (the CLI only), and why:", "", *absent]
    lines += ["", "Where the service's doors default differently:", ""]
    lines += [f"- `{name}` {_cell(value)}: {why}." for name, (value, why) in SERVICE_DEFAULTS.items()]
    lines += ["", "CLI only, beside these: `--json` (the report as JSON on stdout)."]
    return lines


def _bounds(spelling: Spelling, name: str) -> str:
    if spelling.choices:
        return " \\| ".join(f"`{c}`" for c in spelling.choices)
    if spelling.minimum is not None:
        high = f"{spelling.limit:,}" if spelling.limit is not None else "no maximum"
        return f"{spelling.minimum:,} to {high}"
    if spelling.limit is not None:
        return f"{spelling.limit:,} {LIMIT_UNITS.get(name, '')}".rstrip()
    return ""


CLI_HEADER = """# CLI reference: `gw-neo4j`

Written by `python -m graphwalk_neo4j.cli.reference` from the commands themselves (`tests/unit/test_surface.py`
fails when this file differs from them); how the commands behave beyond their options is in docs/cli-guide.md,
and the walk's options with their limits in all three doors in docs/surface.md.

Conventions: results on stdout (`--json` for scripts), progress and errors on stderr; exit codes 0 success, 1
failure, 2 bad usage or bad input, 130 Ctrl-C, 143 SIGTERM. Global options go before the command; the password
comes from `GW_NEO4J_PASSWORD`.
"""


def _commands() -> Iterator[tuple[str, click.Command]]:
    for name in sorted(COMMANDS):
        found = command(name)
        yield name, found
        if isinstance(found, click.Group):
            for sub in sorted(found.commands):
                yield f"{name} {sub}", found.commands[sub]


def _context(cmd: click.Command, name: str, parent: click.Context | None = None) -> click.Context:
    """The context ``--help`` would run in (the command's own context settings), at the docs' width."""
    return cmd.make_context(
        name, [], parent=parent, resilient_parsing=True, terminal_width=WIDTH, max_content_width=WIDTH
    )


def _help(path: str, cmd: click.Command) -> str:
    parent = _context(main, "gw-neo4j")
    for word in path.split()[:-1]:
        parent = _context(command(word), word, parent)
    return cmd.get_help(_context(cmd, path.split()[-1], parent))


def render_cli() -> str:
    parts = [CLI_HEADER, "## gw-neo4j", "", "```text", _help_root(), "```", ""]
    for path, cmd in _commands():
        parts += [f"## gw-neo4j {path}", "", "```text", _help(path, cmd), "```", ""]
    return "\n".join(parts)


def _help_root() -> str:
    return main.get_help(_context(main, "gw-neo4j"))


def write(docs: Path = DOCS) -> list[Path]:
    """Write docs/surface.md and docs/cli.md; returns the files that changed."""
    changed = []
    for path, text in ((docs / "surface.md", render_surface()), (docs / "cli.md", render_cli())):
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":
    for changed_path in write():
        sys.stdout.write(f"wrote {changed_path.name}\n")
