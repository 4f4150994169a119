#!/usr/bin/env python3
"""Random scenarios for the task-topology plugin (issue 60).

  gen_task_topology.py [--max-nodes N] [--max-jobs N] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
Nodes of a few sizes; jobs of two or three tasks (ps, worker, chief: pods annotated and
labelled volcano.sh/task-spec) whose PodGroups name task affinities, anti-affinities and a
task order (sometimes naming a task the job lacks, or with a space, which Volcano refuses);
some jobs already run part of their pods; task-topology joins the second tier with a
drawn weight.
"""
import argparse
import random
import sys


def generate(seed, max_nodes, max_jobs):
    rnd = random.Random(seed)
    docs = []
    n_nodes = rnd.randint(3, max_nodes)
    nodes = []
    for i in range(n_nodes):
        cpu = rnd.choice([4000, 8000, 16000]) + i * 10
        name = f"n{i:02d}"
        nodes.append((name, cpu))
        docs.append(f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels: {{kubernetes.io/hostname: {name}}}\n"
                    f"status:\n  allocatable: {{cpu: {cpu}m, memory: 64Gi, pods: '110'}}\n")
    docs.append("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: default\n"
                "spec:\n  weight: 1\nstatus:\n  state: Open\n")
    for j in range(rnd.randint(1, max_jobs)):
        roles = {"ps": rnd.randint(1, 3), "worker": rnd.randint(1, 6)}
        if rnd.random() < 0.4:
            roles["chief"] = 1
        names = list(roles)
        ann = {}
        if rnd.random() < 0.8:
            groups = [",".join(rnd.sample(names, rnd.randint(1, len(names)))) for _ in range(rnd.randint(1, 2))]
            ann["volcano.sh/task-topology-affinity"] = ";".join(groups)
        if rnd.random() < 0.7:
            ann["volcano.sh/task-topology-anti-affinity"] = ";".join(
                ",".join(rnd.sample(names, rnd.randint(1, min(2, len(names))))) for _ in range(rnd.randint(1, 2)))
        if rnd.random() < 0.5:
            order = names[:]
            rnd.shuffle(order)
            ann["volcano.sh/task-topology-task-order"] = ",".join(order)
        if ann and rnd.random() < 0.1:
            k = rnd.choice(list(ann))
            ann[k] = ann[k] + rnd.choice([",evaluator", ", ps"])
        total = sum(roles.values())
        running = rnd.random() < 0.3
        minm = total if rnd.random() < 0.6 else rnd.randint(1, total)
        anns = "".join(f"    {k}: \"{v}\"\n" for k, v in ann.items())
        phase = "Running" if running else "Inqueue"
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: job{j}\n"
                    f"  namespace: default\n" + (f"  annotations:\n{anns}" if anns else "") +
                    f"spec:\n  queue: default\n  minMember: {minm}\nstatus:\n  phase: {phase}\n")
        cpu = rnd.choice([500, 1000, 2000, 3000])
        for role, count in roles.items():
            rcpu = cpu * (2 if role == "ps" and rnd.random() < 0.3 else 1)
            for i in range(count):
                node = ""
                if running and rnd.random() < 0.5:
                    node = f"  nodeName: {rnd.choice(nodes)[0]}\n"
                docs.append(f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: job{j}-{role}-{i}\n  namespace: default\n"
                            f"  labels: {{volcano.sh/task-spec: {role}}}\n"
                            f"  annotations:\n    scheduling.k8s.io/group-name: job{j}\n    volcano.sh/task-spec: {role}\n"
                            f"spec:\n  schedulerName: volcano\n{node}  containers:\n  - name: c\n    resources:\n"
                            f"      requests: {{cpu: {rcpu}m, memory: 1Gi}}\n"
                            f"status:\n  phase: {'Running' if node else 'Pending'}\n")
    weight = rnd.choice([1, 1, 2, 10])
    docs.append("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"enqueue, allocate, backfill\"\n"
                "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n- plugins:\n"
                "  - name: overcommit\n  - name: drf\n  - name: predicates\n  - name: proportion\n  - name: nodeorder\n"
                f"  - name: task-topology\n    arguments: {{task-topology.weight: {weight}}}\n")
    return docs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("--max-nodes", type=int, default=12)
    ap.add_argument("--max-jobs", type=int, default=5)
    a = ap.parse_args()
    flags = (f" --max-nodes {a.max_nodes}" if a.max_nodes != 12 else "") + (
        f" --max-jobs {a.max_jobs}" if a.max_jobs != 5 else "")
    sys.stdout.write(f"# gen_task_topology.py{flags} {a.seed}\n" + "---\n".join(generate(a.seed, a.max_nodes, a.max_jobs)))


if __name__ == "__main__":
    main()
