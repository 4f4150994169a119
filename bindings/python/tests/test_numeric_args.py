"""Issue 57, class 8: every numeric argument is checked, and a bad value is a vcsched.Error
naming the argument (never a binding's TypeError, an OverflowError or a silent conversion)."""
import pytest

import vcsched
from vcsched import lifecycle

CLUSTER = """apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""
WORKLOAD = """apiVersion: vcsched/v1
kind: Workload
period: 1s
jobs:
- name: train
  arrival: {at: [0s]}
  duration: {fixed: 10m}
  template:
    apiVersion: batch.volcano.sh/v1alpha1
    kind: Job
    metadata: {namespace: default}
    spec:
      minAvailable: 1
      schedulerName: volcano
      tasks:
      - name: worker
        replicas: 1
        template:
          spec:
            restartPolicy: Never
            containers: [{name: main, image: busybox, resources: {requests: {cpu: "1", memory: 1Gi}}}]
"""
BAD = [float("inf"), float("nan"), 1e300, -1, 2**64, "5", 1.5, True, None, object()]


def snapshot():
    return vcsched.load_scenario(CLUSTER).snapshot


@pytest.mark.parametrize("value", [v for v in BAD if v is not None and v != -1])
def test_session_now(value):
    for call in (lambda: vcsched.schedule(snapshot(), now=value), lambda: vcsched.explain(snapshot(), now=value),
                 lambda: vcsched.queues(snapshot(), now=value)):
        with pytest.raises(vcsched.Error, match="^now: "):
            call()


@pytest.mark.parametrize("value", [v for v in BAD if v is not None])
def test_simulate_until_and_seed(value):
    if value != 1.5:  # fractional seconds are a duration
        with pytest.raises(vcsched.Error, match="^until: "):
            vcsched.simulate(CLUSTER, WORKLOAD, until=value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64:
        return
    with pytest.raises(vcsched.Error, match="^seed: "):
        vcsched.simulate(CLUSTER, WORKLOAD, until="1h", seed=value)


def test_good_values_still_work():
    vcsched.schedule(snapshot(), now=2**40)
    r = vcsched.simulate(CLUSTER, WORKLOAD, until=3600.5, seed=2**64 - 1)
    assert r is not None
    assert lifecycle.cron_next("0 * * * *", 0) == 3600


@pytest.mark.parametrize("value", [float("inf"), 1e300, 2**64, "5", 1.5, True])
def test_lifecycle_and_builder(value):
    with pytest.raises(vcsched.Error, match="^after: "):
        lifecycle.cron_next("0 * * * *", value)
    with pytest.raises(vcsched.Error, match="^threads: "):
        vcsched.load_scenario(CLUSTER, threads=value)
    b = vcsched.SnapshotBuilder()
    with pytest.raises(vcsched.Error, match="^min_member: "):
        b.add_pod_group("g", min_member=value)


def test_not_found_is_a_vcsched_error_and_a_key_error():
    assert issubclass(vcsched.NotFoundError, vcsched.Error)
    assert issubclass(vcsched.NotFoundError, KeyError)
    cluster = vcsched.Cluster()
    with pytest.raises(vcsched.Error):
        cluster.apply({"type": "MODIFIED", "object": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "x"}}})


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_at_once(device):
    """Issue 57: reading /dev/zero allocated 0.5-0.9 GiB before the size limit answered."""
    with pytest.raises(vcsched.Error, match="is NUL: not YAML or JSON text"):
        vcsched.load_scenario(device)
