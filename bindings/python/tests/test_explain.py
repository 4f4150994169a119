"""Explain from Python (docs/EXPLAIN.md): the same answers as the command line, hints
that work when applied, queues, scores and would_fit."""
import json
import subprocess

import pytest

import vcsched

GANG = """
apiVersion: vcsched/v1
kind: SchedulerConfiguration
actions: "enqueue, allocate"
tiers:
- plugins: [{name: priority}, {name: gang}]
- plugins: [{name: predicates}, {name: nodeorder}]
"""


def gang_cluster(nodes: int) -> vcsched.Snapshot:
    b = vcsched.SnapshotBuilder()
    for i in range(nodes):
        b.add_node(f"n{i}", allocatable={"cpu": "4", "memory": "16Gi", "pods": "20"})
    b.add_pod_group("train", namespace="ns", min_member=3, phase="Inqueue")
    for i in range(3):
        b.add_pod(f"train-{i}", namespace="ns", group="train", requests={"cpu": "4", "memory": "1Gi"})
    return b.build()


def test_quickstart_explained_the_same_from_python_and_cli(repo, cli):
    path = repo / "examples" / "quickstart.yaml"
    sc = vcsched.load_scenario(path)
    from_python = vcsched.explain(sc)
    from_cli = json.loads(subprocess.run([cli, "explain", "-o", "json", str(path)], capture_output=True, text=True,
                                         check=True).stdout)
    assert from_python == from_cli
    too_big = next(j for j in from_python["jobs"] if j["job"] == "ml-team/too-big")
    assert too_big["reason"] == "QueueShareExceeded"
    assert too_big["stage"] == "allocate"
    assert "NoFeasibleNode" in too_big["causes"]
    assert too_big["check"]["nvidia.com/gpu.deserved"] == "16"
    (cause, count), = too_big["nodes"].items()
    assert cause.startswith("Insufficient nvidia.com/gpu (requests 9;") and count == 4
    # Decisions.explain gives the same entries, and explaining changes no decision.
    d = vcsched.schedule(sc)
    assert d.explain() == from_python["jobs"]
    assert [e["job"] for e in d.explain("ml-team/too-big")] == ["ml-team/too-big"]
    assert str(vcsched.schedule(sc)) == str(d)


def test_gang_shortfall_hint_applied_makes_the_job_run():
    d = vcsched.schedule(gang_cluster(2), GANG)
    (entry,) = [e for e in d.explain() if e["job"] == "ns/train"]
    assert entry["reason"] == "GangShortfall"
    assert entry["minMember"] == 3 and entry["check"]["podsThatFit"] == "2"
    hint = next(h for h in entry["hints"] if h["kind"] == "add-nodes")
    assert hint["amount"] == 1
    # Apply it: one more node like the one named, and the gang binds whole.
    after = vcsched.schedule(gang_cluster(2 + hint["amount"]), GANG)
    assert sorted(after.binds) == ["ns/train-0", "ns/train-1", "ns/train-2"]
    assert [e["reason"] for e in after.explain() if e["job"] == "ns/train"] == ["Scheduled"]


def test_explanations_are_deterministic():
    snap = gang_cluster(2)
    assert vcsched.explain(snap, GANG) == vcsched.explain(snap, GANG)


def test_queues_scores_and_would_fit(repo):
    sc = vcsched.load_scenario(repo / "examples" / "quickstart.yaml")
    queues = {q["name"]: q for q in vcsched.queues(sc)}
    assert queues["ml-team"]["deserved"]["nvidia.com/gpu"] == "16"
    assert queues["ml-team"]["plugin"] == "proportion"
    assert 0 < queues["ml-team"]["share"] <= 1
    scores = vcsched.scores(sc, "ml-team/train-worker-0")
    assert {s["node"] for s in scores} == {"gpu-0", "gpu-1"}  # the taint keeps it off cpu-*
    for s in scores:
        assert s["total"] == pytest.approx(sum(s["plugins"].values()))
    assert [s["total"] for s in scores] == sorted((s["total"] for s in scores), reverse=True)
    fit = vcsched.would_fit(sc, "ml-team/train")
    assert fit["fits"] and set(fit["placements"]) == {"ml-team/train-master-0"} | {
        f"ml-team/train-worker-{i}" for i in range(4)}
    no = vcsched.would_fit(sc, "ml-team/too-big")
    assert not no["fits"] and no["reason"] == "QueueShareExceeded"
    with pytest.raises(vcsched.NotFoundError):
        vcsched.would_fit(sc, "ml-team/nothing")
