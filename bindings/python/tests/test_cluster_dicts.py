"""Watch-event dicts are read in place (no JSON, no copy first): they must read exactly as
the loader reads the same objects from text, and be refused where it refuses them."""
import datetime
import re
import sys
import types

import pytest
import yaml

import vcsched

CLUSTER_KINDS = {"Node", "Pod", "PodGroup", "Queue", "PriorityClass", "Namespace", "HyperNode", "Job",
                 "PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSINode"}


def cluster_objects(path):
    """The cluster objects of a fixture, as PyYAML reads them; None when PyYAML cannot."""
    try:
        with open(path, encoding="utf-8") as f:
            docs = list(yaml.safe_load_all(f))
    except Exception:  # fixtures that are bad YAML on purpose
        return None
    return [d for d in docs if isinstance(d, dict) and d.get("kind") in CLUSTER_KINDS]


class KubernetesSafeDumper(yaml.SafeDumper):
    """PyYAML's dumper, quoting the strings that PyYAML leaves plain but Kubernetes' YAML
    1.1 reader (go-yaml) takes for booleans: y, Y, n, N."""


KubernetesSafeDumper.add_representer(
    str, lambda dumper, text: dumper.represent_scalar(
        "tag:yaml.org,2002:str", text, style='"' if text in ("y", "Y", "n", "N") else None))


def dump_all(docs):
    return yaml.dump_all(docs, Dumper=KubernetesSafeDumper, allow_unicode=True)


def state(snapshot):
    """A snapshot's objects as text, to compare two snapshots whole."""
    return vcsched.Cluster(snapshot).to_yaml()


def test_dicts_read_as_the_loader_reads_the_same_objects_as_text(repo):
    files = sorted(p for folder in ("tests", "examples") for p in (repo / folder).rglob("*.yaml"))
    compared = refused = 0
    for path in files:
        docs = cluster_objects(path)
        if not docs:
            continue
        text = dump_all(docs)
        events = [{"type": "ADDED", "object": d} for d in docs]
        try:
            loaded = vcsched.load_scenario(text)
        except vcsched.Error as e:
            if "duplicate name" in str(e):
                continue  # one object twice: a file refuses it, a watch stream takes it as an update
            # Refused from text: refused from dicts too, naming the same object and field.
            with pytest.raises(vcsched.Error) as from_dicts:
                vcsched.Cluster().apply_all(events)
            named = re.search(r'(\w+ "[^"]*": [\w.\[\]/-]+): ', str(e))
            if named:
                assert named.group(1) in str(from_dicts.value), (path, str(e), str(from_dicts.value))
            refused += 1
            continue
        cluster = vcsched.Cluster()
        cluster.apply_all(events)
        assert state(cluster.snapshot()) == state(loaded.snapshot), path
        compared += 1
    assert compared >= 200 and refused >= 20, (compared, refused)


def pod_dict(**spec_extra):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "ns", "labels": {"team": "ünïcode"},
                         "annotations": {"scheduling.k8s.io/group-name": "g"}},
            "spec": {"schedulerName": "volcano", "priority": 7,
                     "containers": ({"name": "c", "resources": {"requests": {"cpu": 0.5, "memory": "1Gi"}}},),
                     **spec_extra},
            "status": {"phase": "Pending"}}


def test_python_scalars_tuples_and_other_mappings_read_as_their_yaml():
    as_text = dump_all([
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"},
         "spec": {"unschedulable": False}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
        {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup", "metadata": {"name": "g", "namespace": "ns"},
         "spec": {"minMember": 1}},
        {**pod_dict(hostNetwork=True), "spec": {**pod_dict(hostNetwork=True)["spec"],
                                               "containers": [{"name": "c", "resources": {"requests": {
                                                   "cpu": "0.5", "memory": "1Gi"}}}]}},
    ])
    from_text = vcsched.load_scenario(as_text).snapshot
    cluster = vcsched.Cluster()
    cluster.apply_all([
        {"type": "ADDED", "object": types.MappingProxyType({
            "apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "spec": {"unschedulable": False},
            "status": {"allocatable": types.MappingProxyType({"cpu": 4, "memory": "8Gi", "pods": 110})}})},
        {"type": "ADDED", "object": {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                                     "metadata": {"name": "g", "namespace": "ns"}, "spec": {"minMember": 1}}},
        {"type": "ADDED", "object": pod_dict(hostNetwork=True)},
    ])
    assert state(cluster.snapshot()) == state(from_text)
    assert "ünïcode" in cluster.to_yaml()


