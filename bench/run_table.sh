#!/usr/bin/env bash
# Reproduces bench/README.md's table: generates the issue-5 scenarios, runs
# `vcsched bench --reference` on each (the optimised path and the every-node reference
# path alternate, so both see the same machine load), prints a markdown table and writes
# the raw JSON lines and the SVG plot next to it.
#
#   bench/run_table.sh [BUILD_DIR] [OUT_DIR]      # defaults: build, build/bench-out
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
OUT="${2:-$BUILD/bench-out}"
PY=/usr/bin/python3
mkdir -p "$OUT"
: > "$OUT/results.jsonl"

run() {  # name nodes pods repeat generator-args...
  local name="$1" nodes="$2" pods="$3" repeat="$4"
  shift 4
  [ -s "$OUT/$name.yaml" ] || "$PY" "$@" > "$OUT/$name.yaml"
  local bytes
  bytes=$(stat -c %s "$OUT/$name.yaml")
  "$BUILD/vcsched" bench "$OUT/$name.yaml" --repeat "$repeat" --reference |
    sed "s/^{/{\"name\": \"$name\", \"nodes\": $nodes, \"pods\": $pods, \"file_bytes\": $bytes, /" >> "$OUT/results.jsonl"
}

run S 100 1000 15 bench/genload.py --nodes 100 --jobs 50 --replicas 20
run M 1000 20000 9 bench/genload.py --nodes 1000 --jobs 500 --replicas 40
run O 500 40000 9 bench/genload.py --nodes 500 --jobs 800 --replicas 50
run L 5000 100000 3 bench/genload.py --nodes 5000 --jobs 1000 --replicas 100
run Armada 1000 32000 3 bench/armada_shape.py

# Ingest: L again, as one kubectl-style JSON List (simdjson front end).
[ -s "$OUT/L-json.json" ] || "$PY" bench/to_json.py "$OUT/L.yaml" > "$OUT/L-json.json"
"$BUILD/vcsched" bench "$OUT/L-json.json" --repeat 3 |
  sed "s/^{/{\"name\": \"L (JSON)\", \"nodes\": 5000, \"pods\": 100000, \"file_bytes\": $(stat -c %s "$OUT/L-json.json"), /" \
  >> "$OUT/results.jsonl"

"$PY" bench/results_table.py "$OUT/results.jsonl"
"$PY" bench/plot_svg.py "$OUT/results.jsonl" "$OUT/session_time.svg"
echo "plot: $OUT/session_time.svg"
