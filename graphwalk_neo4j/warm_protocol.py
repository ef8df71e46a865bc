"""The warm runtime's wire: where its socket lives, which commands go to it, and the frames both ends exchange.

``gw-neo4j warm start`` keeps one process with the driver connected and the embedding model loaded; while it runs,
``gw-neo4j walk`` hands its arguments, environment and working directory to it over a Unix socket and prints what
comes back, instead of importing the driver, ONNX Runtime and the model itself (docs/cli-guide.md, "warm runtime").
This module is the part both ends share. Standard library only: the client side (``graphwalk_neo4j.entry``)
must answer before anything heavy is imported.

A frame is one kind byte, a 4-byte big-endian length and that many bytes. The client sends ``REQUEST`` (JSON:
argv, env, cwd, whether its stdout and stderr are terminals, its width, the package version) and may send
``CANCEL``; the runtime answers ``ACCEPTED`` or ``DECLINED`` (a reason: the client runs the command itself), then
any number of ``STDOUT`` / ``STDERR`` frames (UTF-8 text, in the order written) and one ``EXIT`` (the exit code as
decimal text). ``PING`` and ``STOP`` are answered with ``INFO`` (JSON).
"""

from __future__ import annotations

import os
import socket
import stat
import struct
import sys
import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

SWITCH_ENV = "GW_NEO4J_WARM"  # "0": never hand a command to a running warm runtime
FORWARDED_COMMANDS = frozenset({"walk", "search"})  # the interactive ones, whose cost is start-up
# The group's options that take a value (cli/__init__.py main): skipped when finding the command's name.
GROUP_OPTIONS_WITH_VALUE = frozenset({"--uri", "--user", "--database"})

REQUEST, CANCEL, PING, STOP = b"R", b"C", b"P", b"S"
ACCEPTED, DECLINED, STDOUT, STDERR, EXIT, INFO = b"A", b"D", b"O", b"E", b"X", b"I"
MAX_FRAME = 64 * 1024 * 1024  # a walk's --json bundle is far smaller; a larger length is a broken peer
_HEADER = struct.Struct(">cI")


def command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` (without the program name) runs: its first word that is not a group option or the
    value of one (``--uri bolt://h walk "q"`` -> ``walk``); ``None`` when there is none (``--help``)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in GROUP_OPTIONS_WITH_VALUE:
            skip = True
            continue
        if arg.startswith("-"):
            continue
        return arg
    return None


# Paths are strings here (os.path, not pathlib; zlib, not hashlib): this module is on the client's path to its
# first byte, and those imports cost more than the rest of it.


def runtime_dir() -> str:
    """The user's own folder for the socket: ``$XDG_RUNTIME_DIR/graphwalk-neo4j``, else
    ``$TMPDIR/graphwalk-neo4j-<uid>`` (``/tmp`` without ``TMPDIR``)."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base:
        return os.path.join(base, "graphwalk-neo4j")
    return os.path.join(os.environ.get("TMPDIR") or "/tmp", f"graphwalk-neo4j-{os.getuid()}")


def socket_path() -> str:
    """The socket of the warm runtime of this installation: one per Python environment and package location, so
    two checkouts or virtualenvs never answer each other's commands."""
    package = os.path.dirname(os.path.realpath(__file__))
    key = zlib.crc32(f"{sys.prefix}\0{package}".encode()) & 0xFFFFFFFF
    return os.path.join(runtime_dir(), f"warm-{key:08x}.sock")


def private_dir(path: str, *, create: bool) -> bool:
    """Whether ``path`` is a folder only this user can enter (made so when ``create`` and it is missing). A folder
    another user owns, or one the group or others may open, is never used: the socket carries the environment,
    passwords included."""
    if create:
        os.makedirs(path, mode=0o700, exist_ok=True)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077


def connect(timeout_s: float) -> socket.socket | None:
    """A connection to this installation's warm runtime (``timeout_s`` for each of its socket calls), or
    ``None`` when its folder is not this user's own or nothing answers there (no socket, or one left by a runtime
    that died)."""
    if not private_dir(runtime_dir(), create=False):
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout_s)
    try:
        sock.connect(socket_path())
    except OSError:
        sock.close()
        return None
    return sock


def send_frame(sock: socket.socket, kind: bytes, payload: bytes = b"") -> None:
    sock.sendall(_HEADER.pack(kind, len(payload)) + payload)


def _read_exactly(sock: socket.socket, n: int) -> bytes | None:
    chunks = bytearray()
    while len(chunks) < n:
        chunk = sock.recv(min(n - len(chunks), 1 << 16))
        if not chunk:
            return None
        chunks += chunk
    return bytes(chunks)


def recv_frame(sock: socket.socket) -> tuple[bytes, bytes] | None:
    """The next frame as ``(kind, payload)``; ``None`` when the peer closed the connection (or broke the format)."""
    header = _read_exactly(sock, _HEADER.size)
    if header is None:
        return None
    kind, length = _HEADER.unpack(header)
    if length > MAX_FRAME:
        return None
    payload = _read_exactly(sock, length) if length else b""
    return None if payload is None else (kind, payload)
