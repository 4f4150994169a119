"""Every conformance case through Python agrees with the CLI; the GIL is released."""
import subprocess
import threading
import time

import pytest

import vcsched


def cases(repo):
    return sorted((repo / "tests" / "conformance").rglob("*.yaml"))


def test_every_conformance_case_matches_the_cli(repo, cli):
    files = cases(repo)
    assert len(files) >= 91
    for f in files:
        sc = vcsched.load_scenario(f)
        d = vcsched.schedule(sc)
        assert sc.check(d) == [], f
        out = subprocess.run([cli, "schedule", str(f)], capture_output=True, text=True, check=True).stdout
        assert str(d) == out, f


def big_cluster(nodes, jobs, replicas=20):
    # Every pod asks for a slightly different cpu amount, so no two share a node-choice
    # cache entry and the session has real work to do.
    b = vcsched.SnapshotBuilder()
    for n in range(nodes):
        b.add_node(f"node-{n:04d}", allocatable={"cpu": "32", "memory": "128Gi", "pods": "110"})
    for j in range(jobs):
        b.add_pod_group(f"job-{j:04d}", namespace="ns", min_member=replicas)
        for r in range(replicas):
            cpu = f"{500 + (j * replicas + r) % 997}m"
            b.add_pod(f"job-{j:04d}-w-{r}", namespace="ns", group=f"job-{j:04d}", requests={"cpu": cpu, "memory": "1Gi"})
    return b.build()


def test_the_gil_is_released_during_a_session():
    # Grow the cluster until one session lasts long enough to watch another thread run.
    jobs = 60
    while True:
        snap = big_cluster(400, jobs)
        start = time.perf_counter()
        vcsched.schedule(snap)
        alone = time.perf_counter() - start
        if alone > 0.1 or jobs >= 960:
            break
        jobs *= 2
    ticks = []
    stop = threading.Event()

    def worker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=worker)
    t.start()
    time.sleep(0.02)
    begin = time.perf_counter()
    vcsched.schedule(snap)
    end = time.perf_counter()
    stop.set()
    t.join()
    during = [x for x in ticks if begin < x < end]
    # Holding the GIL would freeze the worker for the whole session.
    assert end - begin > 0.02 or alone > 0.02, "session too short to observe"
    assert len(during) >= 3, (alone, end - begin, len(during))
