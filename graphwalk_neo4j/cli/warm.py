"""``gw-neo4j warm``: a process that keeps the Neo4j driver connected and the embedding model loaded, and runs the
``walk`` and ``search`` commands handed to it, so a walk from the command line costs the walk, not the start-up.

A fresh ``gw-neo4j walk`` spends most of its second importing the driver, NumPy and ONNX Runtime, opening the
model and authenticating to Neo4j (docs/benchmarks.md, "One question from the command line"). While ``gw-neo4j
warm start`` runs, the ``gw-neo4j`` program (graphwalk_neo4j/entry.py) sends a walk's argv, environment and
working directory over a Unix socket in a folder only this user can open, and this process runs exactly the
command a fresh one would (the same click command, with the client's environment, working directory and
terminal) on its one event loop, with its stores and embedders kept (cli/common.py ``WarmState``), and streams
stdout, stderr and the exit code back. One command runs at a time; others wait their turn. It stops on
``gw-neo4j warm stop``, SIGTERM, or after ``--idle-timeout`` seconds without a command.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import io
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback
from typing import TYPE_CHECKING, Any

import click

from graphwalk_neo4j import __version__
from graphwalk_neo4j.cli.common import err, handle_errors, json_option, out
from graphwalk_neo4j.errors import ConfigError
from graphwalk_neo4j.warm_protocol import (
    ACCEPTED,
    CANCEL,
    DECLINED,
    EXIT,
    INFO,
    PING,
    REQUEST,
    STDERR,
    STDOUT,
    STOP,
    connect,
    private_dir,
    recv_frame,
    runtime_dir,
    send_frame,
    socket_path,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graphwalk_neo4j.cli.common import WarmState
    from graphwalk_neo4j.store import GraphStore

IDLE_TIMEOUT_RANGE = (10, 86_400)  # seconds without a command before the runtime exits
DEFAULT_IDLE_TIMEOUT_S = 900
# What a walk and a search import when they first run (cli/walk.py run_walk, cli/data.py _search), imported by
# the runtime as it starts.
WARM_MODULES = (
    "graphwalk_neo4j.cli.walk",
    "graphwalk_neo4j.backends",
    "graphwalk_neo4j.walk.service",
    "graphwalk_neo4j.cli.data",
    "graphwalk_neo4j.graph.search",
)
ACCEPT_POLL_S = 0.5  # how often the idle runtime looks at SIGTERM's flag and its idle time
START_WAIT_S = 120.0  # how long `warm start` waits for the runtime to answer (loading the model, connecting)
STOP_WAIT_S = 10.0  # how long `warm stop` waits for the runtime to close its socket


def _beside_socket(suffix: str) -> str:
    """The runtime's log (``.log``) or lock (``.lock``): the socket's path with that ending."""
    return socket_path().removesuffix(".sock") + suffix


def _runtime_folder() -> str:
    """The runtime folder, made if missing; a one-line error when it is not this user's own."""
    folder = runtime_dir()
    if not private_dir(folder, create=True):
        raise ConfigError(f"{folder} is not a folder only you can open; set XDG_RUNTIME_DIR or TMPDIR to one that is")
    return folder


def _ask(kind: bytes, timeout_s: float = 5.0) -> dict[str, Any] | None:
    """Send ``kind`` (PING or STOP) to the runtime; its INFO, or ``None`` when none answers."""
    sock = connect(timeout_s)
    if sock is None:
        return None
    with sock:
        try:
            send_frame(sock, kind)
            frame = recv_frame(sock)
        except OSError:
            return None
    if frame is None or frame[0] != INFO:
        return None
    info: dict[str, Any] = json.loads(frame[1])
    return info


class RemoteStream(io.TextIOBase):
    """A client's stdout or stderr inside the runtime: each write goes to the client as one frame. ``isatty`` is
    the client's, so rich and click lay out and colour as they would in the client's own process."""

    def __init__(self, sock: socket.socket, kind: bytes, tty: bool, lock: threading.Lock) -> None:
        self._sock, self._kind, self._tty, self._lock = sock, kind, tty, lock
        self.gone = False

    def isatty(self) -> bool:
        return self._tty

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # as a text stream does: click probes for a binary one with write(b"")
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text and not self.gone:
            try:
                with self._lock:
                    send_frame(self._sock, self._kind, text.encode("utf-8", errors="replace"))
            except OSError:  # the client went away; the command goes on to its end (or its cancellation)
                self.gone = True
        return len(text)


