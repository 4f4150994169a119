#!/usr/bin/env python3
"""Write the Armada benchmark shape as a scenario file: 1,000 nodes of 32 cpu and
32,000 single-pod jobs of 1 cpu, already admitted (Inqueue), under genload.py's
scheduler configuration with only the allocate action. Every pod fits, so the session
is pure placement throughput.

  armada_shape.py > armada.yaml
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from genload import TIERS  # noqa: E402  (same plugins as the other benchmark scenarios)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=32000)
    a = ap.parse_args()
    out = sys.stdout.write
    out(f'apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: "allocate"\n{TIERS}')
    out("---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: default\n"
        "spec:\n  weight: 1\nstatus:\n  state: Open\n")
    for n in range(a.nodes):
        out(f"---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-{n:05d}\n"
            f"status:\n  allocatable:\n    cpu: \"32\"\n    memory: 256Gi\n    pods: \"110\"\n")
    for j in range(a.jobs):
        pg = f"job-{j:05d}"
        out(f"---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
            f"metadata:\n  name: {pg}\n  namespace: default\n"
            f"spec:\n  minMember: 1\n  queue: default\nstatus:\n  phase: Inqueue\n"
            f"---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: {pg}-0\n  namespace: default\n"
            f"  annotations:\n    scheduling.k8s.io/group-name: {pg}\n"
            f"spec:\n  schedulerName: volcano\n  containers:\n  - name: main\n    image: busybox\n"
            f"    resources:\n      requests:\n        cpu: \"1\"\n        memory: 1Gi\n"
            f"status:\n  phase: Pending\n")


if __name__ == "__main__":
    main()
