#!/usr/bin/env python3
"""Adds the affinity mix of a real cluster to a genload scenario (stdin -> stdout).

Every pod gets the label app=<its PodGroup>. With --terms, jobs carry, by job number
(deterministic, no randomness): 20% preferred pod anti-affinity on hostname against their
own app, 5% required anti-affinity on hostname, 10% a zone topology spread constraint
(DoNotSchedule, maxSkew 1); the other 65% carry none. Without --terms only the labels
are added, so the two files differ in the terms alone: the benchmark's baseline.

  bench/genload.py --nodes 1000 --jobs 500 --replicas 40 | bench/affinity_mix.py --terms > M-aff.yaml
"""
import argparse
import re
import sys


def terms_for(job_number, app):
    kind = job_number % 20
    if kind < 4:
        return ("  affinity:\n    podAntiAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n"
                "      - weight: 100\n        podAffinityTerm:\n          topologyKey: kubernetes.io/hostname\n"
                f"          labelSelector: {{matchLabels: {{app: {app}}}}}\n")
    if kind == 4:
        return ("  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
                "      - topologyKey: kubernetes.io/hostname\n"
                f"        labelSelector: {{matchLabels: {{app: {app}}}}}\n")
    if kind in (5, 6):
        return ("  topologySpreadConstraints:\n  - maxSkew: 1\n    topologyKey: zone\n"
                f"    whenUnsatisfiable: DoNotSchedule\n    labelSelector: {{matchLabels: {{app: {app}}}}}\n")
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--terms", action="store_true", help="add the affinity and spread terms")
    a = ap.parse_args()
    for doc in sys.stdin.read().split("---\n"):
        if "\nkind: Pod\n" in "\n" + doc:
            group = re.search(r"scheduling\.k8s\.io/group-name: (\S+)", doc).group(1)
            job_number = int(group.rsplit("-", 1)[1])
            doc = doc.replace("  annotations:\n", f"  labels:\n    app: {group}\n  annotations:\n", 1)
            if a.terms:
                doc = doc.replace("spec:\n  schedulerName: volcano\n",
                                  "spec:\n  schedulerName: volcano\n" + terms_for(job_number, group), 1)
        sys.stdout.write(doc if doc.startswith("apiVersion") else doc)
        sys.stdout.write("---\n")


if __name__ == "__main__":
    main()
