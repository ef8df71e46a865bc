"""The warm runtime's wire (graphwalk_neo4j/warm_protocol.py) and the pure parts of both ends: which command an
argv runs, where the socket lives and when its folder may be used, the frames byte for byte, and the client's
stdout inside the runtime."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.cli.warm import RemoteStream, _exit_code
from graphwalk_neo4j.warm_protocol import (
    EXIT,
    MAX_FRAME,
    STDOUT,
    command_of,
    private_dir,
    recv_frame,
    runtime_dir,
    send_frame,
    socket_path,
)

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["walk", "who directed Heat", "--graph", "g"], "walk"),
        (["--uri", "bolt://h:7687", "walk", "q"], "walk"),
        (["--uri=bolt://h:7687", "--user", "walk", "search", "x"], "search"),  # --user takes "walk" as its value
        (["--database", "neo4j", "--version"], None),
        (["--help"], None),
        ([], None),
        (["walks", "list"], "walks"),
    ],
)
def test_command_of_skips_the_group_options_and_their_values(argv: list[str], command: str | None) -> None:
    assert command_of(argv) == command


def test_frames_are_a_kind_byte_a_big_endian_length_and_the_payload() -> None:
    left, right = socket.socketpair()
    with left, right:
        send_frame(left, STDOUT, "é\n".encode())
        send_frame(left, EXIT, b"")
        assert right.recv(9) == b"O\x00\x00\x00\x03\xc3\xa9\n" + b"X"
        assert right.recv(4) == b"\x00\x00\x00\x00"
        send_frame(left, EXIT, b"130")
        assert recv_frame(right) == (EXIT, b"130")


def test_recv_frame_is_none_when_the_peer_closes_mid_frame_or_sends_an_absurd_length() -> None:
    left, right = socket.socketpair()
    with right:
        left.sendall(b"O\x00\x00\x00\x05abc")
        left.close()
        assert recv_frame(right) is None
    left, right = socket.socketpair()
    with left, right:
        left.sendall(b"O" + (MAX_FRAME + 1).to_bytes(4, "big"))
        assert recv_frame(right) is None


def test_the_socket_lives_in_the_users_runtime_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert runtime_dir() == str(tmp_path / "graphwalk-neo4j")
    path = socket_path()
    assert os.path.dirname(path) == str(tmp_path / "graphwalk-neo4j")
    assert os.path.basename(path).startswith("warm-")
    assert path.endswith(".sock")
    assert len(os.path.basename(path)) == len("warm-12345678.sock")
    assert socket_path() == path  # the same installation, the same socket
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    assert runtime_dir() == str(tmp_path / f"graphwalk-neo4j-{os.getuid()}")


def test_another_python_environment_gets_another_socket(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    here = socket_path()
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "other-venv"))
    assert socket_path() != here


def test_a_folder_the_group_or_others_may_open_is_not_used(tmp_path: Path) -> None:
    folder = tmp_path / "rt"
    assert not private_dir(str(folder), create=False)  # missing
    assert private_dir(str(folder), create=True)
    assert folder.stat().st_mode & 0o777 == 0o700
    folder.chmod(0o750)
    assert not private_dir(str(folder), create=False)
    folder.chmod(0o700)
    (tmp_path / "link").symlink_to(folder)
    assert not private_dir(str(tmp_path / "link"), create=False)  # a symlink is not the folder itself


def test_remote_stream_sends_each_write_as_a_frame_and_refuses_bytes() -> None:
    left, right = socket.socketpair()
    with left, right:
        stream = RemoteStream(left, STDOUT, tty=True, lock=threading.Lock())
        assert stream.isatty()
        assert stream.write("answers\n") == len("answers\n")
        assert stream.write("") == 0  # nothing sent
        with pytest.raises(TypeError, match="must be str"):
            stream.write(b"raw")  # type: ignore[arg-type]
        send_frame(left, EXIT, b"0")
        assert recv_frame(right) == (STDOUT, b"answers\n")
        assert recv_frame(right) == (EXIT, b"0")
    stream.write("after the client went\n")  # swallowed: the command runs on to its end
    assert stream.gone


def test_exit_codes_as_a_process_of_its_own_would_have_them() -> None:
    left, right = socket.socketpair()
    with left, right:
        stderr = RemoteStream(left, b"E", tty=False, lock=threading.Lock())
        assert _exit_code(None, stderr) == 0
        assert _exit_code(2, stderr) == 2
        assert _exit_code("boom", stderr) == 1
        assert recv_frame(right) == (b"E", b"boom\n")


def test_the_client_imports_neither_click_nor_the_library_before_it_hands_a_walk_over() -> None:
    probe = (
        "import sys; from graphwalk_neo4j import entry; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('click', 'rich', 'pydantic', 'neo4j', 'numpy') "
        "or m.startswith('graphwalk_neo4j.cli')))"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
