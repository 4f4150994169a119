"""vcsched.Cluster: watch events in, sessions on its snapshot, decisions applied back."""
import pytest

import vcsched


def node(name, cpu):
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
            "status": {"allocatable": {"cpu": str(cpu), "memory": "16Gi", "pods": "110"}}}


def pod(name, cpu, group=None, **status):
    meta = {"name": name, "namespace": "ns"}
    if group:
        meta["annotations"] = {"scheduling.k8s.io/group-name": group}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": {"schedulerName": "volcano", "containers": [{"name": "c", "resources": {"requests": {"cpu": str(cpu)}}}]},
            "status": status or {"phase": "Pending"}}


def group(name, min_member):
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
            "metadata": {"name": name, "namespace": "ns"},
            "spec": {"minMember": min_member, "minResources": {"cpu": str(2 * min_member)}}}


def added(obj):
    return {"type": "ADDED", "object": obj}


def test_a_gang_goes_pending_inqueue_running_over_cycles():
    c = vcsched.Cluster()
    c.apply_all([added(node("small", 1)), added(group("g", 2)), added(pod("a", 2, "g")), added(pod("b", 2, "g"))])
    d1 = c.schedule()
    assert d1.binds == {}
    assert d1.phases == {"ns/g": "Pending"}
    c.apply(added(node("big", 8)))
    d2 = c.schedule(now=100)
    assert d2.binds == {"ns/a": "big", "ns/b": "big"}
    assert c.last_apply["binds"] == 2 and c.last_apply["conflicts"] == []
    for name in ("a", "b"):
        p = pod(name, 2, "g", phase="Running")
        p["spec"]["nodeName"] = "big"
        c.apply({"type": "MODIFIED", "object": p})
    d3 = c.schedule()
    assert d3.binds == {}
    assert d3.phases == {"ns/g": "Running"}


def test_pod_changes_patch_the_next_snapshot_and_it_decides_as_a_fresh_cluster():
    c = vcsched.Cluster()
    c.apply_all([added(node("n1", 4)), added(node("n2", 4)), added(group("g", 2)), added(pod("a", 2, "g")),
                 added(pod("b", 2, "g"))])
    c.schedule()
    assert c.snapshot_counts == {"built": 1, "patched": 0}
    c.apply_all([added(group("h", 1)), added(pod("x", 1, "h")), {"type": "DELETED", "object": pod("b", 2, "g")}])
    patched = c.snapshot()
    assert c.snapshot_counts == {"built": 1, "patched": 1}  # pods and PodGroups alone: patched
    rebuilt = vcsched.Cluster(vcsched.load_scenario(c.to_yaml()))
    mine, theirs = vcsched.schedule(patched, now=10), rebuilt.schedule(now=10)
    assert mine.binds == theirs.binds and "ns/x" in mine.binds
    assert mine.phases == theirs.phases
    c.apply(added(node("n3", 4)))  # a node: built
    c.snapshot()
    assert c.snapshot_counts == {"built": 2, "patched": 1}


def test_a_refused_event_names_the_field_and_changes_nothing():
    c = vcsched.Cluster()
    c.apply(added(node("n1", 4)))
    before = c.generation
    bad = node("n1", 4)
    bad["status"]["allocatable"]["cpu"] = "-1"
    with pytest.raises(vcsched.Error, match="allocatable.cpu"):
        c.apply({"type": "MODIFIED", "object": bad})
    with pytest.raises(vcsched.Error, match="unknown event type"):
        c.apply({"type": "UPSERTED", "object": bad})
    assert c.generation == before
    assert c.snapshot().nodes == ["n1"]
    # In a batch, the refused event is named; the ones before it stay applied.
    with pytest.raises(vcsched.Error, match="event 2: object: is required"):
        c.apply_all([added(node("n2", 1)), {"type": "ADDED"}])
    assert c.snapshot().nodes == ["n1", "n2"]
    with pytest.raises(vcsched.Error, match="not a string"):
        c.apply({"type": "ADDED", "object": {1: "x"}})
    deep = {}
    for _ in range(300):
        deep = {"a": deep}
    with pytest.raises(vcsched.Error, match="too deep"):
        c.apply({"type": "ADDED", "object": deep})
    with pytest.raises(vcsched.Error, match="cannot read a set"):
        c.apply({"type": "ADDED", "object": {"kind": {1, 2}}})


