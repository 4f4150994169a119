"""Simulation over virtual time (docs/SIMULATE.md): ``simulate`` runs one cluster and
workload; ``sweep`` runs a grid of configurations and seeds in parallel processes or on a
dask.distributed cluster.

    r = vcsched.simulate("cluster.yaml", "workload.yaml", until="24h", seed=7)
    r.jobs["wait_s"]            # a numpy structured array, one row per job
    r.jobs.to_pandas()          # the same as a pandas DataFrame
    r.summary["utilization"]    # summary.json as a dict
    r.write("out/")             # jobs.csv, timeline.csv, ..., report.html
"""
from __future__ import annotations

import itertools
import json
import os
import tempfile
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _vcsched
from ._args import UINT64_MAX, duration_ms, optional_whole, whole

Source = Union[str, os.PathLike, Mapping[str, Any]]


def _numpy():
    import numpy as np  # imported on use: the rest of vcsched does not need it
    return np


def _table(columns: Mapping[str, Sequence[Any]]):
    np = _numpy()

    class _Table(np.ndarray):
        def to_pandas(self):
            """The table as a pandas DataFrame (pandas imported on use)."""
            import pandas as pd
            return pd.DataFrame({name: self[name] for name in self.dtype.names})

    fields = []
    arrays = []
    for name, values in columns.items():
        if values and isinstance(values[0], str) or (not values and name in ("job", "queue", "phase")):
            arr = np.array(values, dtype=object)
        elif name in ("pending_pods", "running_pods", "retries"):
            arr = np.array(values, dtype=np.int64)
        else:
            arr = np.array(values, dtype=np.float64)
        fields.append((name, arr.dtype))
        arrays.append(arr)
    n = len(arrays[0]) if arrays else 0
    out = np.empty(n, dtype=fields)
    for (name, _), arr in zip(fields, arrays):
        out[name] = arr
    return out.view(_Table)


def _source(source: Source, what: str):
    """(name, text) of a path, YAML text or a dict (dumped as JSON, which YAML reads)."""
    if isinstance(source, Mapping):
        return f"<{what} dict>", json.dumps(dict(source))
    if isinstance(source, os.PathLike):
        source = os.fsdecode(os.fspath(source))
    if not isinstance(source, str):
        raise TypeError(f"{what}: expected a path, YAML text or a dict, got {type(source).__name__}")
    if "\n" in source:
        return f"<{what} text>", source
    with open(source, "rb") as f:
        return source, f.read()


def _until_ms(until: Union[None, str, int, float]) -> Optional[int]:
    return None if until is None else duration_ms("until", until)


def _config(config: Any):
    if config is None or isinstance(config, _vcsched.SchedulerConfig):
        return config
    from . import load_config
    return load_config(config)


class SimulationResult:
    """One simulation: tables as numpy structured arrays (each with ``.to_pandas()``),
    the summary as a dict, the CSV, JSON, SVG and HTML texts, and ``write(dir)``."""

    def __init__(self, impl: "_vcsched.SimulationResult") -> None:
        self._impl = impl
        self.resources: List[str] = list(impl.resources)
        self.notes: List[str] = list(impl.notes)
        self.jobs = _table(impl.job_columns())
        self.timeline = _table(impl.timeline_columns())
        self.queues = _table(impl.queue_columns())
        self.summary: Dict[str, Any] = json.loads(impl.summary_json())

    def to_pandas(self) -> Dict[str, Any]:
        """{"jobs": DataFrame, "timeline": DataFrame, "queues": DataFrame}."""
        return {"jobs": self.jobs.to_pandas(), "timeline": self.timeline.to_pandas(), "queues": self.queues.to_pandas()}

    def files(self) -> Dict[str, str]:
        """Every output file's name and text, as `vcsched simulate --out` writes them."""
        i = self._impl
        return {"jobs.csv": i.jobs_csv(), "timeline.csv": i.timeline_csv(), "queues.csv": i.queues_csv(),
                "summary.json": i.summary_json(), "utilization.svg": i.utilization_svg(),
                "queue_shares.svg": i.queue_shares_svg(), "wait_times.svg": i.wait_times_svg(),
                "report.html": i.report_html()}

    def write(self, directory: Union[str, os.PathLike]) -> None:
        """Writes the output files into `directory` (created when missing)."""
        os.makedirs(directory, exist_ok=True)
        # Whole or not at all, as the CLI: each file goes to a new temporary file first
        # (never through a symlink already in the folder), then all are renamed into place.
        written = []
        try:
            for name, text in self.files().items():
                fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
                written.append((temp, os.path.join(directory, name)))
                with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
                os.chmod(temp, 0o644)
        except BaseException:
            for temp, _ in written:
                try:
                    os.unlink(temp)
                except OSError:
                    pass
            raise
        for temp, target in written:
            os.replace(temp, target)

    def __repr__(self) -> str:
        s = self.summary
        return f"<SimulationResult jobs={s['jobs']} finished={s['finished']} makespan_s={s['makespan_s']}>"


