#!/usr/bin/env bash
# Installs a configured build into a temporary prefix and uses it as outside projects
# do: find_package(vcsched CONFIG REQUIRED) with the namespaced targets, pkg-config, and
# add_subdirectory of the source tree (configure only: flags untouched, same names).
# usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/vcsched/vcsched.h include/vcsched/version.h include/vcsched/io/scenario.h bin/vcsched; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name libvcsched_core.a | head -1)")
[ -f "$libdir/cmake/vcsched/vcschedConfig.cmake" ] || { echo "FAIL: no vcschedConfig.cmake"; exit 1; }
[ -f "$libdir/pkgconfig/vcsched.pc" ] || { echo "FAIL: no vcsched.pc"; exit 1; }
# The installed package must not point back into the build or source tree.
if grep -rl -e "$src" -e "$(cd "$build" && pwd)" "$libdir/cmake/vcsched" "$libdir/pkgconfig" 2>/dev/null; then
  echo "FAIL: the installed package refers to the build or source tree"; exit 1
fi
"$prefix/bin/vcsched" --version

echo "== find_package(vcsched CONFIG REQUIRED)"
cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
ninja -C "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer"

echo "== pkg-config"
export PKG_CONFIG_PATH=$libdir/pkgconfig
[ "$(pkg-config --modversion vcsched)" = "$("$prefix/bin/vcsched" --version)" ] || { echo "FAIL: pkg-config version"; exit 1; }
# shellcheck disable=SC2046
c++ -o "$tmp/pc_consumer" "$src/tests/install/consumer/main.cc" $(pkg-config --cflags --libs vcsched)
"$tmp/pc_consumer"

echo "== add_subdirectory, core only, host flags kept"
cmake -S "$src/tests/install/consumer" -B "$tmp/subdir" -DCONSUMER_FROM_SOURCE=ON -DVCSCHED_SOURCE_DIR="$src" \
  -DCMAKE_BUILD_TYPE=Release | grep "consumer:"
echo "== built on its own, the default build type is Release (optimised)"
cmake -S "$src" -B "$tmp/standalone" -G Ninja -DVCSCHED_BUILD_IO=OFF -DVCSCHED_INSTALL=OFF >/dev/null
grep -qx 'CMAKE_BUILD_TYPE:STRING=Release' "$tmp/standalone/CMakeCache.txt" \
  || { echo "FAIL: a plain configure left CMAKE_BUILD_TYPE $(grep CMAKE_BUILD_TYPE: "$tmp/standalone/CMakeCache.txt")"; exit 1; }
echo "install checks passed"
