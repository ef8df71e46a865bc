"""The launcher's release handling: which home, which main class, which Java (pure file and environment logic)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from graphwalk_neo4j import java_runtime, localserver
from graphwalk_neo4j.errors import LocalServerError
from graphwalk_neo4j.java_runtime import find_java, minimum_java, parse_java_major
from graphwalk_neo4j.localserver import PINNED_VERSION, default_home, dist_version, entry_point

ROOT = Path(__file__).resolve().parents[2]


def fake_jdk(root: Path, name: str, version: str) -> Path:
    """A JDK folder as find_java sees one: bin/java and a release file naming the version."""
    home = root / name
    (home / "bin").mkdir(parents=True)
    java = home / "bin" / "java"
    java.write_text("#!/bin/sh\nexit 0\n")
    java.chmod(0o755)
    (home / "release").write_text(f'IMPLEMENTOR="test"\nJAVA_VERSION="{version}"\n')
    return home


def test_minimum_java_per_release_line() -> None:
    assert minimum_java("5.26.5") == 17
    assert minimum_java("2025.01.0") == 21
    assert minimum_java("2026.09.0") == 21
    with pytest.raises(LocalServerError, match="not a release number"):
        minimum_java("latest")


def test_java_major_from_release_file_and_version_output() -> None:
    assert parse_java_major('IMPLEMENTOR="Eclipse Adoptium"\nJAVA_VERSION="25.0.3"\n') == 25
    assert parse_java_major('openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment') == 17
    assert parse_java_major('java version "1.8.0_292"') == 8
    assert parse_java_major("no version here") is None


def test_explicit_java_home_wins_and_a_too_old_one_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    new = fake_jdk(tmp_path, "jdk25", "25.0.3")
    old = fake_jdk(tmp_path, "jdk17", "17.0.15")
    monkeypatch.setenv("GW_NEO4J_JAVA_HOME", str(new))
    assert find_java(21) == new / "bin" / "java"
    monkeypatch.setenv("GW_NEO4J_JAVA_HOME", str(old))
    with pytest.raises(LocalServerError) as info:
        find_java(21)
    assert str(info.value) == (
        f"GW_NEO4J_JAVA_HOME={old} has Java 17; this Neo4j needs Java 21 or newer. Point GW_NEO4J_JAVA_HOME "
        "at a newer JDK, or unset it to search JAVA_HOME, PATH and /usr/lib/jvm."
    )


def test_search_skips_an_old_java_home_for_a_new_enough_installed_jdk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = fake_jdk(tmp_path / "elsewhere", "jdk17", "17.0.15")
    jvm = tmp_path / "jvm"
    fake_jdk(jvm, "java-17-openjdk", "17.0.15")
    new = fake_jdk(jvm, "temurin-25-jdk", "25.0.3")
    monkeypatch.delenv("GW_NEO4J_JAVA_HOME", raising=False)
    monkeypatch.setenv("JAVA_HOME", str(old))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(java_runtime, "INSTALL_ROOTS", (str(jvm),))
    assert find_java(21) == new / "bin" / "java"
    assert find_java(17) == old / "bin" / "java"  # JAVA_HOME first when it is new enough
    with pytest.raises(LocalServerError, match=r"needs Java 26 or newer, and none was found"):
        find_java(26)


def test_dist_version_and_entry_point_come_from_the_engine_jar(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    for name in ("neo4j-server-2026.09.0.jar", "neo4j-browser-5.24.0.jar", "neo4j-bolt-2026.09.0.jar"):
        (lib / name).write_bytes(b"")
    assert dist_version(lib) is None
    engine = lib / "neo4j-2026.09.0.jar"
    with zipfile.ZipFile(engine, "w") as jar:
        jar.writestr("META-INF/services/org.neo4j.server.startup.EntryPoint", "org.neo4j.server.Neo4jCommunity\n")
    assert dist_version(lib) == "2026.09.0"
    assert entry_point(engine) == "org.neo4j.server.Neo4jCommunity"


def test_each_release_has_its_own_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("GW_NEO4J_HOME", raising=False)
    checkout = ROOT / "neo4j"
    assert default_home() == checkout
    assert default_home(PINNED_VERSION) == checkout
    assert default_home("2026.09.0") == checkout / "2026.09.0"
    monkeypatch.setenv("GW_NEO4J_HOME", str(tmp_path))
    assert default_home("2026.09.0") == tmp_path


def test_pinned_version_matches_the_pom_and_the_makefile() -> None:
    pom = (ROOT / "neo4j" / "pom.xml").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"<neo4j.version>([^<]+)</neo4j.version>", pom).group(1) == PINNED_VERSION  # type: ignore[union-attr]
    assert re.search(r"^NEO4J_PINNED := (\S+)$", makefile, re.M).group(1) == PINNED_VERSION  # type: ignore[union-attr]
    assert localserver.VERSION_ENV == "GW_NEO4J_VERSION"
