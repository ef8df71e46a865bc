"""Start-up cost of the command line: ``python -m bench.startup [--runs N] [--walk-graph G --question Q]``.

The cases: the yardstick, ``--help``, a few named argument errors and, unless ``--no-every-command``, one of
every command in the lazy table (``gw-neo4j CMD --no-such-option``), so a new command is timed without an edit.

Each case is one fresh ``gw-neo4j`` process, timed from spawn to exit (wall seconds) with its peak RSS (from
``wait4``), after one uncounted warm-up round; the cases run interleaved, ``--runs`` rounds, so a burst of load
on a shared machine hits all of them alike. The yardstick is ``python -c 'import click, rich'`` (what any
click + rich command line pays). With ``--walk-graph`` one question is walked end to end as a user types it
(linking, embedding, decisions, the trace write), and a name is searched (exact, fulltext and vector); the graph
must be loaded and embedded first: ``python -m bench.startup --prepare G`` loads the packaged demo movie graph as
``G`` and embeds it. With ``--warm`` the same walk and search are also timed through the warm runtime (``gw-neo4j
warm start``, started here in a runtime folder of the bench's own and stopped at the end): the ``gw-neo4j``
process hands them to it. Every other case runs with ``GW_NEO4J_WARM=0``, in a process of its own.

Prints one JSON object: per case the minimum and median wall seconds, peak RSS in MiB, and the ratio of its
median to the yardstick's (and, for the walk, to ``--help``'s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime

YARDSTICK = "import click, rich"


def gw_neo4j() -> list[str]:
    """The console script beside this interpreter, else the module (the same ``main``)."""
    script = shutil.which("gw-neo4j", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "graphwalk_neo4j.entry"]


# An installed package has its bytecode compiled (pip does it); a checkout run with PYTHONDONTWRITEBYTECODE would
# compile every module on every start instead, which no user pays. The warm-up round writes the bytecode.
# Every case but the warm walk runs in a process of its own (GW_NEO4J_WARM=0), whatever runtime is up.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"GW_NEO4J_WARM": "0"}
WARM_CASE = "gw-neo4j walk QUESTION --graph G (warm runtime)"
WARM_SEARCH_CASE = "gw-neo4j search NAME --graph G (warm runtime)"
WARM_CASES = (WARM_CASE, WARM_SEARCH_CASE)
SEARCH_TEXT = "Christopher Nolan"  # a name in the demo graph: exact, fulltext and vector hits


def timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MiB and exit code of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env or CHILD_ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, proc.returncode


def command_names() -> list[str]:
    """The commands of the lazy table, read in a child so that this process stays as small as the yardstick's."""
    listed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json; from graphwalk_neo4j.cli import COMMANDS; print(json.dumps(sorted(COMMANDS)))",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=CHILD_ENV,
    )
    names: list[str] = json.loads(listed.stdout)
    return names


def cases(graph: str | None, question: str, every_command: bool = True, warm: bool = False) -> dict[str, list[str]]:
    cli = gw_neo4j()
    found = {
        "import click, rich": [sys.executable, "-c", YARDSTICK],
        "gw-neo4j --help": [*cli, "--help"],
        "gw-neo4j walk --help": [*cli, "walk", "--help"],
        "gw-neo4j walk (missing QUESTION)": [*cli, "walk"],
        "gw-neo4j walk --beam-width 999 (out of range)": [*cli, "walk", "--beam-width", "999", question],
        "gw-neo4j search (missing TEXT)": [*cli, "search"],
        "gw-neo4j walks list --limit 0 (out of range)": [*cli, "walks", "list", "--limit", "0"],
        "gw-neo4j decider train --help": [*cli, "decider", "train", "--help"],
    }
    if every_command:  # an argument error of every command in the table: its module loads, the option is refused
        for name in command_names():
            found[f"gw-neo4j {name} --no-such-option"] = [*cli, name, "--no-such-option"]
    if graph is not None:
        found["gw-neo4j walk QUESTION --graph G"] = [*cli, "walk", question, "--graph", graph]
        found["gw-neo4j search NAME --graph G"] = [*cli, "search", SEARCH_TEXT, "--graph", graph]
        if warm:
            found[WARM_CASE] = [*cli, "walk", question, "--graph", graph]
            found[WARM_SEARCH_CASE] = [*cli, "search", SEARCH_TEXT, "--graph", graph]
    return found


def warm_env(folder: str) -> dict[str, str]:
    """The warm walk's environment: handing over allowed, the runtime's socket in ``folder``."""
    env = {k: v for k, v in CHILD_ENV.items() if k != "GW_NEO4J_WARM"}
    return env | {"XDG_RUNTIME_DIR": folder}


