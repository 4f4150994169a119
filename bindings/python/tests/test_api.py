"""The public API of the vcsched package, call by call."""
import json
import pathlib

import pytest

import vcsched


def small_cluster(builder=None):
    b = builder or vcsched.SnapshotBuilder()
    b.add_node("n1", allocatable={"cpu": "4", "memory": "8Gi", "pods": "110"}, labels={"zone": "a"})
    b.add_node("n2", allocatable={"cpu": "4", "memory": "8Gi", "pods": "110"}, labels={"zone": "b"})
    b.add_queue("q1", weight=2)
    b.add_pod_group("train", namespace="ml", min_member=2, queue="q1")
    for i in range(2):
        b.add_pod(f"train-w-{i}", namespace="ml", group="train", requests={"cpu": "3", "memory": "1Gi"})
    return b


def test_builder_keywords_build_and_schedule():
    snap = small_cluster().build()
    assert snap.nodes == ["n1", "n2"]
    assert snap.pods == ["ml/train-w-0", "ml/train-w-1"]
    assert "q1" in snap.queues and "default" in snap.queues
    assert snap.resources[:3] == ["cpu", "memory", "pods"]
    assert "nodes=2" in repr(snap)
    d = vcsched.schedule(snap)
    assert sorted(d.binds) == ["ml/train-w-0", "ml/train-w-1"]
    assert set(d.binds.values()) == {"n1", "n2"}  # 3 cpu each: one per node
    assert d.evictions == [] and d.pipelined == {}
    assert d.phases["ml/train"] == "Inqueue"
    assert "binds=2" in repr(d)


