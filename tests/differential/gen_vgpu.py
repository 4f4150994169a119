#!/usr/bin/env python3
"""Random scenarios for deviceshare's HAMi vGPU (issue 61).

  gen_vgpu.py [--preempt] SEED > case.yaml

The output depends only on SEED (random.Random, standard library only). Nodes registering
1 to 8 cards (volcano.sh/node-vgpu-register: UUID, split count, memory in MiB, type T4 or
A100, health, mode) with the vGPU allocatable resources, some nodes without; running pods
holding cards by volcano.sh/vgpu-ids-new (some releasing); pending gangs of pods asking
volcano.sh/vgpu-number (1-2), -memory (MiB, or none: the whole card) and -cores, some
naming a card type, UUIDs or the podgroup spread policy; deviceshare with
SchedulePolicy none, binpack or spread and a ScheduleWeight of 0 or 10. With --preempt,
preempt runs and running jobs hold two or three pods over a minMember of one.
"""
import random
import sys

TYPES = ["NVIDIA-Tesla T4", "NVIDIA-A100-SXM4-80GB"]


def node(rnd, i):
    name = f"n{i:02d}"
    ncards = 0 if rnd.random() < 0.15 else rnd.choice([1, 2, 4, 4, 8])
    typ = rnd.choice(TYPES)
    mem = 15360 if "T4" in typ else 81920
    split = rnd.choice([4, 10, 10])
    alloc = f"cpu: '{rnd.choice([16, 32, 64])}', memory: 256Gi, pods: '110'"
    cards = []
    ann = ""
    if ncards:
        for c in range(ncards):
            cards.append((f"GPU-{name}-{c:02d}", split, mem, typ))
        reg = "".join(f"{u},{s},{m},{t},true,hami-core:" for u, s, m, t in cards)
        ann = f"  annotations:\n    volcano.sh/node-vgpu-register: \"{reg}\"\n"
        alloc += (f", volcano.sh/vgpu-number: '{ncards * split}', volcano.sh/vgpu-memory: '{ncards * mem}', "
                  f"volcano.sh/vgpu-cores: '{ncards * 100}'")
    doc = (f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n{ann}  labels: {{kubernetes.io/hostname: {name}}}\n"
           f"status:\n  allocatable: {{{alloc}}}\n  capacity: {{{alloc}}}\n")
    return name, cards, doc


def pod(name, group, node_name, cpu, number, mem, cores, ids=None, extra_ann=None, priority=None, deleting=False):
    ann = f"    scheduling.k8s.io/group-name: {group}\n"
    if ids is not None:
        ann += f"    volcano.sh/vgpu-ids-new: \"{ids}\"\n"
    for k, v in (extra_ann or {}).items():
        ann += f"    {k}: \"{v}\"\n"
    meta = "  deletionTimestamp: '2026-01-01T00:00:00Z'\n" if deleting else ""
    res = f"cpu: '{cpu}', memory: 4Gi"
    if number is not None:
        res += f", volcano.sh/vgpu-number: '{number}'"
    if mem is not None:
        res += f", volcano.sh/vgpu-memory: '{mem}'"
    if cores is not None:
        res += f", volcano.sh/vgpu-cores: '{cores}'"
    spec_node = f"  nodeName: {node_name}\n" if node_name else ""
    prio = f"  priority: {priority}\n" if priority is not None else ""
    phase = "Running" if node_name else "Pending"
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: default\n{meta}  annotations:\n{ann}"
            f"spec:\n  schedulerName: volcano\n{spec_node}{prio}  containers:\n  - name: c\n    resources:\n"
            f"      requests: {{{res}}}\n      limits: {{{res}}}\nstatus:\n  phase: {phase}\n")


def group(name, min_member, phase, priority_class=None):
    pc = f"  priorityClassName: {priority_class}\n" if priority_class else ""
    return (f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: {name}\n  namespace: default\n"
            f"spec:\n  minMember: {min_member}\n  queue: default\n{pc}status:\n  phase: {phase}\n")


