#!/usr/bin/env python3
"""Random contention scenarios with revocable nodes for the tdm plugin (issue 60).

  gen_tdm.py [gen_contention options] SEED > case.yaml

The output depends only on SEED and the options (random.Random, standard library only).
A gen_contention.py scenario of the same seed, then: some nodes join a revocable zone
(volcano.sh/revocable-zone) that is open all day (window 0:00-0:00), or closed at any
clock (a window that is not two times, or a zone the arguments do not name), so that
Volcano's wall clock and vcsched's session clock agree; some jobs become preemptable
(PodGroup and pod annotations volcano.sh/preemptable, or pods annotated with the
revocable zone "*"), some PodGroups carry a disruption budget (volcano.sh/jdb-min-available
or jdb-max-unavailable, a count or a percentage); tdm joins the first tier, and shuffle
often ends the actions.
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_contention import generate as contention  # noqa: E402
from gen_cli import run  # noqa: E402
from gen_policy import meta, split_kind  # noqa: E402

ZONES = {"rz-day": "0:00-0:00", "rz-bad": "25:00-1:00", "rz-form": "0:00"}  # rz-off: not named


def annotate(doc, pairs):
    for k, _ in pairs:  # a value the base scenario wrote gives way
        doc = re.sub(rf"^    {re.escape(k)}: .*\n", "", doc, flags=re.M)
    lines = "".join(f"    {k}: \"{v}\"\n" for k, v in pairs)
    if "  annotations:\n" in doc:
        return doc.replace("  annotations:\n", "  annotations:\n" + lines, 1)
    return doc.replace("metadata:\n", "metadata:\n  annotations:\n" + lines, 1)


def generate(seed, opts):
    rnd = random.Random(seed * 7919 + 62)
    family, docs = contention(seed, **opts)
    config = docs.pop()
    zones = list(ZONES) + ["rz-off"]
    weights = [5, 1, 1, 1]
    preemptable_groups, revocable_groups = set(), set()
    out = []
    for d in docs:
        kind = split_kind(d)
        if kind == "Node" and rnd.random() < 0.5:
            zone = rnd.choices(zones, weights)[0]
            d = d.replace("  labels:\n", f"  labels:\n    volcano.sh/revocable-zone: {zone}\n", 1)
        elif kind == "PodGroup":
            key = f"{meta(d, 'namespace')}/{meta(d, 'name')}"
            pairs = []
            r = rnd.random()
            if r < 0.45:
                preemptable_groups.add(key)
                pairs.append(("volcano.sh/preemptable", "true"))
            elif r < 0.6:
                revocable_groups.add(key)
            if rnd.random() < 0.4:
                name = rnd.choice(["volcano.sh/jdb-min-available", "volcano.sh/jdb-max-unavailable"])
                pairs.append((name, rnd.choice(["1", "2", "0", "50%", "30%", "100%"])))
            if pairs:
                d = annotate(d, pairs)
        elif kind == "Pod":
            group = re.search(r"group-name: (\S+)", d).group(1)
            key = f"{meta(d, 'namespace')}/{group}"
            if key in preemptable_groups:
                d = annotate(d, [("volcano.sh/preemptable", "true")])
            elif key in revocable_groups:
                d = annotate(d, [("volcano.sh/revocable-zone", "*")])
        out.append(d)
    args = "".join(f"      tdm.revocable-zone.{z}: \"{w}\"\n" for z, w in ZONES.items())
    if rnd.random() < 0.5:
        args += "      tdm.evict.period: 1m\n"
    parts = config.split("- plugins:\n")
    parts[1] = parts[1] + f"  - name: tdm\n    arguments:\n{args}"
    config = "- plugins:\n".join(parts)
    if rnd.random() < 0.7:
        config = re.sub(r'actions: "([^"]*)"', lambda m: f'actions: "{m.group(1)}, shuffle"', config)
    out.append(config)
    return family, out


if __name__ == "__main__":
    run("gen_tdm.py", __doc__, generate)
