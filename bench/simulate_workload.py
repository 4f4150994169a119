#!/usr/bin/env python3
"""Write the simulation benchmark's cluster and workload (docs/SIMULATE.md).

1,000 genload nodes (32 cpu, 256 GiB) in 4 weighted queues; Volcano Jobs in genload's
size mix (2-20 pods per job, strict gangs, pods of 1-8 cpu) arriving by Poisson with the
mean chosen so that the offered load is --load of the cluster's cpu; durations
lognormal with median 30 min and sigma 1. One workload entry per (pods, size) pair,
each its own Poisson stream: together they are one Poisson stream of the whole rate.

  simulate_workload.py --days 1 --out /tmp/sim-day   # then:
  vcsched simulate /tmp/sim-day/cluster.yaml /tmp/sim-day/workload.yaml --until 24h
"""
import argparse
import math
import os

SIZES = [(1, 2), (1, 4), (2, 8), (4, 16), (8, 32)]  # genload's (cpu cores, memory GiB)
PODS = range(2, 21)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--days", type=float, default=1.0)
    ap.add_argument("--jobs-per-day", type=int, default=20000)
    ap.add_argument("--load", type=float, default=0.8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "cluster.yaml"), "w") as f:
        f.write('apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: "enqueue, allocate, backfill"\n'
                "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
                "- plugins:\n  - name: overcommit\n  - name: drf\n  - name: predicates\n  - name: proportion\n"
                "  - name: nodeorder\n  - name: binpack\n")
        for q in range(4):
            f.write(f"---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {{name: q{q}}}\n"
                    f"spec: {{weight: {q + 1}, reclaimable: true}}\nstatus: {{state: Open}}\n")
        for n in range(a.nodes):
            f.write(f"---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-{n:05d}\n"
                    f"  labels: {{kubernetes.io/hostname: node-{n:05d}, zone: z{n % 4}}}\n"
                    f"status:\n  allocatable: {{cpu: \"32\", memory: 256Gi, pods: \"110\"}}\n")
    mean_pods = sum(PODS) / len(PODS)
    mean_cpu = sum(c for c, _ in SIZES) / len(SIZES)
    mean_duration_s = 30 * 60 * math.exp(0.5)  # lognormal mean: median * e^(sigma^2 / 2)
    rate = a.load * a.nodes * 32 / (mean_pods * mean_cpu * mean_duration_s)  # jobs per second
    shapes = [(p, s) for p in PODS for s in SIZES]
    total = int(a.jobs_per_day * a.days)
    with open(os.path.join(a.out, "workload.yaml"), "w") as f:
        f.write(f"# {total} jobs at {rate:.4f}/s ({a.load:.0%} of the cluster's cpu offered)\n")
        f.write(f"apiVersion: vcsched/v1\nkind: Workload\nseed: {a.seed}\nperiod: 1s\n"
                "start: 2026-01-01T00:00:00Z\njobs:\n")
        for i, (pods, (cpu, mem)) in enumerate(shapes):
            count = total // len(shapes) + (1 if i < total % len(shapes) else 0)
            mean_gap = len(shapes) / rate
            f.write(f"- name: j{pods}x{cpu}c{mem}g\n  count: {count}\n"
                    f"  arrival: {{poisson: {{mean: {mean_gap:.3f}s}}}}\n"
                    "  duration: {lognormal: {median: 30m, sigma: 1}}\n"
                    "  template:\n    apiVersion: batch.volcano.sh/v1alpha1\n    kind: Job\n"
                    f"    metadata: {{namespace: ns{i % 8}}}\n"
                    f"    spec:\n      minAvailable: {pods}\n      schedulerName: volcano\n      queue: q{i % 4}\n"
                    f"      tasks:\n      - name: worker\n        replicas: {pods}\n        template:\n"
                    "          spec:\n            restartPolicy: Never\n            containers:\n"
                    f"            - name: main\n              image: busybox\n"
                    f"              resources: {{requests: {{cpu: \"{cpu}\", memory: {mem}Gi}}}}\n")


if __name__ == "__main__":
    main()
