"""Start-time estimates (docs/ETA.md): when each pending job of a state will start.

    r = vcsched.eta("state.yaml", default_runtime="1h")
    for j in r.jobs:
        print(j.job, j.start_s, j.note)
    cluster.eta(horizon="48h")             # from a living vcsched.Cluster
    vcsched.eta(state, samples=200, seed=7)  # p10/p50/p90 over drawn runtimes
    vcsched.eta(state, samples=10000, client=dask_client)  # futures spread over a cluster
"""
from __future__ import annotations

import datetime
import json
import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _vcsched
from ._args import INT64_MAX, UINT64_MAX, duration_ms, optional_whole, whole


@dataclass(frozen=True)
class EtaWait:
    """A job whose end (or eviction) frees room the estimated job then takes."""
    job: str
    ends_s: float
    frees: Dict[str, float]  # cpu in cores, memory in bytes, others in their own units
    evicted: bool = False


@dataclass(frozen=True)
class EtaJob:
    """One pending job's estimate. `start_s` is seconds after `now`, None when it does not
    start within the horizon; `start` the same as a UTC datetime."""
    job: str
    queue: str
    start_s: Optional[float]
    start: Optional[datetime.datetime]
    position: int
    waits_for: List[EtaWait]
    reason: str
    note: str
    p10_s: Optional[float] = None
    p50_s: Optional[float] = None
    p90_s: Optional[float] = None
    samples_started: int = 0
    sample_starts_s: List[Optional[float]] = field(default_factory=list, repr=False)


@dataclass(frozen=True)
class EtaResult:
    now: datetime.datetime
    horizon_s: int
    samples: int
    jobs: List[EtaJob]

    def job(self, key: str) -> EtaJob:
        """The estimate of job `key` ("namespace/name"); KeyError when it is not pending."""
        for j in self.jobs:
            if j.job == key:
                return j
        raise KeyError(key)

    def to_pandas(self) -> Any:
        """One row per job: job, queue, start_s, start, position, reason, note (and the percentiles)."""
        import pandas as pd
        rows = [{"job": j.job, "queue": j.queue, "start_s": j.start_s, "start": j.start, "position": j.position,
                 "reason": j.reason, "note": j.note, "p10_s": j.p10_s, "p50_s": j.p50_s, "p90_s": j.p90_s}
                for j in self.jobs]
        return pd.DataFrame(rows, columns=["job", "queue", "start_s", "start", "position", "reason", "note",
                                           "p10_s", "p50_s", "p90_s"])


def _utc(text: str) -> datetime.datetime:
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)


def _optional_utc(text: Optional[str]) -> Optional[datetime.datetime]:
    return None if text is None else _utc(text)


def _result(d: Mapping[str, Any]) -> EtaResult:
    jobs = []
    for j in d["jobs"]:
        waits = [EtaWait(w["job"], float(w["ends_s"]), {k: float(v) for k, v in w["frees"].items()}, bool(w["evicted"]))
                 for w in j["waits_for"]]
        jobs.append(EtaJob(job=j["job"], queue=j["queue"], start_s=j["start_s"], start=_optional_utc(j["start"]),
                           position=int(j["position"]), waits_for=waits, reason=j["reason"], note=j["note"],
                           p10_s=j.get("p10_s"), p50_s=j.get("p50_s"), p90_s=j.get("p90_s"),
                           samples_started=int(j.get("samples_started", 0)),
                           sample_starts_s=list(j.get("sample_starts_s", []))))
    return EtaResult(now=_utc(d["now"]), horizon_s=int(d["horizon_s"]), samples=int(d["samples"]), jobs=jobs)


def _now(now: Any) -> Optional[int]:
    """Seconds since the epoch from an int, a datetime or RFC 3339 text."""
    if now is None:
        return None
    if isinstance(now, datetime.datetime):
        if now.tzinfo is None:
            raise _vcsched.Error("now: a datetime needs a timezone (datetime.timezone.utc)")
        return int(now.timestamp())
    if isinstance(now, str):
        try:
            return int(datetime.datetime.fromisoformat(now.replace("Z", "+00:00")).timestamp())
        except ValueError:
            raise _vcsched.Error(f"now: expected seconds since the epoch or an RFC 3339 time, got {now!r}") from None
    return whole("now", now, -INT64_MAX, INT64_MAX)


def _percentile(starts: List[Optional[float]], p: float) -> Optional[float]:
    """Nearest rank over the futures; a future where the job never started ranks last."""
    if not starts:
        return None
    ordered = sorted(starts, key=lambda s: math.inf if s is None else s)
    rank = min(len(ordered), max(1, math.ceil(p * len(ordered))))
    return ordered[rank - 1]


