#!/usr/bin/env bash
# Pins the decisions for the benchmark scenarios S and O (issue 5): an optimisation that
# changes any bind, eviction, phase or reason changes the fingerprint and fails here.
# `vcsched bench --reference` also checks that the path evaluating every node for every
# task decides exactly alike.
#
#   check_decision_digests.sh VCSCHED GENLOAD_PY
# To re-pin after an intended behaviour change, run it and copy the printed digests
# (last: BalancedAllocation scored as Kubernetes v1.36 does, issue 56).
set -euo pipefail
VCSCHED="$1"
GENLOAD="$2"
PY="${PYTHON:-/usr/bin/python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

check() {
  local name="$1" want="$2"
  shift 2
  "$PY" "$GENLOAD" "$@" > "$work/$name.yaml"
  local out got
  out="$("$VCSCHED" bench "$work/$name.yaml" --repeat 1 --reference)"
  got="$(printf '%s' "$out" | sed -n 's/.*"decisions_digest": "\([0-9a-f]*\)".*/\1/p')"
  if [ "$got" != "$want" ]; then
    echo "FAIL $name ($*): decisions digest $got, pinned $want"
    echo "$out"
    return 1
  fi
  echo "ok   $name: $got"
}

status=0
check S c8c28dff295bd3cc --nodes 100 --jobs 50 --replicas 20 || status=1
check O 53b83e036b4d7863 --nodes 500 --jobs 800 --replicas 50 || status=1
exit $status
