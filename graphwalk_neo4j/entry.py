"""The ``gw-neo4j`` program: hands a ``walk`` or ``search`` to the warm runtime when one runs, else runs the CLI.

With ``gw-neo4j warm start`` running (graphwalk_neo4j/cli/warm.py), a walk's arguments, environment and working
directory go to it over its Unix socket (:mod:`graphwalk_neo4j.warm_protocol`), and what it writes comes back to
this process's stdout and stderr as it is written, with its exit code: the driver is connected and the model is
loaded there once, so this process imports only the standard library. Without a warm runtime, with
``GW_NEO4J_WARM=0``, for every other command (:data:`~graphwalk_neo4j.warm_protocol.FORWARDED_COMMANDS`), or
when the runtime declines (another package version), the command runs here as it always did. Ctrl-C cancels
the walk in the runtime: it is stored as ``interrupted``, as in a process of its own.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING

from graphwalk_neo4j import __version__
from graphwalk_neo4j.warm_protocol import (
    ACCEPTED,
    CANCEL,
    DECLINED,
    EXIT,
    FORWARDED_COMMANDS,
    REQUEST,
    STDERR,
    STDOUT,
    SWITCH_ENV,
    command_of,
    connect,
    recv_frame,
    send_frame,
)

if TYPE_CHECKING:
    import socket

CONNECT_TIMEOUT_S = 2.0
CANCEL_WAIT_S = 10.0  # after Ctrl-C: how long the walk may take to store itself as interrupted


def main() -> None:
    argv = sys.argv[1:]
    if os.environ.get(SWITCH_ENV, "1") != "0" and command_of(argv) in FORWARDED_COMMANDS:
        code = forward(argv)
        if code is not None:
            sys.exit(code)
    # A command this process runs itself: the click group (imported here, so a forwarded walk never loads it).
    from graphwalk_neo4j.cli import main as command_line

    command_line(prog_name="gw-neo4j")


def _terminal_width() -> int | None:
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError):
        return None


def _request(argv: list[str]) -> bytes:
    env = dict(os.environ)
    width = _terminal_width()
    if width is not None and "COLUMNS" not in env:
        env["COLUMNS"] = str(width)  # the runtime's consoles lay out for this terminal, not for its own
    return json.dumps(
        {
            "argv": argv,
            "env": env,
            "cwd": os.getcwd(),
            "stdout_tty": sys.stdout.isatty(),
            "stderr_tty": sys.stderr.isatty(),
            "version": __version__,
        }
    ).encode()


def forward(argv: list[str]) -> int | None:
    """Run ``argv`` in the warm runtime: its exit code, or ``None`` when there is none running or it declined."""
    sock = connect(CONNECT_TIMEOUT_S)  # None: no runtime here, so the command runs in this process
    if sock is None:
        return None
    with sock:
        try:
            send_frame(sock, REQUEST, _request(argv))
            answer = recv_frame(sock)
        except OSError:
            return None
        if answer is None:
            return None
        kind, payload = answer
        if kind == DECLINED:
            sys.stderr.write(f"note: the warm runtime declined ({payload.decode()}); running here\n")
            return None
        if kind != ACCEPTED:
            return None
        sock.settimeout(None)  # a walk takes what it takes; its own timeout bounds it
        try:
            return _relay(sock)
        except KeyboardInterrupt:
            return _cancel(sock)


def _relay(sock: socket.socket) -> int:
    """Copy the runtime's output here until its exit code."""
    while True:
        frame = recv_frame(sock)
        if frame is None:
            sys.stderr.write("error: the warm runtime stopped during the command; `gw-neo4j warm status` says more\n")
            return 1
        kind, payload = frame
        if kind == EXIT:
            sys.stdout.flush()
            return int(payload.decode())
        stream = sys.stdout if kind == STDOUT else sys.stderr if kind == STDERR else None
        if stream is not None:
            stream.write(payload.decode("utf-8", errors="replace"))
            stream.flush()


def _cancel(sock: socket.socket) -> int:
    """Ctrl-C: ask the runtime to cancel the walk and show what it says while it stores the walk as interrupted;
    its exit code (130), or 130 when it does not answer in time."""
    try:
        send_frame(sock, CANCEL)
        sock.settimeout(CANCEL_WAIT_S)
        return _relay(sock)
    except (OSError, KeyboardInterrupt):
        return 130


if __name__ == "__main__":
    main()
