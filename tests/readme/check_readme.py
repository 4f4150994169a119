#!/usr/bin/env python3
"""Every command in the README's sh blocks runs as written from a clean clone.

  check_readme.py REPO_ROOT BUILD_DIR

The commands run in a scratch folder that links the repository's examples/ and tests/
and the build (as build/), so what they write (apply.sh, sim/) lands there. Lines that
need what a test machine lacks are run with a stand-in, or skipped with the reason
printed: `kubectl get ... -o yaml` reads the bundled dump instead.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

repo, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
text = open(os.path.join(repo, "README.md"), encoding="utf-8").read()

# Commands that this check does not run, and why.
SKIP = {
    "./scripts/demo.sh": "the main job itself: CI runs it on a fresh machine",
    "./scripts/test.sh": "this test is part of it",
    "cmake --install": "covered by tests/install (installs into a scratch prefix)",
    "pip install": "covered by tests/install/check_pip.sh (--target, --prefix, a wheel into a fresh venv)",
    "pip wheel": "covered by tests/install/check_pip.sh (the wheel is built and installed into a fresh venv)",
    "tests/differential/compare.py": "run by ctest as the differential test",
}
STAND_INS = {
    r"^kubectl get [^|]*-o yaml \|": "(for f in examples/cli/dump/*.yaml; do echo ---; cat \"$f\"; done) |",
}

commands = []
for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
    joined = re.sub(r"\\\n\s*", " ", block)
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            commands.append(line)

work = tempfile.mkdtemp(prefix="vcsched-readme-")
for name in ("examples", "tests", "scripts"):
    os.symlink(os.path.join(repo, name), os.path.join(work, name))
os.symlink(build, os.path.join(work, "build"))
failures, ran = [], 0
for cmd in commands:
    reason = next((why for key, why in SKIP.items() if key in cmd), None)
    if reason:
        print(f"skipped: {cmd}\n  ({reason})")
        continue
    for pattern, stand_in in STAND_INS.items():
        cmd = re.sub(pattern, stand_in, cmd)
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, capture_output=True, text=True, timeout=600)
    ran += 1
    if p.returncode != 0:
        failures.append(f"{cmd}\n  exit {p.returncode}: {(p.stderr or p.stdout).strip()[:400]}")
shutil.rmtree(work, ignore_errors=True)
if ran < 25:
    failures.append(f"only {ran} README commands ran: the blocks were not found as expected")
if failures:
    print("README commands that fail:\n" + "\n".join(failures))
    sys.exit(1)
print(f"README: {ran} commands ran")
