"""Fetching Neo4j without Maven: the packaged locks, and installing jars from a repository (a ``file://`` one here,
laid out as Maven Central is) with every SHA-1 checked before a jar lands."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import pytest

from graphwalk_neo4j.errors import LocalServerError
from graphwalk_neo4j.localserver import default_home, dist_version
from graphwalk_neo4j.neo4j_download import (
    JARS_FROM_ENV,
    REPOSITORY_ENV,
    LockedJar,
    install_jars,
    locked_versions,
    parse_lock,
    read_lock,
)

if TYPE_CHECKING:
    from pathlib import Path


def published(repo: Path, path: str, content: bytes) -> LockedJar:
    """A jar at ``path`` in the repository ``repo``, and its lock entry."""
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)
    folder = "plugins" if "apoc" in path else "lib"
    return LockedJar(folder, path, hashlib.sha1(content, usedforsecurity=False).hexdigest())


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "central"
    monkeypatch.setenv(REPOSITORY_ENV, root.as_uri())
    monkeypatch.delenv(JARS_FROM_ENV, raising=False)
    return root


def test_the_package_locks_both_release_lines() -> None:
    assert locked_versions() == ["2026.09.0", "5.26.5"]
    for version in locked_versions():
        jars = read_lock(version)
        names = [j.name for j in jars]
        assert len(names) == len(set(names))
        assert f"neo4j-{version}.jar" in names
        assert next(j.name for j in jars if j.folder == "plugins") == "apoc-core-5.26.5-core.jar"
        assert all(len(j.sha1) == 40 and int(j.sha1, 16) >= 0 for j in jars)
    plugins = {j.name for j in read_lock("2026.09.0") if j.folder == "plugins"}
    assert plugins == {  # docs/neo4j.md, APOC
        "apoc-core-5.26.5-core.jar",
        "neo4j-graph-algo-5.26.5.jar",
        "woodstox-core-5.4.0.jar",
        "stax2-api-4.2.1.jar",
        "commons-collections4-4.4.jar",
        "hadoop-shaded-guava-1.5.0.jar",
    }


@pytest.mark.parametrize("version", ["5.26.5", "2026.09.0"])
def test_a_lock_lists_exactly_the_jars_maven_assembled(version: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GW_NEO4J_HOME", raising=False)
    dist = default_home(version) / "dist"
    if dist_version(dist / "lib") != version:
        pytest.skip(f"no Maven-assembled Neo4j {version} here (`make neo4j-fetch NEO4J_VERSION={version}`)")
    on_disk = {(folder, p.name) for folder in ("lib", "plugins") for p in (dist / folder).glob("*.jar")}
    assert {(j.folder, j.name) for j in read_lock(version)} == on_disk


def test_a_malformed_lock_line_is_named() -> None:
    with pytest.raises(LocalServerError, match=r"line 2 of the lock .*'lib some.jar'"):
        parse_lock("# header\nlib some.jar\n")
    with pytest.raises(
        LocalServerError, match=r"cannot fetch Neo4j 4\.4\.0 on its own; it has locks for 2026\.09\.0, 5\.26\.5"
    ):
        read_lock("4.4.0")


def test_install_downloads_checks_and_is_idempotent(repo: Path, tmp_path: Path) -> None:
    jars = [
        published(repo, "org/neo4j/neo4j/9.9.9/neo4j-9.9.9.jar", b"engine"),
        published(repo, "org/neo4j/procedure/apoc-core/9.9.9/apoc-core-9.9.9-core.jar", b"apoc"),
    ]
    dist = tmp_path / "dist"
    (dist / "lib").mkdir(parents=True)
    (dist / "lib" / "left-from-before.jar").write_bytes(b"old")
    report = install_jars("9.9.9", jars, dist, progress=False)
    assert (report.jars, report.downloaded, report.already_there) == (2, 2, False)
    assert (dist / "lib" / "neo4j-9.9.9.jar").read_bytes() == b"engine"
    assert (dist / "plugins" / "apoc-core-9.9.9-core.jar").read_bytes() == b"apoc"
    assert not (dist / "lib" / "left-from-before.jar").exists()
    assert (dist / ".fetched").read_text() == "9.9.9\n"
    again = install_jars("9.9.9", jars, dist, progress=False)
    assert (again.downloaded, again.already_there) == (0, True)


def test_a_jar_whose_sha1_differs_is_never_installed(repo: Path, tmp_path: Path) -> None:
    good = published(repo, "org/neo4j/neo4j/9.9.9/neo4j-9.9.9.jar", b"engine")
    (repo / good.path).write_bytes(b"tampered")
    dist = tmp_path / "dist"
    with pytest.raises(LocalServerError) as info:
        install_jars("9.9.9", [good], dist, progress=False)
    tampered = hashlib.sha1(b"tampered", usedforsecurity=False).hexdigest()
    assert str(info.value).startswith(f"neo4j-9.9.9.jar: SHA-1 {tampered} does not match the lock's {good.sha1}")
    assert list((dist / "lib").iterdir()) == []
    assert not (dist / ".fetched").exists()


def test_a_missing_jar_names_the_url(repo: Path, tmp_path: Path) -> None:
    absent = LockedJar("lib", "org/neo4j/neo4j/9.9.9/neo4j-9.9.9.jar", "0" * 40)
    with pytest.raises(LocalServerError, match=r"download of file://.*neo4j-9\.9\.9\.jar failed"):
        install_jars("9.9.9", [absent], tmp_path / "dist", progress=False)


def test_jars_are_reused_from_a_local_maven_repository(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    m2 = tmp_path / "m2"
    jar = published(m2, "org/neo4j/neo4j/9.9.9/neo4j-9.9.9.jar", b"engine")
    monkeypatch.setenv(JARS_FROM_ENV, str(m2))
    report = install_jars("9.9.9", [jar], tmp_path / "dist", progress=False)  # `repo` is empty: nothing to download
    assert report.downloaded == 0
    assert (tmp_path / "dist" / "lib" / "neo4j-9.9.9.jar").read_bytes() == b"engine"