def generate(seed, preempt=False):
    rnd = random.Random(seed * 7001 + 83)
    docs = ["apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: default\nspec:\n  weight: 1\n",
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\nvalue: 1000\n",
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: low\nvalue: 10\n"]
    nodes = []
    for i in range(rnd.randint(3, 9)):
        name, cards, doc = node(rnd, i)
        nodes.append((name, cards))
        docs.append(doc)
    gpu_nodes = [n for n in nodes if n[1]]
    for r in range(rnd.randint(0, 8)):
        if not gpu_nodes:
            break
        g = f"run{r}"
        docs.append(group(g, 1, "Running", rnd.choice(["low", "low", "high", None])))
        for k in range(rnd.randint(2, 3) if preempt else 1):
            name, cards = rnd.choice(gpu_nodes)
            uuid, split, mem, typ = rnd.choice(cards)
            used = rnd.choice([2048, 4096, 8192, mem // 2, mem])
            cores = rnd.choice([0, 0, 20, 50, 100])
            ids = f"{uuid},NVIDIA,{used},{cores}:"
            docs.append(pod(f"{g}-{k}", g, name, 2, 1, used, cores, ids, priority=10, deleting=rnd.random() < 0.1))
    for j in range(rnd.randint(2, 8)):
        g = f"job{j}"
        replicas = rnd.randint(1, 4)
        pc = rnd.choice(["high", "high", "high", "low"] if preempt else ["high", "low", None, None])
        docs.append(group(g, rnd.choice([1, replicas]), rnd.choice(["Inqueue", "Inqueue", "Pending"]), pc))
        prio = 1000 if pc == "high" else 10 if pc == "low" else None
        number = rnd.choice([1, 1, 1, 2, None])
        mem = rnd.choice([2048, 4096, 8192, 12000, 20000, None])
        if number is None and mem is None:
            mem = 4096
        cores = rnd.choice([None, 0, 10, 30, 50, 100])
        extra = {}
        x = rnd.random()
        if x < 0.1:
            extra["nvidia.com/use-gputype"] = rnd.choice(["T4", "A100", "t4,a100"])
        elif x < 0.15:
            extra["nvidia.com/nouse-gputype"] = "A100"
        elif x < 0.2 and gpu_nodes:
            extra["volcano.sh/vgpu-use-gpuuuid"] = rnd.choice(rnd.choice(gpu_nodes)[1])[0]
        if rnd.random() < 0.15:
            extra["volcano.sh/vgpu-podgroup-policy"] = "spread"
        for k in range(replicas):
            docs.append(pod(f"{g}-{k}", g, None, rnd.choice([1, 2, 4]), number, mem, cores, extra_ann=extra, priority=prio))
    policy = rnd.choice(["", "binpack", "spread"])
    weight = rnd.choice([0, 10])
    args = "deviceshare.VGPUEnable: true"
    if policy:
        args += f", deviceshare.SchedulePolicy: {policy}"
    if weight:
        args += f", deviceshare.ScheduleWeight: {weight}"
    with_preempt = preempt or rnd.random() < 0.2
    actions = "enqueue, allocate, preempt, backfill" if with_preempt else "enqueue, allocate, backfill"
    docs.append(f"apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"{actions}\"\n"
                "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n- plugins:\n"
                "  - name: drf\n  - name: predicates\n  - name: proportion\n  - name: nodeorder\n"
                f"  - name: deviceshare\n    arguments: {{{args}}}\n")
    return docs


if __name__ == "__main__":
    args = sys.argv[1:]
    preempt = "--preempt" in args
    seed = int([a for a in args if a != "--preempt"][0])
    flag = "--preempt " if preempt else ""
    sys.stdout.write(f"# gen_vgpu.py {flag}{seed}\n" + "---\n".join(generate(seed, preempt)))