def test_deleting_an_absent_object_is_a_note_and_a_relist_is_an_update():
    c = vcsched.Cluster()
    notes = c.apply_all([added(node("n1", 4)), added(node("n1", 2)),
                         {"type": "DELETED", "object": node("ghost", 1)}])
    assert len(notes) == 1 and "ghost" in notes[0]
    assert c.snapshot().nodes == ["n1"]


def test_a_cluster_from_a_scenario_decides_as_the_scenario(repo):
    sc = vcsched.load_scenario(str(repo / "examples" / "quickstart.yaml"))
    c = vcsched.Cluster(sc)
    assert c.schedule().to_dict() == vcsched.schedule(sc).to_dict()
    assert "Cluster nodes=" in repr(c)
    with pytest.raises(TypeError):
        vcsched.Cluster("not a scenario")


def test_to_yaml_reads_back_to_the_same_state(repo):
    sc = vcsched.load_scenario(str(repo / "examples" / "quickstart.yaml"))
    c = vcsched.Cluster(sc)
    first = c.schedule()
    assert first.binds
    text = c.to_yaml()
    again = vcsched.Cluster(vcsched.load_scenario(text))
    assert again.to_yaml() == text  # printing is a fixed point
    assert again.schedule().to_dict() == c.schedule().to_dict()


JOB = """apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j, namespace: ns}
spec:
  minAvailable: 2
  schedulerName: volcano
  tasks:
  - name: w
    replicas: 2
    template:
      spec:
        containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: too-big, namespace: ns}
spec:
  minAvailable: 1
  schedulerName: volcano
  tasks:
  - name: w
    replicas: 1
    template:
      spec:
        containers: [{name: c, image: x, resources: {requests: {cpu: "64"}}}]
"""


def test_to_yaml_prints_volcano_jobs_as_jobs_and_podgroup_statuses():
    c = vcsched.Cluster(vcsched.load_scenario(JOB))
    c.schedule(now=1_700_000_000)
    assert c.last_apply["pod_group_statuses"] == 2
    text = c.to_yaml()
    assert text.count("kind: Job\n") == 2
    assert "type: Unschedulable" in text and "lastTransitionTime: " in text
    again = vcsched.Cluster(vcsched.load_scenario(text))
    assert again.to_yaml() == text  # the Jobs' PodGroups and pods are read as they are
    assert again.schedule(now=1_700_000_001).to_dict() == c.schedule(now=1_700_000_001).to_dict()
    # Once the state settles (the bound gang Running), a session that says nothing new
    # writes no status and changes nothing.
    generation = c.generation
    c.schedule(now=1_700_000_002)
    assert c.last_apply["pod_group_statuses"] == 0
    assert c.generation == generation


def test_claims_volumes_and_csi_nodes_are_state_and_bound_claims_stay_bound():
    """A pod's unbound WaitForFirstConsumer claim takes the volume it can use; apply binds it."""
    local = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "local"},
             "provisioner": "kubernetes.io/no-provisioner", "volumeBindingMode": "WaitForFirstConsumer"}
    pv = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-big"},
          "spec": {"capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteOnce"], "storageClassName": "local",
                   "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchFields": [
                       {"key": "metadata.name", "operator": "In", "values": ["big"]}]}]}}},
          "status": {"phase": "Available"}}
    claim = {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "ns"},
             "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "local",
                      "resources": {"requests": {"storage": "5Gi"}}}}
    csi = [{"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": {"name": n},
            "spec": {"drivers": [{"name": "kubernetes.io/no-provisioner", "nodeID": n}]}} for n in ("small", "big")]
    user = pod("a", 1)
    user["spec"]["volumes"] = [{"name": "d", "persistentVolumeClaim": {"claimName": "data"}}]
    c = vcsched.Cluster()
    c.apply_all([added(node("small", 8)), added(node("big", 8)), added(local), added(pv), added(claim)] +
                [added(x) for x in csi] + [added(user)])
    counts = c.counts
    assert (counts["persistent_volume_claims"], counts["persistent_volumes"], counts["storage_classes"],
            counts["csi_nodes"]) == (1, 1, 1, 2)
    d = c.schedule()
    assert d.binds == {"ns/a": "big"}  # the only volume is pinned to "big"
    assert d.volume_bindings == {"ns/data": {"task": "ns/a", "volume": "pv-big", "node": "big"}}
    assert c.last_apply["conflicts"] == []
    text = c.to_yaml()
    assert "volumeName: pv-big" in text and "pv.kubernetes.io/bind-completed" in text
    again = vcsched.Cluster(vcsched.load_scenario(text))
    assert vcsched.Cluster(vcsched.load_scenario(again.to_yaml())).to_yaml() == again.to_yaml()
    assert again.counts["persistent_volume_claims"] == 1 and "volumeName: pv-big" in again.to_yaml()
    # The volume is taken: a second pod's claim of the class finds none, and waits.
    other = dict(claim, metadata={"name": "more", "namespace": "ns"})
    second = pod("b", 1)
    second["spec"]["volumes"] = [{"name": "d", "persistentVolumeClaim": {"claimName": "more"}}]
    again.apply_all([added(other), added(second)])
    assert again.schedule().binds == {}


