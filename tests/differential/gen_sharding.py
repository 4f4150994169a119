#!/usr/bin/env python3
"""Random scenarios for a scheduler in a node-sharding mode (issue 60).

  gen_sharding.py [gen_mixed options] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
A gen_mixed.py or gen_contention.py scenario of the same seed (allocate, preempt,
reclaim, capacity, topology, mix), then NodeShards (shard.volcano.sh/v1alpha1): this
scheduler's (named volcano, or another name given with --scheduler-sharding-name)
desiring a part of the nodes, and one or two others desiring the rest and some of ours,
their status.nodesInUse sometimes taking nodes ours desires; now and then ours is
missing. The scheduler's flags (`schedulerArgs`) set the mode: hard or soft, sometimes
none.
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_contention import generate as contention  # noqa: E402
from gen_cli import run  # noqa: E402
from gen_mixed import generate as mixed  # noqa: E402


def shard_doc(name, desired, in_use):
    status = f"status:\n  nodesInUse: [{', '.join(in_use)}]\n" if in_use else ""
    return (f"apiVersion: shard.volcano.sh/v1alpha1\nkind: NodeShard\nmetadata:\n  name: {name}\n"
            f"spec:\n  nodesDesired: [{', '.join(desired)}]\n{status}")


def generate(seed, opts):
    rnd = random.Random(seed * 7919 + 61)
    base = rnd.choice(["mixed", "contention"])
    family, docs = (mixed if base == "mixed" else contention)(seed, **opts)
    config = docs.pop()
    nodes = [m.group(1) for d in docs for m in [re.search(r"^kind: Node\nmetadata:\n  name: (\S+)$", d, re.M)] if m]
    own_name = rnd.choice(["volcano", "volcano", "batch"])
    mode = rnd.choice(["hard", "hard", "soft", "soft", "soft", "none"])
    shuffled = nodes[:]
    rnd.shuffle(shuffled)
    cut = rnd.randint(max(1, len(nodes) // 4), max(1, (len(nodes) * 3) // 4))
    ours, rest = sorted(shuffled[:cut]), shuffled[cut:]
    shards = []
    if rnd.random() < 0.9:
        in_use = sorted(rnd.sample(ours, rnd.randint(0, len(ours)))) if rnd.random() < 0.5 else []
        shards.append(shard_doc(own_name, ours, in_use))
    for k in range(rnd.randint(1, 2)):
        desired = sorted(set(rest[k::2]) | set(rnd.sample(ours, rnd.randint(0, min(3, len(ours))))))
        taken = [n for n in desired if rnd.random() < 0.5]  # some of them ours too
        shards.append(shard_doc(f"other-{k}", desired, sorted(taken)))
    args = [f"--scheduler-sharding-mode={mode}"]
    if own_name != "volcano" or rnd.random() < 0.3:
        args.append(f"--scheduler-sharding-name={own_name}")
    config = config.replace("kind: SchedulerConfiguration\n",
                            "kind: SchedulerConfiguration\nschedulerArgs: [" + ", ".join(f'"{a}"' for a in args) + "]\n", 1)
    docs.extend(shards)
    docs.append(config)
    return f"{base}:{family}/{mode}", docs


if __name__ == "__main__":
    run("gen_sharding.py", __doc__, generate)