def measure(
    runs: int, graph: str | None, question: str, every_command: bool = True, warm_dir: str | None = None
) -> dict[str, object]:
    plan = cases(graph, question, every_command, warm=warm_dir is not None)
    envs = {name: warm_env(warm_dir) if warm_dir is not None and name in WARM_CASES else CHILD_ENV for name in plan}
    walls: dict[str, list[float]] = {name: [] for name in plan}
    rss: dict[str, float] = dict.fromkeys(plan, 0.0)
    for name, argv in plan.items():  # warm-up, not counted: bytecode, the ONNX export if missing, the page cache
        timed(argv, envs[name])
    for _ in range(runs):
        for name, argv in plan.items():
            wall, peak, code = timed(argv, envs[name])
            if "--graph G" in name and code != 0:
                raise SystemExit(f"{name} failed (exit {code}): run `{' '.join(argv)}` to see why")
            walls[name].append(wall)
            rss[name] = max(rss[name], peak)
    base = statistics.median(walls["import click, rich"])
    help_median = statistics.median(walls["gw-neo4j --help"])
    report: dict[str, object] = {}
    for name, values in walls.items():
        median = statistics.median(values)
        row: dict[str, float] = {
            "min_s": round(min(values), 3),
            "median_s": round(median, 3),
            "peak_rss_mib": round(rss[name], 1),
            "x_yardstick": round(median / base, 2),
        }
        if "--graph G" in name:
            row["x_help"] = round(median / help_median, 2)
        report[name] = row
    return report


async def prepare(graph: str) -> dict[str, object]:
    """Load the packaged demo movie graph as ``graph`` and embed it (idempotent: the ledger skips a reload)."""
    from graphwalk_neo4j.embed.factory import make_embedder
    from graphwalk_neo4j.graph.embeddings import embed_graph
    from graphwalk_neo4j.ingest.structured import ingest_file
    from graphwalk_neo4j.resources import data_file, metaqa_type_map
    from graphwalk_neo4j.schema import apply_schema
    from graphwalk_neo4j.settings import Settings
    from graphwalk_neo4j.store import GraphStore

    settings = Settings()
    async with GraphStore(settings) as store:
        await apply_schema(store)
        movies = data_file("demo_movies.txt")
        loaded = await ingest_file(store, movies, graph=graph, source="demo", type_map=metaqa_type_map())
        embedded = await embed_graph(store, make_embedder(settings), graph)
    return {"graph": graph, "triples": loaded.rows, "embedded": embedded.embedded, "up_to_date": embedded.skipped}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="interleaved rounds (1-100)")
    parser.add_argument("--walk-graph", default=None, help="also walk QUESTION on this (loaded, embedded) graph")
    parser.add_argument("--question", default="which movies did Christopher Nolan direct")
    parser.add_argument("--prepare", metavar="GRAPH", default=None, help="load and embed the demo graph, then exit")
    parser.add_argument(
        "--warm", action="store_true", help="with --walk-graph: also time the walk through the warm runtime"
    )
    parser.add_argument(
        "--no-every-command",
        dest="every_command",
        action="store_false",
        help="leave out the argument error of every command in the table (the named cases only)",
    )
    args = parser.parse_args()
    if args.prepare:
        print(json.dumps(asyncio.run(prepare(args.prepare)), indent=2))
        return
    if not 1 <= args.runs <= 100:
        parser.error("--runs must be between 1 and 100")
    if args.warm and not args.walk_graph:
        parser.error("--warm times the walk: give --walk-graph G too")
    with tempfile.TemporaryDirectory(prefix="gw-bench-warm-") as folder:
        warm_dir = folder if args.warm else None
        if warm_dir is not None:
            start = [*gw_neo4j(), "warm", "start", "--idle-timeout", "600"]
            subprocess.run(start, env=warm_env(warm_dir), check=True, stdout=subprocess.DEVNULL)
        try:
            cases_measured = measure(args.runs, args.walk_graph, args.question, args.every_command, warm_dir)
        finally:
            if warm_dir is not None:
                subprocess.run([*gw_neo4j(), "warm", "stop"], env=warm_env(warm_dir), stdout=subprocess.DEVNULL)
    result = {
        "command": " ".join(["python -m bench.startup", *sys.argv[1:]]),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "embedder": os.environ.get("GW_NEO4J_EMBEDDER", "(default)"),
        "cases": cases_measured,
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
