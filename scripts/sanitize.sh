#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer build (g++) of the library, the unit,
# property and conformance tests and the Python module, in build-asan; runs them all
# (ctest includes pytest with the sanitizer runtimes preloaded). Line tables only
# (-g1) and shared libraries (CMakeLists.txt) keep it within about half a gigabyte:
# full debug information in a dozen statically linked test programs took 3.6 GB.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DVCSCHED_SANITIZE=ON -DVCSCHED_BUILD_BENCH=OFF -DPython_EXECUTABLE=/usr/bin/python3 >/dev/null
ninja -C build-asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ctest --output-on-failure -j2)
