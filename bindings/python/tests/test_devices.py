"""deviceshare's shared GPUs through Python: the card index a bind carries, in the
decisions, the Binding manifests, and a living cluster that counts the card afterwards."""
import vcsched

STATE = """
apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate"
tiers:
- plugins:
  - name: gang
  - name: predicates
  - name: deviceshare
    arguments: {deviceshare.GPUSharingEnable: true}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  capacity: &c {cpu: '8', memory: 32Gi, pods: '10', volcano.sh/gpu-memory: 32Gi, volcano.sh/gpu-number: '2'}
  allocatable: *c
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: pg, namespace: ml}
spec: {minMember: 1}
status: {phase: Inqueue}
---
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: ml, annotations: {scheduling.k8s.io/group-name: pg}}
spec:
  schedulerName: volcano
  containers:
  - name: c
    resources:
      requests: {cpu: '1', volcano.sh/gpu-memory: 12Gi}
      limits: {cpu: '1', volcano.sh/gpu-memory: 12Gi}
"""


def test_binds_carry_the_card_index():
    d = vcsched.schedule(vcsched.load_scenario(STATE))
    assert d.binds == {"ml/a": "n1"}
    assert d.bind_annotations == {"ml/a": {"volcano.sh/gpu-index": "0"}}
    assert d.to_dict()["binds"][0]["annotations"] == {"volcano.sh/gpu-index": "0"}
    binding = d.to_manifests()[0]
    assert binding["metadata"]["annotations"] == {"volcano.sh/gpu-index": "0"}


def test_a_cluster_counts_the_card_in_the_next_session():
    cluster = vcsched.Cluster(vcsched.load_scenario(STATE))
    first = cluster.schedule()
    assert first.bind_annotations == {"ml/a": {"volcano.sh/gpu-index": "0"}}
    cluster.apply({"type": "ADDED", "object": _pod("b")})
    second = cluster.schedule()
    # card 0 keeps a's 12Gi (4Gi free): b goes to card 1
    assert second.bind_annotations == {"ml/b": {"volcano.sh/gpu-index": "1"}}


def _pod(name):
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "ml", "annotations": {"scheduling.k8s.io/group-name": "pg"}},
            "spec": {"schedulerName": "volcano", "containers": [{"name": "c", "resources": {
                "requests": {"cpu": "1", "volcano.sh/gpu-memory": "12Gi"},
                "limits": {"cpu": "1", "volcano.sh/gpu-memory": "12Gi"}}}]}}