class WarmServer:
    """The runtime's loop: accept a connection, answer it, until STOP, SIGTERM or the idle timeout."""

    def __init__(self, path: str, idle_timeout_s: float) -> None:
        self.path, self.idle_timeout_s = path, idle_timeout_s
        self.started, self.commands, self.stopping = time.time(), 0, False

    def info(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "socket": self.path,
            "version": __version__,
            "uptime_s": round(time.time() - self.started, 1),
            "commands": self.commands,
            "idle_timeout_s": self.idle_timeout_s,
        }

    def serve(self) -> None:
        from graphwalk_neo4j.cli.common import enter_warm, leave_warm

        state = enter_warm()
        # warm up before the socket exists: `warm start` polls it, and a ping in the backlog while the model loads
        # would time out and leave a connection whose client has gone
        self._warm_up()
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)  # a socket left by a runtime that was killed (`warm run` checked none answers)
        listener.bind(self.path)
        os.chmod(self.path, 0o600)
        bound = os.stat(self.path).st_ino
        listener.listen(16)
        listener.settimeout(ACCEPT_POLL_S)
        try:
            idle_since = time.monotonic()
            while not self.stopping and time.monotonic() - idle_since < self.idle_timeout_s:
                # SIGTERM only sets the flag (a command's own loop takes it over while one runs: it cancels that
                # command, as in a process of its own), so the loop looks at it between short waits
                signal.signal(signal.SIGTERM, self._on_sigterm)
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    continue
                with conn:
                    try:
                        self._answer(conn, state)
                    except OSError as exc:  # the client went away (a ping that timed out, a killed client)
                        print(f"a client went away: {exc!r}", file=sys.stderr, flush=True)
                idle_since = time.monotonic()
        finally:
            listener.close()
            with contextlib.suppress(FileNotFoundError):
                if os.stat(self.path).st_ino == bound:  # not a socket a newer runtime bound after `warm stop`
                    os.unlink(self.path)
            leave_warm()

    def _on_sigterm(self, _signum: int, _frame: object) -> None:
        self.stopping = True

    def _warm_up(self) -> None:
        """Import the walk's machinery, load the model and connect now, not in the first client's time."""
        from graphwalk_neo4j.cli.common import run, shared_embedder, with_store
        from graphwalk_neo4j.settings import load_settings

        for module in WARM_MODULES:
            importlib.import_module(module)
        try:
            settings = load_settings()
            shared_embedder(settings).encode(["warm"])
            run(with_store(settings, _connected))
        except Exception as exc:  # a bad setting or no server: said again to the command that meets it
            print(f"warm-up incomplete: {exc}", file=sys.stderr, flush=True)

    def _answer(self, conn: socket.socket, state: WarmState) -> None:
        conn.settimeout(None)
        if not _same_user(conn):
            return
        frame = recv_frame(conn)
        if frame is None:
            return
        kind, payload = frame
        if kind in (PING, STOP):
            self.stopping = kind == STOP
            send_frame(conn, INFO, json.dumps(self.info()).encode())
            return
        if kind != REQUEST:
            return
        request = json.loads(payload)
        if request.get("version") != __version__:
            send_frame(conn, DECLINED, f"it runs graphwalk-neo4j {__version__}; `gw-neo4j warm stop`".encode())
            return
        send_frame(conn, ACCEPTED)
        self.commands += 1
        code = self._run(conn, request, state)
        with contextlib.suppress(OSError):
            send_frame(conn, EXIT, str(code).encode())

    def _run(self, conn: socket.socket, request: dict[str, Any], state: WarmState) -> int:
        """Run the client's command as its own process would, with its streams, environment and folder."""
        from graphwalk_neo4j import faults
        from graphwalk_neo4j.cli import main

        lock = threading.Lock()
        stdout = RemoteStream(conn, STDOUT, bool(request.get("stdout_tty")), lock)
        stderr = RemoteStream(conn, STDERR, bool(request.get("stderr_tty")), lock)
        state.cancelled_by_client = False
        done = threading.Event()
        watcher = threading.Thread(target=_watch, args=(conn, state, done), daemon=True, name="warm-client")
        watcher.start()
        code: int = 0
        with _client_process(request, stdout, stderr):
            faults.reset()
            try:
                main(list(request["argv"]), prog_name="gw-neo4j", standalone_mode=True)
            except SystemExit as exc:
                code = _exit_code(exc.code, stderr)
            except BaseException:  # a bug: the client sees the traceback its own process would have printed
                stderr.write(traceback.format_exc())
                code = 1
            finally:
                done.set()
                sys.stdout.flush()
        return code


async def _connected(_store: GraphStore) -> None:
    """Nothing: :func:`~graphwalk_neo4j.cli.common.with_store` has connected the store the runtime keeps."""


def _exit_code(value: object, stderr: RemoteStream) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    stderr.write(f"{value}\n")  # sys.exit("message"): Python prints it and exits 1
    return 1


