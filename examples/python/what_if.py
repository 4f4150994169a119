#!/usr/bin/env python3
"""What if the heavy queue had another weight? Sweep it and watch reclaim.

Loads examples/queues/contention-reclaim-by-weight.yaml (a light queue fills 32 cpu, a
heavy queue submits 32 one-cpu jobs), rebuilds the snapshot with heavy's weight set to
1..6, runs one session each time and prints how many of heavy's jobs get a place (bound
or pipelined after reclaim) and what share of the cluster each queue holds afterwards.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/what_if.py
"""
import pathlib
import sys
from typing import Any, Dict, List

import yaml  # type: ignore[import]  # PyYAML ships no type information

import vcsched

HERE = pathlib.Path(__file__).resolve().parent
SCENARIO = HERE.parent / "queues" / "contention-reclaim-by-weight.yaml"


def build(docs: List[Dict[str, Any]], heavy_weight: int) -> vcsched.Snapshot:
    b = vcsched.SnapshotBuilder()
    for doc in docs:
        if doc.get("kind") in ("SchedulerConfiguration", "Expectation"):
            continue
        if doc.get("kind") == "Queue" and doc["metadata"]["name"] == "heavy":
            doc = {**doc, "spec": {**doc["spec"], "weight": heavy_weight}}
        b.add(doc)
    return b.build()


def main(argv: List[str]) -> int:
    docs = [d for d in yaml.safe_load_all(SCENARIO.read_text()) if d]
    config = next(d for d in docs if d.get("kind") == "SchedulerConfiguration")
    config = {k: v for k, v in config.items() if k not in ("apiVersion", "kind")}
    scheduler = vcsched.Scheduler(config)
    print(f"{'weight':>6} {'heavy placed':>12} {'evicted':>8} {'heavy cpu':>10} {'light cpu':>10}")
    for weight in range(1, 7):
        decisions = scheduler.schedule(build(docs, weight))
        usage = decisions.queue_usage()
        cpu = usage.resources.index("cpu")
        evicted = set(decisions.evictions)
        heavy = usage.used[usage.names.index("heavy"), cpu] // 1000
        # Evicted pods still hold their cpu until they terminate; count them out.
        light_pods = [p for p in decisions.snapshot.pods if p.startswith("light/") and p not in evicted]
        placed = sum(1 for p in list(decisions.binds) + list(decisions.pipelined) if p.startswith("heavy/"))
        print(f"{weight:>6} {placed:>12} {len(evicted):>8} {heavy:>10} {len(light_pods):>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
