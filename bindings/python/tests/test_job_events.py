"""Issue 57, class 5 and the note on ownership: a Volcano Job's event touches its own pods
only (found through the cluster's index of pods by PodGroup), and deletes the pods its
controller made (by ownerReference), never another pod that names its PodGroup."""
import vcsched


def job(replicas, uid="u1"):
    return {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
            "metadata": {"name": "train", "namespace": "ml", "uid": uid},
            "spec": {"minAvailable": 1, "schedulerName": "volcano",
                     "tasks": [{"name": "w", "replicas": replicas,
                                "template": {"spec": {"containers": [{"name": "m", "image": "b",
                                                                      "resources": {"requests": {"cpu": "1"}}}]}}}]}}


def pods(cluster):
    return sorted(k for k in cluster.to_yaml().split("\n") if k.startswith("  name: train-w-") or k == "  name: stranger")


def test_scaling_down_deletes_the_jobs_pods_only():
    c = vcsched.Cluster()
    c.apply({"type": "ADDED", "object": job(3)})
    stranger = {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "stranger", "namespace": "ml",
                             "annotations": {"scheduling.k8s.io/group-name": "train-u1"}},
                "spec": {"schedulerName": "volcano", "containers": [{"name": "c"}]}}
    c.apply({"type": "ADDED", "object": stranger})
    assert pods(c) == ["  name: stranger", "  name: train-w-0", "  name: train-w-1", "  name: train-w-2"]
    c.apply({"type": "MODIFIED", "object": job(1)})
    assert pods(c) == ["  name: stranger", "  name: train-w-0"]
    c.apply({"type": "DELETED", "object": job(1)})
    assert pods(c) == ["  name: stranger"]


def test_a_jobs_podgroup_deleted_comes_back_and_the_state_round_trips():
    """Issue 57, class 6: after a Volcano Job's PodGroup was deleted the live cluster bound
    nothing, while its to_yaml() read back remade the PodGroup and bound the pods. The
    Job's controller makes the PodGroup again; live and read-back decide alike."""
    c = vcsched.Cluster()
    c.apply({"type": "ADDED", "object": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
                                         "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "pods": "110"}}}})
    c.apply({"type": "ADDED", "object": job(2)})
    notes = c.apply({"type": "DELETED", "object": {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                                                   "metadata": {"name": "train-u1", "namespace": "ml"}}})
    assert any("its controller makes it again" in n for n in notes)
    live = vcsched.schedule(c.snapshot()).binds
    back = vcsched.schedule(vcsched.load_scenario(c.to_yaml())).binds
    assert live == back == {"ml/train-w-0": "n1", "ml/train-w-1": "n1"}
    # A PodGroup of no Job goes for good.
    c.apply({"type": "ADDED", "object": {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                                         "metadata": {"name": "loose", "namespace": "ml"}, "spec": {"minMember": 1}}})
    c.apply({"type": "DELETED", "object": {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
                                           "metadata": {"name": "loose", "namespace": "ml"}}})
    assert "name: loose" not in c.to_yaml()
