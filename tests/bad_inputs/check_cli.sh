#!/usr/bin/env bash
# The CLI rejects every corpus file: non-zero exit (not a crash), the expected fragment
# on stderr. Usage: check_cli.sh VCSCHED_BINARY
set -u
bin="$1"
dir="$(dirname "$0")"
fail=0
for f in "$dir"/*.yaml; do
  expect="$(head -n1 "$f" | sed 's/^# expect: //')"
  err="$("$bin" schedule "$f" 2>&1 >/dev/null)"
  rc=$?
  if [ $rc -eq 0 ] || [ $rc -ge 128 ]; then
    echo "FAIL $f: exit $rc"; fail=1
  elif ! grep -qF -- "$expect" <<<"$err"; then
    echo "FAIL $f: stderr lacks '$expect': $err"; fail=1
  fi
done
# Endless devices are refused at once (a NUL byte is no YAML or JSON), not read into memory.
for dev in /dev/zero /dev/urandom; do
  err="$("$bin" validate "$dev" 2>&1 >/dev/null)"
  rc=$?
  if [ $rc -eq 0 ] || [ $rc -ge 128 ] || ! grep -qF "is NUL: not YAML or JSON text" <<<"$err"; then
    echo "FAIL $dev: exit $rc: $err"; fail=1
  fi
done
exit $fail
