"""Start-time estimates from Python (docs/ETA.md): vcsched.eta on a file, a scenario and
a living Cluster, typed records, now as a datetime or text, samples on threads and on a
dask.distributed cluster giving the futures one run gives, and bad input."""
import datetime

import pytest

import vcsched

UTC = datetime.timezone.utc


def _state(repo):
    return repo / "examples" / "eta" / "state.yaml"


def test_eta_on_the_bundled_story(repo):
    r = vcsched.eta(_state(repo))
    assert isinstance(r, vcsched.EtaResult)
    assert r.now == datetime.datetime(2026, 12, 7, 12, 40, tzinfo=UTC)
    assert [j.job for j in r.jobs] == ["ml/train-b", "ml/infer-c", "ml/sweep-d"]
    b = r.job("ml/train-b")
    assert isinstance(b, vcsched.EtaJob)
    assert b.start_s == 4800 and b.start == datetime.datetime(2026, 12, 7, 14, 0, tzinfo=UTC)
    assert b.position == 1 and b.queue == "ml"
    last = b.waits_for[-1]
    assert isinstance(last, vcsched.EtaWait)
    assert (last.job, last.ends_s, last.frees["nvidia.com/gpu"], last.evicted) == ("ml/train-a", 4800, 12, False)
    assert b.note.startswith("after ml/train-a ends and frees 12 nvidia.com/gpu")
    assert r.job("ml/infer-c").reason == "Scheduled" and r.job("ml/infer-c").start_s == 0
    with pytest.raises(KeyError):
        r.job("ml/train-a")  # running: not pending


def test_cluster_eta_leaves_the_cluster_as_it_was(repo):
    cluster = vcsched.Cluster(vcsched.load_scenario(_state(repo)))
    before = cluster.to_yaml()
    generation = cluster.generation
    r = cluster.eta(now=datetime.datetime(2026, 12, 7, 13, 40, tzinfo=UTC), horizon="2h")
    assert r.job("ml/train-b").start_s == 1200
    assert r.job("ml/sweep-d").start_s is None and r.job("ml/sweep-d").note.startswith("still ")
    assert cluster.to_yaml() == before and cluster.generation == generation
    # The same as the function on the file, given the same now as text.
    assert vcsched.eta(_state(repo), now="2026-12-07T13:40:00Z", horizon=7200) == r
    # A living cluster: train-a goes; train-b then starts at the next session.
    assert cluster.apply({"type": "DELETED", "object": {"apiVersion": "v1", "kind": "Pod",
                                                        "metadata": {"name": "train-a-0", "namespace": "ml"}}}) == []
    cluster.apply({"type": "DELETED", "object": {"apiVersion": "v1", "kind": "Pod",
                                                 "metadata": {"name": "train-a-1", "namespace": "ml"}}})
    assert cluster.eta().job("ml/train-b").start_s == 0


def test_default_runtime_and_the_frame(repo):
    text = _state(repo).read_text().replace('vcsched.io/expected-runtime: "4h"', "note: x")
    without = vcsched.eta(text, horizon="24h")
    assert without.job("ml/train-b").start_s is None
    assert "no pod of the state has a known end" not in without.job("ml/train-b").note  # the others have runtimes
    with_default = vcsched.eta(text, default_runtime="3h")  # train-a started at 10:00: ends 13:00
    assert with_default.job("ml/train-b").start_s == 1200
    frame = with_default.to_pandas()
    assert list(frame["job"]) == ["ml/train-b", "ml/infer-c", "ml/sweep-d"]
    assert frame.loc[frame["job"] == "ml/train-b", "start_s"].item() == 1200


def test_samples_on_threads_and_on_dask_agree(repo):
    import distributed  # Debian's python3-distributed (scripts/install-deps.sh)
    threads = vcsched.eta(_state(repo), samples=40, seed=9, threads=3)
    one = vcsched.eta(_state(repo), samples=40, seed=9, threads=1)
    assert threads == one
    d = threads.job("ml/sweep-d")
    assert d.p10_s < d.p50_s < d.p90_s and d.samples_started == 40
    assert len(d.sample_starts_s) == 40
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            distributed.Client(lc) as client:
        spread = vcsched.eta(_state(repo), samples=40, seed=9, client=client)
    assert [(j.job, j.p10_s, j.p50_s, j.p90_s, j.samples_started) for j in spread.jobs] == \
        [(j.job, j.p10_s, j.p50_s, j.p90_s, j.samples_started) for j in threads.jobs]
    assert spread.job("ml/sweep-d").sample_starts_s == d.sample_starts_s


@pytest.mark.parametrize("kwargs, words", [
    ({"default_runtime": "long"}, "default_runtime"),
    ({"horizon": -1}, "horizon"),
    ({"now": "yesterday"}, "now"),
    ({"samples": 0}, "samples"),
])
def test_bad_arguments_raise_naming_them(repo, kwargs, words):
    with pytest.raises(vcsched.Error, match=words):
        vcsched.eta(_state(repo), **kwargs)


def test_a_bad_annotation_names_the_object(repo):
    text = _state(repo).read_text().replace('"4h"', '"four hours"')
    with pytest.raises(vcsched.Error, match=r'PodGroup "ml/train-a": metadata.annotations\[vcsched.io/expected-runtime\]'):
        vcsched.eta(text)


def test_the_simulator_continuing_from_the_state_agrees(repo):
    none = "apiVersion: vcsched/v1\nkind: Workload\nstart: 2026-12-07T12:40:00Z\n"
    sim = vcsched.simulate(_state(repo), none, until="12h", cluster_runtimes=True)
    running = {row["job"]: row["running_s"] for row in sim.jobs}
    for j in vcsched.eta(_state(repo)).jobs:
        assert running[j.job] == j.start_s
    # Without the flag the state's pods hold their nodes for ever: no row for them.
    assert len(vcsched.simulate(_state(repo), none, until="1h").jobs) == 0
