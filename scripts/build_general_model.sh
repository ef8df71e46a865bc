#!/usr/bin/env bash
# Build the learned decider that ships as `--model general` (graphwalk_neo4j/data/models/general/): one model
# trained from three of the package's own dev graphs alone (no question-answer pairs), for graphs that have no
# model of their own. None of them is MetaQA, so its MetaQA scores are those of a graph it never saw.
# Needs a running Neo4j (make neo4j-up); the dev graphs are loaded as gw_general_* and removed afterwards.
# Usage: scripts/build_general_model.sh [OUT]   (default: graphwalk_neo4j/data/models/general)
set -euo pipefail
GW=${GW:-gw-neo4j}
DEV=graphwalk_neo4j/data/devsets
OUT=${1:-graphwalk_neo4j/data/models/general}
SETS=(companies companies_freebase movies)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
args=()
for set in "${SETS[@]}"; do
  "$GW" ingest "$DEV/$set/kb.txt" --graph "gw_general_$set" --type-map "$DEV/$set/types.json" --root "$DEV"
  args+=(--graph "gw_general_$set")
done
"$GW" decider train "${args[@]}" --out "$WORK/general" --no-default
mkdir -p "$OUT"
for file in model.npz config.json metrics.json linker.json; do
  cp "$WORK/general/$file" "$OUT/$file"
done
for set in "${SETS[@]}"; do
  "$GW" drop-graph "gw_general_$set" --yes
done
echo "general model written to $OUT"
