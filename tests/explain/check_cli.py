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
check(set(out) == {"jobs", "queues", "podsOfOtherSchedulers"}, "explain -o json: top-level keys")
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

# --job prints that job alone (text), with its queue beside it (JSON).
only = run("explain", "--job", "ml-team/too-big", quickstart).stdout
check(only.count("job ") == 1 and "\nqueue " not in only and not only.startswith("queue "),
      f"explain --job: more than the job is printed:\n{only}")
check([q["name"] for q in one["queues"]] == ["ml-team"], f"explain --job -o json: queues {one['queues']}")
# One job: each node's verdict by name; the whole-cluster form keeps only the counts.
by_node = one["jobs"][0]["nodeVerdicts"]
check(sorted(by_node) == ["cpu-0", "cpu-1", "gpu-0", "gpu-1"] and
      all(c[0].startswith("Insufficient nvidia.com/gpu") for c in by_node.values()), f"explain --job: nodeVerdicts {by_node}")
check(all(j["nodeVerdicts"] == {} for j in out["jobs"]), "explain: nodeVerdicts without --job")


def scenario(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
    f.write(text)
    f.close()
    return f.name


NODE = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '10'}}\n"
QUEUE = "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\nspec: {weight: 1%s}\n"

# A Volcano Job's PodGroup is shown by the Job's name; pods of another scheduler are counted.
uid = "0f8c2b1a-1111-4222-8333-944455556666"
path = scenario(NODE + QUEUE % "" +
                f"---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {{name: train-{uid}, namespace: ml}}\n"
                "spec: {minMember: 1, queue: q}\n"
                "---\napiVersion: v1\nkind: Pod\nmetadata: {name: other, namespace: ml}\n"
                "spec: {schedulerName: default-scheduler, containers: [{name: c}]}\n")
text = run("explain", path).stdout
check(f"job ml/train (Volcano Job; PodGroup ml/train-{uid}, queue q)" in text, f"explain: the Volcano Job's name:\n{text}")
check("1 pending pod(s) left out: another scheduler serves their schedulerName (for example ml/other "
      "(schedulerName default-scheduler))" in text, f"explain: pods of other schedulers:\n{text}")
js = json.loads(run("explain", "-o", "json", path).stdout)
check(js["podsOfOtherSchedulers"] == 1 and js["jobs"][0]["volcanoJob"] == "ml/train", f"explain -o json: {js}")
check(run("explain", "--job", "ml/train", path).returncode == 0, "explain --job by the Volcano Job's name")
check("note: 1 pending pod(s) are not scheduled here" in run("validate", path).stdout, "validate: other schedulers' pods")
# A PodGroup without pods is not "Scheduled": here gang's JobValid refuses it.
check("Scheduled" not in text and "NotEnoughTasks at allocate" in text, f"explain: a podless PodGroup:\n{text}")
os.unlink(path)

# The capability hint is the least change that runs the job: 8 cores held, 4 asked, 10 allowed -> 12, not more.
path = scenario(NODE.replace("'4'", "'16'") + QUEUE % ", capability: {cpu: '10'}" +
                "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: a, namespace: ns}\n"
                "spec: {minMember: 1, queue: q}\nstatus: {phase: Running}\n"
                "---\napiVersion: v1\nkind: Pod\nmetadata: {name: a-0, namespace: ns, annotations: {scheduling.k8s.io/group-name: a}}\n"
                "spec: {schedulerName: volcano, nodeName: n1, containers: [{name: c, resources: {requests: {cpu: '8'}}}]}\n"
                "status: {phase: Running}\n"
                "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: b, namespace: ns}\n"
                "spec: {minMember: 1, queue: q, minResources: {cpu: '4'}}\n"
                "---\napiVersion: v1\nkind: Pod\nmetadata: {name: b-0, namespace: ns, annotations: {scheduling.k8s.io/group-name: b}}\n"
                "spec: {schedulerName: volcano, containers: [{name: c, resources: {requests: {cpu: '4'}}}]}\n")
hint = [h for j in json.loads(run("explain", "-o", "json", "--job", "ns/b", path).stdout)["jobs"] for h in j["hints"]
        if h["kind"] == "raise-capability"]
check(len(hint) == 1 and "cpu 10 -> 12 (" in hint[0]["change"], f"explain: the least capability raise: {hint}")
os.unlink(path)

# NodePorts' verdict names the port and its holder.
ports_case = os.path.join(repo, "tests", "k8s-cases", "nodeports-held-port-keeps-pod-off-node.yaml")
with open(ports_case) as f:
    crowded = f.read().replace("metadata: {name: n2}", "metadata: {name: n2}\nspec: {unschedulable: true}")
path = scenario(crowded)
text = run("explain", "--job", "ns/web", path).stdout
check("1 Insufficient host port 8080/TCP (held by ns/web-0)" in text, f"explain: the host port verdict:\n{text}")
os.unlink(path)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("explain CLI: ok")
