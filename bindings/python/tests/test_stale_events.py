"""Issue 57: events carried no resourceVersion order, so a stale MODIFIED after a bind
unbound the pod. A pod event older than the pod held (numeric resourceVersions, as the
API server writes them) is ignored with a note; a bind applied here counts as newer."""
import vcsched


def node():
    return {"type": "ADDED", "object": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
                                        "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}}


def pod(rv, node_name=None):
    spec = {"schedulerName": "volcano", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}
    if node_name:
        spec["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "ns", "uid": "u-p", "resourceVersion": rv}, "spec": spec}


def bound(cluster):
    return "nodeName: n1" in cluster.to_yaml()


def test_a_stale_modified_after_a_bind_is_ignored():
    c = vcsched.Cluster()
    c.apply_all([node(), {"type": "ADDED", "object": pod("10")}])
    c.schedule()
    assert bound(c)
    for rv in ("10", "9"):  # the state before the bind, delivered late
        notes = c.apply({"type": "MODIFIED", "object": pod(rv)})
        assert any("is older than the pod's state here" in n for n in notes)
        assert bound(c)
    c.apply({"type": "MODIFIED", "object": pod("12", "n1")})  # the API server's own news
    c.apply({"type": "MODIFIED", "object": pod("11")})
    assert bound(c)
    c.apply({"type": "MODIFIED", "object": pod("13")})  # newer: taken, as given
    assert not bound(c)


def test_versions_that_are_not_numbers_are_not_compared():
    c = vcsched.Cluster()
    c.apply_all([node(), {"type": "ADDED", "object": pod("b")}])
    c.schedule()
    c.apply({"type": "MODIFIED", "object": pod("a")})
    assert not bound(c)
