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
    for config in configs:
        for seed in seeds:
            s = vcsched.simulate(cluster, RANDOM_WORKLOAD, config=config, seed=seed).summary
            rows.append((seed, s["finished"], s["makespan_s"], s["utilization"]["cpu"], s["goodput"]["cpu"]))
    return rows


def _as_tuples(frame):
    runs = frame[frame["queue"] == "*"]
    return [(None if r.seed is None or (isinstance(r.seed, float) and math.isnan(r.seed)) else int(r.seed),
             r.finished, None if r.makespan_s is None or (isinstance(r.makespan_s, float) and math.isnan(r.makespan_s))
             else r.makespan_s, r.utilization_cpu, r.goodput_cpu) for r in runs.itertuples()]


BINPACK_ONLY = {"actions": "enqueue, allocate", "tiers": [{"plugins": [{"name": "gang"}, {"name": "predicates"},
                                                                       {"name": "binpack"}]}]}


def test_sweep_on_threads_and_in_processes_matches_single_runs(repo):
    import pandas as pd
    cluster = str(repo / "examples" / "simulate" / "one-node" / "cluster.yaml")
    configs, seeds = [None, BINPACK_ONLY], [1, 2, 3]
    single = _single_rows(cluster, configs, seeds)
    on_threads = vcsched.sweep(cluster, RANDOM_WORKLOAD, configs=configs, seeds=seeds, progress=False)
    assert isinstance(on_threads, pd.DataFrame)
    assert _as_tuples(on_threads) == single
    in_processes = vcsched.sweep(cluster, RANDOM_WORKLOAD, configs=configs, seeds=seeds, processes=2, progress=False)
    pd.testing.assert_frame_equal(on_threads, in_processes)
    # Tidy columns: a queue column, names pandas users type.
    assert {"cluster", "config", "workload", "seed", "queue", "jobs", "finished", "wait_p50_s", "wait_p90_s",
            "utilization_memory", "goodput_cpu", "never_started", "makespan_s"} <= set(on_threads.columns)
    assert not any("[" in c for c in on_threads.columns)
    assert list(on_threads["config"].unique()) == ["default", "1"]


def test_sweep_grid_of_cluster_variants_configs_workloads_and_seeds(repo):
    base = (repo / "examples" / "simulate" / "one-node" / "cluster.yaml").read_text()
    doubled = base.replace('cpu: "4"', 'cpu: "8"')
    assert doubled != base
    calls = []
    frame = vcsched.sweep(clusters={"small": base, "large": doubled}, configs={"volcano": None, "binpack": BINPACK_ONLY},
                          workloads={"random": RANDOM_WORKLOAD}, seeds=[1, 2], threads=2,
                          progress=lambda done, total: calls.append((done, total)))
    runs = frame[frame["queue"] == "*"]
    assert len(runs) == 2 * 2 * 1 * 2
    assert sorted(calls)[-1] == (8, 8) and len(calls) == 8
    assert set(runs["cluster"]) == {"small", "large"} and set(runs["config"]) == {"volcano", "binpack"}
    # Per queue rows beside the run's: the queue's jobs add up to the run's.
    per_queue = frame[frame["queue"] != "*"].groupby(["cluster", "config", "seed"])["jobs"].sum()
    assert (per_queue.values == runs.set_index(["cluster", "config", "seed"])["jobs"].loc[per_queue.index].values).all()
    # More cpu, shorter waits (the same arrivals and durations).
    small = runs[(runs.cluster == "small") & (runs.config == "volcano")]["wait_p90_s"].sum()
    large = runs[(runs.cluster == "large") & (runs.config == "volcano")]["wait_p90_s"].sum()
    assert large <= small


def test_sweep_without_a_main_guard_fails_fast_rather_than_hanging(repo, tmp_path):
    import subprocess
    import sys
    cluster = repo / "examples" / "simulate" / "one-node" / "cluster.yaml"
    script = tmp_path / "no_guard.py"
    script.write_text(f"import vcsched\n"
                      f"vcsched.sweep({str(cluster)!r}, {RANDOM_WORKLOAD!r}, seeds=[1, 2], processes=2, progress=False)\n")
    env = dict(__import__("os").environ)
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=240, env=env)
    assert p.returncode != 0
    assert "__main__" in p.stderr
    # On threads (the default) the same script needs no guard.
    script.write_text(f"import vcsched\n"
                      f"f = vcsched.sweep({str(cluster)!r}, {RANDOM_WORKLOAD!r}, seeds=[1, 2], progress=False)\n"
                      f"print(len(f))\n")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=240, env=env)
    assert p.returncode == 0, p.stderr


def test_sweep_on_a_dask_cluster(repo):
    import distributed  # Debian's python3-distributed (scripts/install-deps.sh)
    cluster = str(repo / "examples" / "simulate" / "one-node" / "cluster.yaml")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            distributed.Client(lc) as client:
        frame = vcsched.sweep(cluster, RANDOM_WORKLOAD, seeds=[1, 2], client=client, progress=False)
    assert _as_tuples(frame) == _single_rows(cluster, [None], [1, 2])


def test_goodput_and_the_deadlock_are_reported(repo):
    ex = repo / "examples" / "simulate" / "gpu-deadlock"
    per_pod = vcsched.simulate(ex / "cluster.yaml", ex / "per-pod.yaml", until="2h")
    gang = vcsched.simulate(ex / "cluster.yaml", ex / "gang.yaml", until="2h")
    assert per_pod.summary["utilization"]["nvidia.com/gpu"] > 0.99
    assert per_pod.summary["goodput"]["nvidia.com/gpu"] == 0
    assert per_pod.summary["makespan_s"] is None and per_pod.summary["unfinished"] == 2
    stall = per_pod.summary["stall"]
    assert stall["deadlock"]["jobs"] == ["default/train-0", "default/train-1"]
    assert stall["deadlock"]["held"]["nvidia.com/gpu"] == 10
    assert {w["reason"] for w in per_pod.summary["never_started"].values()} == {"PartiallyPlaced"}
    assert "goodput" in per_pod.summary_text() and "deadlock" in per_pod.summary_text()
    assert gang.summary["goodput"]["nvidia.com/gpu"] == pytest.approx(gang.summary["utilization"]["nvidia.com/gpu"])
    assert gang.summary["goodput"]["nvidia.com/gpu"] > 0.3 and gang.summary["stall"] is None
    assert "nvidia.com/gpu_goodput" in per_pod.timeline.dtype.names


def test_simulate_takes_sharding_beside_the_config(repo):
    """Hard sharding with no NodeShard of the scheduler's name leaves it no node: nothing
    runs in the simulated hour; soft sharding only orders nodes, so the run is as before."""
    ex = repo / "examples" / "simulate" / "one-node"
    base = vcsched.simulate(ex / "cluster.yaml", ex / "workload.yaml")
    soft = vcsched.simulate(ex / "cluster.yaml", ex / "workload.yaml", sharding_mode="soft")
    assert list(soft.jobs["finished_s"]) == list(base.jobs["finished_s"])
    hard = vcsched.simulate(ex / "cluster.yaml", ex / "workload.yaml", until="1h", sharding_mode="hard")
    assert hard.summary["unfinished"] == 3
    with pytest.raises(vcsched.Error, match="sharding_mode"):
        vcsched.simulate(ex / "cluster.yaml", ex / "workload.yaml", sharding_mode="strict")
