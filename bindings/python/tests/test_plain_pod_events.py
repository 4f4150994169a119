"""A Pod's event made of plain dicts is read by a short route (bindings/python/plain_pod_event.cc);
any other goes through the general reader. Both must agree on every event: the same state,
the same notes, the same errors. A dict subclass anywhere in an event sends it down the
general route, so each random event is applied twice, once as plain dicts and once with
every dict a subclass, to two clusters that must stay equal."""
import random

import pytest

import vcsched


class SubDict(dict):
    """Read only by the general reader (the short route takes Python's own types alone)."""


def through_general_reader(o):
    if isinstance(o, dict):
        return SubDict({k: through_general_reader(v) for k, v in o.items()})
    if isinstance(o, list):
        return [through_general_reader(v) for v in o]
    if isinstance(o, tuple):
        return tuple(through_general_reader(v) for v in o)
    return o


JUNK = [None, 0, 7, -3, 2 ** 40, 2 ** 70, 1.5, float("nan"), True, False, "", "x", "Bad_Name", "naïve", "\ud800",
        [], ["a"], {}, {"a": 1}, {1: "a"}, ("t",), b"bytes", {"a": {"b": [1, {"c": None}]}}]


class Bad:
    """A value of the usual type that a reader refuses or declines: met only in events
    that carry junk."""

    def __init__(self, value):
        self.value = value


