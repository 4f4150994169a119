#!/usr/bin/env bash
# Configures and builds vcsched (Release) into ./build. Extra arguments go to cmake.
# BUILD_TARGETS (space-separated ninja targets) builds only those; default: everything.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DPython_EXECUTABLE=/usr/bin/python3 "$@" >/dev/null
# shellcheck disable=SC2086  # the targets are words
ninja -C "$BUILD_DIR" ${BUILD_TARGETS:-}
