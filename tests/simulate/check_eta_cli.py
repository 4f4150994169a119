#!/usr/bin/env python3
"""vcsched eta from the command line: the JSON fields and their values on the bundled
story, the text form, samples, explain's eta line, the simulator's continuation agreeing,
and errors with their exit codes.

  check_eta_cli.py VCSCHED REPO_ROOT
"""
import csv
import json
import os
import subprocess
import sys
import tempfile


def run(vcsched, *args):
    return subprocess.run([vcsched, *args], capture_output=True, text=True, timeout=300)


def main():
    vcsched, root = sys.argv[1], sys.argv[2]
    state = os.path.join(root, "examples", "eta", "state.yaml")
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    p = run(vcsched, "eta", state, "-o", "json")
    check(p.returncode == 0, f"eta -o json: exit {p.returncode}: {p.stderr}")
    out = json.loads(p.stdout)
    check(out["now"] == "2026-12-07T12:40:00Z" and out["now_s"] == 1796647200, f"now: {out['now']}")
    jobs = {j["job"]: j for j in out["jobs"]}
    check(sorted(jobs) == ["ml/infer-c", "ml/sweep-d", "ml/train-b"], f"jobs: {sorted(jobs)}")
    for j in out["jobs"]:
        check(set(j) == {"job", "queue", "start_s", "start", "position", "waits_for", "reason", "note"}, f"fields {sorted(j)}")
    b = jobs["ml/train-b"]
    check(b["start_s"] == 4800 and b["start"] == "2026-12-07T14:00:00Z", f"train-b starts {b['start_s']} {b['start']}")
    check(b["waits_for"][-1]["job"] == "ml/train-a" and b["waits_for"][-1]["frees"]["nvidia.com/gpu"] == 12,
          f"train-b waits for {b['waits_for']}")
    check(jobs["ml/infer-c"]["start_s"] == 0 and jobs["ml/infer-c"]["reason"] == "Scheduled", f"infer-c {jobs['ml/infer-c']}")
    # sweep-d waits for train-b, which runs 2h±30m: its middle, 2h, after 14:00.
    check(jobs["ml/sweep-d"]["start_s"] == 4800 + 7200, f"sweep-d starts {jobs['ml/sweep-d']['start_s']}")
    check([j["position"] for j in out["jobs"]] == [1, 2, 3], f"positions {[j['position'] for j in out['jobs']]}")
    again = run(vcsched, "eta", state, "-o", "json")
    check(again.stdout == p.stdout, "eta: two runs differ")

    text = run(vcsched, "eta", state).stdout
    check("ml/train-b  starts in ~1h20m (14:00Z), after ml/train-a ends and frees 12 nvidia.com/gpu" in text, f"text:\n{text}")
    horizon = run(vcsched, "eta", state, "--horizon", "2h").stdout
    check("ml/sweep-d  not within 2h: still " in horizon, f"--horizon 2h:\n{horizon}")
    later = json.loads(run(vcsched, "eta", state, "--now", "2026-12-07T13:40:00Z", "-o", "json").stdout)
    check({j["job"]: j["start_s"] for j in later["jobs"]}["ml/train-b"] == 1200, f"--now: {later['jobs']}")

    # Samples: the spread of train-b's runtime shows in sweep-d's start, not in train-b's.
    s = json.loads(run(vcsched, "eta", state, "--samples", "100", "--seed", "3", "-o", "json").stdout)
    sj = {j["job"]: j for j in s["jobs"]}
    check(sj["ml/train-b"]["p10_s"] == sj["ml/train-b"]["p90_s"] == 4800, f"train-b percentiles {sj['ml/train-b']}")
    d = sj["ml/sweep-d"]
    check(4800 + 5400 <= d["p10_s"] < d["p50_s"] < d["p90_s"] <= 4800 + 9000 and d["samples_started"] == 100,
          f"sweep-d percentiles {d}")
    s2 = run(vcsched, "eta", state, "--samples", "100", "--seed", "3", "-o", "json").stdout
    check(json.loads(s2) == s, "samples: the same seed gave other percentiles")

    # explain gains the line.
    x = run(vcsched, "explain", state).stdout
    check("  eta: starts in ~1h20m (14:00Z), after ml/train-a ends" in x, f"explain:\n{x}")
    xj = json.loads(run(vcsched, "explain", state, "-o", "json").stdout)
    check(any(j.get("eta", "").startswith("starts in ~3h20m") for j in xj["jobs"]), "explain -o json: no eta")
    quick = run(vcsched, "explain", os.path.join(root, "examples", "quickstart.yaml")).stdout
    check("eta:" not in quick, "explain: an eta line without runtimes")

    # The simulator continuing from the state starts each job when the estimate says.
    with tempfile.TemporaryDirectory() as tmp:
        wl = os.path.join(tmp, "none.yaml")
        with open(wl, "w") as f:
            f.write("apiVersion: vcsched/v1\nkind: Workload\nstart: 2026-12-07T12:40:00Z\n")
        sim = run(vcsched, "simulate", state, wl, "--cluster-runtimes", "--until", "12h", "--out", os.path.join(tmp, "o"))
        check(sim.returncode == 0, f"simulate --cluster-runtimes: {sim.stderr}")
        rows = {r["job"]: r for r in csv.DictReader(open(os.path.join(tmp, "o", "jobs.csv")))}
        for key, j in jobs.items():
            check(key in rows and float(rows[key]["running_s"]) == j["start_s"], f"simulated {key}: {rows.get(key)}")

    # Errors: the command line (2), the input (1).
    for args, code, words in [
        (["--now", "yesterday"], 2, "--now: expected seconds since the epoch or an RFC 3339 time"),
        (["--default-runtime", "long"], 2, "--default-runtime: expected a duration"),
        (["--horizon", "0s"], 2, "--horizon: expected a positive duration"),
        (["--samples", "0"], 2, "--samples"),
    ]:
        e = run(vcsched, "eta", state, *args)
        check(e.returncode == code and words in e.stderr, f"eta {args}: exit {e.returncode}: {e.stderr}")
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad.yaml")
        with open(bad, "w") as f:
            f.write(open(state).read().replace('"4h"', '"four hours"'))
        e = run(vcsched, "eta", bad)
        check(e.returncode == 1 and "bad.yaml: document" in e.stderr and
              'PodGroup "ml/train-a": metadata.annotations[vcsched.io/expected-runtime]: "four hours"' in e.stderr,
              f"bad annotation: exit {e.returncode}: {e.stderr}")
    e = run(vcsched, "eta", os.path.join(root, "no-such-state.yaml"))
    check(e.returncode == 1 and "no-such-state.yaml" in e.stderr, f"missing file: {e.returncode} {e.stderr}")

    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("check_eta_cli: ok")


if __name__ == "__main__":
    main()
