#!/usr/bin/env python3
"""Random scenarios with host ports and node images for the differential corpus (issue 59).

  gen_ports_images.py [--max-nodes N] [--max-jobs N] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
Nodes (named in name order, as Volcano's cache adds them) list images from a small pool
with sizes from 10 MiB to 3 GiB, under one or more names, tagged or not. Running pods
hold host ports as node exporters and ingress controllers do (some on hostNetwork, some
bound to one address, TCP and UDP); pending gangs ask for host ports of the same pool
and run images of the pool. The configuration is Volcano's default, with nodeorder's
weights drawn so that image locality sometimes decides.
"""
import argparse
import random

IMAGES = ["registry.example/train", "registry.example/serve", "busybox", "nginx", "pytorch/pytorch",
          "ghcr.io/org/etl", "quay.io/prom/node-exporter"]
TAGS = ["v1", "v2", "latest"]
PORTS = [80, 443, 8080, 9100, 9400, 5000]


def image_name(rnd):
    base = rnd.choice(IMAGES)
    tag = rnd.choice(TAGS + [None])
    return base if tag is None else f"{base}:{tag}"


def ports_yaml(rnd, host_network, indent):
    out = []
    for _ in range(rnd.randint(1, 2)):
        port = rnd.choice(PORTS)
        proto = rnd.choice(["TCP", "TCP", "UDP"])
        ip = rnd.choice(["", "", "", "10.0.0.1", "127.0.0.1", "0.0.0.0"])
        # A hostNetwork pod's dump shows hostPort = containerPort (the API server's default).
        fields = [f"containerPort: {port}", f"protocol: {proto}", f"hostPort: {port}"]
        if ip and not host_network:
            fields.append(f"hostIP: {ip}")
        out.append(f"{indent}- {{{', '.join(fields)}}}\n")
    return "".join(out)


def generate(seed, max_nodes, max_jobs):
    rnd = random.Random(seed)
    docs = []
    n_nodes = rnd.randint(3, max_nodes)
    sizes = {base: rnd.choice([10, 40, 120, 300, 700, 1500, 3000]) * 1024 * 1024 for base in IMAGES}
    for i in range(n_nodes):
        name = f"n{i:02d}"
        cpu = 4000 + rnd.choice([0, 2000, 4000]) + i * 10
        mem = rnd.choice([8, 16]) * 1024 + i * 16
        images = ""
        for base in rnd.sample(IMAGES, rnd.randint(0, 4)):
            tag = rnd.choice(TAGS)
            names = [f"{base}:{tag}"]
            if rnd.random() < 0.3:
                names.append(f"{base}@sha256:{rnd.getrandbits(64):016x}")
            images += f"  - {{names: [{', '.join(repr(n) for n in names)}], sizeBytes: {sizes[base]}}}\n"
        status = f"status:\n  allocatable: {{cpu: {cpu}m, memory: {mem}Mi, pods: '110'}}\n"
        if images:
            status += "  images:\n" + images
        docs.append(f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels:\n"
                    f"    kubernetes.io/hostname: {name}\nspec: {{}}\n{status}")
    docs.append("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: default\n"
                "spec:\n  weight: 1\n  reclaimable: true\nstatus:\n  state: Open\n")
    # Daemons already running: host ports on some nodes.
    for i in range(n_nodes):
        if rnd.random() < 0.5:
            continue
        host_network = rnd.random() < 0.3
        docs.append(
            f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: daemon-{i:02d}\n  namespace: kube-system\n"
            f"spec:\n  schedulerName: default-scheduler\n  nodeName: n{i:02d}\n"
            + ("  hostNetwork: true\n" if host_network else "")
            + f"  containers:\n  - name: d\n    image: {image_name(rnd)}\n"
            f"    resources: {{requests: {{cpu: 100m, memory: 64Mi}}}}\n    ports:\n"
            + ports_yaml(rnd, host_network, "    ")
            + "status:\n  phase: Running\n")
    for j in range(rnd.randint(1, max_jobs)):
        replicas = rnd.randint(1, 4)
        min_member = rnd.randint(1, replicas)
        cpu = rnd.choice([250, 500, 1000, 2000])
        wants_ports = rnd.random() < 0.6
        image = image_name(rnd)
        name = f"job{j}"
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: {name}\n"
                    f"  namespace: ns\n  creationTimestamp: '2026-01-01T00:00:{j:02d}Z'\n"
                    f"spec:\n  minMember: {min_member}\n  queue: default\nstatus:\n  phase: Inqueue\n")
        ports = ports_yaml(rnd, False, "    ") if wants_ports else ""
        for r in range(replicas):
            docs.append(
                f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}-{r}\n  namespace: ns\n"
                f"  annotations: {{scheduling.k8s.io/group-name: {name}}}\n"
                f"  creationTimestamp: '2026-01-01T00:00:{j:02d}Z'\n"
                f"spec:\n  schedulerName: volcano\n  containers:\n  - name: c\n    image: {image}\n"
                f"    resources: {{requests: {{cpu: {cpu}m, memory: 512Mi}}}}\n"
                + (f"    ports:\n{ports}" if ports else "")
                + "status:\n  phase: Pending\n")
    weights = {"imagelocality.weight": rnd.choice([1, 1, 5, 20]), "leastrequested.weight": rnd.choice([0, 1]),
               "balancedresource.weight": rnd.choice([0, 1])}
    args = "".join(f"      {k}: {v}\n" for k, v in weights.items())
    docs.insert(0, "apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"enqueue, allocate, backfill\"\n"
                "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
                "- plugins:\n  - name: overcommit\n  - name: drf\n  - name: predicates\n  - name: proportion\n"
                f"  - name: nodeorder\n    arguments:\n{args}  - name: binpack\n")
    return f"# gen_ports_images.py {seed} --max-nodes {max_nodes} --max-jobs {max_jobs}\n" + "---\n".join(docs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seed", type=int)
    ap.add_argument("--max-nodes", type=int, default=12)
    ap.add_argument("--max-jobs", type=int, default=6)
    a = ap.parse_args()
    print(generate(a.seed, a.max_nodes, a.max_jobs), end="")


if __name__ == "__main__":
    main()
