"""Host-defined plugins written in Python."""
import pytest

import vcsched


def cluster():
    b = vcsched.SnapshotBuilder()
    for n in ("n1", "n2", "n3"):
        b.add_node(n, allocatable={"cpu": "4", "memory": "8Gi", "pods": "110"}, labels={"rack": n})
    b.add_pod_group("g", namespace="ns", min_member=1)
    b.add_pod("p", namespace="ns", group="g", requests={"cpu": "1"}, annotations={"want-rack": "n3"})
    return b.build()


def config_with(name):
    return {"actions": "allocate", "tiers": [{"plugins": [{"name": "predicates"}, {"name": "nodeorder"}]},
                                             {"plugins": [{"name": name, "arguments": {"bonus": 1000}}]}]}


class RackPreference:
    def __init__(self, args):
        self.bonus = float(args.get("bonus", 100))

    def node_order(self, task, node):
        return self.bonus if node.labels.get("rack") == task.annotations.get("want-rack") else 0.0


class AvoidN1:
    def predicate(self, task, node):
        return (node.name != "n1", "rack n1 is draining")


def test_default_decision_without_a_plugin():
    assert vcsched.schedule(cluster()).binds == {"ns/p": "n1"}


def test_node_order_plugin_changes_the_decision():
    vcsched.register_plugin("rack-preference", RackPreference)
    try:
        assert "rack-preference" in vcsched.registered_plugins()
        d = vcsched.schedule(cluster(), config_with("rack-preference"))
        assert d.binds == {"ns/p": "n3"}
    finally:
        vcsched.unregister_plugin("rack-preference")
    with pytest.raises(vcsched.Error, match="unknown plugin"):
        vcsched.schedule(cluster(), config_with("rack-preference"))


def test_predicate_plugin_with_a_reason_per_call():
    d = vcsched.schedule(cluster(), config_with("avoid-n1"), plugins={"avoid-n1": AvoidN1})
    assert d.binds == {"ns/p": "n2"}


def test_predicate_reasons_reach_the_decisions():
    class Nowhere:
        def predicate(self, task, node):
            return (False, "no rack is good enough")
    d = vcsched.schedule(cluster(), config_with("nowhere"), plugins={"nowhere": Nowhere})
    assert d.binds == {}
    assert "3 no rack is good enough" in d.reasons["ns/p"]


def test_order_plugins_are_called_with_job_and_task_views():
    seen = []

    class Orders:
        def job_order(self, a, b):
            seen.append((a.key, b.key, a.queue, a.min_member))
            return 0

        def task_order(self, a, b):
            seen.append((a.key, b.key, a.status, a.request.get("cpu")))
            return 0

    b = vcsched.SnapshotBuilder()
    b.add_node("n1", allocatable={"cpu": "8", "pods": "110"})
    for g in ("a", "b"):
        b.add_pod_group(g, namespace="ns", min_member=1)
        for i in range(2):
            b.add_pod(f"{g}-x-{i}", namespace="ns", group=g, requests={"cpu": "1"})
    vcsched.schedule(b.build(), config_with("orders"), plugins={"orders": Orders})
    assert any(s[0].startswith("ns/a") and s[2] == "default" for s in seen)
    assert any(s[2] == "Pending" and s[3] == 1000 for s in seen)


def test_a_job_order_key_orders_jobs_like_the_comparison_it_stands_for():
    # One 1-cpu slot: the job that goes first is the one bound.
    def build():
        b = vcsched.SnapshotBuilder()
        b.add_node("n1", allocatable={"cpu": "1", "pods": "110"})
        for g in ("a", "b", "c"):
            b.add_pod_group(g, namespace="ns", min_member=1)
            b.add_pod(f"{g}-0", namespace="ns", group=g, requests={"cpu": "1"})
        return b.build()
    rank = {"ns/a": 3, "ns/b": 1, "ns/c": 2}

    class ByKey:
        def job_order_key(self, job):
            return rank[job.key]

    class ByComparison:
        def job_order(self, x, y):
            return rank[x.key] - rank[y.key]

    keyed = vcsched.schedule(build(), config_with("bykey"), plugins={"bykey": ByKey})
    compared = vcsched.schedule(build(), config_with("bycmp"), plugins={"bycmp": ByComparison})
    assert list(keyed.binds) == ["ns/b-0"]
    assert keyed.binds == compared.binds


def test_exceptions_in_callbacks_surface_as_the_session_error():
    class Broken:
        def node_order(self, task, node):
            raise ZeroDivisionError("plugin bug")
    with pytest.raises(ZeroDivisionError, match="plugin bug"):
        vcsched.schedule(cluster(), config_with("broken"), plugins={"broken": Broken})


def test_wrong_return_types_are_type_errors():
    class Wrong:
        def node_order(self, task, node):
            return "high"
    with pytest.raises(TypeError, match="node_order must return a number"):
        vcsched.schedule(cluster(), config_with("wrong"), plugins={"wrong": Wrong})


def test_a_plugin_cannot_shadow_a_built_in():
    with pytest.raises(vcsched.Error, match="built-in"):
        vcsched.register_plugin("gang", RackPreference)


