#!/usr/bin/env python3
"""Fails when a source file includes a header past its layer (docs/ARCHITECTURE.md).

Layers, lowest first: util, model, snapshot, framework, support (pure helpers shared
by built-ins, on the public API), then actions and plugins side by side (each sees the
framework only through its public headers, plus util and support), builtins (the
registry of built-ins), cluster (the host's state, on the public snapshot and decisions),
explain (an explaining session's records and re-runs through the cluster state), lifecycle (on the model alone), io, simulate (the discrete-event loop on the public API), and the programs (cli,
bindings, tests, bench, examples) on top.

  check_layers.py REPO_ROOT
"""
import os
import re
import sys

PUBLIC_MODEL = {"quantity.h", "resource.h", "objects.h", "arguments.h", "config.h", "value.h", "version.h",
                "hyper_node_discovery.h", "storage.h", "policy.h"}
PUBLIC_FRAMEWORK = {"session.h", "plugin.h", "action.h", "statement.h", "registry.h", "scheduler.h",
                    "decisions.h", "fit.h", "shared_text.h", "explain_records.h", "scheduler_memory.h"}


def layer_of(path):
    """The layer a repository path (a source file or an included header) belongs to."""
    if path.startswith("src/util/"):
        return "util"
    if path.startswith("src/model/"):
        return "model"
    if path.startswith("src/internal/"):
        return "support"
    if path.startswith("src/snapshot/"):
        return "snapshot"
    if path.startswith("src/framework/"):
        return "framework"
    for folder in ("actions", "plugins", "cluster", "explain", "lifecycle", "io", "simulate", "cli"):
        if path.startswith(f"src/{folder}/"):
            return folder
    if path == "src/builtins.cc":
        return "builtins"
    if path.startswith("include/vcsched/"):
        name = path[len("include/vcsched/"):]
        if name.startswith("lifecycle/") or name == "lifecycle.h":
            return "public-lifecycle"
        if name.startswith("io/"):
            return "public-io"
        if name in ("simulate.h", "eta.h"):
            return "public-simulate"
        if name in PUBLIC_MODEL:
            return "public-model"
        if name == "snapshot.h":
            return "public-snapshot"
        if name == "cluster.h":
            return "public-cluster"
        if name == "explain.h":
            return "public-explain"
        if name in PUBLIC_FRAMEWORK:
            return "public-framework"
        return "public-all"  # vcsched.h, the umbrella
    return "program"  # bindings, tests, bench, examples


BELOW = {
    "util": {"util"},
    "public-model": {"public-model"},
    "model": {"util", "model", "public-model"},
    "public-snapshot": {"public-model", "public-snapshot"},
    "snapshot": {"util", "model", "public-model", "snapshot", "public-snapshot"},
    "public-framework": {"public-model", "public-snapshot", "public-framework"},
    "framework": {"util", "model", "public-model", "snapshot", "public-snapshot", "framework", "public-framework"},
}
# Built-ins see the public API, util and support, never the session's or the
# snapshot's private state.
DOOR = {"util", "public-model", "support", "public-snapshot", "public-framework"}
BELOW["support"] = DOOR
BELOW["actions"] = DOOR | {"actions"}
BELOW["plugins"] = DOOR | {"plugins"}
BELOW["builtins"] = DOOR | {"actions", "plugins", "framework"}
# The cluster state sees the public snapshot and decisions only.
BELOW["public-cluster"] = {"public-model", "public-snapshot", "public-framework", "public-cluster"}
BELOW["cluster"] = {"util", "public-model", "public-snapshot", "public-framework", "public-cluster", "cluster"}
# Explain reads an explaining session's records (framework) and re-runs sessions on
# changed copies through the cluster state.
BELOW["public-explain"] = {"public-model", "public-snapshot", "public-framework", "public-explain"}
BELOW["explain"] = BELOW["framework"] | {"public-cluster", "public-explain", "explain"}
BELOW["public-lifecycle"] = {"public-model", "public-lifecycle"}
BELOW["lifecycle"] = {"util", "model", "public-model", "lifecycle", "public-lifecycle"}
ALL_LIBRARY = set(BELOW) | {"public-all"}
BELOW["public-io"] = ALL_LIBRARY - {"util", "model", "support", "snapshot", "framework", "actions", "plugins",
                                    "builtins", "lifecycle", "cluster"} | {"public-io"}
BELOW["public-all"] = BELOW["public-io"] | {"public-all"}
# The loader reuses the model's checks (names, queue hierarchies).
BELOW["io"] = BELOW["public-io"] | {"util", "model", "io"}
# The simulator drives the public API (cluster state, explain, lifecycle, the loader).
BELOW["public-simulate"] = BELOW["public-io"] | {"public-simulate"}
BELOW["simulate"] = BELOW["public-simulate"] | {"util", "simulate"}
# The programs may use anything (tests reach into the framework on purpose).
# Pure helpers any layer may use: Eigen rows, Kubernetes' label, taint and host port
# matching, JSON quoting, and the nodegroup limits annotation's reader.
MODEL_HELPERS = {"src/model/resource_matrix.h", "src/model/k8s_match.h", "src/model/host_ports.h",
                 "src/model/output_text.h", "src/model/node_group_limits.h",
                 "src/model/revocable_window.h", "src/model/strict_json.h", "src/model/cpu_topology.h",
                 "src/model/pod_facts.h",
                 "src/model/go_sort.h", "src/model/gpu_share.h", "src/model/vgpu.h"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = []
    checked = 0
    for top in ("src", "include"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".cc", ".h")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, f), root)
                layer = layer_of(path)
                allowed = BELOW.get(layer)
                if allowed is None:
                    continue
                checked += 1
                with open(os.path.join(root, path), encoding="utf-8") as fh:
                    text = fh.read()
                for inc in INCLUDE.findall(text):
                    target = inc if inc.startswith("src/") else f"include/{inc}" if inc.startswith("vcsched/") else None
                    if target is None or target in MODEL_HELPERS and layer not in ("public-model",):
                        continue
                    if layer_of(target) not in allowed:
                        problems.append(f"{path}: includes {inc} ({layer_of(target)}), past its layer ({layer})")
    for p in problems:
        print(p)
    print(f"check_layers: {checked} files, {len(problems)} includes past their layer")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