def test_builder_takes_kubernetes_dicts():
    b = vcsched.SnapshotBuilder()
    b.add_node({"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "2", "pods": "10"}}})
    b.add_pod_group({"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                     "metadata": {"name": "g", "namespace": "ns"}, "spec": {"minMember": 1},
                     "status": {"phase": "Inqueue"}})
    b.add_pod({"metadata": {"name": "p", "namespace": "ns", "annotations": {"scheduling.k8s.io/group-name": "g"}},
               "spec": {"schedulerName": "volcano",
                        "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}})
    b.add_queue({"metadata": {"name": "extra"}, "spec": {"weight": 3}})
    b.add_priority_class({"metadata": {"name": "high"}, "value": 1000})
    b.add({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0"}}]})
    snap = b.build()
    assert snap.nodes == ["n0", "n1"]
    d = vcsched.schedule(snap)
    assert d.binds == {"ns/p": "n1"}


def test_priority_classes_and_keywords():
    b = small_cluster()
    b.add_priority_class("high", value=1000, global_default=False)
    b.add_pod_group("urgent", namespace="ml", min_member=1, queue="q1", priority_class_name="high")
    b.add_pod("urgent-0", namespace="ml", group="urgent", requests={"cpu": "4"})
    d = vcsched.schedule(b.build())
    # The high-priority job goes first and takes a whole node; the gang no longer fits.
    assert "ml/urgent-0" in d.binds
    assert "ml/train-w-0" not in d.binds
    assert d.reasons["ml/train-w-1"].startswith(("Unschedulable", "Schedulable"))


def test_load_scenario_from_path_text_and_pathlike(repo):
    path = repo / "examples" / "quickstart.yaml"
    for source in (str(path), path, path.read_text()):
        sc = vcsched.load_scenario(source)
        assert len(sc.snapshot.nodes) == 4
        assert sc.config is not None and "allocate" in sc.config.actions
        d = vcsched.schedule(sc)
        assert sc.check(d) == []


def test_scenario_without_expectation_cannot_be_checked():
    sc = vcsched.load_scenario("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")
    with pytest.raises(vcsched.Error, match="no Expectation"):
        sc.check(vcsched.schedule(sc))


def test_load_config_from_dict_text_and_path(repo, tmp_path):
    as_dict = vcsched.load_config({"actions": "enqueue, allocate",
                                   "tiers": [{"plugins": [{"name": "gang"}, {"name": "binpack",
                                                                              "arguments": {"binpack.weight": 5}}]}]})
    assert as_dict.actions == ["enqueue", "allocate"]
    assert as_dict.plugins == [["gang", "binpack"]]
    text = 'actions: "allocate"\ntiers:\n- plugins:\n  - name: drf\n'
    assert vcsched.load_config(text).plugins == [["drf"]]
    f = tmp_path / "volcano-scheduler.conf"
    f.write_text(text)
    assert vcsched.load_config(str(f)).actions == ["allocate"]
    shipped = repo / "tests" / "data" / "scheduler-config" / "volcano-scheduler-ci.conf"
    assert "reclaim" in vcsched.load_config(shipped).actions
    assert "actions:" in as_dict.to_yaml()
    assert vcsched.default_config().actions == ["enqueue", "allocate", "backfill"]


def test_schedule_with_a_config_and_scheduler_object():
    snap = small_cluster().build()
    cfg = {"actions": "allocate", "tiers": [{"plugins": [{"name": "predicates"}, {"name": "nodeorder"}]}]}
    d1 = vcsched.schedule(snap, cfg)
    s = vcsched.Scheduler(cfg)
    d2 = s.schedule(snap)
    assert d1.binds == d2.binds
    assert "allocate" in repr(s)


def test_decisions_render_as_dicts_manifests_and_text():
    d = vcsched.schedule(small_cluster().build())
    data = d.to_dict()
    assert [b["task"] for b in data["binds"]] == ["ml/train-w-0", "ml/train-w-1"]
    assert json.dumps(data)
    manifests = d.to_manifests()
    assert {m["kind"] for m in manifests} == {"Binding"}
    assert manifests[0]["target"]["kind"] == "Node"
    assert "bind ml/train-w-0 ->" in str(d)
    groups = {g.name: g for g in d.pod_groups}
    assert groups["ml/train"].conditions[0]["type"] == "Scheduled"
    assert d.warnings == []


def test_usage_arrays():
    np = pytest.importorskip("numpy")
    d = vcsched.schedule(small_cluster().build())
    nodes = d.node_usage()
    assert nodes.names == ["n1", "n2"]
    assert nodes.resources[0] == "cpu"
    assert nodes.used.dtype == np.int64 and nodes.used.shape == (2, len(nodes.resources))
    assert list(nodes.used[:, 0]) == [3000, 3000]
    assert list(nodes.allocatable[:, 0]) == [4000, 4000]
    queues = d.queue_usage()
    assert queues.used[queues.names.index("q1"), 0] == 6000
    assert queues.allocatable is None


def test_evictions_are_reported(repo):
    sc = vcsched.load_scenario(repo / "examples" / "queues" / "contention-reclaim-by-weight.yaml")
    d = vcsched.schedule(sc)
    assert len(d.evictions) == 24
    detail = d.eviction_details[0]
    assert detail.action == "reclaim" and detail.preemptor.startswith("heavy/")
    assert len(d.pipelined) == 24
    assert {m["kind"] for m in d.to_manifests()} == {"Eviction"}


def test_quantities_and_registry_listing():
    assert vcsched.parse_quantity("4Gi") == 4 * 2**30
    assert vcsched.parse_quantity("1.5", milli=True) == 1500
    assert "gang" in vcsched.builtin_plugins()
    assert "reclaim" in vcsched.builtin_actions()


def test_the_what_if_example_runs(repo):
    import subprocess
    import sys
    import os
    env = dict(os.environ)
    out = subprocess.run([sys.executable, str(repo / "examples" / "python" / "what_if.py")], capture_output=True,
                         text=True, check=True, env=env).stdout.splitlines()
    rows = {int(line.split()[0]): line.split() for line in out[1:]}
    assert rows[1][1:] == ["16", "16", "16", "16"]  # equal weights: half each
    assert rows[3][1:] == ["24", "24", "24", "8"]   # weight 3: three times the light queue


def test_builder_storage_keywords_pin_a_gang_to_its_volumes():
    """Claims, volumes, classes and CSINodes by keyword: a local volume per node, a gang of two
    whose claims wait for their first consumer; each pod goes where a volume can serve it."""
    b = vcsched.SnapshotBuilder()
    for n, zone in (("n1", "a"), ("n2", "b"), ("n3", "b")):
        b.add_node(n, allocatable={"cpu": "4", "memory": "8Gi", "pods": "110"},
                   labels={"kubernetes.io/hostname": n, "topology.kubernetes.io/zone": zone})
        b.add_csi_node(n, drivers={"ebs.csi.aws.com": 2})
    b.add_storage_class("local")  # kubernetes.io/no-provisioner, WaitForFirstConsumer
    b.add_storage_class("ebs", provisioner="ebs.csi.aws.com", allowed_zones=["b"])
    b.add_persistent_volume("pv-n1", storage_class="local", capacity="20Gi", node="n1")
    b.add_persistent_volume("pv-n3", storage_class="local", capacity="20Gi", node="n3")
    b.add_pod_group("g", namespace="ml", min_member=3)
    for i in range(2):
        b.add_persistent_volume_claim(f"data-{i}", namespace="ml", storage_class="local", request="10Gi")
        b.add_pod(f"w-{i}", namespace="ml", group="g", requests={"cpu": "3"}, claims=[f"data-{i}"])
    b.add_persistent_volume_claim("logs", namespace="ml", storage_class="ebs", request="1Gi")
    b.add_pod("w-2", namespace="ml", group="g", requests={"cpu": "3"}, claims=["logs"])
    snap = b.build()
    d = vcsched.schedule(snap, {"actions": "enqueue, allocate, backfill",
                                "tiers": [{"plugins": [{"name": "priority"}, {"name": "gang"}]},
                                          {"plugins": [{"name": "predicates"}, {"name": "proportion"},
                                                       {"name": "nodeorder"}]}]},
                         )
    # The local class's provisioner is not ignored: its claims count against the attach limit of
    # "kubernetes.io/no-provisioner", which no CSINode lists, so those pods fit nowhere (proportion
    # refuses first: no queue can deserve a resource no node offers) and the gang waits.
    assert d.binds == {}
    assert d.reasons["ml/w-2"].startswith("Schedulable: pod fits n2")
    assert "queue default cannot take the task" in d.reasons["ml/w-0"]
    b2 = vcsched.SnapshotBuilder()
    for n, zone in (("n1", "a"), ("n2", "b"), ("n3", "b")):
        b2.add_node(n, allocatable={"cpu": "4", "memory": "8Gi", "pods": "110"},
                    labels={"kubernetes.io/hostname": n, "topology.kubernetes.io/zone": zone})
        b2.add_csi_node(n, drivers={"ebs.csi.aws.com": 2, "kubernetes.io/no-provisioner": None})
    b2.add_storage_class("local")
    b2.add_storage_class("ebs", provisioner="ebs.csi.aws.com", allowed_zones=["b"])
    b2.add_persistent_volume("pv-n1", storage_class="local", capacity="20Gi", node="n1")
    b2.add_persistent_volume("pv-n3", storage_class="local", capacity="20Gi", node="n3")
    b2.add_pod_group("g", namespace="ml", min_member=3)
    for i in range(2):
        b2.add_persistent_volume_claim(f"data-{i}", namespace="ml", storage_class="local", request="10Gi")
        b2.add_pod(f"w-{i}", namespace="ml", group="g", requests={"cpu": "3"}, claims=[f"data-{i}"])
    b2.add_persistent_volume_claim("logs", namespace="ml", storage_class="ebs", request="1Gi")
    b2.add_pod("w-2", namespace="ml", group="g", requests={"cpu": "3"}, claims=["logs"])
    d2 = vcsched.schedule(b2.build())
    # The local claims go to n1 and n3 (their volumes); the provisioned one to zone b's free node.
    assert sorted(d2.binds.values()) == ["n1", "n2", "n3"]
    assert d2.binds["ml/w-2"] == "n2"
    vb = d2.volume_bindings
    assert {vb["ml/data-0"]["volume"], vb["ml/data-1"]["volume"]} == {"pv-n1", "pv-n3"}
    assert vb["ml/logs"] == {"task": "ml/w-2", "volume": "", "node": "n2"}
