#!/usr/bin/env bash
# The Python package as users install it, offline with Debian's tools:
#   /usr/bin/python3 -m pip install --no-build-isolation --no-deps --no-index --target DIR .
# (reusing the configured build folder to save time), and with --prefix; then through
# `cmake --install --component python --prefix`; and as a wheel (pip wheel, the backend's
# `build --wheel`) installed offline into a fresh venv. Each result is imported and used.
# usage: check_pip.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
want=$(sed -n 's/^project(vcsched VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
use() {  # use SITE_DIR [PYTHON]: import the package from there, check it is the one installed and works
  (cd "$tmp" && PYTHONPATH=$1 "${2:-$py}" - "$1" "$want" "$src/examples/quickstart.yaml" <<'PY'
import os, sys, vcsched
site, want, scenario = sys.argv[1:]
assert os.path.realpath(vcsched.__file__).startswith(os.path.realpath(site)), vcsched.__file__
assert vcsched.__version__ == want, (vcsched.__version__, want)
pkg = os.path.dirname(vcsched.__file__)
for f in ("py.typed", "_vcsched.pyi", "lifecycle.py", "results.py", "simulation.py", "eta.py"):
    assert os.path.exists(os.path.join(pkg, f)), f
assert vcsched.schedule(vcsched.load_scenario(scenario)).binds
print("ok  ", site, vcsched.__version__)
PY
  )
}
export VCSCHED_CMAKE_BUILD_DIR=$build
# pip builds in the source tree: work on a copy so that the test leaves the tree as it was.
cp -r "$src/pyproject.toml" "$src/setup.py" "$src/README.md" "$src/LICENSE" "$src/CMakeLists.txt" "$src/bindings" "$tmp/"
mkdir -p "$tmp/pkg" && mv "$tmp/pyproject.toml" "$tmp/setup.py" "$tmp/README.md" "$tmp/LICENSE" "$tmp/CMakeLists.txt" "$tmp/bindings" "$tmp/pkg/"
"$py" -m pip install --no-build-isolation --no-deps --no-index --disable-pip-version-check -q --target "$tmp/target" "$tmp/pkg"
use "$tmp/target"
"$py" -m pip install --no-build-isolation --no-deps --no-index --disable-pip-version-check -q --prefix "$tmp/prefix" "$tmp/pkg"
use "$(find "$tmp/prefix" -type d -name vcsched -path '*-packages/*' -exec dirname {} \; | head -1)"
cmake --install "$build" --component python --prefix "$tmp/cmake-prefix" >/dev/null
site=$(find "$tmp/cmake-prefix" -type d -name vcsched -path '*-packages/*' -exec dirname {} \; | head -1)
[ -n "$site" ] || { echo "FAIL: cmake --install --component python ignored the prefix"; exit 1; }
use "$site"
# A wheel, installed with no index into a venv that sees nothing of the system's packages.
"$py" -m pip wheel --no-build-isolation --no-deps --no-index --disable-pip-version-check -q -w "$tmp/dist" "$tmp/pkg"
wheel=$(ls "$tmp"/dist/vcsched-"$want"-*.whl)
"$py" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --no-index --no-deps --disable-pip-version-check -q "$wheel"
use "$("$tmp/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" "$tmp/venv/bin/python"
echo "pip checks passed"
