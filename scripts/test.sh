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
echo "== pytest (Debian's /usr/bin/python3)"
PYTHONPATH="$PWD/build/python" VCSCHED_REPO="$PWD" VCSCHED_CLI="$PWD/build/vcsched" \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider bindings/python/tests