def _estimate(impl: "_vcsched.Cluster", config: "_vcsched.SchedulerConfig", now: Any, default_runtime: Any,
              horizon: Any, workload: Any, samples: int, seed: int, threads: int, client: Any) -> EtaResult:
    from .simulation import _source
    workloads = [] if workload is None else [_source(w, "workload") for w in
                                             (workload if isinstance(workload, (list, tuple)) else [workload])]
    now_s = _now(now)
    default_ms = None if default_runtime is None else duration_ms("default_runtime", default_runtime)
    horizon_ms = None if horizon is None else duration_ms("horizon", horizon)
    samples = whole("samples", samples, 1, 100000)
    seed = whole("seed", seed, 0, UINT64_MAX)
    threads = whole("threads", threads, 0, 1024)
    if client is None or samples == 1:
        return _result(json.loads(_vcsched.eta(impl, config, now_s, default_ms, horizon_ms, workloads, samples, seed, 0,
                                               threads)))
    # Past one machine: the base estimate here, the futures in chunks on the dask cluster
    # (each chunk the futures one run would have made: first_sample keeps their seeds).
    base = _result(json.loads(_vcsched.eta(impl, config, now_s, default_ms, horizon_ms, workloads, 1, seed, 0, 1)))
    state = impl.to_yaml(config)
    chunk = max(1, math.ceil(samples / 64))
    futures = [client.submit(_eta_chunk, state, config.to_yaml(), now_s, default_ms, horizon_ms, workloads,
                             min(chunk, samples - first), seed, first, pure=False)
               for first in range(0, samples, chunk)]
    per_job: Dict[str, List[Optional[float]]] = {j.job: [] for j in base.jobs}
    for part in client.gather(futures):
        for j in part["jobs"]:
            if j["job"] in per_job:
                starts = j.get("sample_starts_s")
                per_job[j["job"]].extend(starts if starts is not None else [j["start_s"]])
    jobs = []
    for j in base.jobs:
        starts = per_job[j.job]
        jobs.append(EtaJob(job=j.job, queue=j.queue, start_s=j.start_s, start=j.start, position=j.position,
                           waits_for=j.waits_for, reason=j.reason, note=j.note, p10_s=_percentile(starts, 0.1),
                           p50_s=_percentile(starts, 0.5), p90_s=_percentile(starts, 0.9),
                           samples_started=sum(s is not None for s in starts), sample_starts_s=starts))
    return EtaResult(now=base.now, horizon_s=base.horizon_s, samples=samples, jobs=jobs)


def _eta_chunk(state: str, config_yaml: str, now: Optional[int], default_runtime_ms: Optional[int],
               horizon_ms: Optional[int], workloads: Sequence[Any], samples: int, seed: int, first: int) -> Dict[str, Any]:
    """Futures [first, first + samples) of an estimate, on a worker (a top-level function dask can ship)."""
    from . import Cluster, load_config, load_scenario
    cluster = Cluster(load_scenario(state))
    config = load_config(config_yaml)
    # One future is still drawn, as in a larger run: two are run and the first kept.
    out: Dict[str, Any] = json.loads(_vcsched.eta(cluster._impl, config, now, default_runtime_ms, horizon_ms,
                                                  list(workloads), max(samples, 2), seed, first, 1))
    if samples == 1:
        for j in out["jobs"]:
            j["sample_starts_s"] = j["sample_starts_s"][:1]
    return out


def eta(scenario: Any, config: Any = None, now: Any = None, default_runtime: Any = None, horizon: Any = None, *,
        workload: Any = None, samples: int = 1, seed: int = 0, threads: int = 0, client: Any = None) -> EtaResult:
    """When each pending job of `state` will start.

    `scenario`: the state: a vcsched.Cluster, a loaded Scenario, or a scenario path, text or dict.
    `config`: a SchedulerConfig, path, text or dict (default: the state's, else Volcano's).
    `now`: seconds since the epoch, a datetime or RFC 3339 text (default: the state's newest
    timestamp). `default_runtime`, `horizon`: seconds or durations such as "1h" (horizon
    default: 7 days). `workload`: jobs arriving after now (Workload paths, texts or dicts).
    `samples` > 1 draws runtimes for that many futures (seeded by `seed`) on `threads`
    threads (0: one per processor, up to 8), or on a dask.distributed `client`.
    Raises vcsched.Error on bad input, naming the object and field."""
    from . import Cluster, Scenario, load_scenario
    from .simulation import _config, _source
    state = scenario
    if isinstance(state, Cluster):
        return state.eta(config, now, default_runtime, horizon, workload=workload, samples=samples, seed=seed,
                         threads=threads, client=client)
    if not isinstance(state, Scenario):
        name, text = _source(state, "state")
        state = load_scenario(text if isinstance(text, str) else text.decode("utf-8"))
    return Cluster(state).eta(config, now, default_runtime, horizon, workload=workload, samples=samples, seed=seed,
                              threads=threads, client=client)
