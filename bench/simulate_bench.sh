#!/usr/bin/env bash
# The simulation benchmark (docs/SIMULATE.md): simulated seconds per wall second for the
# fixed workload of bench/simulate_workload.py over a day, and over a week at the same
# load (the week's cost against the day's), each run twice to check the outputs are
# byte-identical. Shorter horizons for a quick look: HORIZONS="1h 2h".
#
#   bench/simulate_bench.sh [build/vcsched]
set -euo pipefail
cd "$(dirname "$0")/.."
VCSCHED="${1:-build/vcsched}"
HORIZONS="${HORIZONS:-24h 168h}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-8s %10s %10s %14s %10s %s\n' horizon jobs sessions wall_s sim_s/wall_s identical
for h in $HORIZONS; do
  hours=${h%h}
  days=$(python3 -c "print($hours / 24)")
  python3 bench/simulate_workload.py --days "$days" --out "$work/$h" >/dev/null
  for run in 1 2; do
    start=$(date +%s.%N)
    "$VCSCHED" simulate "$work/$h/cluster.yaml" "$work/$h/workload.yaml" --until "$h" --out "$work/$h/out$run" 2>/dev/null
    end=$(date +%s.%N)
    [ "$run" = 1 ] && wall=$(python3 -c "print(round($end - $start, 2))")
  done
  same=yes
  for f in jobs.csv timeline.csv queues.csv summary.json; do
    cmp -s "$work/$h/out1/$f" "$work/$h/out2/$f" || same=no
  done
  read -r jobs sessions < <(python3 -c "import json; s = json.load(open('$work/$h/out1/summary.json')); print(s['jobs'], s['sessions'])")
  printf '%-8s %10s %10s %14s %10s %s\n' "$h" "$jobs" "$sessions" "$wall" "$(python3 -c "print(round($hours * 3600 / $wall, 1))")" "$same"
done
