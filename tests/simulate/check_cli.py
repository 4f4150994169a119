#!/usr/bin/env python3
"""vcsched simulate from the command line: the output files, byte-identical runs, the
committed example plots, --seed, and errors with their exit codes.

  check_cli.py VCSCHED REPO_ROOT
"""
import os
import subprocess
import sys
import tempfile

FILES = ["jobs.csv", "timeline.csv", "queues.csv", "summary.json", "utilization.svg", "queue_shares.svg",
         "wait_times.svg", "report.html"]


def run(vcsched, *args, timeout=None):
    """`vcsched simulate ARGS`; None when it did not end within `timeout` seconds."""
    try:
        return subprocess.run([vcsched, "simulate", *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def ended(p):
    return "did not end in time" if p is None else f"exit {p.returncode}: {p.stderr}"


def main():
    vcsched, root = sys.argv[1], sys.argv[2]
    ex = os.path.join(root, "examples", "simulate", "gpu-deadlock")
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        outs = []
        for i in range(2):
            out = os.path.join(tmp, f"run{i}")
            p = run(vcsched, os.path.join(ex, "cluster.yaml"), os.path.join(ex, "per-pod.yaml"), "--until", "2h",
                    "--out", out)
            check(p.returncode == 0, f"per-pod run {i}: exit {p.returncode}: {p.stderr}")
            outs.append(out)
        for f in FILES:
            a, b = (open(os.path.join(o, f), "rb").read() for o in outs)
            check(len(a) > 0, f"{f} is empty")
            check(a == b, f"{f} differs between two runs of the same inputs")
        committed = open(os.path.join(ex, "per-pod-utilization.svg"), "rb").read()
        check(committed == open(os.path.join(outs[0], "utilization.svg"), "rb").read(),
              "examples/simulate/gpu-deadlock/per-pod-utilization.svg is not what the example draws now")
        p = run(vcsched, os.path.join(ex, "cluster.yaml"), os.path.join(ex, "gang.yaml"), "--until", "2h",
                "--out", os.path.join(tmp, "gang"))
        check(p.returncode == 0, f"gang run: {p.stderr}")
        committed = open(os.path.join(ex, "gang-utilization.svg"), "rb").read()
        check(committed == open(os.path.join(tmp, "gang", "utilization.svg"), "rb").read(),
              "examples/simulate/gpu-deadlock/gang-utilization.svg is not what the example draws now")
        jobs = open(os.path.join(tmp, "gang", "jobs.csv")).read().splitlines()
        check(all(line.split(",")[6] == "Completed" for line in jobs[1:]), f"gang jobs did not complete: {jobs}")
        # Without --out the summary goes to stdout.
        one = os.path.join(root, "examples", "simulate", "one-node")
        p = run(vcsched, os.path.join(one, "cluster.yaml"), os.path.join(one, "workload.yaml"))
        check(p.returncode == 0 and '"makespan_s": 1803' in p.stdout, f"one-node summary: {p.stdout} {p.stderr}")
        # --seed changes the draws of a random workload, and is itself repeatable.
        wl = os.path.join(tmp, "random.yaml")
        with open(wl, "w") as f:
            f.write("apiVersion: vcsched/v1\nkind: Workload\nseed: 1\njobs:\n- name: r\n  count: 5\n"
                    "  arrival: {poisson: {mean: 1m}}\n  duration: {exponential: {mean: 5m}}\n"
                    "  template: {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, spec: {minAvailable: 1, tasks: "
                    "[{name: w, replicas: 1, template: {spec: {containers: [{name: m, image: b, resources: "
                    "{requests: {cpu: '1'}}}]}}}]}}\n")
        s1 = run(vcsched, os.path.join(one, "cluster.yaml"), wl, "--seed", "7").stdout
        s2 = run(vcsched, os.path.join(one, "cluster.yaml"), wl, "--seed", "7").stdout
        s3 = run(vcsched, os.path.join(one, "cluster.yaml"), wl, "--seed", "8").stdout
        check(s1 == s2 and s1 != s3, "--seed is not repeatable, or does not change the draws")
        # Errors: a bad workload names the file and field (exit 1); a bad --until is a usage error (exit 2).
        bad = os.path.join(tmp, "bad.yaml")
        with open(bad, "w") as f:
            f.write("apiVersion: vcsched/v1\nkind: Workload\nbindLatency: soon\n")
        p = run(vcsched, os.path.join(one, "cluster.yaml"), bad)
        check(p.returncode == 1 and f"{bad}: document 1: bindLatency: invalid duration" in p.stderr,
              f"bad workload: exit {p.returncode}: {p.stderr}")
        p = run(vcsched, os.path.join(one, "cluster.yaml"), os.path.join(one, "workload.yaml"), "--until", "later")
        check(p.returncode == 2 and "--until" in p.stderr, f"bad --until: exit {p.returncode}: {p.stderr}")
        # Issue 57, class 11: a CronJob starting at the end of representable time ends at
        # --until (it used to loop for ever on a tick time that wrapped).
        late = os.path.join(tmp, "late-cron.yaml")
        with open(late, "w") as f:
            f.write("apiVersion: vcsched/v1\nkind: Workload\nstart: 292277026596-12-04T15:30:07Z\ncronJobs:\n"
                    "- duration: {fixed: 1m}\n  template: {apiVersion: batch.volcano.sh/v1alpha1, kind: CronJob, "
                    "metadata: {name: c, namespace: default}, spec: {schedule: '*/5 * * * *', jobTemplate: {spec: "
                    "{minAvailable: 1, tasks: [{name: w, replicas: 1, template: {spec: {containers: [{name: m, "
                    "image: b, resources: {requests: {cpu: '1'}}}]}}}]}}}}\n")
        p = run(vcsched, os.path.join(one, "cluster.yaml"), late, "--until", "1h", timeout=60)
        check(p is not None and p.returncode == 0, f"cron at the end of time: {ended(p)}")
        # Issue 57, class 9: work that cannot end (a job that always fails, maxRetry 2e9) and
        # no --until: a clear error after --max-events, not a run for ever.
        doomed = os.path.join(tmp, "doomed.yaml")
        with open(doomed, "w") as f:
            f.write("apiVersion: vcsched/v1\nkind: Workload\njobs:\n- name: d\n  arrival: {at: [0s]}\n"
                    "  duration: {fixed: 10s}\n  failures: {probability: 1, exitCode: 1}\n"
                    "  template: {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, spec: {minAvailable: 1, "
                    "maxRetry: 2000000000, tasks: [{name: w, replicas: 1, policies: [{event: PodFailed, action: "
                    "RestartJob}], template: {spec: {containers: [{name: m, image: b, resources: {requests: "
                    "{cpu: '1'}}}]}}}]}}\n")
        p = run(vcsched, os.path.join(one, "cluster.yaml"), doomed, "--max-events", "5000", timeout=60)
        check(p is not None and p.returncode == 1 and "5000 events" in p.stderr and "--until" in p.stderr,
              f"endless work: {ended(p)}")
        # Issue 57: --out never writes through a symlink in the folder, and a failed write
        # leaves the folder as it was (the outputs are written whole or not at all).
        out = os.path.join(tmp, "linked")
        os.makedirs(out)
        outside = os.path.join(tmp, "outside.txt")
        with open(outside, "w") as f:
            f.write("keep")
        os.symlink(outside, os.path.join(out, "jobs.csv"))
        p = run(vcsched, os.path.join(one, "cluster.yaml"), os.path.join(one, "workload.yaml"), "--out", out)
        check(p.returncode == 0 and open(outside).read() == "keep" and not os.path.islink(os.path.join(out, "jobs.csv")),
              f"--out wrote through a symlink: exit {p.returncode}: {p.stderr}")
        blocked = os.path.join(tmp, "blocked")
        os.makedirs(os.path.join(blocked, "report.html"))
        with open(os.path.join(blocked, "jobs.csv"), "w") as f:
            f.write("old")
        p = run(vcsched, os.path.join(one, "cluster.yaml"), os.path.join(one, "workload.yaml"), "--out", blocked)
        check(p.returncode == 1 and "report.html" in p.stderr and open(os.path.join(blocked, "jobs.csv")).read() == "old"
              and sorted(os.listdir(blocked)) == ["jobs.csv", "report.html"],
              f"a failed --out left partial output: exit {p.returncode}: {p.stderr} {os.listdir(blocked)}")
        p = run(vcsched, os.path.join(one, "cluster.yaml"), os.path.join(tmp, "missing.yaml"))
        check(p.returncode == 1 and "missing.yaml" in p.stderr, f"missing workload: exit {p.returncode}: {p.stderr}")
    for f in failures:
        print("FAIL:", f)
    print(f"check_cli: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
