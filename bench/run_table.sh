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

# The inputs, generated once and kept in OUT.
gen() {  # name generator-args...
  local name="$1"
  shift
  [ -s "$OUT/$name.yaml" ] || "$PY" "$@" > "$OUT/$name.yaml"
}
gen S bench/genload.py --nodes 100 --jobs 50 --replicas 20
gen M bench/genload.py --nodes 1000 --jobs 500 --replicas 40
gen O bench/genload.py --nodes 500 --jobs 800 --replicas 50
gen L bench/genload.py --nodes 5000 --jobs 1000 --replicas 100
gen Armada bench/armada_shape.py
# JSON: L again, as one kubectl-style JSON List (simdjson front end), for ingest; and
# Armada, whose session after the JSON loader does not inherit the YAML loader's heap.
for name in L Armada; do
  [ -s "$OUT/$name-json.json" ] || "$PY" bench/to_json.py "$OUT/$name.yaml" > "$OUT/$name-json.json"
done

# Ingest: a load happens once per process, and this machine has slow spells lasting
# seconds, so L's JSON loads are spread over the whole run (one after each YAML row, four
# at the end) and ingest is the median of the nine.
INGEST="$OUT/ingest.jsonl"
: > "$INGEST"
ingest_load() { "$BUILD/vcsched" bench "$OUT/L-json.json" --repeat 3 >> "$INGEST"; }

# One line per scenario: the headline figures from runs back to back (`vcsched bench`),
# and the speedup from a second run that alternates with the reference path (both then
# see the same machine load and the same caches, colder than back to back).
run() {  # name nodes pods repeat
  local name="$1" nodes="$2" pods="$3" repeat="$4"
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
  ingest_load
}

run S 100 1000 15
run M 1000 20000 9
run O 500 40000 9
run L 5000 100000 5
run Armada 1000 32000 15
for _ in 1 2 3 4; do ingest_load; done

# A JSON row from the `vcsched bench` lines in LINES: the process with the median load
# time, with every load time beside it.
json_row() {  # name nodes pods lines-file
  "$PY" - "$1 (JSON)" "$2" "$3" "$(stat -c %s "$OUT/$1-json.json")" "$4" >> "$OUT/results.jsonl" <<'MERGE'
import json, sys
name, nodes, pods, size, lines = sys.argv[1:6]
runs = sorted((json.loads(line) for line in open(lines) if line.strip()), key=lambda r: r["load_ms"])
row = {"name": name, "nodes": int(nodes), "pods": int(pods), "file_bytes": int(size)}
row.update(runs[(len(runs) - 1) // 2])
row["load_ms_runs"] = [r["load_ms"] for r in runs]
print(json.dumps(row))
MERGE
}
json_row L 5000 100000 "$INGEST"
"$BUILD/vcsched" bench "$OUT/Armada-json.json" --repeat 15 > "$OUT/armada-json.jsonl"
json_row Armada 1000 32000 "$OUT/armada-json.jsonl"

"$PY" bench/results_table.py "$OUT/results.jsonl"
"$PY" bench/plot_svg.py "$OUT/results.jsonl" "$OUT/session_time.svg"
echo "plot: $OUT/session_time.svg"
