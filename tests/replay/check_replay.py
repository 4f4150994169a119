#!/usr/bin/env python3
"""Runs every multi-cycle case under a directory with `vcsched replay` (docs/REPLAY.md).

A case is NAME.state.yaml and NAME.events.json. Its SCHEDULE events carry the
expectations; this fails when one is not met, when the JSON output is not a list of
cycles, or when the number of refused events differs from the state file's
`# replay-errors: N` line (0 when absent).

  check_replay.py VCSCHED DIR
"""
import glob
import json
import os
import re
import subprocess
import sys


def main():
    vcsched, root = sys.argv[1], sys.argv[2]
    failures = 0
    cases = sorted(glob.glob(os.path.join(root, "*.events.json")))
    for events in cases:
        state = events[: -len(".events.json")] + ".state.yaml"
        with open(state, encoding="utf-8") as f:
            m = re.search(r"^# replay-errors: (\d+)$", f.read(), re.M)
        want_errors = int(m.group(1)) if m else 0
        run = subprocess.run([vcsched, "replay", state, events, "-o", "json"], capture_output=True, text=True)
        name = os.path.basename(events)
        try:
            cycles = json.loads(run.stdout)
        except json.JSONDecodeError as e:
            print(f"FAIL {name}: output is not JSON ({e}); stderr: {run.stderr}")
            failures += 1
            continue
        unmet = [u for c in cycles for u in c["unmetExpectations"]]
        errors = [x for c in cycles for x in c["errors"]]
        expected_rc = 1 if unmet or errors else 0
        problems = []
        if unmet:
            problems.append(f"expectations not met: {unmet}")
        if len(errors) != want_errors:
            problems.append(f"{len(errors)} refused events, expected {want_errors}: {errors}")
        if run.returncode != expected_rc:
            problems.append(f"exit code {run.returncode}, expected {expected_rc}")
        if not any("expect" in line for line in open(events, encoding="utf-8")):
            problems.append("the case has no expectation")
        print(("FAIL " if problems else "ok   ") + f"{name}: {len(cycles)} cycles" + "".join("\n  " + p for p in problems))
        failures += bool(problems)
    if not cases:
        print(f"no cases under {root}")
        return 1
    print(f"check_replay: {len(cases)} cases, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
