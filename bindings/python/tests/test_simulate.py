"""vcsched.simulate and vcsched.sweep: numpy tables, pandas, the files, and the same
summaries from a single run, a process pool and a dask.distributed cluster."""
import json
import math

import numpy as np
import pytest

import vcsched

RANDOM_WORKLOAD = {
    "apiVersion": "vcsched/v1", "kind": "Workload", "seed": 3,
    "jobs": [{
        "name": "r", "count": 8, "arrival": {"poisson": {"mean": "30s"}},
        "duration": {"lognormal": {"median": "3m", "sigma": 0.5}},
        "failures": {"probability": 0.1, "exitCode": 137},
        "template": {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
                     "spec": {"minAvailable": 2, "tasks": [{"name": "w", "replicas": 2, "template": {"spec": {
                         "containers": [{"name": "m", "image": "b", "resources": {"requests": {"cpu": "1"}}}]}}}]}},
    }],
}


def test_simulate_tables(repo):
    ex = repo / "examples" / "simulate" / "one-node"
    r = vcsched.simulate(ex / "cluster.yaml", ex / "workload.yaml")
    assert isinstance(r, vcsched.SimulationResult)
    assert r.jobs.dtype.names == ("job", "queue", "created_s", "inqueue_s", "running_s", "finished_s", "phase",
                                  "wait_s", "retries")
    assert list(r.jobs["job"]) == ["default/train-0", "default/train-1", "default/train-2"]
    assert list(r.jobs["finished_s"]) == [601.0, 1202.0, 1803.0]
    assert list(r.jobs["wait_s"]) == [1.0, 602.0, 1203.0]
    assert r.summary["makespan_s"] == 1803
    assert r.timeline.dtype.names[:3] == ("time_s", "pending_pods", "running_pods")
    assert "cpu_allocated" in r.timeline.dtype.names and "memory_capacity" in r.timeline.dtype.names
    assert np.all(r.timeline["cpu_allocated"] <= r.timeline["cpu_capacity"])
    assert set(r.queues["queue"]) >= {"default"}
    frames = r.to_pandas()
    assert list(frames["jobs"]["phase"]) == ["Completed"] * 3
    assert len(frames["timeline"]) == len(r.timeline)
    assert r.jobs.to_pandas()["retries"].sum() == 0


def test_not_reached_is_nan_and_files_match_the_cli(repo, cli, tmp_path):
    import subprocess
    ex = repo / "examples" / "simulate" / "gpu-deadlock"
    r = vcsched.simulate(str(ex / "cluster.yaml"), str(ex / "per-pod.yaml"), until="2h")
    assert all(math.isnan(x) for x in r.jobs["running_s"])
    assert len(r.summary["never_started"]) == 2
    r.write(tmp_path / "py")
    subprocess.run([cli, "simulate", str(ex / "cluster.yaml"), str(ex / "per-pod.yaml"), "--until", "2h", "--out",
                    str(tmp_path / "cli")], check=True)
    for name in r.files():
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name


def test_until_and_seed_forms(repo):
    cluster = (repo / "examples" / "simulate" / "one-node" / "cluster.yaml").read_text()
    a = vcsched.simulate(cluster, RANDOM_WORKLOAD, until="1h", seed=5)
    b = vcsched.simulate(cluster, RANDOM_WORKLOAD, until=3600, seed=5)
    c = vcsched.simulate(cluster, RANDOM_WORKLOAD, until=3600, seed=6)
    assert a.files() == b.files()
    assert a.files()["jobs.csv"] != c.files()["jobs.csv"]
    assert a.summary["end_s"] == 3600


def test_errors_name_the_field(repo):
    cluster = repo / "examples" / "simulate" / "one-node" / "cluster.yaml"
    bad = dict(RANDOM_WORKLOAD, period="never")
    with pytest.raises(vcsched.Error, match="period: invalid duration"):
        vcsched.simulate(cluster, bad)
    with pytest.raises(ValueError, match="until"):
        vcsched.simulate(cluster, RANDOM_WORKLOAD, until=-1)
    with pytest.raises(vcsched.Error):
        vcsched.simulate(cluster, RANDOM_WORKLOAD, until="soon")


def _single_rows(cluster, configs, seeds):
    rows = []
    for i, config in enumerate(configs):
        for seed in seeds:
            s = vcsched.simulate(cluster, RANDOM_WORKLOAD, config=config, seed=seed).summary
            rows.append((i, seed, s["finished"], s["makespan_s"], s["utilization"]["cpu"]))
    return rows


def _as_tuples(rows):
    return [(r["config"], r["seed"], r["finished"], r["makespan_s"], r["utilization_cpu"]) for r in rows]


BINPACK_ONLY = {"actions": "enqueue, allocate", "tiers": [{"plugins": [{"name": "gang"}, {"name": "predicates"},
                                                                       {"name": "binpack"}]}]}


def test_sweep_in_processes_matches_single_runs(repo):
    cluster = str(repo / "examples" / "simulate" / "one-node" / "cluster.yaml")
    configs, seeds = [None, BINPACK_ONLY], [1, 2, 3]
    rows = vcsched.sweep(cluster, RANDOM_WORKLOAD, configs=configs, seeds=seeds, processes=2)
    assert len(rows) == 6
    assert _as_tuples(rows) == _single_rows(cluster, configs, seeds)
    assert {"jobs", "evictions", "never_started", "utilization_memory"} <= set(rows[0])


def test_sweep_on_a_dask_cluster(repo):
    import distributed  # Debian's python3-distributed (scripts/install-deps.sh)
    cluster = str(repo / "examples" / "simulate" / "one-node" / "cluster.yaml")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            distributed.Client(lc) as client:
        rows = vcsched.sweep(cluster, RANDOM_WORKLOAD, seeds=[1, 2], client=client)
    assert _as_tuples(rows) == _single_rows(cluster, [None], [1, 2])
