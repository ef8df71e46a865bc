"""Write the lock file that lets an installed package fetch a Neo4j release without Maven
(graphwalk_neo4j/neo4j_download.py): every jar of a Maven-assembled ``dist/`` with its path in the local Maven
repository and its SHA-1, checked against the ``.sha1`` that Maven downloaded from Maven Central beside it.

Run from the repo root after ``make neo4j-fetch [NEO4J_VERSION=...]``:
``PYTHONPATH=. .venv/bin/python scripts/neo4j_lock.py DIST [--m2 ~/.m2/repository]``; it writes
``graphwalk_neo4j/data/neo4j/<version>.lock``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graphwalk_neo4j.localserver import dist_version
from graphwalk_neo4j.neo4j_download import lock_path, sha1_of


def locate(name: str, m2: Path, index: dict[str, list[Path]]) -> Path:
    found = index.get(name, [])
    if len(found) != 1:
        raise SystemExit(f"{name}: {len(found)} copies under {m2}; expected exactly one")
    return found[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dist", type=Path)
    parser.add_argument("--m2", type=Path, default=Path.home() / ".m2" / "repository")
    args = parser.parse_args()
    version = dist_version(args.dist / "lib")
    if version is None:
        raise SystemExit(f"no Neo4j engine jar under {args.dist / 'lib'}")
    index: dict[str, list[Path]] = {}
    for jar in args.m2.rglob("*.jar"):
        index.setdefault(jar.name, []).append(jar)
    lines = [f"# Neo4j {version} + APOC: <folder> <path in a Maven repository> <sha1>; scripts/neo4j_lock.py"]
    for folder in ("lib", "plugins"):
        for jar in sorted((args.dist / folder).glob("*.jar")):
            cached = locate(jar.name, args.m2, index)
            digest = sha1_of(jar)
            published = cached.with_name(cached.name + ".sha1").read_text().split()[0].lower()
            if digest != published or sha1_of(cached) != digest:
                raise SystemExit(f"{jar}: SHA-1 {digest} differs from Maven Central's {published}")
            lines.append(f"{folder} {cached.relative_to(args.m2).as_posix()} {digest}")
    out = lock_path(version)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{out}: {len(lines) - 1} jars", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