def test_references_kept_past_the_session_raise_instead_of_reading_freed_memory():
    kept = []

    class Keeper:
        def predicate(self, task, node):
            kept.append((task, node))
            return True
    snap = cluster()
    vcsched.schedule(snap, config_with("keeper"), plugins={"keeper": Keeper})
    assert kept
    task, node = kept[0]
    with pytest.raises(vcsched.Error, match="session that has ended"):
        task.key
    with pytest.raises(vcsched.Error, match="session that has ended"):
        node.idle
    del snap
    import gc
    gc.collect()
    with pytest.raises(vcsched.Error, match="session that has ended"):
        node.name
    # Every field, with the snapshot gone: `request` answered {} under some layouts (it read
    # the snapshot's size before checking the session).
    for field in ("key", "name", "namespace", "labels", "annotations", "priority", "job", "request", "status"):
        with pytest.raises(vcsched.Error, match="session that has ended"):
            getattr(task, field)
    for field in ("name", "labels", "allocatable", "idle", "used"):
        with pytest.raises(vcsched.Error, match="session that has ended"):
            getattr(node, field)


def test_schedule_from_inside_a_plugin_is_refused():
    snap = cluster()

    class Recursive:
        def predicate(self, task, node):
            vcsched.schedule(snap, config_with("recursive"), plugins={"recursive": Recursive})
            return True
    import sys
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(100000)
    try:
        with pytest.raises(vcsched.Error, match="inside a plugin of a running session"):
            vcsched.schedule(snap, config_with("recursive"), plugins={"recursive": Recursive})
    finally:
        sys.setrecursionlimit(old)
    assert vcsched.schedule(snap).binds == {"ns/p": "n1"}  # the next session runs normally


@pytest.mark.parametrize("result", [None, "yes", 1, (1, "x"), (True, 3), (True, "a", "b"), ()])
def test_malformed_predicate_results_are_type_errors(result):
    class Odd:
        def predicate(self, task, node):
            return result
    with pytest.raises(TypeError, match="predicate must return a bool"):
        vcsched.schedule(cluster(), config_with("odd"), plugins={"odd": Odd})


def test_usage_plugin_reads_node_metrics_from_annotations():
    def metrics(cpu, mem, when="2026-03-01T11:59:00Z"):
        return {"vcsched.io/cpu-usage-percent": cpu, "vcsched.io/memory-usage-percent": mem,
                "vcsched.io/usage-time": when}
    b = vcsched.SnapshotBuilder()
    size = {"cpu": "4", "memory": "8Gi", "pods": "110"}
    b.add_node("n1", allocatable=size, capacity=size, annotations=metrics("90", "10"))  # past the cpu threshold
    b.add_node("n2", allocatable=size, capacity=size, annotations=metrics("50", "50"))
    b.add_node("n3", allocatable=size, capacity=size, annotations=metrics("20", "20"))
    b.add_pod_group("g", namespace="ns", min_member=1)
    b.add_pod("p", namespace="ns", group="g", requests={"cpu": "1"})
    snap = b.build()
    config = {"actions": "allocate", "tiers": [{"plugins": [{"name": "usage"}]}]}
    noon = 1772366400  # 2026-03-01T12:00:00Z
    assert vcsched.schedule(snap, config, now=noon).binds == {"ns/p": "n3"}
    # an hour later the readings are stale: no filter, no score, the first node wins
    assert vcsched.schedule(snap, config, now=noon + 3600).binds == {"ns/p": "n1"}


def test_numa_aware_plugin_reads_numatopologies():
    # Two nodes of 8 CPUs on two NUMA nodes; "a" has 3 free CPUs on each, "b" a whole NUMA node.
    cpus = {c: (c // 4, c // 4, c // 2) for c in range(8)}
    b = vcsched.SnapshotBuilder()
    for name, free in (("a", "1-3,5-7"), ("b", "0-5")):
        b.add_node(name, allocatable={"cpu": "8", "memory": "16Gi", "pods": "10"})
        b.add_numatopology(name, cpus=cpus, free=free, topology_manager_policy="single-numa-node")
    b.add_pod_group("g", namespace="ns", min_member=1)
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "p", "namespace": "ns", "annotations": {
               "scheduling.k8s.io/group-name": "g", "volcano.sh/numa-topology-policy": "single-numa-node"}},
           "spec": {"schedulerName": "volcano", "containers": [{"name": "c", "resources": {
               "requests": {"cpu": "4", "memory": "1Gi"}, "limits": {"cpu": "4", "memory": "1Gi"}}}]}}
    b.add_pod(pod)
    config = {"actions": "allocate", "tiers": [{"plugins": [{"name": "predicates"}, {"name": "numa-aware"}]}]}
    snap = b.build()
    d = vcsched.schedule(snap, config)
    assert d.binds == {"ns/p": "b"}  # a cannot give 4 CPUs of one NUMA node
    cluster = vcsched.Cluster(snap)
    assert cluster.counts["numatopologies"] == 2
    assert "kind: Numatopology" in cluster.to_yaml()