@pytest.mark.parametrize("bad, message", [
    # Problems anywhere in the object, read by a reader or not, refuse it as the
    # loader's parsers refuse such a document.
    ({"unread": {"deep": {2: "x"}}}, "a map key is not a string: 2"),
    ({"unread": [datetime.date(2026, 1, 1)]}, "cannot read a datetime.date as YAML"),
    ({"unread": b"bytes"}, "cannot read a bytes as YAML"),
    ({"status": {"phase": {"a", "b"}}}, "cannot read a set as YAML"),
])
def test_an_object_yaml_cannot_hold_is_refused_and_changes_nothing(bad, message):
    cluster = vcsched.Cluster()
    cluster.apply({"type": "ADDED", "object": {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                                               "metadata": {"name": "g", "namespace": "ns"}, "spec": {"minMember": 1}}})
    before = cluster.to_yaml()
    obj = pod_dict()
    for key, value in bad.items():
        obj[key] = {**obj.get(key, {}), **value} if isinstance(value, dict) and key in obj else value
    with pytest.raises(vcsched.Error, match=re.escape(message)):
        cluster.apply_all([{"type": "ADDED", "object": obj}])
    assert cluster.to_yaml() == before


def test_a_refused_object_leaves_every_reference_count_as_it_was():
    # The reading holds each object it walks while the call lasts; an event refused part
    # way through a dict (a key that is not text among others) gives back what it held,
    # and only that.
    values = [object().__class__.__name__ + str(i) * 40 for i in range(6)]  # strs of their own
    bad = pod_dict()
    bad["metadata"]["labels"] = {"a": values[0], "b": values[1], 3: values[2], "d": values[3]}
    bad["spec"]["extra"] = [values[4], {"k": values[5]}]
    counts = [sys.getrefcount(v) for v in values]
    cluster = vcsched.Cluster()
    for _ in range(3):
        with pytest.raises(vcsched.Error, match="a map key is not a string: 3"):
            cluster.apply_all([{"type": "ADDED", "object": bad}])
    cluster.apply_all([{"type": "ADDED", "object": pod_dict()}])
    assert [sys.getrefcount(v) for v in values] == counts


def test_python_code_run_while_an_object_is_read_frees_nothing_the_reading_holds():
    # Plain dicts, lists and scalars are read without holding them (no Python code can
    # run meanwhile). An int subclass's text comes from its own code: here that code
    # empties the pod's spec as the reading asks for the priority, dropping the last
    # references to the container's strs (read after it), and makes new strs that would
    # take their memory. The walk then holds every object of the event, so the pod reads
    # as it was when the event began, and every count returns after it.
    def text(c):
        return "".join([c] * 40)  # a str of its own, not a shared constant

    def with_container(name, image):
        pod = pod_dict()
        pod["spec"]["containers"] = [{"name": name, "image": image,
                                      "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]
        return pod

    expected = with_container(text("c"), text("i"))
    obj = with_container(text("c"), text("i"))
    junk = []

    class Emptying(int):
        def __str__(self):
            obj["spec"].clear()
            junk.extend(text("x") for _ in range(10_000))
            return int.__str__(self)

    obj["spec"]["priority"] = Emptying(7)
    expected["spec"]["priority"] = 7
    kept = text("k")
    obj["metadata"]["labels"] = {"team": kept}
    expected["metadata"]["labels"] = {"team": text("k")}
    count = sys.getrefcount(kept)
    group = {"type": "ADDED", "object": {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                                         "metadata": {"name": "g", "namespace": "ns"}, "spec": {"minMember": 1}}}
    read, plain = vcsched.Cluster(), vcsched.Cluster()
    read.apply_all([group, {"type": "ADDED", "object": obj}])
    plain.apply_all([group, {"type": "ADDED", "object": expected}])
    assert obj["spec"] == {} and junk  # its code ran
    assert read.to_yaml() == plain.to_yaml()
    assert sys.getrefcount(kept) == count


def test_a_wide_or_cyclic_object_is_refused_not_followed():
    cyclic = pod_dict()
    cyclic["spec"]["loop"] = cyclic  # a reader never goes there; the bound still holds
    with pytest.raises(vcsched.Error, match="nested too deep or too large"):
        vcsched.Cluster().apply({"type": "ADDED", "object": cyclic})
    wide = pod_dict()
    wide["metadata"]["labels"] = {f"k{i}": "v" for i in range(5_000_000)}
    with pytest.raises(vcsched.Error, match="nested too deep or too large"):
        vcsched.Cluster().apply({"type": "ADDED", "object": wide})
