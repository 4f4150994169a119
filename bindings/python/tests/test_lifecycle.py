"""The Job lifecycle from Python: admission, expansion, the simulator, cron."""
import base64

import pytest

import vcsched


@pytest.fixture
def data(repo):
    return repo / "tests" / "data" / "lifecycle"


def test_invalid_jobs_are_rejected_with_reasons(data):
    results = vcsched.validate(*sorted((data / "volcano-examples" / "invalid_jobs").glob("*.yaml")))
    assert [r.accepted for r in results] == [False, False, False]
    messages = {r.where.split("/")[-1].split(":")[0]: r.errors for r in results}
    assert ("spec.tasks[1].name", "duplicated task name task-1;") in messages["duplicatedTaskName-webhook-deny.yaml"]
    field, message = messages["duplicatedPolicyEvent-webhook-deny.yaml"][0]
    assert field == "spec.policies[1].event" and message.startswith("duplicate event PodFailed")


def test_valid_examples_are_accepted(data):
    paths = [p for p in sorted(data.rglob("*.yaml")) if "invalid_jobs" not in str(p)]
    results = vcsched.validate(*paths)
    assert len(results) >= 50
    assert [r for r in results if not r.accepted] == []


def test_validate_dict_and_cluster_queues():
    job = {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job", "metadata": {"name": "j"},
           "spec": {"queue": "gpu", "tasks": [{"name": "t", "replicas": 1,
                                               "template": {"spec": {"containers": [{"name": "c", "image": "i"}]}}}]}}
    (free,) = vcsched.validate(job)
    assert free.accepted and free.warnings  # queues unknown: a warning
    closed = {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": "gpu"},
              "spec": {"weight": 1}, "status": {"state": "Closed"}}
    (judged,) = vcsched.validate(job, cluster=[closed])
    assert not judged.accepted
    assert "status is `Closed`" in judged.errors[0][1]


def test_expand_with_host_keys(data):
    objects = vcsched.expand(data / "volcano-examples" / "job-plugin.yaml",
                             ssh_keys=lambda job: ("PRIVATE " + job, "PUBLIC " + job))
    kinds = [o["kind"] for o in objects]
    assert kinds[0] == "PodGroup" and kinds.count("Pod") == 3
    assert {"Secret", "ConfigMap", "Service", "NetworkPolicy"} <= set(kinds)
    secret = next(o for o in objects if o["kind"] == "Secret")
    assert base64.b64decode(secret["data"]["id_rsa.pub"]) == b"PUBLIC test-job-plugin"
    pod = objects[-1]
    assert pod["metadata"]["annotations"]["scheduling.k8s.io/group-name"] == objects[0]["metadata"]["name"]
    assert objects[0]["spec"]["minMember"] == 3
    with pytest.raises(vcsched.Error, match="SshKeySource"):
        vcsched.expand(data / "volcano-examples" / "job-plugin.yaml")
    with pytest.raises(vcsched.Error, match="duplicated task name"):
        vcsched.expand(data / "volcano-examples" / "invalid_jobs" / "duplicatedTaskName-webhook-deny.yaml")


def test_simulator_restarts_on_eviction_and_completes(data):
    sim = vcsched.JobSimulator(data / "volcano-examples" / "job.yaml")
    assert sim.sync()["phase"] == "Pending"
    sim.set_pod_group_phase("Inqueue")
    assert len(sim.pods) == 6
    sim.set_all_pods("Running")
    assert sim.phase == "Running"
    step = sim.evict_pod("test-job-default-nginx-0")
    assert step["action"] == "RestartJob" and step["matched"] == "job policy 0"
    assert [c for c in step["commands"] if c[0] == "DeletePod"] == [
        ("DeletePod", f"test-job-default-nginx-{i}") for i in range(1, 6)]
    assert sim.phase == "Restarting" and sim.status["retry_count"] == 1
    with pytest.raises(vcsched.NotFoundError):
        sim.set_pod_phase("nosuch", "Running")
    # While Restarting every action only advances the restart (Volcano's table) ...
    assert sim.command("AbortJob")["phase"] == "Pending"
    # ... once Pending, AbortJob aborts; with no pod left the job is Aborted at once.
    assert sim.command("AbortJob")["phase"] == "Aborted"
    assert sim.command("ResumeJob")["phase"] in ("Restarting", "Pending")


def test_cron_next():
    t = 1796032020  # 2026-11-29 10:07 UTC
    assert vcsched.cron_next("*/5 * * * *", t) == t + 180
    with pytest.raises(vcsched.Error):
        vcsched.cron_next("not cron", t)


def test_simulator_refuses_unknown_names_and_negative_time():
    job = """apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j}
spec:
  minAvailable: 1
  tasks:
  - name: t
    replicas: 1
    template: {spec: {containers: [{name: c, image: x}]}}
"""
    sim = vcsched.JobSimulator(job)
    sim.sync()
    for call in (lambda: sim.command("Bogus"), lambda: sim.event("Bogus"), lambda: sim.set_pod_group_phase("Bogus"),
                 lambda: sim.set_all_pods("Bogus"), lambda: sim.advance(-5)):
        with pytest.raises(vcsched.Error):
            call()
    sim.set_pod_group_phase("Inqueue")
    sim.set_all_pods("Succeeded")
    sim.set_all_pods("Running")  # a finished pod does not run again
    assert sim.pods and all(phase == "Succeeded" for phase in sim.pods.values())