class PodMaker:
    def __init__(self, rng):
        self.rng = rng
        self.junk = 1.0  # scales every field's share of junk: 0 in half the events

    def pick(self, valid, junk_share=0.15):
        """A valid value most of the time, else anything."""
        if self.rng.random() < junk_share * self.junk:
            return self.rng.choice(JUNK)
        if not isinstance(valid, list):
            return valid()
        choice = self.rng.choice(valid if self.junk else [v for v in valid if not isinstance(v, Bad)])
        return choice.value if isinstance(choice, Bad) else choice

    def maybe(self, d, key, valid, share=0.5, junk_share=0.15):
        if self.rng.random() < share:
            d[key] = self.pick(valid, junk_share)

    def quantities(self):
        out = {}
        for name in self.rng.sample(["cpu", "memory", "nvidia.com/gpu", "pods", "example.com/foo", "ephemeral-storage"],
                                    self.rng.randint(0, 3)):
            out[name] = self.pick(["1", "500m", "4Gi", "2", 2, 3, "0", "1.5", "1e3", Bad("-1"), Bad("4Gx"), Bad(2 ** 70), Bad(1.5), Bad(None)])
        return out

    def string_map(self):
        keys = ["app", "team", "scheduling.k8s.io/group-name", "volcano.sh/task-spec", "k"]
        return {k: self.pick(["a", "b", "pg-1", "", None, "x" * 70]) for k in self.rng.sample(keys, self.rng.randint(0, 3))}

    def container(self, init):
        c = {}
        self.maybe(c, "name", ["main", "side", "", Bad("Bad_Name")], 0.9)
        self.maybe(c, "image", ["busybox"], 0.5)
        if self.rng.random() < 0.8:
            resources = {}
            self.maybe(resources, "requests", self.quantities, 0.8)
            self.maybe(resources, "limits", self.quantities, 0.4)
            self.maybe(resources, "claims", lambda: [{"name": "gpu"}], 0.05)
            c["resources"] = self.pick(lambda: resources, 0.05)
        if init:
            self.maybe(c, "restartPolicy", ["Always", "Never", "OnFailure"], 0.5)
        self.maybe(c, "ports", lambda: [self.rng.choice([{"containerPort": 80}, {"containerPort": 80, "hostPort": 8080},
                                                         {"containerPort": 80, "hostPort": None}, "junk",
                                                         {"containerPort": 53, "protocol": "UDP"}])
                                        for _ in range(self.rng.randint(0, 2))], 0.2)
        self.maybe(c, "command", lambda: ["sh", "-c", "sleep 1"], 0.2)
        return self.pick(lambda: c, 0.05)

    def pod(self, name):
        r = self.rng
        meta = {}
        self.maybe(meta, "name", lambda: name, 0.97, 0.05)
        self.maybe(meta, "namespace", ["default", "ns1", "ns2", Bad("Bad_NS")], 0.7, 0.1)
        self.maybe(meta, "uid", lambda: f"uid-{name}", 0.5)
        self.maybe(meta, "labels", self.string_map, 0.4)
        self.maybe(meta, "annotations", self.string_map, 0.6)
        self.maybe(meta, "creationTimestamp", ["2026-01-01T00:00:00Z", "2026-02-29T00:00:00Z", "2024-02-29T10:11:12Z",
                                               "2026-01-01T00:00:00.5+02:00", Bad("2026-13-01T00:00:00Z"), Bad("yesterday")], 0.6)
        self.maybe(meta, "deletionTimestamp", ["2026-01-02T00:00:00Z", None], 0.1, 0.5)
        self.maybe(meta, "ownerReferences", lambda: [{"kind": "Job", "uid": self.pick(["owner-1", "owner-2", Bad(5)]),
                                                      "controller": self.pick([True, False, None, Bad("true")])}
                                                     for _ in range(r.randint(0, 2))], 0.2)
        self.maybe(meta, "resourceVersion", ["123"], 0.3)
        spec = {}
        self.maybe(spec, "schedulerName", ["volcano", "default-scheduler", ""], 0.7)
        self.maybe(spec, "nodeName", ["", "n1", "n2"], 0.3)
        self.maybe(spec, "priority", [0, 100, -5, Bad(2 ** 31), Bad("7")], 0.2, 0.3)
        self.maybe(spec, "priorityClassName", ["high", "low", ""], 0.2)
        self.maybe(spec, "preemptionPolicy", ["Never", "PreemptLowerPriority"], 0.1)
        self.maybe(spec, "nodeSelector", self.string_map, 0.2)
        self.maybe(spec, "affinity", lambda: r.choice([
            {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}},
            {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "a"}}, "topologyKey": "kubernetes.io/hostname"}]}}]), 0.1, 0.3)
        self.maybe(spec, "tolerations", lambda: [{"key": r.choice(["k", "", None]),
                                                  "operator": self.pick(["Equal", "Exists", "Gt", Bad("Bogus"), None]),
                                                  "value": r.choice(["v", None]),
                                                  "effect": r.choice(["NoSchedule", "", None]),
                                                  "tolerationSeconds": r.choice([300, None])}
                                                 for _ in range(r.randint(0, 2))], 0.3)
        self.maybe(spec, "topologySpreadConstraints", lambda: r.choice([[], [{"maxSkew": 1, "topologyKey": "zone"}]]),
                   0.1, 0.3)
        self.maybe(spec, "containers", lambda: [self.container(False) for _ in range(r.randint(0, 2))], 0.9, 0.05)
        self.maybe(spec, "initContainers", lambda: [self.container(True) for _ in range(r.randint(0, 2))], 0.15, 0.1)
        self.maybe(spec, "overhead", self.quantities, 0.1)
        self.maybe(spec, "schedulingGates", lambda: r.choice([[], [{"name": "gate"}]]), 0.1)
        self.maybe(spec, "volumes", lambda: [r.choice([{"name": "v", "emptyDir": {}},
                                                       {"name": "c", "persistentVolumeClaim": {"claimName": "c"}},
                                                       {"name": "n", "persistentVolumeClaim": None}, "junk"])
                                             for _ in range(r.randint(0, 2))], 0.1)
        self.maybe(spec, "hostNetwork", [True, False, None, Bad("true")], 0.2)
        pod = {}
        self.maybe(pod, "apiVersion", ["v1", Bad("v1/x"), Bad("apps/v1")], 0.97, 0.03)
        self.maybe(pod, "kind", ["Pod"], 0.98, 0.03)
        self.maybe(pod, "metadata", lambda: meta, 0.99, 0.02)
        self.maybe(pod, "spec", lambda: spec, 0.95, 0.03)
        if r.random() < 0.6:
            status = {}
            self.maybe(status, "phase", ["Pending", "Running", "Succeeded", "Failed", "Unknown", Bad("Bogus")], 0.8)
            self.maybe(status, "nominatedNodeName", ["n1", ""], 0.1)
            self.maybe(status, "conditions", lambda: [{"type": "PodScheduled", "status": "True"}], 0.2)
            pod["status"] = self.pick(lambda: status, 0.05)
        if r.random() < 0.03 * self.junk:
            pod[r.choice([1, None, ("k",)])] = "key that is not text"
        if r.random() < 0.03 * self.junk:
            pod["extra"] = r.choice([{1, 2}, object(), b"x", {"deep": [[[[[]]]]]}])
        return pod

    def event(self):
        r = self.rng
        # Half the events are clean, so that the short route takes many of them; the
        # rest carry junk in a few fields or in many.
        self.junk = r.choice([0, 0, 0.2, 1, 2])
        event = {"type": r.choices(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "added", 5, None],
                                   [60, 20, 15, 1, 1, 1, 1])[0],
                 "object": self.pod(f"p{r.randint(0, 40)}")}
        if r.random() < 0.02 * self.junk:
            del event["object"]
        if r.random() < 0.03 * self.junk:
            event["extra"] = r.choice(["x", [1, 2], {"a": None}, {3}])
        return event


