#!/usr/bin/env bash
# Installs the Debian packages vcsched builds and tests with (see TOOLCHAIN notes in
# README). A no-op when they are all present already. Needs root (or sudo).
set -euo pipefail
PKGS=(cmake ninja-build g++ python3-dev libabsl-dev libeigen3-dev libyaml-cpp-dev libyaml-dev catch2
      libbenchmark-dev pybind11-dev python3-pybind11 python3-pytest python3-numpy python3-yaml
      clang libclang-rt-14-dev libsimdjson-dev libcli11-dev pkgconf libre2-dev
      python3-jsonschema python3-pip python3-setuptools python3-venv python3-mypy python3-pandas python3-distributed
      libtcmalloc-minimal4)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
