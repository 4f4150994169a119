#!/usr/bin/env bash
# Every test: install what is missing, build, run the unit tests (ctest), the
# conformance suite and the examples through `vcsched conformance`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo "== ctest"
(cd build && ctest --output-on-failure -j2)
echo "== conformance (tests/conformance and the example scenarios)"
# examples/lifecycle/cluster.yaml is a cluster to pair with job files, not a scenario.
build/vcsched conformance tests/conformance examples/quickstart.yaml examples/queues \
  examples/lifecycle/volcano-job-scenario.yaml
# The shared fidelity suite beside the checkout (CI has it; a clone elsewhere may not):
# the same rules as tests/differential, on the corpus as the shared folder holds it now.
shared_corpus="$(cd .. && pwd)/shared/differential"
if [ -f "$shared_corpus/compare.py" ]; then
  echo "== differential corpus in $shared_corpus (Volcano HEAD's recorded decisions)"
  /usr/bin/python3 "$shared_corpus/compare.py" -j 2 build/vcsched
fi
echo "== pytest (Debian's /usr/bin/python3)"
PYTHONPATH="$PWD/build/python" VCSCHED_REPO="$PWD" VCSCHED_CLI="$PWD/build/vcsched" \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider bindings/python/tests
