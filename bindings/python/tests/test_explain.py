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
    assert isinstance(from_python, vcsched.Explanation)
    assert from_python.to_dict() == from_cli
    too_big = from_python.job("ml-team/too-big")
    assert isinstance(too_big, vcsched.JobExplanation)
    assert too_big.reason == "QueueShareExceeded"
    assert too_big.stage == "allocate"
    assert "NoFeasibleNode" in too_big.causes
    # Numbers are numbers.
    assert too_big.check["nvidia.com/gpu.deserved"] == 16 and too_big.min_member == 1
    (verdict,) = too_big.node_verdicts
    assert verdict.nodes == 4 and verdict.kind == "insufficient" and verdict.resource == "nvidia.com/gpu"
    assert (verdict.requested, verdict.most_free, verdict.most_allocatable) == (9, 4, 8)
    assert "QueueShareExceeded" in repr(too_big) and "ml-team/too-big" in repr(too_big)
    # Decisions.explain gives the same entries, and explaining changes no decision.
    d = vcsched.schedule(sc)
    assert [e.to_dict() for e in d.explain()] == from_cli["jobs"]
    assert [e.job for e in d.explain("ml-team/too-big")] == ["ml-team/too-big"]
    assert str(vcsched.schedule(sc)) == str(d)
    # The same argument order as scores and would_fit: the snapshot, the job, then the configuration.
    one = vcsched.explain(sc, "ml-team/too-big").job("ml-team/too-big")
    assert one.node_verdicts == too_big.node_verdicts and too_big.by_node == {}
    # One job asked: the verdicts keyed by node, the cause as data.
    assert sorted(one.by_node) == ["cpu-0", "cpu-1", "gpu-0", "gpu-1"]
    assert all(v.kind == "insufficient" and v.resource == "nvidia.com/gpu" for vs in one.by_node.values() for v in vs)


def test_gang_shortfall_hint_applied_makes_the_job_run():
    d = vcsched.schedule(gang_cluster(2), GANG)
    (entry,) = [e for e in d.explain() if e.job == "ns/train"]
    assert entry.reason == "GangShortfall"
    assert entry.min_member == 3 and entry.check["podsThatFit"] == 2
    hint = next(h for h in entry.hints if h.kind == "add-nodes")
    assert hint.amount == 1
    # Apply it: one more node like the one named, and the gang binds whole.
    after = vcsched.schedule(gang_cluster(2 + hint.amount), GANG)
    assert sorted(after.binds) == ["ns/train-0", "ns/train-1", "ns/train-2"]
    assert [e.reason for e in after.explain() if e.job == "ns/train"] == ["Scheduled"]


def test_explanations_are_deterministic():
    snap = gang_cluster(2)
    assert vcsched.explain(snap, config=GANG) == vcsched.explain(snap, config=GANG)
    # A configuration where the job goes (the order before 0.3) is still taken as the configuration.
    assert vcsched.explain(snap, GANG) == vcsched.explain(snap, config=GANG)


def test_queues_scores_and_would_fit(repo):
    sc = vcsched.load_scenario(repo / "examples" / "quickstart.yaml")
    queues = {q.name: q for q in vcsched.queues(sc)}
    assert queues["ml-team"].deserved["nvidia.com/gpu"] == 16
    assert queues["ml-team"].plugin == "proportion"
    assert 0 < queues["ml-team"].share <= 1
    assert "ml-team" in repr(queues["ml-team"])
    scores = vcsched.scores(sc, "ml-team/train-worker-0")
    assert {s.node for s in scores} == {"gpu-0", "gpu-1"}  # the taint keeps it off cpu-*
    for s in scores:
        assert s.total == pytest.approx(sum(s.plugins.values()))
    assert [s.total for s in scores] == sorted((s.total for s in scores), reverse=True)
    fit = vcsched.would_fit(sc, "ml-team/train")
    assert fit and fit.fits and set(fit.placements) == {"ml-team/train-master-0"} | {
        f"ml-team/train-worker-{i}" for i in range(4)}
    no = vcsched.would_fit(sc, "ml-team/too-big")
    assert not no and no.reason == "QueueShareExceeded"
    with pytest.raises(vcsched.NotFoundError):
        vcsched.would_fit(sc, "ml-team/nothing")