def apply(cluster, event):
    try:
        return ("ok", cluster.apply(event))
    except Exception as e:  # noqa: BLE001 - the kind and the message are compared
        return (type(e).__name__, str(e))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_plain_pod_events_read_as_the_general_reader_reads_them(seed):
    maker = PodMaker(random.Random(seed))
    short, general = vcsched.Cluster(), vcsched.Cluster()
    outcomes = set()
    for step in range(1000):
        event = maker.event()
        got = apply(short, event)
        want = apply(general, through_general_reader(event))
        assert got == want, f"step {step}: {event!r}"
        outcomes.add(got[0])
        if step % 4 == 0:  # often enough that few pods are replaced unseen
            assert short.to_yaml() == general.to_yaml(), f"step {step}: {event!r}"
    assert short.to_yaml() == general.to_yaml()
    assert "\nkind: Pod\n" in short.to_yaml()  # some pods were taken
    assert {"ok", "Error"} <= outcomes  # both kinds of event were met


def test_a_plain_pod_is_read_in_full_by_the_short_route():
    """Every field the short route reads, set, against the general reader."""
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "full", "namespace": "ns1", "uid": "u-1", "labels": {"app": "a", "empty": None},
                        "annotations": {"scheduling.k8s.io/group-name": "pg"},
                        "creationTimestamp": "2026-03-04T05:06:07+01:00",
                        "ownerReferences": [{"uid": "other", "controller": False}, {"uid": "boss", "controller": True}]},
           "spec": {"schedulerName": "volcano", "nodeName": "n1", "priority": 42, "priorityClassName": "high",
                    "preemptionPolicy": "Never", "nodeSelector": {"zone": "a"},
                    "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 5}],
                    "containers": [{"name": "main", "resources": {"requests": {"cpu": 2, "memory": "1Gi"},
                                                                  "limits": {"cpu": "3", "nvidia.com/gpu": "1"}},
                                    "ports": [{"containerPort": 80}]}],
                    "initContainers": [{"name": "side", "restartPolicy": "Always",
                                        "resources": {"requests": {"cpu": "100m"}}}],
                    "overhead": {"cpu": "10m"}, "schedulingGates": [{"name": "g"}],
                    "volumes": [{"name": "v", "emptyDir": {}}], "hostNetwork": False},
           "status": {"phase": "Running", "nominatedNodeName": "n2"}}
    short, general = vcsched.Cluster(), vcsched.Cluster()
    short.apply({"type": "ADDED", "object": pod})
    general.apply(through_general_reader({"type": "ADDED", "object": pod}))
    text = short.to_yaml()
    assert text == general.to_yaml()
    for needle in ("boss", "high", "Never", "zone", "Exists", "side", "nominatedNodeName: n2", "Running"):
        assert needle in text, needle
