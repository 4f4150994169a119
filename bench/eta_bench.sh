#!/usr/bin/env bash
# The start-time estimate benchmark (docs/ETA.md): `vcsched eta` on generated states of
# 1,000 nodes, 20,000 pods and 1,000 pending jobs (bench/eta_state.py) in four shapes,
# beside one session on the same state (`vcsched bench`, its median) and the load alone,
# measured in the same run. Prints the wall time, the sessions the future took, and the
# estimate's cost in sessions. SHAPES and PENDING pick others: SHAPES="plain" PENDING=200.
#
#   bench/eta_bench.sh [build/vcsched]
set -euo pipefail
cd "$(dirname "$0")/.."
VCSCHED="${1:-build/vcsched}"
SHAPES="${SHAPES:-plain affinity spread topology}"
PENDING="${PENDING:-1000}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/none.yaml" <<'WL'
apiVersion: vcsched/v1
kind: Workload
start: 2026-12-07T12:40:00Z
WL
printf '%-9s %8s %9s %10s %10s %9s %11s %s\n' shape started sessions eta_s load_ms session_ms eta/session identical
for shape in $SHAPES; do
  python3 bench/eta_state.py --shape "$shape" --pending-jobs "$PENDING" > "$work/$shape.json"
  read -r load session < <("$VCSCHED" bench --repeat 5 "$work/$shape.json" |
    python3 -c "import json, sys; b = json.load(sys.stdin); print(b['load_ms'], b['session_ms'])")
  start=$(date +%s.%N)
  "$VCSCHED" eta "$work/$shape.json" -o json > "$work/$shape.eta1"
  end=$(date +%s.%N)
  "$VCSCHED" eta "$work/$shape.json" -o json > "$work/$shape.eta2"
  same=yes
  cmp -s "$work/$shape.eta1" "$work/$shape.eta2" || same=no
  read -r started last < <(python3 -c "
import json; d = json.load(open('$work/$shape.eta1')); s = [j['start_s'] for j in d['jobs'] if j['start_s'] is not None]
print(len(s), max(s) if s else 0)")
  sessions=$("$VCSCHED" simulate "$work/$shape.json" "$work/none.yaml" --cluster-runtimes --until "$((${last%.*} + 1))s" |
    python3 -c "import json, sys; print(json.load(sys.stdin)['sessions'])")
  wall=$(python3 -c "print(round($end - $start, 2))")
  printf '%-9s %8s %9s %10s %10s %9s %11s %s\n' "$shape" "$started/$PENDING" "$sessions" "$wall" "$load" "$session" \
    "$(python3 -c "print(round($wall * 1000 / $session, 1))")" "$same"
done
