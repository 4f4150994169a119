#!/usr/bin/env bash
# Every test: install what is missing, build, run the unit tests (ctest), the
# conformance suite and the examples through `vcsched conformance`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
echo "== ctest"
(cd build && ctest --output-on-failure -j2)
echo "== conformance (tests/conformance and the examples)"
build/vcsched conformance tests/conformance examples
