"""Fetch a Neo4j server + APOC straight from Maven Central, without Maven (standard library only).

``make neo4j-fetch`` resolves the server with Maven (``neo4j/pom.xml``). A user who only ran ``pip install`` has no
Maven and no checkout, so the package ships the result of that resolution: one lock file per supported release,
``graphwalk_neo4j/data/neo4j/<version>.lock``, each line ``<lib|plugins> <repository path> <sha1>`` (written by
``scripts/neo4j_lock.py`` from a Maven-assembled ``dist/``). :func:`fetch_dist` downloads every listed jar over
HTTPS from Maven Central (``GW_NEO4J_MAVEN_REPOSITORY`` names a mirror), checks each one's SHA-1 against the lock
before it lands under ``dist/``, and writes ``dist/.fetched`` last, so an interrupted fetch is resumed, never
half-used. ``GW_NEO4J_JARS_FROM`` names a local Maven repository (``~/.m2/repository``) or a ``dist/`` whose jars
are reused when their SHA-1 matches (CI's cache); anything missing there is still downloaded.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from graphwalk_neo4j.errors import LocalServerError

MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2"
REPOSITORY_ENV = "GW_NEO4J_MAVEN_REPOSITORY"
JARS_FROM_ENV = "GW_NEO4J_JARS_FROM"
STAMP = ".fetched"
PARALLEL = 8  # downloads at once: enough to fill a home connection with 250 small jars, few enough to be polite


@dataclass(frozen=True)
class LockedJar:
    """One jar of a release: where it goes (``lib`` or ``plugins``), its path in a Maven repository, its SHA-1."""

    folder: str
    path: str
    sha1: str

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


def lock_path(version: str) -> Path:
    return Path(str(resources.files("graphwalk_neo4j") / "data" / "neo4j" / f"{version}.lock"))


def locked_versions() -> list[str]:
    """The releases this package can fetch on its own, oldest first."""
    folder = Path(str(resources.files("graphwalk_neo4j") / "data" / "neo4j"))
    return sorted(p.stem for p in folder.glob("*.lock"))


def parse_lock(text: str) -> list[LockedJar]:
    jars: list[LockedJar] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 3 or parts[0] not in {"lib", "plugins"} or len(parts[2]) != 40:
            raise LocalServerError(f"line {number} of the lock is not '<lib|plugins> <path> <sha1>': {line!r}")
        jars.append(LockedJar(parts[0], parts[1], parts[2].lower()))
    return jars


def read_lock(version: str) -> list[LockedJar]:
    path = lock_path(version)
    if not path.is_file():
        raise LocalServerError(
            f"this package cannot fetch Neo4j {version} on its own; it has locks for {', '.join(locked_versions())}. "
            "Pick one of those with --version, or assemble another release from a clone with "
            "`make neo4j-fetch NEO4J_VERSION=...`."
        )
    return parse_lock(path.read_text(encoding="utf-8"))


def sha1_of(path: Path) -> str:
    digest = hashlib.sha1(usedforsecurity=False)
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _reusable(jar: LockedJar, source: Path | None) -> Path | None:
    """A local copy of ``jar`` with the locked SHA-1: in a Maven repository layout or a flat dist/ folder."""
    if source is None:
        return None
    for candidate in (source / jar.path, source / jar.folder / jar.name, source / jar.name):
        if candidate.is_file() and sha1_of(candidate) == jar.sha1:
            return candidate
    return None


def _download(url: str, target: Path, timeout: float) -> None:
    partial = target.with_name(target.name + ".part")
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp, open(partial, "wb") as out:
            shutil.copyfileobj(resp, out, 1 << 20)
    except (urllib.error.URLError, OSError) as exc:
        partial.unlink(missing_ok=True)
        raise LocalServerError(f"download of {url} failed ({exc}); check the network or set {REPOSITORY_ENV}") from exc
    partial.replace(target)


def fetch_jar(jar: LockedJar, dist: Path, repository: str, source: Path | None, timeout: float = 120.0) -> bool:
    """Put ``jar`` under ``dist`` with its SHA-1 checked; True when it was downloaded (False: present or reused)."""
    target = dist / jar.folder / jar.name
    if target.is_file() and sha1_of(target) == jar.sha1:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    local = _reusable(jar, source)
    staged = target.with_name(target.name + ".new")
    if local is not None:
        shutil.copyfile(local, staged)
    else:
        _download(f"{repository.rstrip('/')}/{jar.path}", staged, timeout)
    found = sha1_of(staged)
    if found != jar.sha1:
        staged.unlink(missing_ok=True)
        raise LocalServerError(
            f"{jar.name}: SHA-1 {found} does not match the lock's {jar.sha1}; nothing was installed from it. "
            f"Retry, or check {REPOSITORY_ENV} if it points at a mirror."
        )
    staged.replace(target)
    return local is None


@dataclass
class FetchReport:
    version: str
    dist: Path
    jars: int
    downloaded: int
    already_there: bool


def fetch_dist(version: str, dist: Path, *, progress: bool = True) -> FetchReport:
    """Assemble Neo4j ``version`` + APOC under ``dist`` (``lib/``, ``plugins/``) from its lock; idempotent."""
    return install_jars(version, read_lock(version), dist, progress=progress)


def install_jars(version: str, jars: list[LockedJar], dist: Path, *, progress: bool = True) -> FetchReport:
    """Put exactly ``jars`` under ``dist`` (checked, see the module docstring) and stamp it with ``version``."""
    stamp = dist / STAMP
    if stamp.is_file() and stamp.read_text().strip() == version:
        return FetchReport(version, dist, len(jars), 0, already_there=True)
    repository = os.environ.get(REPOSITORY_ENV) or MAVEN_CENTRAL
    raw_source = os.environ.get(JARS_FROM_ENV)
    source = Path(raw_source).expanduser() if raw_source else None
    if progress:
        print(f"fetching Neo4j {version} + APOC: {len(jars)} jars into {dist}", file=sys.stderr)
    stamp.unlink(missing_ok=True)
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        downloaded = sum(pool.map(lambda jar: fetch_jar(jar, dist, repository, source), jars))
    wanted = {(jar.folder, jar.name) for jar in jars}
    for folder in ("lib", "plugins"):  # a jar of an earlier fetch that this lock does not list would be loaded too
        for extra in (dist / folder).glob("*.jar"):
            if (folder, extra.name) not in wanted:
                extra.unlink()
    stamp.write_text(version + "\n")
    return FetchReport(version, dist, len(jars), downloaded, already_there=False)
