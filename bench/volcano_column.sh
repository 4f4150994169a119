#!/usr/bin/env bash
# The `volcano` column of bench/README.md: Volcano HEAD's own session time (through the
# vcharness harness, ../shared/tools/vcharness) beside vcsched's, on S, M, O, M with
# HyperNodes and M with the affinity mix, measured in one run with the two alternating
# (round by round) so that both see the same machine load. Volcano runs twice per round:
# with its defaults (adaptive percentage-nodes-to-find scores only part of the nodes on
# large clusters) and with --percentage-nodes-to-find=100 (every node, as vcsched does).
#
#   bench/volcano_column.sh VCHARNESS [BUILD_DIR] [OUT_DIR] [ROUNDS]
#       defaults: build, build/bench-out, 2
# The harness is a tool beside the project (Go, Volcano's source); nothing here builds it.
set -euo pipefail
cd "$(dirname "$0")/.."
HARNESS="${1:?usage: bench/volcano_column.sh VCHARNESS [BUILD_DIR] [OUT_DIR] [ROUNDS]}"
BUILD="${2:-build}"
OUT="${3:-$BUILD/bench-out}"
ROUNDS="${4:-2}"
PY=/usr/bin/python3
mkdir -p "$OUT"
gen() {  # name command...
  local name="$1"
  shift
  [ -s "$OUT/$name.yaml" ] || "$@" > "$OUT/$name.yaml"
}
gen S "$PY" bench/genload.py --nodes 100 --jobs 50 --replicas 20
gen M "$PY" bench/genload.py --nodes 1000 --jobs 500 --replicas 40
gen O "$PY" bench/genload.py --nodes 500 --jobs 800 --replicas 50
[ -s "$OUT/M-topology.yaml" ] || "$PY" bench/genload.py --nodes 1000 --jobs 500 --replicas 40 \
  | "$PY" bench/topology_shape.py "$OUT/M"
[ -s "$OUT/M-aff.yaml" ] || "$PY" bench/genload.py --nodes 1000 --jobs 500 --replicas 40 \
  | "$PY" bench/affinity_mix.py --terms > "$OUT/M-aff.yaml"

rows="$OUT/volcano.jsonl"
: > "$rows"
for round in $(seq "$ROUNDS"); do
  for name in S O M M-topology M-aff; do
    file="$OUT/$name.yaml"
    "$BUILD/vcsched" bench "$file" --repeat 5 > "$OUT/volcano-ours.json"
    "$HARNESS" --repeat 1 "$file" > "$OUT/volcano-default.json" 2>/dev/null
    "$HARNESS" --repeat 1 --percentage-nodes-to-find=100 "$file" > "$OUT/volcano-full.json" 2>/dev/null
    "$PY" - "$name" "$round" "$OUT/volcano-ours.json" "$OUT/volcano-default.json" "$OUT/volcano-full.json" \
      >> "$rows" <<'ROW'
import json, sys
name, rnd = sys.argv[1], int(sys.argv[2])
ours, default, full = (json.load(open(p)) for p in sys.argv[3:])
print(json.dumps({"scenario": name, "round": rnd, "vcsched_ms": ours["session_ms"],
                  "vcsched_binds": ours["binds"], "volcano_ms": default["session_ms"],
                  "volcano_binds": len(default.get("binds") or []), "volcano_all_nodes_ms": full["session_ms"],
                  "volcano_all_nodes_binds": len(full.get("binds") or [])}))
ROW
  done
done
"$PY" - "$rows" <<'TABLE'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("| scenario | vcsched ms | volcano ms (default flags) | ratio | volcano ms (100% of nodes) | ratio | binds vcsched / volcano / volcano 100% |")
print("|---|--:|--:|--:|--:|--:|---|")
for name in dict.fromkeys(r["scenario"] for r in rows):
    rs = [r for r in rows if r["scenario"] == name]
    med = lambda k: statistics.median(r[k] for r in rs)
    ours, vd, vf = med("vcsched_ms"), med("volcano_ms"), med("volcano_all_nodes_ms")
    print(f"| {name} | {ours:.2f} | {vd:,.0f} | {vd / ours:,.0f}x | {vf:,.0f} | {vf / ours:,.0f}x | "
          f"{rs[0]['vcsched_binds']} / {rs[0]['volcano_binds']} / {rs[0]['volcano_all_nodes_binds']} |")
TABLE
