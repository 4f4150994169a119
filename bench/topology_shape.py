#!/usr/bin/env python3
"""Add a network topology to a genload scenario (stdin) for the HyperNode benchmark.

Writes two files with the same nodes, queues and jobs:
  OUT-topology.yaml  racks of 16 nodes (tier 1), spines of 8 racks (tier 2), one
                     HyperNode over the spines (tier 3), as in Volcano's benchmark set-up;
                     every other PodGroup gets a hard limit, alternating tier 1 and tier 2;
  OUT-flat.yaml      the same workload without HyperNodes and limits.
Both configurations add the network-topology-aware plugin, so only the topology differs.

  bench/genload.py --nodes 1000 --jobs 500 --replicas 40 | bench/topology_shape.py /tmp/M
"""
import sys

RACK, SPINE = 16, 8


def main():
    out = sys.argv[1]
    docs = sys.stdin.read().split("---\n")
    nodes = [d.split("name: ", 1)[1].split("\n", 1)[0] for d in docs if "\nkind: Node\n" in d]
    plugin = "  - name: binpack\n"
    flat, topo, job = [], [], 0
    for d in docs:
        if not d.strip():
            continue
        if "kind: SchedulerConfiguration" in d:
            d = d.replace(plugin, plugin + "  - name: network-topology-aware\n")
        flat.append(d)
        if "\nkind: PodGroup\n" in d:
            if job % 2 == 0:
                tier = 1 if job % 4 == 0 else 2
                d = d.replace("  queue:", f"  networkTopology: {{mode: hard, highestTierAllowed: {tier}}}\n  queue:", 1)
            job += 1
        topo.append(d)
    racks = [nodes[i:i + RACK] for i in range(0, len(nodes), RACK)]
    hyper = []
    for r, members in enumerate(racks):
        m = "".join(f"  - {{type: Node, selector: {{exactMatch: {{name: {n}}}}}}}\n" for n in members)
        hyper.append(f"apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata:\n  name: rack-{r:04d}\n"
                     f"spec:\n  tier: 1\n  members:\n{m}")
    spines = [list(range(i, min(i + SPINE, len(racks)))) for i in range(0, len(racks), SPINE)]
    for s, rs in enumerate(spines):
        m = "".join(f"  - {{type: HyperNode, selector: {{exactMatch: {{name: rack-{r:04d}}}}}}}\n" for r in rs)
        hyper.append(f"apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata:\n  name: spine-{s:03d}\n"
                     f"spec:\n  tier: 2\n  members:\n{m}")
    m = "".join(f"  - {{type: HyperNode, selector: {{exactMatch: {{name: spine-{s:03d}}}}}}}\n" for s in range(len(spines)))
    hyper.append(f"apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata:\n  name: top\n"
                 f"spec:\n  tier: 3\n  members:\n{m}")
    with open(f"{out}-flat.yaml", "w") as f:
        f.write("---\n".join(flat))
    with open(f"{out}-topology.yaml", "w") as f:
        f.write("---\n".join(topo + hyper))


if __name__ == "__main__":
    main()
