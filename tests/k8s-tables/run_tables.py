#!/usr/bin/python3
"""Kubernetes' own table tests for the scheduler plugins Volcano calls, run against vcsched.

Each *.yaml here is one Kubernetes test function converted to data (README.md is the
index: Kubernetes version, feature gates, sources, skipped cases and why). A case gives
the incoming pod, the nodes, the pods already running, and the verdict Kubernetes' test
asserts:

- filter tables: `want: {node: true|false}`. Each node is checked in its own session in
  which only that node has room (the others get no cpu); the pod binds iff it fits. The
  other nodes stay in the cluster, so counts over domains (spread, affinity) see them.
- score tables: `scores: {node: n}` (Kubernetes' normalised 0-100) for the candidate
  nodes; `failed: [node]` lists nodes that are in the cluster but fail the filters. nodeorder runs with
  only the table's plugin weighted; the pod must bind to a node of the highest score. With
  `ranking: full`, the check repeats with the best node(s) removed, down the ranking
  (only for scorers whose order does not depend on which nodes are feasible). With
  `exact: PLUGIN`, every candidate node's score from that plugin (vcsched.scores) must
  also equal the table's score.

Tables of the volume plugins also give `objects` (PersistentVolumeClaims, PersistentVolumes,
StorageClasses, CSINodes as manifests; at the table's top level for every case, or in a
case) and `predicates` (the predicates plugin's arguments, e.g. to test VolumeZone with
VolumeBinding off, as Kubernetes' test runs one plugin alone).

usage: run_tables.py [TABLE.yaml...]   (PYTHONPATH must reach the vcsched package)
"""
import copy
import glob
import os
import sys

import yaml

import vcsched

HERE = os.path.dirname(os.path.abspath(__file__))
NODEORDER_WEIGHTS = ["leastrequested", "mostrequested", "balancedresource", "nodeaffinity", "podaffinity",
                     "tainttoleration", "imagelocality", "podtopologyspread"]


def config(weights, predicates=None):
    args = {f"{w}.weight": 0 for w in NODEORDER_WEIGHTS}
    args.update(weights or {})
    pred = {"name": "predicates"}
    if predicates:
        pred["arguments"] = dict(predicates)
    return {"actions": "enqueue, allocate, backfill",
            "tiers": [{"plugins": [{"name": "priority"}, {"name": "gang"}]},
                      {"plugins": [pred, {"name": "nodeorder", "arguments": args}]}]}


def node_doc(frag, has_room, pods_there):
    d = copy.deepcopy(frag)
    d.setdefault("apiVersion", "v1")
    d.setdefault("kind", "Node")
    status = d.setdefault("status", {})
    alloc = status.setdefault("allocatable", {"cpu": "64", "memory": "256Gi", "pods": "110"})
    if not has_room:
        # No cpu and no pod slot left: neither a pod with requests nor a best-effort
        # one (which only needs a slot) fits here.
        alloc["cpu"] = "0"
        alloc["pods"] = str(pods_there)
    return d


def pod_doc(frag, default_name, incoming):
    d = copy.deepcopy(frag)
    d.setdefault("apiVersion", "v1")
    d.setdefault("kind", "Pod")
    meta = d.setdefault("metadata", {})
    meta.setdefault("name", default_name)
    meta.setdefault("namespace", "default")
    spec = d.setdefault("spec", {})
    if "containers" not in spec:
        # A pod of the tables without containers: a token request of both scored
        # resources, so that allocate (not backfill) places it and scores nodes for it,
        # and no non-zero default (100m cpu, 200Mi memory) stands in for a missing one.
        spec["containers"] = [{"name": "c", "resources": {"requests": {"cpu": "1m", "memory": "1"}}}]
    if incoming:
        spec["schedulerName"] = "volcano"
        d.setdefault("status", {})["phase"] = "Pending"
    else:
        d.setdefault("status", {}).setdefault("phase", "Running")
    return d


