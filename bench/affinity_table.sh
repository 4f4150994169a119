#!/usr/bin/env bash
# The affinity-mix benchmark: genload's M and L scenarios with every pod labelled by its
# job, once without placement terms and once with a real cluster's mix (20% preferred
# anti-affinity on hostname, 5% required, 10% zone spread: bench/affinity_mix.py). The
# two runs of each size alternate, so the ratio is measured under the same machine load.
# Inputs are read as JSON (simdjson) to keep the load short; the session is what is
# compared.
#
#   bench/affinity_table.sh [BUILD_DIR] [OUT_DIR] [ROUNDS]   # defaults: build, build/bench-out, 3
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
OUT="${2:-$BUILD/bench-out}"
ROUNDS="${3:-3}"
PY=/usr/bin/python3
mkdir -p "$OUT"
gen() {  # name nodes jobs replicas
  local name="$1" nodes="$2" jobs="$3" replicas="$4"
  [ -s "$OUT/$name-plain.json" ] || "$PY" bench/genload.py --nodes "$nodes" --jobs "$jobs" --replicas "$replicas" \
    | "$PY" bench/affinity_mix.py > "$OUT/$name-plain.yaml"
  [ -s "$OUT/$name-aff.json" ] || "$PY" bench/genload.py --nodes "$nodes" --jobs "$jobs" --replicas "$replicas" \
    | "$PY" bench/affinity_mix.py --terms > "$OUT/$name-aff.yaml"
  for v in plain aff; do
    [ -s "$OUT/$name-$v.json" ] || "$PY" bench/to_json.py "$OUT/$name-$v.yaml" > "$OUT/$name-$v.json"
  done
}
gen M 1000 500 40
gen L 5000 1000 100
: > "$OUT/affinity.jsonl"
for name in M L; do
  for round in $(seq "$ROUNDS"); do
    for v in plain aff; do
      "$BUILD/vcsched" bench "$OUT/$name-$v.json" --repeat 3 >> "$OUT/affinity.jsonl"
    done
  done
done
"$PY" - "$OUT/affinity.jsonl" <<'PYEOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r["file"].rsplit("/", 1)[-1].replace(".json", ""), []).append(r["session_ms"])
print("| scenario | no terms (ms, median) | affinity mix (ms, median) | ratio |")
print("|---|---|---|---|")
for size in ("M", "L"):
    plain, aff = statistics.median(by[f"{size}-plain"]), statistics.median(by[f"{size}-aff"])
    print(f"| {size} | {plain:.1f} | {aff:.1f} | {aff / plain:.1f}x |")
PYEOF