def test_quotas_and_budgets_are_state_from_watch_events_and_decide_sessions():
    """A ResourceQuota refuses a PodGroup at enqueue until its status leaves room; a
    PodDisruptionBudget keeps shuffle from evicting the pods it protects."""
    conf = {"actions": "enqueue, allocate, shuffle",
            "tiers": [{"plugins": [{"name": "gang"}, {"name": "resourcequota"}, {"name": "pdb"}]},
                      {"plugins": [{"name": "predicates"}, {"name": "proportion"}]}]}
    quota = {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "ns"},
             "spec": {"hard": {"cpu": "4"}}, "status": {"hard": {"cpu": "4"}, "used": {"cpu": "3"}}}
    budget = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "b", "namespace": "ns"},
              "spec": {"maxUnavailable": 0, "selector": {"matchLabels": {"app": "web"}}},
              "status": {"disruptionsAllowed": 0}}
    web = pod("web-0", 1, phase="Running")
    web["metadata"]["labels"] = {"app": "web"}
    web["spec"]["nodeName"] = "big"
    c = vcsched.Cluster()
    c.apply_all([added(node("big", 16)), added(quota), added(budget), added(web), added(group("g", 1)),
                 added(pod("a", 2, "g"))])
    assert (c.counts["resource_quotas"], c.counts["pod_disruption_budgets"]) == (1, 1)
    d = c.schedule(conf)
    assert d.phases["ns/g"] == "Pending"  # used 3 + 2 > 4
    assert d.evictions == []  # the budget allows no disruption of web-0
    text = c.to_yaml()
    assert "kind: ResourceQuota" in text and "disruptionsAllowed: 0" in text
    again = vcsched.Cluster(vcsched.load_scenario(text))
    assert vcsched.Cluster(vcsched.load_scenario(again.to_yaml())).to_yaml() == again.to_yaml()
    assert "kind: PodDisruptionBudget" in again.to_yaml() and "used:\n    cpu: \"3\"" in again.to_yaml()
    # The quota controller writes a new status: room for the PodGroup.
    quota["status"]["used"] = {"cpu": "1"}
    c.apply({"type": "MODIFIED", "object": quota})
    assert c.schedule(conf, now=10).phases["ns/g"] == "Inqueue"
    # Without the budget, shuffle evicts the labelled running pod (pdb names every pod it
    # does not protect, as Volcano's does).
    c.apply({"type": "DELETED", "object": budget})
    assert c.counts["pod_disruption_budgets"] == 0
    assert "ns/web-0" in c.schedule(conf, now=20).evictions


def test_builder_adds_quotas_and_budgets():
    b = vcsched.SnapshotBuilder()
    b.add_node("n1", allocatable={"cpu": "8", "memory": "8Gi", "pods": "10"})
    b.add_resource_quota("q", namespace="ns", hard={"requests.cpu": "2"}, used={"requests.cpu": "1"})
    b.add_pod_disruption_budget("b", namespace="ns", match_labels={"app": "x"}, disruptions_allowed=1)
    counts = vcsched.Cluster(b.build()).counts
    assert (counts["resource_quotas"], counts["pod_disruption_budgets"]) == (1, 1)


