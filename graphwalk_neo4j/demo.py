"""``make demo``: ``python -m graphwalk_neo4j.demo`` runs the same demo as ``gw-neo4j demo`` (cli/demo.py)."""

from __future__ import annotations

import sys

from graphwalk_neo4j.cli.demo import run_demo

if __name__ == "__main__":
    sys.exit(run_demo())
