"""HyperNode network topology from Python: the builder, the snapshot's tree, the Cluster."""
import pytest

import vcsched

CONFIG = {"actions": "allocate",
          "tiers": [{"plugins": [{"name": "gang"}, {"name": "predicates"}, {"name": "network-topology-aware"}]}]}


def two_racks(b):
    for i in range(4):
        b.add_node(f"n{i}", allocatable={"cpu": 2, "memory": "8Gi", "pods": 10})
    b.add_hyper_node("r0", tier=1, nodes=["n0", "n1"])
    b.add_hyper_node("r1", tier=1, node_regex="^n[23]$")
    b.add_hyper_node("spine", tier=2, hyper_nodes=["r0", "r1"])
    return b


def gang(b, name, pods, cpu, topology):
    b.add_pod_group(name, namespace="ns", min_member=pods, network_topology=topology)
    for i in range(pods):
        b.add_pod(f"{name}-{i}", namespace="ns", group=name, requests={"cpu": cpu})


def rack(node):
    return 0 if node in ("n0", "n1") else 1


def test_tree_and_hard_limit():
    b = two_racks(vcsched.SnapshotBuilder())
    gang(b, "g", 2, 1, {"mode": "hard", "highestTierAllowed": 1})
    snap = b.build()
    tree = {h["name"]: h for h in snap.hyper_nodes}
    assert tree["r1"]["nodes"] == ["n2", "n3"]
    assert tree["r0"]["parent"] == "spine"
    assert tree["<cluster-top-hypernode>"]["tier"] == 3
    assert snap.hyper_nodes_ready
    d = vcsched.schedule(snap, CONFIG)
    nodes = list(d.binds.values())
    assert len(nodes) == 2 and rack(nodes[0]) == rack(nodes[1])


def test_gang_too_big_for_a_rack_waits():
    b = two_racks(vcsched.SnapshotBuilder())
    gang(b, "g", 4, 2, {"mode": "hard", "highestTierAllowed": 1})
    assert len(vcsched.schedule(b.build(), CONFIG).binds) == 0


def test_bad_hyper_node_is_refused_with_its_field():
    b = vcsched.SnapshotBuilder()
    b.add_node("n0", allocatable={"cpu": 1})
    b.add_hyper_node("h", tier=1, node_regex="(")
    with pytest.raises(vcsched.Error, match=r'HyperNode "h": spec.members\[0\].selector.regexMatch.pattern'):
        b.build()


def test_cluster_takes_hyper_node_events_and_round_trips():
    b = two_racks(vcsched.SnapshotBuilder())
    cluster = vcsched.Cluster(b.build())
    # A watch delivers the object's last state with DELETED.
    cluster.apply({"type": "DELETED", "object": {"apiVersion": "topology.volcano.sh/v1alpha1", "kind": "HyperNode",
                                                 "metadata": {"name": "spine"}, "spec": {"tier": 2}}})
    assert "spine" not in {h["name"] for h in cluster.snapshot().hyper_nodes}
    cluster.apply({"type": "ADDED", "object": {
        "apiVersion": "topology.volcano.sh/v1alpha1", "kind": "HyperNode", "metadata": {"name": "spine"},
        "spec": {"tier": 2, "members": [{"type": "HyperNode", "selector": {"exactMatch": {"name": "r0"}}}]}}})
    tree = {h["name"]: h for h in cluster.snapshot().hyper_nodes}
    assert tree["r0"]["parent"] == "spine"
    assert tree["r1"]["parent"] == "<cluster-top-hypernode>"
    again = vcsched.load_scenario(cluster.to_yaml())
    assert again.snapshot.hyper_nodes == cluster.snapshot().hyper_nodes
    with pytest.raises(vcsched.NotFoundError, match="HyperNode"):
        cluster.apply({"type": "MODIFIED", "object": {"apiVersion": "topology.volcano.sh/v1alpha1",
                                                      "kind": "HyperNode", "metadata": {"name": "absent"},
                                                      "spec": {"tier": 1, "members": []}}})


def test_hyper_nodes_discovered_from_labels():
    nodes = "".join(
        f"apiVersion: v1\nkind: Node\nmetadata: {{name: n{i}, labels: {{spine: s, rack: r{i // 2}}}}}\n"
        f"status: {{allocatable: {{cpu: '2', pods: '10'}}}}\n---\n" for i in range(4))
    sc = vcsched.load_scenario(nodes, hyper_node_labels=["spine", "rack"])
    tiers = sorted((h["tier"], len(h["nodes"])) for h in sc.snapshot.hyper_nodes)
    assert tiers == [(1, 2), (1, 2), (2, 4), (3, 4)]
    assert vcsched.load_scenario(nodes).snapshot.hyper_nodes == [
        {"name": "<cluster-top-hypernode>", "tier": 1, "parent": None, "nodes": ["n0", "n1", "n2", "n3"]}]
