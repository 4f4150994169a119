#!/usr/bin/env bash
# The main job on a bundled example: install what is missing, build, and schedule
# examples/quickstart.yaml (or the scenario files given as arguments).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Only the command-line tool and its libraries: tests and benchmarks are test.sh's.
BUILD_TARGETS=vcsched scripts/build.sh
if [ $# -eq 0 ]; then set -- examples/quickstart.yaml; fi
build/vcsched schedule "$@"
