#!/usr/bin/env python3
"""Writes a cluster state for start-time estimates (docs/ETA.md, bench/README.md): nodes,
weighted queues, running gangs that started in the last hours with expected runtimes, and
pending gangs, as one JSON List that `vcsched eta` reads.

  eta_state.py --nodes 1000 --running-pods 19000 --pending-jobs 1000 > state.json

--shape picks what the pending pods ask beyond resources: plain, affinity (node affinity
to a zone and pod anti-affinity within a job), spread (topology spread over zones) or
topology (HyperNodes of 10 nodes and jobs that must stay within one). The same seed
always gives the same file."""
import argparse
import json
import random
import sys

NOW = 1796647200  # 2026-12-07T12:40:00Z


def rfc(t):
    import datetime
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--queues", type=int, default=4)
    ap.add_argument("--running-pods", type=int, default=19000)
    ap.add_argument("--pending-jobs", type=int, default=1000)
    ap.add_argument("--shape", choices=["plain", "affinity", "spread", "topology"], default="plain")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    items = []
    for q in range(a.queues):
        items.append({"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": f"q{q}"},
                      "spec": {"weight": q + 1, "reclaimable": True}, "status": {"state": "Open"}})
    node_cpu, node_mem = 64, 512
    free = []
    for n in range(a.nodes):
        items.append({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": f"node-{n}", "labels": {"kubernetes.io/hostname": f"node-{n}",
                                                                  "topology.kubernetes.io/zone": f"zone-{n % 4}"}},
                      "status": {"allocatable": {"cpu": str(node_cpu), "memory": f"{node_mem}Gi", "pods": "110"}}})
        free.append(node_cpu)
    if a.shape == "topology":
        for h in range(0, a.nodes, 10):
            items.append({"apiVersion": "topology.volcano.sh/v1alpha1", "kind": "HyperNode",
                          "metadata": {"name": f"rack-{h // 10}"},
                          "spec": {"tier": 1, "members": [{"type": "Node", "selector": {"exactMatch": {"name": f"node-{i}"}}}
                                                          for i in range(h, min(h + 10, a.nodes))]}})
    runtimes = [("20m", 1200), ("45m", 2700), ("1h", 3600), ("90m", 5400), ("2h", 7200), ("3h", 10800),
                ("4h±1h", 14400), ("6h", 21600)]

    def pod(name, group, queue, cpu, node=None, start=None, extra=None):
        p = {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": name, "namespace": "batch", "creationTimestamp": rfc(NOW - 7200),
                          "labels": {"job": group},
                          "annotations": {"scheduling.k8s.io/group-name": group}},
             "spec": {"schedulerName": "volcano",
                      "containers": [{"name": "main", "image": "x",
                                      "resources": {"requests": {"cpu": str(cpu), "memory": f"{cpu * 4}Gi"}}}]},
             "status": {"phase": "Pending"}}
        if node is not None:
            p["spec"]["nodeName"] = node
            p["status"] = {"phase": "Running", "startTime": rfc(start)}
        if extra:
            p["spec"].update(extra)
        return p

    def group(name, queue, members, phase, created, runtime, topology=False):
        g = {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
             "metadata": {"name": name, "namespace": "batch", "creationTimestamp": rfc(created),
                          "annotations": {"vcsched.io/expected-runtime": runtime}},
             "spec": {"minMember": members, "queue": queue}, "status": {"phase": phase}}
        if topology:
            g["spec"]["networkTopology"] = {"mode": "hard", "highestTierAllowed": 1}
        return g

    placed, j = 0, 0
    cursor = 0
    while placed < a.running_pods and j < 10 * a.running_pods:
        size = rng.choice([1, 2, 4, 8, 16, 32])
        size = min(size, a.running_pods - placed)
        cpu = rng.choice([1, 2, 3, 4])
        name, queue = f"run-{j}", f"q{j % a.queues}"
        runtime, seconds = rng.choice(runtimes)
        start = NOW - rng.randrange(0, seconds)  # still running at NOW
        items.append(group(name, queue, size, "Running", start - 60, runtime))
        for i in range(size):
            tries = 0
            while free[cursor] < cpu and tries < a.nodes:
                cursor = (cursor + 1) % a.nodes
                tries += 1
            if free[cursor] < cpu:
                break  # the cluster is full: the gang stays short

            free[cursor] -= cpu
            items.append(pod(f"{name}-{i}", name, queue, cpu, f"node-{cursor}", start))
            cursor = (cursor + 1) % a.nodes
            placed += 1
        j += 1
    for k in range(a.pending_jobs):
        size = rng.choice([1, 1, 2, 4, 8])
        cpu = rng.choice([2, 4, 8, 16])
        name, queue = f"wait-{k}", f"q{k % a.queues}"
        items.append(group(name, queue, size, "Pending", NOW - 3600 + k, rng.choice(runtimes)[0],
                           topology=a.shape == "topology"))
        for i in range(size):
            extra = None
            if a.shape == "affinity":
                extra = {"affinity": {
                    "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                        {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In",
                                               "values": [f"zone-{k % 4}", f"zone-{(k + 1) % 4}"]}]}]}},
                    "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                        {"weight": 10, "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname",
                                                           "labelSelector": {"matchLabels": {"job": name}}}}]}}}
            elif a.shape == "spread":
                extra = {"topologySpreadConstraints": [
                    {"maxSkew": 2, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway",
                     "labelSelector": {"matchLabels": {"job": name}}}]}
            items.append(pod(f"{name}-{i}", name, queue, cpu, extra=extra))
    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
