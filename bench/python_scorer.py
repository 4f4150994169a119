#!/usr/bin/env python3
"""A Python scorer, per node against batched, beside the built-in scorers (same run).

Scores every (task, node) pair of a genload scenario three ways and prints each session's
median time and its ratio to the built-ins alone:
  builtin   nodeorder only (the baseline)
  per-node  + a Python plugin with node_order(task, node): one call per pair
  batched   + the same score from batch_node_order(task, nodes): one call per task
  numpy     + a batch_node_order computed with numpy over nodes.idle / nodes.allocatable
A host scorer turns off the cache that lets the built-ins score a node class once, so part
of every Python variant's cost is the built-ins scoring every node.
The per-node and batched plugins compute the same score, so they must decide alike.

  PYTHONPATH=build/python /usr/bin/python3 bench/python_scorer.py --nodes 1000 --jobs 100 --replicas 10
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import vcsched

HERE = os.path.dirname(os.path.abspath(__file__))


class PerNode:
    def node_order(self, task, node):
        return 10.0 if node.name.endswith("7") else 0.0


class Batched:
    def batch_node_order(self, task, nodes):
        return [10.0 if name.endswith("7") else 0.0 for name in nodes.names]


class BatchedNumpy:
    """A vectorised score over the batch (numpy): the most idle cpu first."""

    def batch_node_order(self, task, nodes):
        import numpy as np
        return nodes.idle("cpu") / np.maximum(nodes.allocatable("cpu"), 1) * 10.0


def config(extra):
    plugins = [{"name": "predicates"}, {"name": "nodeorder"}] + ([{"name": extra}] if extra else [])
    return {"actions": "enqueue, allocate", "tiers": [{"plugins": [{"name": "priority"}, {"name": "gang"}]},
                                                      {"plugins": plugins}]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=100)
    ap.add_argument("--replicas", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    text = subprocess.run([sys.executable, os.path.join(HERE, "genload.py"), "--nodes", str(a.nodes), "--jobs",
                           str(a.jobs), "--replicas", str(a.replicas)], check=True, capture_output=True,
                          text=True).stdout
    scenario = vcsched.load_scenario(text)
    runs = {"builtin": (None, {}), "per-node": ("py-scorer", {"py-scorer": PerNode}),
            "batched": ("py-scorer", {"py-scorer": Batched}),
            "numpy": ("py-scorer", {"py-scorer": BatchedNumpy})}
    times, binds = {}, {}
    for _ in range(a.repeat):  # interleaved, so that every variant sees the same machine load
        for name, (plugin, plugins) in runs.items():
            t0 = time.perf_counter()
            d = vcsched.schedule(scenario.snapshot, config(plugin), plugins=plugins)
            times.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
            binds[name] = d.binds
    if binds["per-node"] != binds["batched"]:
        sys.exit("per-node and batched scorers decided differently")
    base = statistics.median(times["builtin"])
    print(f"{a.nodes} nodes, {a.jobs * a.replicas} tasks, {len(binds['builtin'])} binds")
    for name in times:
        m = statistics.median(times[name])
        print(f"  {name:9s} {m:9.1f} ms  {m / base:7.1f}x builtin")


if __name__ == "__main__":
    main()
