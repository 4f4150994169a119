#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) into build-fuzz and runs each
# for SECONDS (default 20). Seeds: tests/fuzz/corpus/<target>, plus the conformance
# cases, real dumps and examples for the scenario fuzzer. New inputs found are kept in
# build-fuzz/corpus/<target>; a crash leaves its input in build-fuzz/crashes and fails.
#
#   scripts/fuzz.sh            # 20 s each (what CI runs)
#   scripts/fuzz.sh 3600       # an hour each
#   FUZZ_TARGETS="session_fuzz" scripts/fuzz.sh 600
#   FUZZ_TIMEOUT=60 scripts/fuzz.sh 3600   # per-input limit; raise it on a loaded machine
#   FUZZ_SEED=1234 scripts/fuzz.sh          # a fixed random seed (CI uses the commit's)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${1:-20}"
TIMEOUT_EACH="${FUZZ_TIMEOUT:-10}"
TARGETS="${FUZZ_TARGETS:-quantity_fuzz reader_fuzz yaml_fast_fuzz config_fuzz config_session_fuzz loader_fuzz scenario_fuzz session_fuzz job_fuzz watch_fuzz simulate_fuzz eta_fuzz}"
SEED_FLAG=()
if [ -n "${FUZZ_SEED:-}" ]; then SEED_FLAG=(-seed="$FUZZ_SEED"); fi
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DVCSCHED_FUZZ=ON -DVCSCHED_BUILD_PYTHON=OFF \
  -DVCSCHED_BUILD_BENCH=OFF >/dev/null
ninja -C build-fuzz $TARGETS | grep -v '^\[' || true
[ -x build-fuzz/tests/fuzz/session_fuzz ] || { echo 'fuzz build failed'; exit 1; }
mkdir -p build-fuzz/crashes
status=0
for t in $TARGETS; do
  mkdir -p "build-fuzz/corpus/$t"
  seeds=()
  candidates=("tests/fuzz/corpus/$t")
  if [ "$t" = scenario_fuzz ]; then candidates+=(tests/conformance tests/data/real-dumps examples/queues examples/lifecycle); fi
  # The loader-only target is about speed: small inputs, small seeds.
  max_len=65536
  if [ "$t" = loader_fuzz ]; then candidates+=(tests/fuzz/corpus/scenario_fuzz tests/bad_inputs); max_len=4096; fi
  # Not tests/bad_inputs: its alias bomb takes seconds per run under the sanitizers
  # (a million values printed and read back), close to the per-input limit.
  if [ "$t" = reader_fuzz ]; then candidates+=(tests/fuzz/corpus/scenario_fuzz); max_len=4096; fi
  if [ "$t" = yaml_fast_fuzz ]; then candidates+=(tests/fuzz/corpus/scenario_fuzz tests/data/real-dumps); max_len=4096; fi
  if [ "$t" = job_fuzz ]; then candidates+=(tests/data/lifecycle); fi
  if [ "$t" = watch_fuzz ]; then candidates+=(tests/replay); fi
  if [ "$t" = simulate_fuzz ]; then candidates+=(examples/simulate); fi
  if [ "$t" = eta_fuzz ]; then candidates+=(examples/eta); fi
  for d in "${candidates[@]}"; do [ -d "$d" ] && seeds+=("$d"); done  # git keeps no empty folders
  dict=()
  if [ -f "tests/fuzz/$t.dict" ]; then dict=(-dict="tests/fuzz/$t.dict"); fi
  echo "== $t for ${SECONDS_EACH}s"
  if ! build-fuzz/tests/fuzz/$t "build-fuzz/corpus/$t" "${seeds[@]}" -max_total_time="$SECONDS_EACH" \
        -max_len="$max_len" -rss_limit_mb=2048 -timeout="$TIMEOUT_EACH" -artifact_prefix=build-fuzz/crashes/ \
        -print_final_stats=1 "${SEED_FLAG[@]}" "${dict[@]}" 2> "build-fuzz/$t.log"; then
    status=1
    tail -30 "build-fuzz/$t.log"
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "build-fuzz/$t.log" | tr '\n' ' '
  echo
done
exit $status
