#!/usr/bin/env python3
"""Pods per second into a vcsched.Cluster from Python dicts, against the builder path.

    PYTHONPATH=build/python python3 bench/python_apply.py SCENARIO.yaml [--pods N] [--runs R]

The scenario (genload's output) is read with PyYAML; its nodes, queues and PodGroups
go into a Cluster first (not timed), then its first N pods as ADDED watch-event dicts
through `Cluster.apply_all` (timed, then the snapshot taken after it, timed apart),
interleaved with the same objects through `SnapshotBuilder.add` and `build()` (the path
a host had before the Cluster). Prints one JSON line: the median rates of `apply_all`
alone, of `apply_all` with the snapshot, and of the builder, and their ratios.
"""
import argparse
import json
import statistics
import time

import yaml

import vcsched


def load_objects(path):
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.load_all(f, Loader=loader) if isinstance(d, dict)]
    pods = [d for d in docs if d.get("kind") == "Pod"]
    others = [d for d in docs if d.get("kind") in ("Node", "Queue", "PodGroup", "PriorityClass")]
    return others, pods


def cluster_with(others):
    cluster = vcsched.Cluster()
    cluster.apply_all([{"type": "ADDED", "object": o} for o in others])
    return cluster


def time_apply_all(others, events):
    """Seconds for apply_all, and for the snapshot after it."""
    cluster = cluster_with(others)
    start = time.perf_counter()
    cluster.apply_all(events)
    applied = time.perf_counter()
    cluster.snapshot()
    return applied - start, time.perf_counter() - applied


def time_builder(others, pods):
    start = time.perf_counter()
    builder = vcsched.SnapshotBuilder()
    for o in others:
        builder.add(o)
    for p in pods:
        builder.add(p)
    builder.build()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario")
    parser.add_argument("--pods", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    others, pods = load_objects(args.scenario)
    pods = pods[:args.pods]
    events = [{"type": "ADDED", "object": p} for p in pods]
    apply_s, with_snapshot_s, builder_s = [], [], []
    for _ in range(args.runs):
        applied, snapshot = time_apply_all(others, events)
        apply_s.append(applied)
        with_snapshot_s.append(applied + snapshot)
        builder_s.append(time_builder(others, pods))
    rate = {name: len(pods) / statistics.median(seconds)
            for name, seconds in (("apply_all", apply_s), ("with_snapshot", with_snapshot_s), ("builder", builder_s))}
    print(json.dumps({"pods": len(pods), "runs": args.runs,
                      "apply_all_pods_per_s": round(rate["apply_all"]),
                      "apply_all_and_snapshot_pods_per_s": round(rate["with_snapshot"]),
                      "builder_pods_per_s": round(rate["builder"]),
                      "apply_all_vs_builder": round(rate["apply_all"] / rate["builder"], 2),
                      "with_snapshot_vs_builder": round(rate["with_snapshot"] / rate["builder"], 2)}))


if __name__ == "__main__":
    main()
