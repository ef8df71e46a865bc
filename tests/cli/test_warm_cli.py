"""``gw-neo4j warm`` end to end: a real runtime process on a real socket, real ``gw-neo4j`` client processes, the
real Neo4j. A walk handed to the runtime prints what a walk in a process of its own prints, with the same exit
code; each command runs with its own client's environment; Ctrl-C at the client stores the walk as interrupted;
``warm stop`` ends it and walks go on in processes of their own."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from graphwalk_neo4j.warm_protocol import DECLINED, PING, REQUEST, recv_frame, send_frame, socket_path
from tests.cli.test_walk_cli import KB

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from graphwalk_neo4j.settings import Settings

QUESTION = "which movies did Christopher Nolan direct"


def gw(args: list[str], env: dict[str, str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """``gw-neo4j ARGS`` as the console script runs it (graphwalk_neo4j.entry)."""
    return subprocess.run(
        [sys.executable, "-m", "graphwalk_neo4j.entry", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        **kwargs,
    )


def commands_run(env: dict[str, str]) -> int:
    status = gw(["warm", "status", "--json"], env)
    assert status.returncode == 0, status.stderr
    count: int = json.loads(status.stdout)["commands"]
    return count


def _env(settings: Settings, folder: Path) -> dict[str, str]:
    env = {**os.environ, "XDG_RUNTIME_DIR": str(folder), "GW_NEO4J_URI": settings.uri, "GW_NEO4J_EMBEDDER": "fake"}
    for key in ("GW_NEO4J_WARM", "GW_NEO4J_PAUSE_AT", "COLUMNS"):
        env.pop(key, None)
    return env


@pytest.fixture(scope="module")
def warm_env(neo4j_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    env = _env(neo4j_settings, tmp_path_factory.mktemp("xdg"))
    started = gw(["warm", "start", "--idle-timeout", "600", "--json"], env)
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout)["state"] == "started"
    try:
        yield env
    finally:
        gw(["warm", "stop"], env)


@pytest.fixture
def movie_graph(warm_env: dict[str, str], graph_name: str, tmp_path: Path) -> Iterator[str]:
    kb = tmp_path / "kb.txt"
    kb.write_text(KB)
    loaded = gw(["ingest", str(kb), "--graph", graph_name, "--embed"], warm_env)
    assert loaded.returncode == 0, loaded.stderr
    yield graph_name
    gw(["drop-graph", graph_name, "--yes"], warm_env)


@contextlib.contextmanager
def _env_of(env: dict[str, str]) -> Iterator[None]:
    """This process with the runtime folder of ``env`` (where :func:`socket_path` looks)."""
    old = os.environ.get("XDG_RUNTIME_DIR")
    os.environ["XDG_RUNTIME_DIR"] = env["XDG_RUNTIME_DIR"]
    try:
        yield
    finally:
        if old is None:
            del os.environ["XDG_RUNTIME_DIR"]
        else:
            os.environ["XDG_RUNTIME_DIR"] = old


def _comparable(text: str) -> str:
    """A walk's printout without what differs between two walks of the same question: its id and its times."""
    text = re.sub(r"[0-9a-f]{32}", "<id>", text)
    return re.sub(r"wall \d+\.\d+s", "wall <s>", text)


def test_a_walk_in_the_runtime_prints_what_a_walk_of_its_own_prints(warm_env: dict[str, str], movie_graph: str) -> None:
    before = commands_run(warm_env)
    args = ["walk", QUESTION, "--graph", movie_graph, "--model", "local"]
    warm = gw(args, warm_env)
    own = gw(args, {**warm_env, "GW_NEO4J_WARM": "0"})
    assert commands_run(warm_env) == before + 1  # the first went to the runtime, the second did not
    assert warm.returncode == own.returncode == 0, warm.stderr + own.stderr
    assert "Inception" in warm.stdout
    assert "Memento" in warm.stdout
    assert _comparable(warm.stdout) == _comparable(own.stdout)
    assert warm.stderr == own.stderr
    warm_json = json.loads(gw([*args, "--json"], warm_env).stdout)
    own_json = json.loads(gw([*args, "--json"], {**warm_env, "GW_NEO4J_WARM": "0"}).stdout)
    assert sorted(a["name"] for a in warm_json["answers"]) == ["Inception", "Memento"]
    assert warm_json["answers"] == own_json["answers"]
    assert warm_json["hops"] == own_json["hops"]
    stored = gw(["walks", "show", warm_json["walk_id"], "--graph", movie_graph, "--json"], warm_env)
    assert json.loads(stored.stdout)["walk"]["question"] == QUESTION


