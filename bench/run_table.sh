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

# One line per scenario: the headline figures from runs back to back (`vcsched bench`),
# and the speedup from a second run that alternates with the reference path (both then
# see the same machine load and the same caches, colder than back to back).
run() {  # name nodes pods repeat generator-args...
  local name="$1" nodes="$2" pods="$3" repeat="$4"
  shift 4
  [ -s "$OUT/$name.yaml" ] || "$PY" "$@" > "$OUT/$name.yaml"
  local bytes plain paired
  bytes=$(stat -c %s "$OUT/$name.yaml")
  plain=$("$BUILD/vcsched" bench "$OUT/$name.yaml" --repeat "$repeat")
  paired=$("$BUILD/vcsched" bench "$OUT/$name.yaml" --repeat "$(( (repeat + 2) / 3 ))" --reference)
  "$PY" - "$name" "$nodes" "$pods" "$bytes" "$plain" "$paired" >> "$OUT/results.jsonl" <<'MERGE'
import json, sys
name, nodes, pods, size, plain, paired = sys.argv[1:]
row = {"name": name, "nodes": int(nodes), "pods": int(pods), "file_bytes": int(size)}
row.update(json.loads(plain))
p = json.loads(paired)
row.update(reference_session_ms=p["reference_session_ms"], speedup=p["speedup"],
           session_ms_beside_reference=p["session_ms"])
print(json.dumps(row))
MERGE
}

run S 100 1000 15 bench/genload.py --nodes 100 --jobs 50 --replicas 20
run M 1000 20000 9 bench/genload.py --nodes 1000 --jobs 500 --replicas 40
run O 500 40000 9 bench/genload.py --nodes 500 --jobs 800 --replicas 50
run L 5000 100000 5 bench/genload.py --nodes 5000 --jobs 1000 --replicas 100
run Armada 1000 32000 15 bench/armada_shape.py

# JSON: L again, as one kubectl-style JSON List (simdjson front end), for ingest; and
# Armada, whose session after the JSON loader does not inherit the YAML loader's heap.
# A load happens once per process, so ingest is the median over `loads` processes (the
# row is that process's line, with every load time beside it).
json_run() {  # name nodes pods repeat loads
  local name="$1" nodes="$2" pods="$3" repeat="$4" loads="$5" lines=()
  [ -s "$OUT/$name-json.json" ] || "$PY" bench/to_json.py "$OUT/$name.yaml" > "$OUT/$name-json.json"
  for _ in $(seq "$loads"); do lines+=("$("$BUILD/vcsched" bench "$OUT/$name-json.json" --repeat "$repeat")"); done
  "$PY" - "$name (JSON)" "$nodes" "$pods" "$(stat -c %s "$OUT/$name-json.json")" "${lines[@]}" >> "$OUT/results.jsonl" <<'MERGE'
import json, sys
name, nodes, pods, size = sys.argv[1:5]
runs = sorted((json.loads(line) for line in sys.argv[5:]), key=lambda r: r["load_ms"])
row = {"name": name, "nodes": int(nodes), "pods": int(pods), "file_bytes": int(size)}
row.update(runs[(len(runs) - 1) // 2])
row["load_ms_runs"] = [r["load_ms"] for r in runs]
print(json.dumps(row))
MERGE
}
json_run L 5000 100000 3 5
json_run Armada 1000 32000 15 1

"$PY" bench/results_table.py "$OUT/results.jsonl"
"$PY" bench/plot_svg.py "$OUT/results.jsonl" "$OUT/session_time.svg"
echo "plot: $OUT/session_time.svg"
