"""Issue 57, class 1: a refused watch event changes nothing, whatever it holds (a List of
several objects, a Volcano Job with its PodGroup and pods), from Python as from the CLI."""
import pytest

import vcsched


def queue(name, parent=None):
    spec = {"weight": 1}
    if parent:
        spec["parent"] = parent
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": name}, "spec": spec}


def node(name):
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def pod(name, group=None, **spec):
    meta = {"name": name, "namespace": "ns"}
    if group:
        meta["annotations"] = {"scheduling.k8s.io/group-name": group}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": {"schedulerName": "volcano", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}],
                     **spec}}


def listed(*items):
    return {"type": "ADDED", "object": {"apiVersion": "v1", "kind": "List", "items": list(items)}}


def cluster():
    c = vcsched.Cluster()
    c.apply_all([{"type": "ADDED", "object": queue("a")}, {"type": "ADDED", "object": queue("b", "a")},
                 {"type": "ADDED", "object": node("n0")}])
    return c


def test_a_list_closing_a_queue_cycle_leaves_nothing_behind():
    c = cluster()
    before = c.to_yaml()
    with pytest.raises(vcsched.Error):
        c.apply(listed(node("n-new"), queue("a", "b")))
    assert c.to_yaml() == before


def test_a_list_whose_second_pod_is_refused_leaves_the_first_out():
    c = cluster()
    c.apply({"type": "ADDED", "object": {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                                         "metadata": {"name": "podgroup-taken", "namespace": "ns"},
                                         "spec": {"minMember": 1}}})
    before = c.to_yaml()
    clash = pod("second")
    clash["metadata"]["uid"] = "taken"  # its own PodGroup would be podgroup-taken: a user's group
    with pytest.raises(vcsched.Error):
        c.apply(listed(pod("first", "podgroup-taken"), node("n-new"), clash))
    assert c.to_yaml() == before


def test_an_accepted_list_is_applied_whole():
    c = cluster()
    c.apply(listed(node("n1"), queue("c", "a")))
    text = c.to_yaml()
    assert "name: n1" in text and "name: c" in text
