#!/usr/bin/env python3
"""Random scenarios for the numa-aware plugin (issue 60).

  gen_numa.py SEED > case.yaml

The output depends only on SEED (random.Random, standard library only). Nodes of one or
two sockets, one or two NUMA nodes per socket, 2 to 8 cores per NUMA node, one or two
threads per core (CPU ids numbered as Linux does: first threads, then siblings; core ids
global or per socket), most with a Numatopology (CPU manager policy static or none, a
topology manager policy, sometimes CPUs reserved, some CPUs already taken); some running
pods; pending jobs of Guaranteed pods (whole CPUs, limits equal to requests) asking a
topology policy by annotation (sometimes none, sometimes one no node has), and some
Burstable or fractional ones; numa-aware joins nodeorder with a drawn weight.
"""
import random
import sys

POLICIES = ["best-effort", "restricted", "single-numa-node", "none"]


def node_docs(rnd, i):
    name = f"n{i:02d}"
    sockets = rnd.choice([1, 1, 2])
    numa_per_socket = rnd.choice([1, 2])
    cores_per_numa = rnd.choice([2, 4, 4, 8])
    threads = rnd.choice([1, 2, 2])
    global_cores = rnd.random() < 0.5
    cpus = {}
    total_cores = sockets * numa_per_socket * cores_per_numa
    for t in range(threads):
        k = 0
        for s in range(sockets):
            for n in range(numa_per_socket):
                for c in range(cores_per_numa):
                    core_in_socket = n * cores_per_numa + c
                    core = k if global_cores else core_in_socket
                    cpus[t * total_cores + k] = (s * numa_per_socket + n, s, core)
                    k += 1
    ncpu = len(cpus)
    node = (f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels: {{kubernetes.io/hostname: {name}}}\n"
            f"status:\n  allocatable: {{cpu: '{ncpu}', memory: 64Gi, pods: '110'}}\n"
            f"  capacity: {{cpu: '{ncpu}', memory: 64Gi, pods: '110'}}\n")
    docs = [node]
    if rnd.random() < 0.85:
        taken = set(rnd.sample(sorted(cpus), rnd.choice([0, 0, 1, 2, ncpu // 4, ncpu // 2])))
        free = sorted(set(cpus) - taken)
        cpu_policy = "static" if rnd.random() < 0.9 else "none"
        topo_policy = rnd.choice(POLICIES)
        lines = [f"apiVersion: nodeinfo.volcano.sh/v1alpha1\nkind: Numatopology\nmetadata:\n  name: {name}\nspec:",
                 f"  policies: {{CPUManagerPolicy: {cpu_policy}, TopologyManagerPolicy: {topo_policy}}}"]
        if rnd.random() < 0.3:
            lines.append(f"  resReserved: {{cpu: '{rnd.choice(['1', '2', '1500m'])}', memory: 1Gi}}")
        lines.append(f"  numares:\n    cpu: {{allocatable: '{ranges(free)}', capacity: {ncpu}}}")
        lines.append("  cpuDetail:")
        for cpu in sorted(cpus):
            numa, socket, core = cpus[cpu]
            lines.append(f"    '{cpu}': {{numa: {numa}, socket: {socket}, core: {core}}}")
        docs.append("\n".join(lines) + "\n")
    return name, ncpu, docs


def ranges(ids):
    out, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else f"{ids[i]}-{ids[j]}")
        i = j + 1
    return ",".join(out)


def pod(name, group, node, cpu, mem, limits, policy):
    ann = f"    scheduling.k8s.io/group-name: {group}\n"
    if policy is not None:
        ann += f"    volcano.sh/numa-topology-policy: {policy}\n"
    lim = f"\n      limits: {{cpu: '{limits[0]}', memory: {limits[1]}}}" if limits else ""
    spec_node = f"  nodeName: {node}\n" if node else ""
    phase = "Running" if node else "Pending"
    return (f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: default\n  annotations:\n{ann}"
            f"spec:\n  schedulerName: volcano\n{spec_node}  containers:\n  - name: c\n    resources:\n"
            f"      requests: {{cpu: '{cpu}', memory: {mem}}}{lim}\nstatus:\n  phase: {phase}\n")


def group(name, min_member, phase):
    return (f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: {name}\n  namespace: default\n"
            f"spec:\n  minMember: {min_member}\n  queue: default\nstatus:\n  phase: {phase}\n")


def generate(seed):
    rnd = random.Random(seed * 7919 + 65)
    docs = ["apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: default\nspec:\n  weight: 1\n"]
    nodes = []
    for i in range(rnd.randint(3, 8)):
        name, ncpu, d = node_docs(rnd, i)
        nodes.append((name, ncpu))
        docs += d
    for r in range(rnd.randint(0, 3)):
        name, ncpu = rnd.choice(nodes)
        g = f"run{r}"
        docs.append(group(g, 1, "Running"))
        docs.append(pod(f"{g}-0", g, name, rnd.randint(1, max(1, ncpu // 3)), "2Gi", None, None))
    for j in range(rnd.randint(2, 7)):
        g = f"job{j}"
        replicas = rnd.randint(1, 4)
        docs.append(group(g, rnd.choice([1, replicas]), "Inqueue"))
        policy = rnd.choice(POLICIES + ["none", None, None, "best-effort"])
        cpu = rnd.choice([1, 1, 2, 2, 3, 4, 6, 8])
        for k in range(replicas):
            kind = rnd.random()
            if kind < 0.75:  # Guaranteed, whole CPUs
                docs.append(pod(f"{g}-{k}", g, None, cpu, "1Gi", (cpu, "1Gi"), policy))
            elif kind < 0.9:  # Burstable
                docs.append(pod(f"{g}-{k}", g, None, cpu, "1Gi", (cpu * 2, "2Gi"), policy))
            else:  # Guaranteed, a fractional CPU
                docs.append(pod(f"{g}-{k}", g, None, f"{cpu * 1000 - 500}m", "1Gi", (f"{cpu * 1000 - 500}m", "1Gi"), policy))
    weight = rnd.choice([1, 1, 5, 10])
    extra = "  - name: binpack\n" if rnd.random() < 0.3 else ""
    docs.append("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"enqueue, allocate, backfill\"\n"
                "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n- plugins:\n"
                "  - name: drf\n  - name: predicates\n  - name: proportion\n  - name: nodeorder\n" + extra +
                f"  - name: numa-aware\n    arguments: {{weight: {weight}}}\n")
    return docs


if __name__ == "__main__":
    seed = int(sys.argv[1])
    sys.stdout.write(f"# gen_numa.py {seed}\n" + "---\n".join(generate(seed)))
