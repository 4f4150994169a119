#!/usr/bin/env bash
# The week's cost against the day's (issue 21's "a week costing <= 8x the day"), measured
# so that the machine's drift cancels: the week runs once on one CPU while the day runs
# back to back on another for as long as the week runs, then the two CPUs swap roles.
# Each pass gives week / (mean day beside it); the result is the sum of the weeks over
# the sum of the mean days. Sequential runs on a virtual machine whose speed moves by a
# third within the hour rank nothing; days run beside the week see the same spells.
#
#   bench/week_beside_days.sh [build/vcsched] [CPU_A CPU_B]    (needs two CPUs, taskset)
set -euo pipefail
cd "$(dirname "$0")/.."
VCSCHED="$(realpath "${1:-build/vcsched}")"
CPU_A="${2:-0}"
CPU_B="${3:-1}"
command -v taskset >/dev/null || { echo "taskset (util-linux) is needed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/simulate_workload.py --days 1 --out "$work/day" >/dev/null
python3 bench/simulate_workload.py --days 7 --out "$work/week" >/dev/null

seconds_since() { python3 -c "import time; print(round(time.time() - $1, 2))"; }

# pass WEEK_CPU DAY_CPU: prints "week_s mean_day_s days"
pass() {
  local start week_s_file="$work/week_s"
  start=$(python3 -c "import time; print(time.time())")
  ( taskset -c "$1" "$VCSCHED" simulate "$work/week/cluster.yaml" "$work/week/workload.yaml" --until 168h \
      --out "$work/week/out" >/dev/null 2>&1; seconds_since "$start" > "$week_s_file" ) &
  local week=$! days=()
  while kill -0 "$week" 2>/dev/null; do
    local day_start
    day_start=$(python3 -c "import time; print(time.time())")
    taskset -c "$2" "$VCSCHED" simulate "$work/day/cluster.yaml" "$work/day/workload.yaml" --until 24h \
      --out "$work/day/out" >/dev/null 2>&1
    # A day that ends after the week did not run beside it throughout: not counted.
    kill -0 "$week" 2>/dev/null && days+=("$(seconds_since "$day_start")")
  done
  wait "$week"
  python3 - "$(cat "$week_s_file")" "${days[@]}" <<'EOF'
import sys
week, days = float(sys.argv[1]), [float(d) for d in sys.argv[2:]]
print(week, sum(days) / len(days) if days else float("nan"), " ".join(sys.argv[2:]))
EOF
}

printf '%-9s %-9s %9s %12s %7s  %s\n' week_cpu day_cpu week_s mean_day_s ratio days_s
total_week=0
total_day=0
for roles in "$CPU_A $CPU_B" "$CPU_B $CPU_A"; do
  read -r w d <<<"$roles"
  read -r week_s day_s days < <(pass "$w" "$d")
  printf '%-9s %-9s %9s %12.2f %7.2f  %s\n' "$w" "$d" "$week_s" "$day_s" "$(python3 -c "print($week_s / $day_s)")" "$days"
  total_week=$(python3 -c "print($total_week + $week_s)")
  total_day=$(python3 -c "print($total_day + $day_s)")
done
echo "week / day over both passes: $(python3 -c "print(round($total_week / $total_day, 2))")"
