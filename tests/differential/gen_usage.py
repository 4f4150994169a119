#!/usr/bin/env python3
"""Random scenarios for the usage plugin (issue 60): load-aware filtering and scoring.

  gen_usage.py [gen_mixed options] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
A gen_mixed.py scenario of the same seed, then: the PodGroups are created at NOW (the
session clock); most nodes carry node metrics (docs/FORMAT.md "Node metrics": CPU and
memory percentages, some past the thresholds, taken from just now to an hour ago, so that
some are stale), a few lose status.capacity; most running pods get a status.startTime
(seconds to an hour before NOW), some pods get limits above their requests, a few pending
pods request nothing (best effort); usage joins the configuration with drawn arguments
(weights, thresholds, estimator, sometimes enablePredicate: false), and the configuration
sometimes sets metrics.interval. Times keep clear of the plugin's edges (five minutes,
the metrics interval) by at least ten seconds.
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_cli import run  # noqa: E402
from gen_mixed import generate as mixed  # noqa: E402
from gen_policy import split_kind  # noqa: E402

NOW = "2026-03-01T12:00:00Z"
NOW_S = 12 * 3600  # seconds into 2026-03-01


def at(seconds_before):
    """NOW minus a number of seconds (under two days), as RFC 3339."""
    t = NOW_S - seconds_before
    day = 1 if t >= 0 else 0
    t %= 86400
    date = "2026-03-01" if day else "2026-02-28"
    return f"{date}T{t // 3600:02d}:{t % 3600 // 60:02d}:{t % 60:02d}Z"


def percent(rnd):
    return rnd.choice([f"{rnd.uniform(2, 98):.1f}", str(rnd.randint(0, 100)), f"{rnd.uniform(30, 75):.2f}"])


def node(rnd, d):
    if rnd.random() < 0.8:
        age = rnd.choice([0, 20, 90, 200, 270, 330, 600, 3600])
        ann = (f"  annotations:\n    vcsched.io/cpu-usage-percent: '{percent(rnd)}'\n"
               f"    vcsched.io/memory-usage-percent: '{percent(rnd)}'\n    vcsched.io/usage-time: '{at(age)}'\n")
        d = d.replace("  labels:\n", ann + "  labels:\n", 1)
    if rnd.random() < 0.1:
        d = re.sub(r"\n  capacity: \{[^}]*\}", "", d)
    return d


def limits(rnd, d):
    m = re.search(r"requests: \{cpu: (\d+)m, memory: (\d+)Mi\}", d)
    if not m:
        return d
    cpu, mem = int(m.group(1)), int(m.group(2))
    parts = []
    if rnd.random() < 0.8:
        parts.append(f"cpu: {cpu * rnd.choice([1, 2, 4])}m")
    if rnd.random() < 0.8:
        parts.append(f"memory: {mem * rnd.choice([1, 2, 3])}Mi")
    return d.replace(m.group(0), f"{m.group(0)}\n      limits: {{{', '.join(parts)}}}", 1)


def pod(rnd, d):
    if "phase: Running" in d and rnd.random() < 0.7:
        age = rnd.choice([5, 15, 40, 75, 150, 3600])
        d = d.replace("status:\n  phase: Running\n", f"status:\n  phase: Running\n  startTime: '{at(age)}'\n", 1)
    if rnd.random() < 0.35:
        d = limits(rnd, d)
    if "phase: Pending" in d and "nodeName" not in d and rnd.random() < 0.05:
        d = re.sub(r"requests: \{[^}]*\}", "requests: {}", d, count=1)
    return d


def args(rnd):
    out = [f"      usage.weight: {rnd.choice([5, 5, 1, 10])}"]
    if rnd.random() < 0.5:
        out.append(f"      cpu.weight: {rnd.choice([1, 2, 0])}")
        out.append(f"      memory.weight: {rnd.choice([1, 3, 0])}")
    if rnd.random() < 0.7:
        out.append(f"      thresholds: {{cpu: {rnd.choice([50, 70, 80, 90])}, mem: {rnd.choice([50, 70, 80, 95])}}}")
    if rnd.random() < 0.6:
        est = [f"request_ratio: {rnd.choice([0.5, 0.7, 1.0])}", f"burst_ratio: {rnd.choice([0, 0.3])}",
               f"risk_threshold: {rnd.choice([0.3, 0.6, 0.9])}", f"risk_factor: {rnd.choice([1.2, 1.5])}"]
        if rnd.random() < 0.5:
            est.append(f"be_cpu: {rnd.choice(['500m', '250', '1'])}")
            est.append(f"be_mem: {rnd.choice(['512Mi', '100', '1Gi'])}")
        out.append("      estimator: {" + ", ".join(rnd.sample(est, rnd.randint(1, len(est)))) + "}")
    return "\n".join(out)


def generate(seed, opts):
    rnd = random.Random(seed * 7919 + 64)
    family, docs = mixed(seed, **opts)
    config = docs.pop()
    out = []
    for d in docs:
        kind = split_kind(d)
        if kind == "Node":
            d = node(rnd, d)
        elif kind == "Pod":
            d = pod(rnd, d)
        elif kind == "PodGroup":
            d = d.replace("metadata:\n", f"metadata:\n  creationTimestamp: '{NOW}'\n", 1)
        out.append(d)
    switch = "    enablePredicate: false\n" if rnd.random() < 0.15 else ""
    plugin = f"  - name: usage\n{switch}    arguments:\n{args(rnd)}\n"
    parts = config.split("- plugins:\n")
    tier = rnd.choice([1, len(parts) - 1])
    parts[tier] = parts[tier] + plugin
    config = "- plugins:\n".join(parts)
    if rnd.random() < 0.4:
        config = config.rstrip("\n") + f"\nmetrics:\n  interval: {rnd.choice(['1m', '10s', '2m', 'bad'])}\n"
    out.append(config)
    return family, out


if __name__ == "__main__":
    run("gen_usage.py", __doc__, generate)