def test_a_search_in_the_runtime_prints_what_a_search_of_its_own_prints(
    warm_env: dict[str, str], movie_graph: str
) -> None:
    before = commands_run(warm_env)
    for args in (["search", "Nolan", "--graph", movie_graph], ["search", "Nolan", "--graph", movie_graph, "--json"]):
        warm = gw(args, warm_env)
        own = gw(args, {**warm_env, "GW_NEO4J_WARM": "0"})
        assert warm.returncode == own.returncode == 0, warm.stderr + own.stderr
        assert "Christopher Nolan" in warm.stdout
        assert (warm.stdout, warm.stderr) == (own.stdout, own.stderr)
    assert commands_run(warm_env) == before + 2


def test_argument_errors_and_bad_settings_come_back_with_their_exit_codes(
    warm_env: dict[str, str], movie_graph: str
) -> None:
    before = commands_run(warm_env)
    bad_option = ["walk", QUESTION, "--graph", movie_graph, "--max-depth", "99"]
    warm = gw(bad_option, warm_env)
    own = gw(bad_option, {**warm_env, "GW_NEO4J_WARM": "0"})
    assert warm.returncode == own.returncode == 2
    assert warm.stderr == own.stderr
    assert "99 is not in the range 1<=x<=8" in warm.stderr
    # the client's environment is the command's: a bad setting of this client only, then a good one again
    bad_setting = gw(["walk", QUESTION, "--graph", movie_graph], {**warm_env, "GW_NEO4J_EMBEDDER": "nope"})
    assert bad_setting.returncode == 2
    assert "unknown embedder 'nope'" in bad_setting.stderr
    again = gw(["walk", QUESTION, "--graph", movie_graph, "--model", "local"], warm_env)
    assert again.returncode == 0, again.stderr
    assert commands_run(warm_env) == before + 3


def test_a_runtime_of_another_version_declines_and_the_client_walks_itself(warm_env: dict[str, str]) -> None:
    request = {"argv": ["walk", QUESTION], "env": {}, "cwd": "/", "version": "0.0.0"}
    with _env_of(warm_env):
        path = socket_path()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(path)
        send_frame(sock, REQUEST, json.dumps(request).encode())
        frame = recv_frame(sock)
    assert frame is not None
    assert frame[0] == DECLINED
    assert b"warm stop" in frame[1]


def test_clients_that_go_away_do_not_end_the_runtime(warm_env: dict[str, str]) -> None:
    with _env_of(warm_env):
        path = socket_path()
    for _ in range(20):  # a ping whose client has closed by the time the answer is sent (as a timed-out one has)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(path)
            send_frame(sock, PING)
    status = gw(["warm", "status", "--json"], warm_env)
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["state"] == "running"


def _default_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # see tests/hostile/procs.py: a background suite ignores SIGINT


def test_ctrl_c_at_the_client_stores_the_walk_as_interrupted(warm_env: dict[str, str], movie_graph: str) -> None:
    env = {**warm_env, "GW_NEO4J_PAUSE_AT": "walk.depth"}
    client = subprocess.Popen(
        [sys.executable, "-m", "graphwalk_neo4j.entry", "walk", QUESTION, "--graph", movie_graph],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_interrupt,
    )
    assert client.stderr is not None
    seen = []
    for line in client.stderr:  # the pause point's line comes from the runtime, through the client
        seen.append(line)
        if line.startswith("paused at walk.depth"):
            break
    else:
        pytest.fail(f"never paused: {''.join(seen)}")
    client.send_signal(signal.SIGINT)
    _out, rest = client.communicate(timeout=60)
    assert client.returncode == 130, "".join(seen) + rest
    assert "interrupted" in rest
    listed = gw(["walks", "list", "--graph", movie_graph, "--status", "interrupted", "--json"], warm_env)
    walks = json.loads(listed.stdout)
    rows = walks["walks"] if isinstance(walks, dict) else walks
    assert [w["question"] for w in rows] == [QUESTION]
    after = gw(["walk", QUESTION, "--graph", movie_graph, "--model", "local"], warm_env)  # the runtime goes on
    assert after.returncode == 0, after.stderr


def test_stop_ends_the_runtime_and_walks_run_in_their_own_process(
    neo4j_settings: Settings, tmp_path: Path, movie_graph: str
) -> None:
    env = _env(neo4j_settings, tmp_path / "xdg")
    assert gw(["warm", "status"], env).returncode == 1
    assert gw(["warm", "start", "--idle-timeout", "60"], env).returncode == 0
    again = gw(["warm", "start", "--json"], env)
    assert json.loads(again.stdout)["state"] == "running"
    assert commands_run(env) == 0
    stopped = gw(["warm", "stop", "--json"], env)
    assert json.loads(stopped.stdout)["state"] == "stopped"
    status = gw(["warm", "status"], env)
    assert status.returncode == 1
    assert "no warm runtime is running" in status.stdout
    walked = gw(["walk", QUESTION, "--graph", movie_graph, "--model", "local"], env)
    assert walked.returncode == 0, walked.stderr
    left = sorted(os.listdir(tmp_path / "xdg" / "graphwalk-neo4j"))
    assert [name for name in left if name.endswith(".sock")] == []  # the runtime removed its socket
    assert [name for name in left if name.endswith(".log")] != []  # and left its log
