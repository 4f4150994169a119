#!/usr/bin/env python3
"""Random scenarios for deviceshare's shared GPUs (issue 61).

  gen_gpushare.py [--preempt] SEED > case.yaml

The output depends only on SEED (random.Random, standard library only). Nodes with 1 to 8
cards of 16Gi or 80Gi (volcano.sh/gpu-memory in bytes, sometimes in plain MiB numbers),
some without GPUs, some naming unhealthy cards; running pods holding cards through their
volcano.sh/gpu-index annotation (some past a card's memory, some without the annotation,
one releasing now and then); pending gangs asking 4-40Gi of one card (sharing mode) or
whole cards (number mode), sometimes through an init container, with priorities; the
actions enqueue, allocate, backfill, sometimes preempt. With --preempt: preempt always runs,
running jobs hold two or three pods over a minMember of one (so gang lets preempt take
some) and pending jobs are mostly of the high priority class.
"""
import random
import sys

GI = 1 << 30


def mem_text(amount, mib):
    return str(amount // (1 << 20)) if mib else f"{amount // GI}Gi"


def node(rnd, i, mib):
    name = f"n{i:02d}"
    cards = 0 if rnd.random() < 0.15 else rnd.choice([1, 2, 4, 4, 8])
    card_mem = rnd.choice([16, 16, 80]) * GI
    alloc = f"cpu: '{rnd.choice([16, 32, 64])}', memory: 256Gi, pods: '110'"
    ann = ""
    if cards:
        alloc += f", volcano.sh/gpu-memory: '{mem_text(card_mem * cards, mib)}', volcano.sh/gpu-number: '{cards}'"
        if rnd.random() < 0.15:
            bad = sorted(rnd.sample(range(cards), rnd.randint(1, max(1, cards // 2))))
            ann = f"  annotations:\n    volcano.sh/gpu-unhealthy-ids: \"{','.join(map(str, bad))}\"\n"
    doc = (f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n{ann}  labels: {{kubernetes.io/hostname: {name}}}\n"
           f"status:\n  allocatable: {{{alloc}}}\n  capacity: {{{alloc}}}\n")
    return name, cards, card_mem, doc


def pod(name, group, node_name, cpu, gpu_mem, gpu_num, mib, index=None, priority=None, init=False, deleting=False):
    ann = f"    scheduling.k8s.io/group-name: {group}\n"
    if index is not None:
        ann += f"    volcano.sh/gpu-index: \"{index}\"\n"
    meta = "  deletionTimestamp: '2026-01-01T00:00:00Z'\n" if deleting else ""
    res = f"cpu: '{cpu}', memory: 4Gi"
    gpu = ""
    if gpu_mem:
        gpu += f", volcano.sh/gpu-memory: '{mem_text(gpu_mem, mib)}'"
    if gpu_num:
        gpu += f", volcano.sh/gpu-number: '{gpu_num}'"
    main_gpu = "" if init else gpu
    spec_node = f"  nodeName: {node_name}\n" if node_name else ""
    prio = f"  priority: {priority}\n" if priority is not None else ""
    init_c = ""
    if init:
        init_c = (f"  initContainers:\n  - name: init\n    resources:\n      requests: {{cpu: '1'{gpu}}}\n"
                  f"      limits: {{cpu: '1'{gpu}}}\n")
    phase = "Running" if node_name else "Pending"
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: default\n{meta}  annotations:\n{ann}"
            f"spec:\n  schedulerName: volcano\n{spec_node}{prio}{init_c}  containers:\n  - name: c\n    resources:\n"
            f"      requests: {{{res}{main_gpu}}}\n      limits: {{{res}{main_gpu}}}\nstatus:\n  phase: {phase}\n")


def group(name, min_member, phase, priority_class=None):
    pc = f"  priorityClassName: {priority_class}\n" if priority_class else ""
    return (f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: {name}\n  namespace: default\n"
            f"spec:\n  minMember: {min_member}\n  queue: default\n{pc}status:\n  phase: {phase}\n")


def generate(seed, preempt=False):
    rnd = random.Random(seed * 6007 + 61)
    number_mode = rnd.random() < 0.3
    mib = rnd.random() < 0.25
    docs = ["apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: default\nspec:\n  weight: 1\n",
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\nvalue: 1000\n",
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: low\nvalue: 10\n"]
    nodes = []
    for i in range(rnd.randint(3, 10)):
        name, cards, card_mem, doc = node(rnd, i, mib)
        nodes.append((name, cards, card_mem))
        docs.append(doc)
    gpu_nodes = [n for n in nodes if n[1] > 0]
    for r in range(rnd.randint(0, 8)):
        if not gpu_nodes:
            break
        name, cards, card_mem = rnd.choice(gpu_nodes)
        g = f"run{r}"
        docs.append(group(g, 1, "Running", rnd.choice(["low", "low", "high", None])))
        for k in range(rnd.randint(2, 3) if preempt else 1):
            name, cards, card_mem = rnd.choice(gpu_nodes) if k else (name, cards, card_mem)
            if number_mode and rnd.random() < 0.7:
                n = rnd.randint(1, cards)
                ids = sorted(rnd.sample(range(cards), n))
                docs.append(pod(f"{g}-{k}", g, name, 2, 0, n, mib, ",".join(map(str, ids)), priority=10,
                                deleting=rnd.random() < 0.1))
            else:
                amount = rnd.choice([4, 8, 8, 12, 16, 20, 40]) * GI
                card = rnd.randrange(cards + (1 if rnd.random() < 0.1 else 0))  # now and then a card the node lacks
                index = None if rnd.random() < 0.1 else str(card)
                docs.append(pod(f"{g}-{k}", g, name, 2, amount, 0, mib, index, priority=10, deleting=rnd.random() < 0.1))
    for j in range(rnd.randint(2, 8)):
        g = f"job{j}"
        replicas = rnd.randint(1, 4)
        pc = rnd.choice(["high", "high", "high", "low"] if preempt else ["high", "low", None, None])
        docs.append(group(g, rnd.choice([1, replicas]), rnd.choice(["Inqueue", "Inqueue", "Pending"]), pc))
        init = rnd.random() < 0.1
        prio = 1000 if pc == "high" else 10 if pc == "low" else None
        if number_mode:
            num = rnd.choice([1, 1, 2, 4, 8])
            mem = rnd.choice([4, 8]) * GI if rnd.random() < 0.1 else 0
            for k in range(replicas):
                docs.append(pod(f"{g}-{k}", g, None, rnd.choice([1, 2, 4]), mem, num, mib, priority=prio, init=init))
        else:
            mem = rnd.choice([4, 4, 8, 8, 10, 12, 16, 20, 24, 40]) * GI
            for k in range(replicas):
                docs.append(pod(f"{g}-{k}", g, None, rnd.choice([1, 2, 4]), mem, 0, mib, priority=prio, init=init))
    mode = "deviceshare.GPUNumberEnable" if number_mode else "deviceshare.GPUSharingEnable"
    with_preempt = preempt or rnd.random() < 0.3
    actions = "enqueue, allocate, preempt, backfill" if with_preempt else "enqueue, allocate, backfill"
    order = ["  - name: drf\n", "  - name: predicates\n", "  - name: proportion\n", "  - name: nodeorder\n",
             f"  - name: deviceshare\n    arguments: {{{mode}: true}}\n"]
    if rnd.random() < 0.3:
        order.append("  - name: binpack\n")
    docs.append(f"apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"{actions}\"\n"
                "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n- plugins:\n" + "".join(order))
    return docs


if __name__ == "__main__":
    args = sys.argv[1:]
    preempt = "--preempt" in args
    seed = int([a for a in args if a != "--preempt"][0])
    flag = "--preempt " if preempt else ""
    sys.stdout.write(f"# gen_gpushare.py {flag}{seed}\n" + "---\n".join(generate(seed, preempt)))