def scenario(case, room, objects=()):
    on_node = {}
    for p in case.get("pods", []):
        node = p.get("spec", {}).get("nodeName")
        on_node[node] = on_node.get(node, 0) + 1
    # `failed` nodes are in the cluster (their pods count) but never have room: the nodes
    # Kubernetes' score tests leave out of PreScore as having failed the filters.
    failed = set(case.get("failed", []))
    docs = [node_doc(n, n["metadata"]["name"] in room and n["metadata"]["name"] not in failed,
                     on_node.get(n["metadata"]["name"], 0)) for n in case["nodes"]]
    docs += [{"apiVersion": "v1", "kind": "Namespace", "metadata": ns} for ns in case.get("namespaces", [])]
    docs += [copy.deepcopy(o) for o in list(objects) + case.get("objects", [])]
    docs += [pod_doc(p, f"existing-{i}", False) for i, p in enumerate(case.get("pods", []))]
    incoming = pod_doc(case["pod"], "incoming", True)
    docs.append(incoming)
    text = yaml.safe_dump_all(docs, sort_keys=False)
    key = f"{incoming['metadata']['namespace']}/{incoming['metadata']['name']}"
    return vcsched.load_scenario(text), key


def session(case, weights, room, table=None):
    table = table or {}
    loaded, key = scenario(case, room, table.get("objects", []))
    return vcsched.schedule(loaded, config(weights, table.get("predicates"))).binds.get(key)


def check_exact(case, weights, plugin):
    """Each candidate node's score from `plugin` (vcsched.scores) equals the table's."""
    loaded, key = scenario(case, set(case["scores"]))
    got = {n.node: n.plugins.get(plugin, 0) for n in vcsched.scores(loaded, key, config(weights))}
    return [f"{node}: Kubernetes scores {want}, vcsched's {plugin} {got.get(node)}"
            for node, want in sorted(case["scores"].items()) if got.get(node) != want]


def check_filter(case, weights, table=None):
    errors = []
    for node, fits in case["want"].items():
        got = session(case, weights, {node}, table)
        if (got == node) != fits:
            errors.append(f"{node}: Kubernetes says {'fits' if fits else 'does not fit'}, vcsched "
                          f"{'bound it there' if got == node else 'did not bind it'}")
    return errors


def check_score(case, weights, full_ranking):
    scores = dict(case["scores"])
    errors = []
    while scores:
        best = max(scores.values())
        top = {n for n, s in scores.items() if s == best}
        got = session(case, weights, set(scores))
        if got not in top:
            errors.append(f"among {sorted(scores)}: Kubernetes ranks {sorted(top)} first (score {best}), "
                          f"vcsched bound to {got}")
            break
        if not full_ranking:
            break
        for n in top:
            del scores[n]
    return errors


def run(path):
    with open(path) as f:
        table = yaml.safe_load(f)
    passed = failed = skipped = 0
    for case in table["cases"]:
        label = f"{table['function']}: {case['name']}"
        if "skip" in case:
            skipped += 1
            continue
        try:
            if table["kind"] == "filter":
                errors = check_filter(case, table.get("weights"), table)
            else:
                errors = check_score(case, table.get("weights"), table.get("ranking") == "full")
                if "exact" in table:
                    errors += check_exact(case, table.get("weights"), table["exact"])
        except Exception as e:  # a load error is a failed case, named
            errors = [f"{type(e).__name__}: {e}"]
        if errors:
            failed += 1
            print(f"FAIL {label}")
            for e in errors:
                print(f"     {e}")
        else:
            passed += 1
    print(f"{os.path.basename(path)}: {passed} passed, {failed} failed, {skipped} skipped")
    return passed, failed, skipped


def main():
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(HERE, "*.yaml")))
    totals = [0, 0, 0]
    for p in paths:
        for i, n in enumerate(run(p)):
            totals[i] += n
    print(f"total: {totals[0]} passed, {totals[1]} failed, {totals[2]} skipped")
    sys.exit(1 if totals[1] or not totals[0] else 0)


if __name__ == "__main__":
    main()