def test_node_shards_are_state_and_sharding_is_an_option_beside_the_config():
    """NodeShards come from watch events and the builder; sharding_mode and sharding_name
    sit beside the configuration (vc-scheduler's flags) in schedule, explain and
    Cluster.schedule, and a bad mode is refused by name."""
    conf = {"actions": "allocate", "tiers": [{"plugins": [{"name": "gang"}, {"name": "predicates"},
                                                         {"name": "nodeorder"}]}]}
    shard = {"apiVersion": "shard.volcano.sh/v1alpha1", "kind": "NodeShard", "metadata": {"name": "mine"},
             "spec": {"nodesDesired": ["small"]}}
    c = vcsched.Cluster()
    c.apply_all([added(node("big", 16)), added(node("small", 4)), added(shard), added(group("g", 1)),
                 added(pod("a", 2, "g"))])
    assert c.counts["node_shards"] == 1
    snap = c.snapshot()
    assert vcsched.schedule(snap, conf).binds == {"ns/a": "big"}
    assert vcsched.schedule(snap, conf, sharding_mode="hard", sharding_name="mine").binds == {"ns/a": "small"}
    assert vcsched.schedule(snap, conf, sharding_mode="soft", sharding_name="mine").binds == {"ns/a": "small"}
    # The default shard name is volcano: no such shard, so hard sharding has no node.
    assert vcsched.schedule(snap, conf, sharding_mode="hard").binds == {}
    e = vcsched.explain(snap, "ns/g", conf, sharding_mode="hard")
    assert any("node isn't in scheduler node shard" in v.cause for v in e.jobs[0].node_verdicts)
    with pytest.raises(vcsched.Error, match="sharding_mode"):
        vcsched.schedule(snap, conf, sharding_mode="strict")
    assert vcsched.sharding_args("soft", "b") == ["--scheduler-sharding-mode=soft", "--scheduler-sharding-name=b"]
    assert c.schedule(conf, sharding_mode="hard", sharding_name="mine").binds == {"ns/a": "small"}
    assert "kind: NodeShard" in c.to_yaml()
    c.apply({"type": "DELETED", "object": shard})
    assert c.counts["node_shards"] == 0
    b = vcsched.SnapshotBuilder()
    b.add_node_shard("volcano", nodes_desired=["n1"], nodes_in_use=["n1"])
    assert vcsched.Cluster(b.build()).counts["node_shards"] == 1


RESCHEDULING = """
actions: "shuffle"
tiers:
- plugins:
  - name: rescheduling
    arguments:
      interval: 5m
      metricsPeriod: 10m
      strategies:
      - name: lowNodeUtilization
        params: {thresholds: {cpu: 20, memory: 20}, targetThresholds: {cpu: 50, memory: 50}}
"""


def metered_node(name, percent):
    n = node(name, 4)
    n["status"]["capacity"] = dict(n["status"]["allocatable"])
    n["metadata"]["annotations"] = {"vcsched.io/cpu-usage-percent": str(percent),
                                    "vcsched.io/memory-usage-percent": str(percent),
                                    "vcsched.io/usage-time": "2026-01-01T00:00:00Z"}
    return n


def test_the_cluster_keeps_its_schedulers_memory_between_sessions():
    c = vcsched.Cluster()
    running = pod("busy-0", 1, "g", phase="Running")
    running["spec"]["nodeName"] = "busy"
    c.apply_all([added(metered_node("quiet", 5)), added(metered_node("busy", 90)), added(group("g", 0)), added(running)])
    config = vcsched.load_config(RESCHEDULING)
    t0 = 1767225600
    assert c.schedule(config, now=t0).evictions == []  # the scheduler starts: not due yet
    assert c.memory.started_ms == t0 * 1000
    assert c.schedule(config, now=t0 + 299).evictions == []
    assert c.schedule(config, now=t0 + 300).evictions == ["ns/busy-0"]
    assert c.memory.last_run_ms == {"rescheduling": (t0 + 300) * 1000}
    assert c.memory.due_ms == {"rescheduling": (t0 + 600) * 1000}
    # Without a memory every session is a scheduler's first.
    assert vcsched.schedule(vcsched.Cluster().snapshot(), config, now=t0).evictions == []
    with pytest.raises(TypeError, match="SchedulerMemory"):
        vcsched.schedule(c.snapshot(), config, memory={})
