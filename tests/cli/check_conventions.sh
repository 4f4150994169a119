#!/usr/bin/env bash
# The command line's conventions (those of kubectl and other pflag tools), through the
# binary: each way of passing a flag gives the same output as the plain one.
# usage: check_conventions.sh VCSCHED REPO
set -uo pipefail
vcsched=$1 repo=$2
quick=$repo/examples/quickstart.yaml
fail=0
same() {  # same NAME -- command...   (output equals that of `schedule QUICK -o json`)
  local name=$1; shift 2
  local out; out=$("$@" 2>&1)
  if [ "$out" != "$want_json" ]; then echo "FAIL $name"; echo "$out" | head -5; fail=1; else echo "ok   $name"; fi
}
check() {  # check NAME STATUS PATTERN -- command...
  local name=$1 want=$2 pattern=$3; shift 4
  local out status; out=$("$@" 2>&1); status=$?
  if [ "$status" != "$want" ] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: exit $status (want $want), output:"; echo "$out" | head -8; fail=1
  else echo "ok   $name"; fi
}
want_json=$("$vcsched" schedule "$quick" -o json)
same "-o json"              -- "$vcsched" schedule "$quick" -o json
same "-ojson"               -- "$vcsched" schedule "$quick" -ojson
same "-o=json"              -- "$vcsched" schedule "$quick" -o=json
same "--output json"        -- "$vcsched" schedule "$quick" --output json
same "--output=json"        -- "$vcsched" schedule "$quick" --output=json
same "flags before files"   -- "$vcsched" schedule -o json "$quick"
same "- reads stdin"        -- sh -c "'$vcsched' schedule - -o json < '$quick'"
same "/dev/stdin reads stdin" -- sh -c "cat '$quick' | '$vcsched' schedule /dev/stdin -o json"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scenario/sub"
cp "$quick" "$tmp/scenario/sub/quickstart.yaml"; echo "not a scenario" > "$tmp/scenario/README"
same "a directory is its scenario files" -- "$vcsched" schedule "$tmp/scenario" -o json
mkdir -p "$tmp/empty"
check "a directory without scenarios is an error" 1 "no \*\.yaml" -- "$vcsched" schedule "$tmp/empty"
conf=$repo/tests/data/scheduler-config/$(ls "$repo/tests/data/scheduler-config" | head -1)
a=$("$vcsched" schedule "$quick" --config "$conf" -o json 2>&1); b=$("$vcsched" schedule "$quick" --config="$conf" -o json 2>&1)
if [ "$a" = "$b" ]; then echo "ok   --config=FILE"; else echo "FAIL --config=FILE"; fail=1; fi
check "--version" 0 "^[0-9]+\.[0-9]+\.[0-9]+$" -- "$vcsched" --version
check "per-command --help" 0 "Usage: vcsched schedule" -- "$vcsched" schedule --help
check "help COMMAND" 0 "Usage: vcsched job" -- "$vcsched" help job
check "validate --help" 0 "--strict" -- "$vcsched" validate --help
check "an unknown flag" 2 "--bogus" -- "$vcsched" schedule "$quick" --bogus
check "a bad -o value" 2 "text,yaml,json,kubectl" -- "$vcsched" schedule "$quick" -o xml
check "a missing value" 2 "config" -- "$vcsched" schedule "$quick" --config
check "an unknown command" 2 "unknown command" -- "$vcsched" schedule-all "$quick"
check "no file" 2 "files is required|required" -- "$vcsched" schedule
check "a missing file names it" 1 "nosuch.yaml" -- "$vcsched" schedule "$tmp/nosuch.yaml"
check "bench --repeat=N" 0 '"repeat": 2' -- "$vcsched" bench "$quick" --repeat=2
check "bench --repeat must be positive" 2 "repeat" -- "$vcsched" bench "$quick" --repeat 0
check "bench --threads 1" 0 '"binds"' -- "$vcsched" bench "$quick" --repeat=1 --threads 1
check "bench --threads must be positive" 2 "threads" -- "$vcsched" bench "$quick" --threads 0
# Integers past their option's range are errors, not wrapped or clamped values.
check "--now past int64" 2 'expected an integer from -9223372036854775808' -- "$vcsched" schedule "$quick" --now 99999999999999999999
check "--now at int64's ends" 0 "summary:" -- "$vcsched" schedule "$quick" --now -9223372036854775808
check "--now not a number" 2 "--now" -- "$vcsched" replay "$quick" "$quick" --now 12x
check "simulate --seed negative" 2 'expected an integer from 0 to' -- "$vcsched" simulate "$quick" "$quick" --seed -1
check "bench --churn past int32" 2 'expected an integer from 1 to 2147483647' -- "$vcsched" bench "$quick" --churn 99999999999
check "bench --churn reports the cycle, the build and their paired ratio" 0 \
  '"churn_ms": [0-9.]+, "churn_held_ms": [0-9.]+, "build_ms": [0-9.]+, "build_over_churn_paired": [0-9.]+' \
  -- "$vcsched" bench "$quick" --repeat 1 --churn 4
check "job steps keep their order" 0 "final phase: Running" -- "$vcsched" job \
  "$repo/tests/data/lifecycle/volcano-examples/job.yaml" --sync --podgroup=Inqueue --all-pods Running
# HyperNodes from node labels: printed objects and in-memory discovery decide alike.
topo=$repo/examples/network-topology.yaml
grep -v '^$' "$topo" | awk 'BEGIN{RS="\n---\n"; ORS="\n---\n"} !/kind: HyperNode/' > "$tmp/labels.yaml"
"$vcsched" hypernodes "$tmp/labels.yaml" --labels example.com/spine,example.com/rack > "$tmp/hypernodes.yaml"
check "hypernodes prints HyperNode objects" 0 "kind: HyperNode" -- cat "$tmp/hypernodes.yaml"
a=$("$vcsched" schedule "$tmp/labels.yaml" "$tmp/hypernodes.yaml" -o json 2>&1)
b=$("$vcsched" schedule "$tmp/labels.yaml" --hypernode-labels example.com/spine,example.com/rack -o json 2>&1)
c=$("$vcsched" schedule "$tmp/labels.yaml" -o json 2>&1)
if [ "$a" = "$b" ] && [ "$a" != "$c" ]; then echo "ok   --hypernode-labels"; else echo "FAIL --hypernode-labels"; fail=1; fi
exit $fail
