#!/usr/bin/env python3
"""Random scenarios for resource-strategy-fit's modes (issue 60).

  gen_rsf.py [gen_mixed options] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
A gen_mixed.py scenario of the same seed, then: some nodes get one or two kinds of
accelerator (example.com/t4, example.com/a10: 2-16 each), some pending pods ask for one;
resource-strategy-fit joins the configuration with drawn arguments: its weight (sometimes
0 or negative), per-resource strategies (exact names, a prefix pattern, an ignored '*'),
sra (the accelerators, weights) and proportional (cores and gigabytes kept per
accelerator); some pods carry the scoring-type and weight annotations (sometimes not
JSON, or a type Volcano does not know).
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_cli import run  # noqa: E402
from gen_mixed import generate as mixed  # noqa: E402
from gen_policy import split_kind  # noqa: E402

GPUS = ["example.com/t4", "example.com/a10"]


def args(rnd):
    out = []
    w = rnd.choice([10, 10, 5, 1, 0, -2])
    out.append(f"      resourceStrategyFitWeight: {w}")
    if rnd.random() < 0.8:
        res = []
        for name in rnd.sample(["cpu", "memory", "example.com/t4", "example.com/*", "example.com/a*", "*"],
                               rnd.randint(1, 4)):
            t = rnd.choice(["LeastAllocated", "MostAllocated", "MostAllocated", "Other"])
            res.append(f"        \"{name}\": {{type: {t}, weight: {rnd.choice([1, 2, 3, 0])}}}")
        out.append("      resources:\n" + "\n".join(res))
    if rnd.random() < 0.6:
        names = rnd.sample(GPUS, rnd.randint(1, 2))
        rw = ", ".join(f"{n}: {rnd.randint(1, 3)}" for n in names)
        out.append(f"      sra: {{enable: {str(rnd.random() < 0.9).lower()}, resources: \"{', '.join(names)}\", "
                   f"weight: {rnd.choice([1, 2, 5])}, resourceWeight: {{{rw}}}}}")
    if rnd.random() < 0.5:
        name = rnd.choice(GPUS)
        out.append(f"      proportional: {{enable: true, resources: {name}, resourceProportion: "
                   f"{{{name}.cpu: {rnd.choice([0.25, 0.5, 1])}, {name}.memory: {rnd.choice([0.5, 1, 2])}}}}}")
    return "\n".join(out)


def generate(seed, opts):
    rnd = random.Random(seed * 7919 + 63)
    family, docs = mixed(seed, **opts)
    config = docs.pop()
    out = []
    for d in docs:
        kind = split_kind(d)
        if kind == "Node" and rnd.random() < 0.6:
            extra = "".join(f", {g}: '{rnd.choice([2, 4, 8, 16])}'" for g in rnd.sample(GPUS, rnd.randint(1, 2)))
            d = re.sub(r"(allocatable|capacity): \{([^}]*)\}", lambda m: f"{m.group(1)}: {{{m.group(2)}{extra}}}", d)
        elif kind == "Pod" and "phase: Pending" in d:
            if rnd.random() < 0.4:
                g = rnd.choice(GPUS)
                d = re.sub(r"requests: \{([^}]*)\}", lambda m: f"requests: {{{m.group(1)}, {g}: '1'}}", d, count=1)
            if rnd.random() < 0.2:
                t = rnd.choice(["LeastAllocated", "MostAllocated", "Other"])
                w = rnd.choice(['{"cpu": 2, "memory": 1}', '{"example.com/t4": 3, "cpu": 1}', 'not-json', '{"cpu": 1.5}'])
                ann = f"    volcano.sh/resource-strategy-scoring-type: {t}\n    volcano.sh/resource-strategy-weight: '{w}'\n"
                d = d.replace("  annotations:\n", "  annotations:\n" + ann, 1)
        out.append(d)
    plugin = f"  - name: resource-strategy-fit\n    arguments:\n{args(rnd)}\n"
    parts = config.split("- plugins:\n")
    parts[-1] = parts[-1] + plugin
    out.append("- plugins:\n".join(parts))
    return family, out


if __name__ == "__main__":
    run("gen_rsf.py", __doc__, generate)
