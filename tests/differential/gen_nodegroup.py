#!/usr/bin/env python3
"""Random scenarios for the nodegroup plugin (issue 60).

  gen_nodegroup.py [--max-nodes N] [--max-jobs N] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
Nodes in two to four node groups (volcano.sh/nodegroup-name), some without the label;
queues (sometimes a parent and children) whose spec.affinity names groups as required,
preferred, anti-required and anti-preferred, sometimes none, sometimes with a
volcano.sh/nodegroup-resource-limits annotation (cpu, memory, now and then one that is
not JSON); running pods already holding part of a group; gangs waiting in each queue. The
nodegroup plugin's strict, enablePreferredOrder and enableHierarchy are drawn.
"""
import argparse
import json
import random

RUNNING_NS = "ns"


def affinity(rnd, groups):
    if rnd.random() < 0.2:
        return None
    a = {}
    pro, anti = {}, {}
    req = rnd.sample(groups, rnd.randint(0, len(groups)))
    pref = rnd.sample(groups, rnd.randint(0, min(2, len(groups))))
    if req:
        pro["requiredDuringSchedulingIgnoredDuringExecution"] = req
    if pref:
        pro["preferredDuringSchedulingIgnoredDuringExecution"] = pref
    rest = [g for g in groups if g not in req]
    if rest and rnd.random() < 0.5:
        anti["requiredDuringSchedulingIgnoredDuringExecution"] = rnd.sample(rest, rnd.randint(1, len(rest)))
    if rnd.random() < 0.3:
        anti["preferredDuringSchedulingIgnoredDuringExecution"] = [rnd.choice(groups)]
    if pro or rnd.random() < 0.5:
        a["nodeGroupAffinity"] = pro
    if anti:
        a["nodeGroupAntiAffinity"] = anti
    return a


def generate(seed, max_nodes, max_jobs):
    rnd = random.Random(seed)
    docs = []
    groups = [f"g{i}" for i in range(rnd.randint(2, 4))]
    nodes = []
    for i in range(rnd.randint(3, max_nodes)):
        name = f"n{i:02d}"
        group = rnd.choice(groups + [None]) if rnd.random() < 0.9 else None
        cpu = rnd.choice([4000, 8000, 16000]) + i * 10
        labels = f"    kubernetes.io/hostname: {name}\n" + (f"    volcano.sh/nodegroup-name: {group}\n" if group else "")
        docs.append(f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels:\n{labels}"
                    f"status:\n  allocatable: {{cpu: {cpu}m, memory: 64Gi, pods: '110'}}\n")
        nodes.append((name, group, cpu))
    hierarchy = rnd.random() < 0.4
    queues = []
    parent_names = []
    for k in range(rnd.randint(1, 3)):
        name = f"q{k}"
        parent = ""
        if hierarchy and k > 0 and rnd.random() < 0.6:
            parent = rnd.choice(["q0"] + parent_names)
        aff = affinity(rnd, groups)
        if hierarchy and parent and rnd.random() < 0.5:
            aff = None  # inherits
        ann = ""
        if rnd.random() < 0.35:
            if rnd.random() < 0.1:
                limits = '{"' + rnd.choice(groups) + '":{"cpu":'
            else:
                limits = json.dumps({g: {"cpu": f"{rnd.choice([1, 2, 4, 6])}", **({"memory": "8Gi"} if rnd.random() < 0.3 else {})}
                                     for g in rnd.sample(groups, rnd.randint(1, len(groups)))}, separators=(",", ":"))
            ann = f"  annotations:\n    volcano.sh/nodegroup-resource-limits: '{limits}'\n"
        spec = "spec:\n  weight: 1\n"
        if parent:
            spec += f"  parent: {parent}\n"
        if aff is not None:
            spec += f"  affinity: {json.dumps(aff)}\n"
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: {name}\n{ann}{spec}"
                    "status:\n  state: Open\n")
        queues.append(name)
        parent_names.append(name)
    # Running pods, one job per queue, on random nodes (whatever the affinity: they were placed before).
    for k, q in enumerate(queues):
        if rnd.random() < 0.5:
            continue
        jname = f"run{k}"
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: {jname}\n"
                    f"  namespace: {RUNNING_NS}\nspec:\n  minMember: 1\n  queue: {q}\nstatus:\n  phase: Running\n")
        for r in range(rnd.randint(1, 3)):
            node = rnd.choice(nodes)[0]
            docs.append(f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {jname}-{r}\n  namespace: {RUNNING_NS}\n"
                        f"  annotations: {{scheduling.k8s.io/group-name: {jname}}}\nspec:\n  schedulerName: volcano\n"
                        f"  nodeName: {node}\n  containers:\n  - name: c\n    resources: {{requests: {{cpu: 1000m, memory: 1Gi}}}}\n"
                        "status:\n  phase: Running\n")
    for j in range(rnd.randint(1, max_jobs)):
        jname = f"job{j}"
        q = rnd.choice(queues)
        replicas = rnd.randint(1, 4)
        minm = rnd.randint(1, replicas)
        cpu = rnd.choice([500, 1000, 2000, 3000])
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: {jname}\n"
                    f"  namespace: ns\n  creationTimestamp: '2026-01-01T00:00:{j:02d}Z'\n"
                    f"spec:\n  minMember: {minm}\n  queue: {q}\nstatus:\n  phase: Inqueue\n")
        for r in range(replicas):
            docs.append(f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {jname}-{r}\n  namespace: ns\n"
                        f"  annotations: {{scheduling.k8s.io/group-name: {jname}}}\n"
                        f"  creationTimestamp: '2026-01-01T00:00:{j:02d}Z'\nspec:\n  schedulerName: volcano\n"
                        f"  containers:\n  - name: c\n    resources: {{requests: {{cpu: {cpu}m, memory: 2Gi}}}}\n"
                        "status:\n  phase: Pending\n")
    args = {}
    if rnd.random() < 0.3:
        args["strict"] = False
    if rnd.random() < 0.4:
        args["enablePreferredOrder"] = True
    plugin = "  - name: nodegroup\n"
    if hierarchy:
        plugin += "    enableHierarchy: true\n"
    if args:
        plugin += f"    arguments: {json.dumps(args)}\n"
    docs.insert(0, "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"enqueue, allocate, backfill\"\n"
                "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
                "- plugins:\n  - name: drf\n  - name: predicates\n  - name: proportion\n  - name: nodeorder\n" + plugin)
    return f"# gen_nodegroup.py {seed} --max-nodes {max_nodes} --max-jobs {max_jobs}\n" + "---\n".join(docs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seed", type=int)
    ap.add_argument("--max-nodes", type=int, default=10)
    ap.add_argument("--max-jobs", type=int, default=6)
    a = ap.parse_args()
    print(generate(a.seed, a.max_nodes, a.max_jobs), end="")


if __name__ == "__main__":
    main()
