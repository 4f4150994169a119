#!/usr/bin/env python3
"""Random contention scenarios with ResourceQuotas or PodDisruptionBudgets (issue 60).

  gen_policy.py [gen_contention options] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
A gen_contention.py scenario (a nearly full cluster, low-priority jobs running, others
waiting; preempt, reclaim, mix or capacity) of the same seed, then one of two families:

- quota: PodGroups get minResources (their minMember's requests, under the names
  Volcano's job controller writes: cpu, memory, and sometimes requests.cpu,
  requests.memory, pods, count/pods), Pending more often, and each namespace gets one or
  two ResourceQuotas whose status.hard lies around what its waiting jobs ask
  (status.used from its running pods); resourcequota joins the first or second tier.
- pdb: PodDisruptionBudgets select some running jobs' pods (by app label, or by a
  matchExpressions selector), allowing 0 to 3 disruptions, some listing a pod in
  status.disruptedPods; one job's pods sometimes lose their labels (no budget selects
  them, and pdb never names them); pdb joins the first or second tier, and shuffle
  sometimes ends the actions.
- cdp (only with --kind cdp): running jobs' pods name a cool-down
  (`volcano.sh/cooldown-time`, as a label or an annotation, sometimes not a duration) and
  carry a PodScheduled condition; cdp joins the first or second tier. The times are such
  that any clock from 2026-01-01 (vcsched's: the PodGroups' creationTimestamp) to 2037
  (the harness reads the wall clock) sees the same pods in their cool-down: scheduled
  2025-12-31 with 100000h, or 2020-01-01 with 1h.
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_contention import generate as contention  # noqa: E402
from gen_mixed import DEFAULTS  # noqa: E402

QUOTA_NAMES = ["cpu", "memory", "requests.cpu", "requests.memory", "pods", "count/pods"]


def split_kind(doc):
    m = re.search(r"^kind: (\w+)$", doc, re.M)
    return m.group(1) if m else ""


def meta(doc, key):
    m = re.search(rf"^  {key}: (\S+)$", doc, re.M)
    return m.group(1) if m else ""


def pod_facts(docs):
    """Per PodGroup (ns/name): [(cpu milli, mem Mi, running)] of its pods."""
    out = {}
    for d in docs:
        if split_kind(d) != "Pod":
            continue
        group = re.search(r"scheduling.k8s.io/group-name: (\S+)", d).group(1)
        cpu, mem = re.search(r"requests: \{cpu: (\d+)m, memory: (\d+)Mi\}", d).groups()
        running = "phase: Running" in d
        out.setdefault(f"{meta(d, 'namespace')}/{group}", []).append((int(cpu), int(mem), running))
    return out


def quota_family(rnd, docs):
    pods = pod_facts(docs)
    asks = {}  # ns -> [cpu, mem, pods] asked by waiting groups
    out = []
    for d in docs:
        if split_kind(d) != "PodGroup":
            out.append(d)
            continue
        ns, name = meta(d, "namespace"), meta(d, "name")
        minm = int(re.search(r"minMember: (\d+)", d).group(1))
        members = pods.get(f"{ns}/{name}", [])
        if "phase: Running" not in d and rnd.random() < 0.6:
            d = re.sub(r"phase: Inqueue", "phase: Pending", d)
        if members and rnd.random() < 0.85:
            cpu, mem = members[0][0] * minm, members[0][1] * minm
            res = {"cpu": f"{cpu}m", "memory": f"{mem}Mi"}
            if rnd.random() < 0.5:  # as the job controller writes it
                res.update({"requests.cpu": f"{cpu}m", "requests.memory": f"{mem}Mi", "pods": str(minm),
                            "count/pods": str(minm)})
            text = "".join(f"    {k}: '{v}'\n" for k, v in res.items())
            d = d.replace(f"  minMember: {minm}\n", f"  minMember: {minm}\n  minResources:\n{text}", 1)
            if "phase: Pending" in d:
                a = asks.setdefault(ns, [0, 0, 0])
                a[0] += cpu
                a[1] += mem
                a[2] += minm
        out.append(d)
    used = {}
    for key, members in pods.items():
        ns = key.split("/")[0]
        u = used.setdefault(ns, [0, 0, 0])
        for cpu, mem, running in members:
            if running:
                u[0] += cpu
                u[1] += mem
                u[2] += 1
    for ns in sorted(set(asks) | set(used)):
        a, u = asks.get(ns, [0, 0, 0]), used.get(ns, [0, 0, 0])
        for q in range(rnd.randint(1, 2)):
            names = rnd.sample(QUOTA_NAMES, rnd.randint(1, 3))
            hard, use = {}, {}
            for n in names:
                i = 0 if "cpu" in n else 1 if "memory" in n else 2
                have = u[i] if rnd.random() < 0.7 else int(u[i] * rnd.uniform(0, 1))
                want = max(1, int(a[i] * rnd.uniform(0.2, 1.3)))
                unit = "m" if i == 0 else "Mi" if i == 1 else ""
                hard[n] = f"{have + want}{unit}"
                use[n] = f"{have}{unit}"
            status = "".join(f"    {k}: '{v}'\n" for k, v in hard.items())
            used_text = "".join(f"    {k}: '{v}'\n" for k, v in use.items())
            out.append(f"apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: quota{q}\n  namespace: {ns}\n"
                       f"spec:\n  hard:\n{status}status:\n  hard:\n{status}  used:\n{used_text}")
    return out


def pdb_family(rnd, docs):
    pods = pod_facts(docs)
    running = sorted(k for k, members in pods.items() if any(r for _, _, r in members))
    bare = rnd.choice(running) if running and rnd.random() < 0.3 else None
    out = []
    for d in docs:
        if bare and split_kind(d) == "Pod" and f"group-name: {bare.split('/')[1]}\n" in d \
                and meta(d, "namespace") == bare.split("/")[0]:
            d = re.sub(r"  labels: \{app: \S+\}\n", "", d)
        out.append(d)
    for k, key in enumerate(running):
        if rnd.random() < 0.25:
            continue
        ns, name = key.split("/")
        if rnd.random() < 0.7:
            selector = f"    matchLabels: {{app: {name}}}\n"
        else:
            selector = f"    matchExpressions:\n    - {{key: app, operator: In, values: [{name}, other]}}\n"
        members = [f"{name}-{r}" for r in range(len(pods[key]))]
        allowed = min(len(members), rnd.choice([0, 0, 1, 1, 2, 3]))
        disrupted = ""
        if rnd.random() < 0.2:
            disrupted = f"  disruptedPods:\n    {rnd.choice(members)}: '2026-01-01T00:00:00Z'\n"
        spec = rnd.choice([f"  minAvailable: {max(0, len(members) - allowed)}\n", f"  maxUnavailable: {allowed}\n"])
        out.append(f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: pdb{k}\n  namespace: {ns}\n"
                   f"spec:\n{spec}  selector:\n{selector}status:\n  disruptionsAllowed: {allowed}\n"
                   f"  currentHealthy: {len(members)}\n  desiredHealthy: {len(members) - allowed}\n"
                   f"  expectedPods: {len(members)}\n{disrupted}")
    return out


def cdp_family(rnd, docs):
    out = []
    protect = {}  # group -> how its pods name their cool-down
    for d in docs:
        kind = split_kind(d)
        if kind == "PodGroup":
            d = d.replace("metadata:\n", "metadata:\n  creationTimestamp: '2026-01-01T00:00:00Z'\n", 1)
            if "phase: Running" in d and rnd.random() < 0.75:
                protect[f"{meta(d, 'namespace')}/{meta(d, 'name')}"] = (
                    rnd.choice(["label", "annotation"]), rnd.choice(["100000h", "100000h", "1h", "soon"]))
        elif kind == "Pod" and "phase: Running" in d:
            group = re.search(r"group-name: (\S+)", d).group(1)
            key = f"{meta(d, 'namespace')}/{group}"
            when = "2020-01-01T00:00:00Z"
            if key in protect:
                where, value = protect[key]
                if value == "100000h":
                    when = "2025-12-31T00:00:00Z"
                if where == "label":
                    d = re.sub(r"  labels: \{app: (\S+)\}\n",
                               lambda m: f"  labels: {{app: {m.group(1)}, volcano.sh/cooldown-time: {value}}}\n", d)
                else:
                    d = d.replace("  annotations:\n", f"  annotations:\n    volcano.sh/cooldown-time: {value}\n", 1)
            d = d.replace("status:\n  phase: Running\n",
                          f"status:\n  phase: Running\n  conditions:\n  - {{type: PodScheduled, status: 'True', "
                          f"lastTransitionTime: '{when}'}}\n", 1)
        out.append(d)
    return out


def add_plugin(rnd, config, plugin):
    tier = rnd.choice([1, 2])
    parts = config.split("- plugins:\n")
    parts[tier] = f"  - name: {plugin}\n" + parts[tier]
    return "- plugins:\n".join(parts)


def generate(seed, opts, kind=None):
    family_rnd = random.Random(seed * 7919 + 60)
    drawn = family_rnd.choice(["quota", "pdb"])
    kind = kind or drawn
    family, docs = contention(seed, **opts)
    config = docs.pop()
    if kind == "cdp":
        docs = cdp_family(family_rnd, docs)
        config = add_plugin(family_rnd, config, "cdp")
    elif kind == "quota":
        docs = quota_family(family_rnd, docs)
        config = add_plugin(family_rnd, config, "resourcequota")
    else:
        docs = pdb_family(family_rnd, docs)
        config = add_plugin(family_rnd, config, "pdb")
        if family_rnd.random() < 0.2:
            config = re.sub(r'actions: "([^"]*)"', lambda m: f'actions: "{m.group(1)}, shuffle"', config)
    docs.append(config)
    return f"{family}/{kind}", docs


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", type=int)
    for k, v in DEFAULTS.items():
        ap.add_argument("--" + k.replace("_", "-"), type=int, default=v)
    ap.add_argument("--kind", choices=["quota", "pdb", "cdp"], help="the family (default: quota or pdb, drawn)")
    a = ap.parse_args()
    opts = {k: getattr(a, k) for k in DEFAULTS}
    family, docs = generate(a.seed, opts, a.kind)
    flags = "".join(f" --{k.replace('_', '-')} {v}" for k, v in opts.items() if v != DEFAULTS[k])
    flags += f" --kind {a.kind}" if a.kind else ""
    sys.stdout.write(f"# gen_policy.py{flags} {a.seed}  (family={family})\n" + "---\n".join(docs))


if __name__ == "__main__":
    main()