def _simulate_texts(cluster, workloads, config, until_ms, seed) -> "_vcsched.SimulationResult":
    return _vcsched.simulate(cluster[0], cluster[1], workloads, config, until_ms, seed)


def simulate(cluster: Source, workload: Union[Source, Sequence[Source]], config: Any = None,
             until: Union[None, str, int, float] = None, seed: Optional[int] = None) -> SimulationResult:
    """Runs `workload` (a Workload path, YAML text or dict, or a list of them) on
    `cluster` (a scenario file, text or dict) under `config` (a SchedulerConfig, a path,
    text or dict; default: the cluster file's, else Volcano's). `until`: seconds or a
    duration such as "24h" (default: when no work remains). `seed` overrides the
    workload's. Raises vcsched.Error on bad input, naming the file and field."""
    workloads = workload if isinstance(workload, (list, tuple)) else [workload]
    texts = [_source(w, "workload") for w in workloads]
    return SimulationResult(_simulate_texts(_source(cluster, "cluster"), texts, _config(config), _until_ms(until),
                                            optional_whole("seed", seed, 0, UINT64_MAX)))


def _summary_row(args) -> Dict[str, Any]:
    """One sweep run (a top-level function, so that processes and dask can call it)."""
    cluster, workloads, config_text, until_ms, seed, index = args
    config = None
    if config_text is not None:
        config = _vcsched.load_config(config_text[0], config_text[1])
    r = _simulate_texts(cluster, workloads, config, until_ms, seed)
    summary = json.loads(r.summary_json())
    row: Dict[str, Any] = {"config": index, "seed": seed, "jobs": summary["jobs"], "finished": summary["finished"],
                           "makespan_s": summary["makespan_s"], "evictions": summary["evictions"],
                           "never_started": len(summary["never_started"])}
    for res, u in summary["utilization"].items():
        row[f"utilization_{res}"] = u
    for queue, w in summary["wait_s"].items():
        for p, v in w.items():
            row[f"wait_{p}_s[{queue}]"] = v
    return row


def sweep(cluster: Source, workload: Union[Source, Sequence[Source]], configs: Sequence[Any] = (None,),
          seeds: Sequence[Optional[int]] = (None,), processes: Optional[int] = None, client: Any = None,
          until: Union[None, str, int, float] = None) -> List[Dict[str, Any]]:
    """Runs every (config, seed) pair and returns one summary row per run, in grid
    order (configs outer, seeds inner): config index, seed, jobs, finished, makespan_s,
    evictions, never_started, utilization_<resource>, wait_<p>_s[<queue>].

    Runs go to `client` (a dask.distributed Client) when given, else to a pool of
    `processes` worker processes (default: the machine's CPUs; 1 runs in this process).
    Configs are paths, YAML text or dicts (None: the cluster file's or Volcano's)."""
    workloads = workload if isinstance(workload, (list, tuple)) else [workload]
    texts = [_source(w, "workload") for w in workloads]
    cluster_text = _source(cluster, "cluster")
    config_texts = []
    for c in configs:
        if c is None:
            config_texts.append(None)
        elif isinstance(c, _vcsched.SchedulerConfig):
            config_texts.append(("<config>", c.to_yaml()))
        else:
            config_texts.append(_source(c, "config"))
    until_ms = _until_ms(until)
    seeds = [optional_whole(f"seeds[{k}]", seed, 0, UINT64_MAX) for k, seed in enumerate(seeds)]
    if processes is not None:
        whole("processes", processes, 1, 4096)
    grid = [(cluster_text, texts, config_texts[i], until_ms, seed, i)
            for i, seed in itertools.product(range(len(config_texts)), seeds)]
    if client is not None:
        futures = client.map(_summary_row, grid, pure=False)
        return client.gather(futures)
    workers = processes if processes is not None else (os.cpu_count() or 1)
    if workers <= 1 or len(grid) <= 1:
        return [_summary_row(g) for g in grid]
    import multiprocessing
    with multiprocessing.get_context("spawn").Pool(min(workers, len(grid))) as pool:
        return pool.map(_summary_row, grid)