@contextlib.contextmanager
def _client_process(request: dict[str, Any], stdout: RemoteStream, stderr: RemoteStream) -> Iterator[None]:
    """This process looks like the client's for the length of its command: its environment (settings, API keys,
    terminal), its working directory (relative paths), its stdout and stderr, which the CLI's consoles look at
    again (a terminal or not, colours, width) on the way in and on the way out."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_streams = sys.stdout, sys.stderr
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in dict(request.get("env") or {}).items()})
    try:
        os.chdir(str(request.get("cwd") or saved_cwd))
        sys.stdout, sys.stderr = stdout, stderr
        _rebind_consoles()
        yield
    finally:
        sys.stdout, sys.stderr = saved_streams
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)
        _rebind_consoles()


def _rebind_consoles() -> None:
    out.rebind()
    err.rebind()


def _watch(conn: socket.socket, state: WarmState, done: threading.Event) -> None:
    """While a command runs: a CANCEL frame from its client, or the client gone, cancels it."""
    with contextlib.suppress(OSError):
        while not done.is_set():
            frame = recv_frame(conn)
            if done.is_set():
                return
            if frame is None or frame[0] == CANCEL:
                state.cancel_running()
                return


_PEER = struct.Struct("3i")  # struct ucred: pid, uid, gid


def _same_user(conn: socket.socket) -> bool:
    """Whether the peer runs as this user (Linux SO_PEERCRED; elsewhere the folder's 0700 alone guards it)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    _pid, uid, _gid = _PEER.unpack(conn.getsockopt(socket.SOL_SOCKET, option, _PEER.size))
    return bool(uid == os.getuid())


@click.group("warm")
def warm_group() -> None:
    """Keep the driver connected and the model loaded in one process, so `gw-neo4j walk` answers without start-up.

    While it runs, `gw-neo4j walk` and `gw-neo4j search` hand their arguments and environment to it
    (docs/cli-guide.md, "The warm runtime"); GW_NEO4J_WARM=0 runs them in a process of their own anyway."""


idle_option = click.option(
    "--idle-timeout",
    "idle_timeout",
    type=click.IntRange(*IDLE_TIMEOUT_RANGE),
    default=DEFAULT_IDLE_TIMEOUT_S,
    show_default=True,
    help="Seconds without a command before the runtime exits.",
)


@warm_group.command("start")
@idle_option
@json_option
@handle_errors
def start(idle_timeout: int, as_json: bool) -> None:
    """Start the warm runtime in the background (returns once it answers); a no-op when one is running."""
    info = _ask(PING)
    if info is None:
        _runtime_folder()
        log = _beside_socket(".log")
        with open(log, "ab") as log_file:
            process = subprocess.Popen(
                [sys.executable, "-m", "graphwalk_neo4j.cli", "warm", "run", "--idle-timeout", str(idle_timeout)],
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=log_file,
                start_new_session=True,  # Ctrl-C in this terminal is not the runtime's
            )
        info = _wait_ready(process, log)
        state = "started"
    else:
        state = "running"
    if as_json:
        click.echo(json.dumps({"state": state, **info}))
        return
    out.print(
        f"warm runtime {state} (pid {info['pid']}, socket {info['socket']}); `gw-neo4j walk` now runs in it; "
        "`gw-neo4j warm stop` ends it"
    )


def _wait_ready(process: subprocess.Popen[bytes], log: str) -> dict[str, Any]:
    deadline = time.monotonic() + START_WAIT_S
    while time.monotonic() < deadline:
        info = _ask(PING, timeout_s=1.0)
        if info is not None:
            return info
        if process.poll() is not None:
            raise ConfigError(f"the warm runtime exited with code {process.returncode} before it answered; see {log}")
        time.sleep(0.1)
    process.terminate()
    raise ConfigError(f"the warm runtime did not answer within {START_WAIT_S:.0f} s; see {log}")


@warm_group.command("run")
@idle_option
@handle_errors
def run_command(idle_timeout: int) -> None:
    """Be the warm runtime in this process, in the foreground (what `start` runs in the background)."""
    _runtime_folder()
    # one runtime per socket: the lock is held for this process's life, so a second one started while the first
    # is still warming up (its socket not bound yet) stops here instead of taking the socket from under it
    lock = open(_beside_socket(".lock"), "a")  # noqa: SIM115  held until the process exits
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ConfigError(
            f"a warm runtime already runs or is starting at {socket_path()}; `gw-neo4j warm stop` ends it"
        ) from None
    err.print(f"warm runtime: pid {os.getpid()}, socket {socket_path()}, idle timeout {idle_timeout} s")
    WarmServer(socket_path(), float(idle_timeout)).serve()


@warm_group.command("stop")
@json_option
@handle_errors
def stop(as_json: bool) -> None:
    """Stop the warm runtime (after the command it is running, if any); returns once it has gone."""
    info = _ask(STOP, timeout_s=60.0)
    deadline = time.monotonic() + STOP_WAIT_S
    while info is not None and _ask(PING, timeout_s=1.0) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    if as_json:
        click.echo(json.dumps({"state": "stopped" if info else "not running", **(info or {})}))
    elif info is None:
        out.print("no warm runtime is running")
    else:
        out.print(f"warm runtime stopped (pid {info['pid']}, {info['commands']} commands run)")


@warm_group.command("status")
@json_option
@handle_errors
def status(as_json: bool) -> None:
    """Say whether the warm runtime runs: its pid, socket, uptime and the commands it ran (exit 1 when not)."""
    info = _ask(PING)
    if as_json:
        click.echo(json.dumps({"state": "running" if info else "not running", **(info or {})}))
    elif info is None:
        out.print(f"no warm runtime is running (its socket would be {socket_path()}); `gw-neo4j warm start`")
    else:
        out.print(
            f"warm runtime running: pid {info['pid']}, socket {info['socket']}, up {info['uptime_s']} s, "
            f"{info['commands']} commands, idle timeout {info['idle_timeout_s']} s"
        )
    if info is None:
        sys.exit(1)
