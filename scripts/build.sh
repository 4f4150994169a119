#!/usr/bin/env bash
# Configures and builds vcsched (Release) into ./build. Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DPython_EXECUTABLE=/usr/bin/python3 "$@" >/dev/null
ninja -C "$BUILD_DIR"
