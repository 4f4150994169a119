#!/usr/bin/env python3
"""vcsched explain / queues / scores / validate's lint, as users run them (docs/EXPLAIN.md).

  check_cli.py VCSCHED REPO_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile

vcsched, repo = sys.argv[1], sys.argv[2]
quickstart = os.path.join(repo, "examples", "quickstart.yaml")
failures = []


def run(*args, expect=0):
    p = subprocess.run([vcsched, *args], capture_output=True, text=True)
    if p.returncode != expect:
        failures.append(f"{' '.join(args)}: exit {p.returncode}, wanted {expect}: {p.stderr.strip()}")
    return p


def check(cond, what):
    if not cond:
        failures.append(what)


out = json.loads(run("explain", "-o", "json", quickstart).stdout)
check(set(out) == {"jobs", "queues"}, "explain -o json: top-level keys")
for job in out["jobs"]:
    for key in ("job", "stage", "reason", "causes", "message", "minMember", "placed", "check", "nodes", "hints"):
        check(key in job, f"explain -o json: a job entry lacks {key}")
for queue in out["queues"]:
    for key in ("name", "state", "weight", "parent", "deserved", "allocated", "capability", "guarantee", "inqueue", "share"):
        check(key in queue, f"explain -o json: a queue entry lacks {key}")
reasons = {j["job"]: j["reason"] for j in out["jobs"]}
check(reasons.get("ml-team/too-big") == "QueueShareExceeded", f"explain: too-big's reason is {reasons.get('ml-team/too-big')}")
check(reasons.get("ml-team/train") == "Scheduled", "explain: train is Scheduled")

# Deterministic, and --job narrows to one job.
check(run("explain", "-o", "json", quickstart).stdout == run("explain", "-o", "json", quickstart).stdout,
      "explain: two runs differ")
one = json.loads(run("explain", "-o", "json", "--job", "ml-team/too-big", quickstart).stdout)
check([j["job"] for j in one["jobs"]] == ["ml-team/too-big"], "explain --job: not one job")
err = run("explain", "--job", "ml-team/nothing", quickstart, expect=1)
check("ml-team/nothing" in err.stderr, "explain --job unknown: the error names the job")
text = run("explain", quickstart).stdout
check("job ml-team/too-big (queue ml-team): QueueShareExceeded at allocate" in text, "explain text: too-big's line")

queues = json.loads(run("queues", "-o", "json", quickstart).stdout)["queues"]
check(any(q["name"] == "ml-team" and q["deserved"].get("nvidia.com/gpu") == "16" for q in queues),
      "queues: ml-team deserves 16 GPUs")
check("queue ml-team (Open, weight 5, by proportion)" in run("queues", quickstart).stdout, "queues text")

scores = json.loads(run("scores", "-o", "json", "--task", "ml-team/train-worker-0", quickstart).stdout)
check(scores["task"] == "ml-team/train-worker-0" and {n["node"] for n in scores["nodes"]} == {"gpu-0", "gpu-1"},
      "scores: the GPU worker's feasible nodes")
run("scores", "--task", "ml-team/nope", quickstart, expect=1)
run("scores", quickstart, expect=2)  # --task is required

# validate prints the scheduling lint.
with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
    f.write("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '4', pods: '10'}}\n---\n"
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\n"
            "spec: {schedulerName: volcano, priorityClassName: gold, containers: [{name: c}]}\n")
lint = run("validate", f.name).stdout
os.unlink(f.name)
check('lint: Pod "ns/p": spec.priorityClassName: PriorityClass "gold" is not in the input' in lint,
      f"validate: the unknown priority class is linted:\n{lint}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("explain CLI: ok")
