#!/usr/bin/env python3
"""Random scenarios with PersistentVolumeClaims for the differential corpus (issue 59).

  gen_volumes.py [--max-nodes N] [--max-jobs N] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
Nodes sit in zones a-c (a few carry no zone label) and may have a CSINode for the CSI
driver, with or without an attach limit. Storage classes cover both binding modes, a
class without a provisioner (local volumes), a CSI class with allowedTopologies and one
of a provisioner Volcano ignores. Local volumes are pinned to a node or a zone, some
Available, some bound; CSI volumes carry zone labels. Running pods hold bound CSI
claims (they count against attach limits); pending gangs use claims bound, unbound
(WaitForFirstConsumer), pre-bound, Immediate and unbound, or missing. The configuration
is Volcano's default; some files pass --ignored-provisioners in schedulerArgs.
"""
import argparse
import random

DRIVER = "ebs.csi.example.com"
ZONES = ["a", "b", "c"]


def generate(seed, max_nodes, max_jobs):
    rnd = random.Random(seed)
    docs = []
    n_nodes = rnd.randint(3, max_nodes)
    zone_of = {}
    csi_share = rnd.choice([0.0, 0.5, 1.0, 1.0])
    for i in range(n_nodes):
        name = f"n{i:02d}"
        zone = None if rnd.random() < 0.1 else rnd.choice(ZONES)
        zone_of[name] = zone
        labels = f"    kubernetes.io/hostname: {name}\n"
        if zone:
            labels += f"    topology.kubernetes.io/zone: {zone}\n"
        cpu = 4000 + rnd.choice([0, 2000, 4000]) + i * 10
        docs.append(f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels:\n{labels}spec: {{}}\n"
                    f"status:\n  allocatable: {{cpu: {cpu}m, memory: {16384 + i * 16}Mi, pods: '110'}}\n")
        if rnd.random() < csi_share:
            limit = rnd.choice([None, 1, 2, 3, 8])
            alloc = f"\n    allocatable: {{count: {limit}}}" if limit is not None else ""
            docs.append(f"apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata:\n  name: {name}\nspec:\n"
                        f"  drivers:\n  - name: {DRIVER}\n    nodeID: {name}{alloc}\n"
                        f"    topologyKeys: [topology.kubernetes.io/zone]\n")
    docs.append("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: default\n"
                "spec:\n  weight: 1\n  reclaimable: true\nstatus:\n  state: Open\n")
    topo = ""
    if rnd.random() < 0.5:
        allowed = rnd.sample(ZONES, rnd.randint(1, 2))
        topo = ("allowedTopologies:\n- matchLabelExpressions:\n  - key: topology.kubernetes.io/zone\n"
                f"    values: [{', '.join(allowed)}]\n")
    classes = [("local", "kubernetes.io/no-provisioner", "WaitForFirstConsumer", ""),
               ("fast", DRIVER, "WaitForFirstConsumer", topo),
               ("std", DRIVER, "Immediate", ""),
               ("scratch", "hostpath.csi.k8s.io", "WaitForFirstConsumer", "")]
    for name, prov, mode, extra in classes:
        docs.append(f"apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: {name}\n"
                    f"provisioner: {prov}\nvolumeBindingMode: {mode}\n{extra}")
    nodes = sorted(zone_of)
    volumes = []  # (name, class, size Gi, available)

    def local_pv(pv, size, pin_node, claim=None):
        if pin_node:
            term = f"      - matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [{pin_node}]}}]\n"
        else:
            term = ("      - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: ["
                    f"{rnd.choice(ZONES)}]}}]\n")
        ref = f"  claimRef: {{namespace: ns, name: {claim}}}\n" if claim else ""
        phase = "Bound" if claim else rnd.choice(["Available", "Available", "Available", "Released"])
        mode = "  volumeMode: Block\n" if rnd.random() < 0.05 else ""
        docs.append(f"apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: {pv}\nspec:\n"
                    f"  capacity: {{storage: {size}Gi}}\n  accessModes: [{rnd.choice(['ReadWriteOnce', 'ReadWriteMany'])}]\n"
                    f"  storageClassName: local\n{mode}{ref}  local: {{path: /mnt/{pv}}}\n  nodeAffinity:\n    required:\n"
                    f"      nodeSelectorTerms:\n{term}status:\n  phase: {phase}\n")

    def csi_pv(pv, size, claim):
        zone = rnd.choice(ZONES)
        docs.append(f"apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: {pv}\n  labels:\n"
                    f"    topology.kubernetes.io/zone: {zone}\nspec:\n  capacity: {{storage: {size}Gi}}\n"
                    f"  accessModes: [ReadWriteOnce]\n  storageClassName: fast\n"
                    f"  claimRef: {{namespace: ns, name: {claim}}}\n"
                    f"  csi: {{driver: {DRIVER}, volumeHandle: vol-{pv}}}\nstatus:\n  phase: Bound\n")

    def claim_doc(claim, cls, size, volume=None, bound=False):
        ann = "  annotations: {pv.kubernetes.io/bind-completed: 'yes'}\n" if bound else ""
        vol = f"  volumeName: {volume}\n" if volume else ""
        cls_line = f"  storageClassName: {cls}\n" if cls is not None else ""
        phase = "Bound" if bound else "Pending"
        docs.append(f"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {claim}\n  namespace: ns\n{ann}"
                    f"spec:\n  accessModes: [ReadWriteOnce]\n{cls_line}{vol}"
                    f"  resources: {{requests: {{storage: {size}Gi}}}}\nstatus:\n  phase: {phase}\n")

    # Available local volumes.
    for k in range(rnd.randint(0, 2 * n_nodes)):
        local_pv(f"local-{k:02d}", rnd.choice([5, 10, 20, 50]), rnd.choice(nodes) if rnd.random() < 0.7 else None)
    # Running pods with bound CSI claims (they hold attach slots).
    for i, node in enumerate(nodes):
        if rnd.random() < 0.5:
            continue
        vols = ""
        for v in range(rnd.randint(1, 2)):
            claim = f"run-{i:02d}-{v}"
            csi_pv(f"pv-{claim}", 10, claim)
            claim_doc(claim, "fast", 10, f"pv-{claim}", bound=True)
            vols += f"  - {{name: v{v}, persistentVolumeClaim: {{claimName: {claim}}}}}\n"
        docs.append(f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: run-{i:02d}\n  namespace: ns\nspec:\n"
                    f"  schedulerName: default-scheduler\n  nodeName: {node}\n  containers:\n  - name: c\n"
                    f"    resources: {{requests: {{cpu: 100m, memory: 64Mi}}}}\n  volumes:\n{vols}"
                    "status:\n  phase: Running\n")
    for j in range(rnd.randint(1, max_jobs)):
        replicas = rnd.randint(1, 4)
        min_member = rnd.randint(1, replicas)
        cpu = rnd.choice([250, 500, 1000, 2000])
        name = f"job{j}"
        kind = rnd.choice(["local", "local", "fast", "fast", "bound", "scratch", "std", "missing", "none", "prebound"])
        docs.append(f"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata:\n  name: {name}\n"
                    f"  namespace: ns\n  creationTimestamp: '2026-01-01T00:00:{j:02d}Z'\n"
                    f"spec:\n  minMember: {min_member}\n  queue: default\nstatus:\n  phase: Inqueue\n")
        for r in range(replicas):
            claim = f"data-{name}-{r}"
            size = rnd.choice([5, 10, 20])
            if kind in ("local", "fast", "scratch"):
                claim_doc(claim, kind, size)
            elif kind == "std":
                claim_doc(claim, "std", size)
            elif kind == "bound":
                pv = f"pv-{claim}"
                if rnd.random() < 0.5:
                    csi_pv(pv, size, claim)
                else:
                    local_pv(pv, size, rnd.choice(nodes) if rnd.random() < 0.6 else None, claim)
                claim_doc(claim, "fast" if "csi" in docs[-1] else "local", size, pv, bound=True)
            elif kind == "prebound":
                pv = f"pv-{claim}"
                local_pv(pv, size, rnd.choice(nodes), claim)
                claim_doc(claim, "local", size)  # pv.claimRef names it; the claim waits for its consumer
            vols = "" if kind == "none" else f"  volumes:\n  - {{name: data, persistentVolumeClaim: {{claimName: {claim}}}}}\n"
            docs.append(
                f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}-{r}\n  namespace: ns\n"
                f"  annotations: {{scheduling.k8s.io/group-name: {name}}}\n"
                f"  creationTimestamp: '2026-01-01T00:00:{j:02d}Z'\n"
                f"spec:\n  schedulerName: volcano\n  containers:\n  - name: c\n"
                f"    resources: {{requests: {{cpu: {cpu}m, memory: 512Mi}}}}\n{vols}"
                "status:\n  phase: Pending\n")
    conf = ("apiVersion: vcsched/v1\nkind: SchedulerConfiguration\nactions: \"enqueue, allocate, backfill\"\n"
            "tiers:\n- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
            "- plugins:\n  - name: overcommit\n  - name: drf\n  - name: predicates\n  - name: proportion\n"
            "  - name: nodeorder\n  - name: binpack\n")
    if rnd.random() < 0.3:
        conf += "schedulerArgs: [--ignored-provisioners=kubernetes.io/no-provisioner]\n"
    docs.insert(0, conf)
    return f"# gen_volumes.py {seed} --max-nodes {max_nodes} --max-jobs {max_jobs}\n" + "---\n".join(docs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("seed", type=int)
    ap.add_argument("--max-nodes", type=int, default=10)
    ap.add_argument("--max-jobs", type=int, default=6)
    a = ap.parse_args()
    print(generate(a.seed, a.max_nodes, a.max_jobs), end="")


if __name__ == "__main__":
    main()
