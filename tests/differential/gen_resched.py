#!/usr/bin/env python3
"""Random scenarios for the rescheduling plugin (issue 60): lowNodeUtilization's victims.

  gen_resched.py [gen_contention options] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
A gen_contention.py scenario of the same seed, then: most nodes carry node metrics
(docs/FORMAT.md "Node metrics"), drawn so that some nodes are quiet and some busy, often
in whole percents (so that the room left on quiet nodes can run out exactly); a few nodes
lose status.capacity or become unschedulable; running pods get spec.priority, limits
(QoS classes) or a status.qosClass now and then; rescheduling joins a tier with drawn
arguments: interval mostly "0s" (due in every session: Volcano's first session counts it
from the scheduler's start), sometimes left out or "5m" (not due); metricsPeriod mostly
"10m" (the period node metrics are recorded for), sometimes "5m" or left out (every node
reads 0%); strategies with lowNodeUtilization thresholds and targetThresholds, sometimes
an unknown strategy beside it, sometimes none (the defaults). shuffle joins the actions.
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_contention import generate as contention  # noqa: E402
from gen_cli import run  # noqa: E402
from gen_policy import split_kind  # noqa: E402

NOW = "2026-03-01T12:00:00Z"


def percent(rnd, busy):
    lo, hi = (55, 99) if busy else (0, 45)
    if rnd.random() < 0.5:
        return str(rnd.randint(lo, hi))
    return f"{rnd.uniform(lo, hi):.1f}"


def node(rnd, d):
    if rnd.random() < 0.85:
        busy = rnd.random() < 0.5
        cpu, mem = percent(rnd, busy), percent(rnd, busy and rnd.random() < 0.6)
        ann = (f"  annotations:\n    vcsched.io/cpu-usage-percent: '{cpu}'\n"
               f"    vcsched.io/memory-usage-percent: '{mem}'\n    vcsched.io/usage-time: '{NOW}'\n")
        d = d.replace("  labels:\n", ann + "  labels:\n", 1)
    if rnd.random() < 0.06:
        d = re.sub(r"\n  capacity: \{[^}]*\}", "", d)
    if rnd.random() < 0.08:
        d = re.sub(r"^spec:\n  \{\}\n", "spec:\n  unschedulable: true\n", d, flags=re.M)
    return d


def pod(rnd, d):
    if "phase: Running" not in d:
        return d
    if rnd.random() < 0.5:
        d = d.replace("spec:\n  schedulerName:", f"spec:\n  priority: {rnd.choice([0, 10, 10, 100, 1000])}\n  schedulerName:", 1)
    m = re.search(r"requests: \{cpu: (\d+)m, memory: (\d+)Mi\}", d)
    r = rnd.random()
    if m and r < 0.3:
        cpu, mem = int(m.group(1)), int(m.group(2))
        k = rnd.choice([1, 1, 2])
        d = d.replace(m.group(0), f"{m.group(0)}\n      limits: {{cpu: {cpu * k}m, memory: {mem * k}Mi}}", 1)
    elif r < 0.4:
        qos = rnd.choice(["BestEffort", "Burstable", "Guaranteed"])
        d = d.replace("status:\n  phase: Running\n", f"status:\n  phase: Running\n  qosClass: {qos}\n", 1)
    return d


def thresholds(rnd, lo, hi):
    keys = rnd.sample(["cpu", "memory", "pods"], rnd.choice([1, 2, 2, 3]))
    return "{" + ", ".join(f"{k}: {rnd.randint(lo, hi)}" for k in keys) + "}"


def args(rnd):
    out = []
    r = rnd.random()
    if r < 0.8:
        out.append("      interval: 0s")
    elif r < 0.9:
        out.append("      interval: 5m")
    r = rnd.random()
    if r < 0.85:
        out.append("      metricsPeriod: 10m")
    elif r < 0.93:
        out.append("      metricsPeriod: 5m")
    if rnd.random() < 0.92:
        params = []
        if rnd.random() < 0.9:
            params.append(f"          thresholds: {thresholds(rnd, 20, 55)}")
        if rnd.random() < 0.9:
            params.append(f"          targetThresholds: {thresholds(rnd, 45, 80)}")
        entry = "      - name: lowNodeUtilization\n"
        if params:
            entry += "        params:\n" + "\n".join(params) + "\n"
        strategies = [entry]
        if rnd.random() < 0.15:
            strategies.insert(rnd.randint(0, 1), "      - name: highNodeUtilization\n")
        out.append("      strategies:\n" + "".join(strategies).rstrip("\n"))
    return "\n".join(out)


def generate(seed, opts):
    rnd = random.Random(seed * 7919 + 66)
    family, docs = contention(seed, **opts)
    config = docs.pop()
    edits = {"Node": node, "Pod": pod}
    out = [edits.get(split_kind(d), lambda _rnd, doc: doc)(rnd, d) for d in docs]
    body = args(rnd)
    plugin = "  - name: rescheduling\n" + (f"    arguments:\n{body}\n" if body else "")
    parts = config.split("- plugins:\n")
    tier = rnd.choice([1, len(parts) - 1])
    parts[tier] = parts[tier] + plugin
    config = "- plugins:\n".join(parts)
    if rnd.random() < 0.75:
        config = re.sub(r'actions: "([^"]*)"', lambda m: f'actions: "{m.group(1)}, shuffle"', config)
    else:
        config = re.sub(r'actions: "enqueue, ', 'actions: "enqueue, shuffle, ', config)
    out.append(config)
    return family, out


if __name__ == "__main__":
    run("gen_resched.py", __doc__, generate)
