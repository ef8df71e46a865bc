"""Run a real Neo4j Community server + APOC without Docker.

The server is the set of Maven Central jars that ``neo4j/pom.xml`` copies into ``neo4j/dist`` (``make neo4j-fetch``).
This module generates ``neo4j.conf`` (loopback only, small memory, APOC allowed, auth on), sets the initial password,
starts the JVM in the background (on a Java new enough for the release in ``dist/``, see :mod:`java_runtime`), and
waits until Bolt and the HTTP endpoint answer a real query.

Releases side by side: the pinned LTS (:data:`PINNED_VERSION`) lives in ``neo4j/``; any other release chosen with
``GW_NEO4J_VERSION`` (``make setup NEO4J_VERSION=...``) in ``neo4j/<version>/``, each with its own ``dist/`` and
``run/``.

It uses the standard library only, so ``make neo4j-up`` works before the virtualenv has anything else, and the test
session fixture starts the server through exactly the same code.

Usage: ``python -m graphwalk_neo4j.localserver up|down|status|logs|conf|java`` (``java``: the JDK folder chosen
for the release in ``dist/``).
"""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphwalk_neo4j.errors import LocalServerError
from graphwalk_neo4j.java_runtime import find_java, minimum_java

HOME_ENV = "GW_NEO4J_HOME"
VERSION_ENV = "GW_NEO4J_VERSION"
PINNED_VERSION = "5.26.5"  # neo4j/pom.xml's default; tests/unit/test_localserver.py keeps the two equal
# the server jar of a release (neo4j-5.26.5.jar, neo4j-2026.09.0.jar) and the service file naming its main class
_ENGINE_JAR = re.compile(r"^neo4j-(\d+\.\d+\.\d+)\.jar$")
_ENTRY_POINT_SERVICE = "META-INF/services/org.neo4j.server.startup.EntryPoint"
APOC_HTTP_READ_TIMEOUT_MS = 300_000  # apoc.load.json waits this long for the service (APOC's default: 60 s)


def user_data_dir() -> Path:
    """Where an installed package keeps the server it fetched: ``$XDG_DATA_HOME/graphwalk-neo4j`` (default
    ``~/.local/share/graphwalk-neo4j``); ``~/Library/Application Support/graphwalk-neo4j`` on macOS."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "graphwalk-neo4j"
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "graphwalk-neo4j"


def default_home(version: str | None = None) -> Path:
    """Where the Neo4j distribution (``dist/``) and its run directory live.

    ``GW_NEO4J_HOME`` when set; else the source checkout's ``neo4j/`` when this package runs from one (an editable
    install, or ``PYTHONPATH`` pointing at the checkout); else ``./neo4j`` when the working directory has one with
    a ``dist/`` (``make neo4j-fetch`` run for an installed package from the project root); else ``neo4j/`` in the
    user data dir (:func:`user_data_dir`), where ``gw-neo4j neo4j up`` fetches it. A ``version`` other than
    :data:`PINNED_VERSION` gets its own ``<version>/`` folder below that.
    """
    raw = os.environ.get(HOME_ENV)
    if raw:
        return Path(raw).expanduser().resolve()
    checkout = Path(__file__).resolve().parent.parent / "neo4j"
    local = (Path.cwd() / "neo4j").resolve()
    if (checkout / "pom.xml").is_file():
        base = checkout
    elif (local / "dist").is_dir():
        base = local
    else:
        base = user_data_dir() / "neo4j"
    return base if version in (None, "", PINNED_VERSION) else base / str(version)


def dist_version(lib: Path) -> str | None:
    """The Neo4j release whose engine jar (``neo4j-<version>.jar``) is in ``lib``, or None when there is none."""
    if not lib.is_dir():
        return None
    for jar in sorted(lib.iterdir()):
        match = _ENGINE_JAR.match(jar.name)
        if match:
            return match.group(1)
    return None


def entry_point(engine_jar: Path) -> str:
    """The server's main class, as the engine jar names it (5.x: ``CommunityEntryPoint``, 2025+:
    ``Neo4jCommunity``), so the launcher follows a release's own choice instead of hard-coding one."""
    with zipfile.ZipFile(engine_jar) as jar:
        names = jar.read(_ENTRY_POINT_SERVICE).decode().split()
    if not names:
        raise LocalServerError(f"{engine_jar} names no server entry point; fetch the distribution again")
    return names[0]


JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+AlwaysPreTouch",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "-XX:FlightRecorderOptions=stackdepth=256",
    "-XX:+UnlockDiagnosticVMOptions",
    "-XX:+DebugNonSafepoints",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "--add-modules=jdk.incubator.vector",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
]


_MIB = 1024 * 1024


def memory_plan(ram_bytes: int, store_bytes: int) -> tuple[str, str]:
    """Heap and page cache for a machine with ``ram_bytes`` whose store files take ``store_bytes`` (the sizing rule
    of docs/neo4j.md): heap = RAM / 12, between 1 GiB and 8 GiB (query working memory: collecting a hub's 4,000
    targets, sorting a 2,000-node frontier); page cache = the store plus half again for growth and indexes, at
    least 512 MiB and at most RAM / 4, so the store stays in memory while it fits and Neo4j never takes more than
    a third of the machine. Both in whole MiB."""
    heap = min(max(ram_bytes // 12, 1024 * _MIB), 8192 * _MIB)
    cache = min(max(store_bytes * 3 // 2, 512 * _MIB), max(ram_bytes // 4, 512 * _MIB))
    return f"{heap // _MIB}m", f"{cache // _MIB}m"


def _ram_bytes() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):  # pragma: no cover - not Linux
        return 8 * 1024 * _MIB


def _tree_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else 0


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw else default


@dataclass
class LocalServer:
    """Paths, ports and credentials of one local server instance."""

    home: Path = field(default_factory=lambda: default_home(os.environ.get(VERSION_ENV)))
    bolt_port: int = field(default_factory=lambda: _env_int("GW_NEO4J_BOLT_PORT", 7687))
    http_port: int = field(default_factory=lambda: _env_int("GW_NEO4J_HTTP_PORT", 7474))
    password: str = field(default_factory=lambda: os.environ.get("GW_NEO4J_PASSWORD", "graphwalk-local"))
    user: str = "neo4j"
    # GW_NEO4J_HEAP / GW_NEO4J_PAGECACHE, else :func:`memory_plan` for this machine and the store on disk
    heap: str = field(default_factory=lambda: os.environ.get("GW_NEO4J_HEAP", ""))
    pagecache: str = field(default_factory=lambda: os.environ.get("GW_NEO4J_PAGECACHE", ""))

    def __post_init__(self) -> None:
        if not self.heap or not self.pagecache:
            heap, cache = memory_plan(_ram_bytes(), _tree_bytes(self.run_dir / "data" / "databases"))
            self.heap, self.pagecache = self.heap or heap, self.pagecache or cache

    @property
    def dist(self) -> Path:
        return self.home / "dist"

    @property
    def run_dir(self) -> Path:
        return self.home / "run"

    @property
    def conf_dir(self) -> Path:
        return self.run_dir / "conf"

    @property
    def pid_file(self) -> Path:
        return self.run_dir / "neo4j.pid"

    @property
    def console_log(self) -> Path:
        return self.run_dir / "logs" / "console.log"

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/browser/"

    # ---- preparation -------------------------------------------------------------------------------------
    def check_dist(self) -> str:
        """The release in ``dist/`` after checking that its server jars and APOC are there."""
        lib = self.dist / "lib"
        plugins = self.dist / "plugins"
        version = dist_version(lib)
        if version is None:
            raise LocalServerError(
                f"Neo4j jars are missing under {lib}. Run `make neo4j-fetch` or `gw-neo4j neo4j up` (Maven "
                f"Central) first, or point {HOME_ENV} at a folder whose dist/ holds them."
            )
        if not plugins.is_dir() or not any(plugins.glob("apoc-*.jar")):
            raise LocalServerError(f"APOC is missing under {plugins}. Run `make neo4j-fetch` first.")
        return version

    def java(self) -> Path:
        """The ``java`` that runs the release in ``dist/`` (Java 17+ for 5.x, 21+ for 2025 onwards)."""
        return find_java(minimum_java(self.check_dist()))

    def conf_text(self) -> str:
        run = self.run_dir
        lines = {
            "server.default_listen_address": "127.0.0.1",
            "server.default_advertised_address": "127.0.0.1",
            "server.bolt.enabled": "true",
            "server.bolt.listen_address": f"127.0.0.1:{self.bolt_port}",
            "server.bolt.advertised_address": f"127.0.0.1:{self.bolt_port}",
            "server.http.enabled": "true",
            "server.http.listen_address": f"127.0.0.1:{self.http_port}",
            "server.http.advertised_address": f"127.0.0.1:{self.http_port}",
            "server.https.enabled": "false",
            "server.directories.data": str(run / "data"),
            "server.directories.logs": str(run / "logs"),
            "server.directories.plugins": str(self.dist / "plugins"),
            "server.directories.import": str(run / "import"),
            "server.directories.run": str(run / "pid"),
            "server.directories.lib": str(self.dist / "lib"),
            "server.memory.heap.initial_size": "512m",
            "server.memory.heap.max_size": self.heap,
            "server.memory.pagecache.size": self.pagecache,
            "dbms.security.auth_enabled": "true",
            "dbms.security.procedures.unrestricted": "apoc.*",
            "dbms.security.procedures.allowlist": "apoc.*,db.*,dbms.*,gds.*",
            "dbms.usage_report.enabled": "false",
            "client.allow_telemetry": "false",
            "db.tx_log.rotation.retention_policy": "2 files",
            "server.logs.gc.enabled": "false",
            "db.transaction.timeout": "0",
        }
        body = "\n".join(f"{k}={v}" for k, v in lines.items())
        return "# generated by graphwalk_neo4j.localserver; edits are overwritten on `make neo4j-up`\n" + body + "\n"

    def apoc_conf_text(self) -> str:
        """``apoc.conf`` (APOC 5 reads its settings only from there): the HTTP read timeout of ``apoc.load.*``
        raised from 60 s to :data:`APOC_HTTP_READ_TIMEOUT_MS`, so a walk run from Cypher through the service
        (``cypher/recipes/run_walk.cypher``) is not cut off; it stays above the service's own request timeout."""
        return (
            "# generated by graphwalk_neo4j.localserver; edits are overwritten on `make neo4j-up`\n"
            f"apoc.http.timeout.read={APOC_HTTP_READ_TIMEOUT_MS}\n"
        )

    def write_conf(self) -> Path:
        for sub in ("conf", "data", "logs", "import", "pid"):
            (self.run_dir / sub).mkdir(parents=True, exist_ok=True)
        conf = self.conf_dir / "neo4j.conf"
        conf.write_text(self.conf_text(), encoding="utf-8")
        (self.conf_dir / "apoc.conf").write_text(self.apoc_conf_text(), encoding="utf-8")
        return conf

    def _java_env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["NEO4J_HOME"] = str(self.home)
        env["NEO4J_CONF"] = str(self.conf_dir)
        return env

    def _classpath(self) -> str:
        # lib/ first: APOC's core jar bundles older copies of libraries (commons-lang3) that the server also ships
        return f"{self.dist / 'lib'}/*:{self.dist / 'plugins'}/*"

    def set_initial_password(self) -> None:
        marker = self.run_dir / "data" / "dbms" / "auth.ini"
        if marker.exists() or (self.run_dir / "data" / "databases" / "system").exists():
            return
        cmd = [
            str(self.java()),
            "-cp",
            self._classpath(),
            "org.neo4j.cli.AdminTool",
            "dbms",
            "set-initial-password",
            self.password,
        ]
        proc = subprocess.run(cmd, env=self._java_env(), capture_output=True, text=True, timeout=180)
        if proc.returncode != 0:
            raise LocalServerError(f"set-initial-password failed: {proc.stderr.strip() or proc.stdout.strip()}")

    # ---- process control ---------------------------------------------------------------------------------
    def pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            return pid
        return pid

    def bolt_answers(self, timeout: float = 2.0) -> bool:
        """True when the Bolt port completes a protocol handshake (magic preamble + version negotiation)."""
        try:
            with socket.create_connection(("127.0.0.1", self.bolt_port), timeout=timeout) as sock:
                sock.sendall(bytes.fromhex("6060B017") + bytes.fromhex("00000505000004040000000000000000"))
                reply = sock.recv(4)
                return len(reply) == 4 and reply != b"\x00\x00\x00\x00"
        except OSError:
            return False

    def query_http(self, statement: str, timeout: float = 5.0) -> dict[str, Any]:
        """Run one statement through the HTTP transaction endpoint (used for readiness, no driver needed)."""
        url = f"http://127.0.0.1:{self.http_port}/db/neo4j/tx/commit"
        body = json.dumps({"statements": [{"statement": statement}]}).encode()
        token = base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        req = urllib.request.Request(
            url,
            data=body,
            headers={"Content-Type": "application/json", "Authorization": f"Basic {token}"},
        )
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            reply: dict[str, Any] = json.loads(resp.read())
        return reply

    def ready(self) -> bool:
        if not self.bolt_answers():
            return False
        try:
            result = self.query_http("RETURN 1 AS ok")
        except (urllib.error.URLError, OSError, ValueError):
            return False
        return not result.get("errors") and bool(result.get("results"))

    def up(self, wait_s: float = 180.0) -> str:
        if self.pid() is not None and self.ready():
            return f"Neo4j already running (pid {self.pid()}) at {self.bolt_uri}"
        if self.pid() is None and self.bolt_answers():
            raise LocalServerError(
                f"Port {self.bolt_port} already answers Bolt but not with this project's server. Stop the other "
                "Neo4j, or set GW_NEO4J_URI to use it instead."
            )
        version = self.check_dist()
        java = self.java()
        self.write_conf()
        self.set_initial_password()
        self.console_log.parent.mkdir(parents=True, exist_ok=True)
        cmd = [
            str(java),
            "-Xms512m",
            f"-Xmx{self.heap}",
            *JVM_FLAGS,
            "-cp",
            self._classpath(),
            entry_point(self.dist / "lib" / f"neo4j-{version}.jar"),
            f"--home-dir={self.home}",
            f"--config-dir={self.conf_dir}",
            "--console-mode",
        ]
        with open(self.console_log, "ab") as log:
            proc = subprocess.Popen(
                cmd,
                env=self._java_env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                cwd=self.run_dir,
            )
        self.pid_file.write_text(str(proc.pid))
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise LocalServerError(
                    f"Neo4j exited with code {proc.returncode} during start-up; see {self.console_log}"
                )
            if self.ready():
                return f"Neo4j started (pid {proc.pid}) at {self.bolt_uri}; Browser at {self.browser_url}"
            time.sleep(0.5)
        raise LocalServerError(f"Neo4j did not answer within {wait_s:.0f}s; see {self.console_log}")

    def down(self, wait_s: float = 60.0) -> str:
        pid = self.pid()
        if pid is None:
            return "Neo4j is not running"
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if self.pid() is None:
                break
            time.sleep(0.3)
        else:
            os.kill(pid, signal.SIGKILL)
        self.pid_file.unlink(missing_ok=True)
        return f"Neo4j stopped (pid {pid})"

    def status(self) -> dict[str, Any]:
        pid = self.pid()
        return {
            "running": pid is not None,
            "pid": pid,
            "bolt_uri": self.bolt_uri,
            "bolt_answers": self.bolt_answers(),
            "ready": self.ready() if pid is not None else False,
            "browser_url": self.browser_url,
            "home": str(self.home),
        }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in {"up", "down", "status", "logs", "conf", "java"}:
        print("usage: python -m graphwalk_neo4j.localserver up|down|status|logs|conf|java", file=sys.stderr)
        return 2
    server = LocalServer()
    try:
        if args[0] == "up":
            print(server.up())
        elif args[0] == "down":
            print(server.down())
        elif args[0] == "status":
            state = server.status()
            print(json.dumps(state, indent=2))
            return 0 if state["ready"] else 1
        elif args[0] == "conf":
            print(server.conf_text(), end="")
        elif args[0] == "java":
            print(server.java().resolve().parent.parent)
        else:
            for name in ("console.log", "neo4j.log", "debug.log"):
                path = server.run_dir / "logs" / name
                if path.exists():
                    lines = path.read_text(errors="replace").splitlines()[-60:]
                    print(f"==> {path} <==")
                    print("\n".join(lines))
    except LocalServerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
