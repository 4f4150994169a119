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
