#!/usr/bin/env python3
"""The shapes `vcsched schedule` prints for a cluster: -o yaml and -o kubectl.

kubectl needs a server even for a client-side dry run, so the script runs against a
recording stand-in for kubectl, and every object it would send is checked against its
schema: Kubernetes' v1 Binding and policy/v1 Eviction (schemas/*.json) and the PodGroup
CRD Volcano ships (schemas/scheduling.volcano.sh_podgroups.yaml). The decisions the
script applies must be exactly those of -o json.

usage: check_output_shapes.py VCSCHED SCENARIO...
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

import jsonschema
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
FAILURES = []

# Records each call as one JSON line: its arguments and what it read on stdin.
FAKE_KUBECTL = r'''#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
stdin = sys.stdin.read() if "-f" in args and args[args.index("-f") + 1] == "-" else ""
with open(os.environ["KUBECTL_LOG"], "a") as log:
    log.write(json.dumps({"args": args, "stdin": stdin}) + "\n")
sys.exit(int(os.environ.get("KUBECTL_EXIT", "0")))
'''


def check(condition, what):
    if not condition:
        FAILURES.append(what)


def validator(name):
    with open(os.path.join(HERE, "schemas", name)) as f:
        return jsonschema.Draft202012Validator(json.load(f))


BINDING = validator("binding.v1.json")
EVICTION = validator("eviction.policy.v1.json")
with open(os.path.join(HERE, "schemas", "scheduling.volcano.sh_podgroups.yaml")) as f:
    _crd = yaml.safe_load(f)
PODGROUP = jsonschema.Draft7Validator(
    next(v for v in _crd["spec"]["versions"] if v["name"] == "v1beta1")["schema"]["openAPIV3Schema"])


def errors(v, obj):
    return [e.message for e in v.iter_errors(obj)]


def run(vcsched, scenario, output):
    return subprocess.run([vcsched, "schedule", scenario, "-o", output, "--now", "1700000000"],
                          check=True, capture_output=True, text=True).stdout


def check_scenario(vcsched, scenario):
    decided = json.loads(run(vcsched, scenario, "json"))
    want_binds = {b["task"]: b["node"] for b in decided["binds"]}
    want_evictions = sorted(e["task"] for e in decided["evictions"])
    want_groups = {g["podGroup"]: g for g in decided["podGroups"]}

    # -o yaml: only objects `kubectl create -f` accepts.
    docs = [d for d in yaml.safe_load_all(run(vcsched, scenario, "yaml")) if d is not None]
    for d in docs:
        check(not errors(BINDING, d), f"{scenario}: -o yaml: {errors(BINDING, d)}")
    check({f"{d['metadata']['namespace']}/{d['metadata']['name']}": d["target"]["name"] for d in docs} == want_binds,
          f"{scenario}: -o yaml binds differ from -o json")

    script = run(vcsched, scenario, "kubectl")
    check(subprocess.run(["sh", "-n"], input=script, text=True).returncode == 0, f"{scenario}: sh -n fails")
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "kubectl")
        with open(fake, "w") as f:
            f.write(FAKE_KUBECTL)
        os.chmod(fake, 0o755)
        log = os.path.join(tmp, "log")
        env = dict(os.environ, PATH=f"{tmp}:{os.environ['PATH']}", KUBECTL_LOG=log)
        ok = subprocess.run(["sh", "-c", script], env=env)
        check(ok.returncode == 0, f"{scenario}: the script failed with kubectl succeeding")
        calls = [json.loads(line) for line in open(log)] if os.path.exists(log) else []
        # A failing kubectl: every command still runs, and the script says it failed.
        env["KUBECTL_LOG"] = log + ".failing"
        failing = subprocess.run(["sh", "-c", script], env=dict(env, KUBECTL_EXIT="1"))
        failing_calls = sum(1 for _ in open(log + ".failing")) if os.path.exists(log + ".failing") else 0
        if calls:
            check(failing.returncode == 1, f"{scenario}: a failed kubectl command does not fail the script")
            check(failing_calls == len(calls), f"{scenario}: commands skipped after a failure")

    binds, evictions, groups = {}, [], {}
    for call in calls:
        a = call["args"]
        if a[:3] == ["create", "-f", "-"]:
            for d in yaml.safe_load_all(call["stdin"]):
                if d is None:
                    continue
                check(not errors(BINDING, d), f"{scenario}: binding: {errors(BINDING, d)}")
                binds[f"{d['metadata']['namespace']}/{d['metadata']['name']}"] = d["target"]["name"]
        elif a[:2] == ["create", "--raw"] and a[3:] == ["-f", "-"]:
            m = re.fullmatch(r"/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction", a[2])
            check(m is not None, f"{scenario}: eviction path {a[2]}")
            body = json.loads(call["stdin"])
            check(not errors(EVICTION, body), f"{scenario}: eviction: {errors(EVICTION, body)}")
            if m:
                check(body["metadata"] == {"namespace": m[1], "name": m[2]}, f"{scenario}: eviction body names another pod")
                evictions.append(f"{m[1]}/{m[2]}")
        elif a[:2] == ["patch", "podgroup"]:
            check(a[3] == "-n" and a[5:9] == ["--subresource=status", "--type=merge", "-p", a[8]] and len(a) == 9,
                  f"{scenario}: patch command shape {a}")
            patch = json.loads(a[8])
            check(set(patch) == {"status"}, f"{scenario}: the patch touches more than status: {patch}")
            obj = {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                   "metadata": {"name": a[2], "namespace": a[4]}, "spec": {"minMember": 1}, **patch}
            check(not errors(PODGROUP, obj), f"{scenario}: podgroup: {errors(PODGROUP, obj)}")
            groups[f"{a[4]}/{a[2]}"] = patch["status"]
        else:
            check(False, f"{scenario}: unexpected kubectl call {a}")
    check(binds == want_binds, f"{scenario}: the script binds {binds}, -o json {want_binds}")
    check(sorted(evictions) == want_evictions, f"{scenario}: the script evicts {evictions}, -o json {want_evictions}")
    check(set(groups) == set(want_groups), f"{scenario}: PodGroups patched differ from -o json")
    for key, status in groups.items():
        g = want_groups.get(key)
        if g is None:
            continue
        check(status["phase"] == g["phase"], f"{scenario}: {key}: phase {status['phase']} vs {g['phase']}")
        got = [(c["type"], c["status"], c["reason"], c["message"]) for c in status.get("conditions", [])]
        want = [(c["type"], c["status"], c["reason"], c["message"]) for c in g["conditions"]]
        check(got == want, f"{scenario}: {key}: conditions differ")
        for c in status.get("conditions", []):
            check(c.get("lastTransitionTime") == "2023-11-14T22:13:20Z", f"{scenario}: {key}: lastTransitionTime")
    return len(binds), len(evictions), len(groups)


def main():
    vcsched, scenarios = sys.argv[1], sys.argv[2:]
    totals = [0, 0, 0]
    for s in scenarios:
        for i, n in enumerate(check_scenario(vcsched, s)):
            totals[i] += n
    # The check must have seen every kind of command.
    check(all(totals), f"the scenarios gave {totals} binds, evictions and PodGroup patches: one of each is needed")
    for f in FAILURES:
        print("FAIL", f)
    print(f"{len(scenarios)} scenarios: {totals[0]} bindings, {totals[1]} evictions, {totals[2]} PodGroup patches checked")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
