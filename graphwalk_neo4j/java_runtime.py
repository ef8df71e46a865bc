"""Which Java runs a given Neo4j release (standard library only, like the launcher that uses it).

Neo4j 5.x runs on Java 17 or 21; the calendar-versioned line (2025.01 onwards) needs Java 21 or newer. A machine
often has several JDKs, and the one on ``PATH`` is not always new enough, so the launcher asks :func:`find_java`
for the first JDK that is, in this order:

1. ``GW_NEO4J_JAVA_HOME`` (a JDK folder; an explicit choice, so one that is too old is an error, not skipped);
2. ``JAVA_HOME``;
3. ``java`` on ``PATH``;
4. every JDK under the usual install roots (``/usr/lib/jvm`` on Debian and Ubuntu, ``/usr/java``,
   ``/Library/Java/JavaVirtualMachines/*/Contents/Home`` on macOS), newest first.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from graphwalk_neo4j.errors import LocalServerError

JAVA_HOME_ENV = "GW_NEO4J_JAVA_HOME"
INSTALL_ROOTS = ("/usr/lib/jvm", "/usr/java", "/Library/Java/JavaVirtualMachines")
_VERSION_RE = re.compile(r'(?:JAVA_VERSION="|version ")(\d+)(?:\.(\d+))?')


def minimum_java(neo4j_version: str) -> int:
    """The oldest Java major version that ``neo4j_version`` starts on: 17 for 5.x, 21 for 2025.01 and later."""
    first = neo4j_version.split(".", 1)[0]
    if not first.isdigit():
        raise LocalServerError(f"Neo4j version {neo4j_version!r} is not a release number such as 5.26.5 or 2026.09.0")
    return 21 if int(first) >= 2025 else 17


def parse_java_major(text: str) -> int | None:
    """The major version in a JDK's ``release`` file or in ``java -version`` output (``1.8`` counts as 8)."""
    match = _VERSION_RE.search(text)
    if match is None:
        return None
    major = int(match.group(1))
    if major == 1 and match.group(2):
        return int(match.group(2))
    return major


def java_major(java: Path) -> int | None:
    """Major version of the ``java`` binary at ``java``: from its JDK's ``release`` file, else ``java -version``."""
    release = java.resolve().parent.parent / "release"
    if release.is_file():
        found = parse_java_major(release.read_text(errors="replace"))
        if found is not None:
            return found
    try:
        proc = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_java_major(proc.stderr + proc.stdout)


def _installed_homes() -> list[Path]:
    homes: list[Path] = []
    for root in INSTALL_ROOTS:
        base = Path(root)
        if not base.is_dir():
            continue
        for entry in sorted(base.iterdir(), reverse=True):
            mac_home = entry / "Contents" / "Home"
            homes.append(mac_home if mac_home.is_dir() else entry)
    return homes


def candidates() -> list[tuple[str, Path]]:
    """Every ``java`` binary worth asking, with where it came from, in the order of the module docstring."""
    found: list[tuple[str, Path]] = []
    java_home = os.environ.get("JAVA_HOME")
    if java_home:
        found.append(("JAVA_HOME", Path(java_home) / "bin" / "java"))
    on_path = shutil.which("java")
    if on_path:
        found.append(("PATH", Path(on_path)))
    found.extend((str(home), home / "bin" / "java") for home in _installed_homes())
    return [(origin, java) for origin, java in found if java.is_file()]


def find_java(minimum: int) -> Path:
    """The first ``java`` of major version ``minimum`` or newer; a clear error naming the way out otherwise."""
    explicit = os.environ.get(JAVA_HOME_ENV)
    if explicit:
        java = Path(explicit).expanduser() / "bin" / "java"
        major = java_major(java) if java.is_file() else None
        if major is None or major < minimum:
            seen = "no bin/java" if major is None else f"Java {major}"
            raise LocalServerError(
                f"{JAVA_HOME_ENV}={explicit} has {seen}; this Neo4j needs Java {minimum} or newer. Point "
                f"{JAVA_HOME_ENV} at a newer JDK, or unset it to search JAVA_HOME, PATH and {INSTALL_ROOTS[0]}."
            )
        return java
    tried: list[str] = []
    for origin, java in candidates():
        major = java_major(java)
        if major is not None and major >= minimum:
            return java
        tried.append(f"{java} (Java {major}, from {origin})")
    raise LocalServerError(
        f"this Neo4j needs Java {minimum} or newer, and none was found ({', '.join(tried) or 'no java at all'}). "
        f"Install a JDK {minimum}+ and set {JAVA_HOME_ENV} to its folder."
    )
