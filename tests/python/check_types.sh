#!/usr/bin/env bash
# mypy --strict (tests/python/mypy.ini) on the Python package as built (the stubs of the
# C++ module included) and on the Python examples, as a user's type checker sees them.
# usage: check_types.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
cache=$(mktemp -d); trap 'rm -rf "$cache"' EXIT
cd "$build/python"
check() { MYPYPATH="$build/python" /usr/bin/python3 -m mypy --config-file "$src/tests/python/mypy.ini" --cache-dir "$cache" "$@"; }
check -p vcsched
check "$src"/examples/python/*.py
