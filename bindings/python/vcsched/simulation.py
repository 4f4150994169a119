"""Simulation over virtual time (docs/SIMULATE.md): ``simulate`` runs one cluster and
workload; ``sweep`` runs a grid of cluster variants, configurations, workloads and seeds
on threads, in processes or on a dask.distributed cluster, into a pandas DataFrame.

    r = vcsched.simulate("cluster.yaml", "workload.yaml", until="24h", seed=7)
    r.jobs["wait_s"]            # a numpy structured array, one row per job
    r.jobs.to_pandas()          # the same as a pandas DataFrame
    r.summary["utilization"]    # summary.json as a dict
    r.write("out/")             # jobs.csv, timeline.csv, ..., report.html
"""
from __future__ import annotations

import itertools
import json
import math
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _vcsched
from ._args import UINT64_MAX, duration_ms, optional_whole, whole

Source = Union[str, "os.PathLike[str]", Mapping[str, Any]]
Text = Tuple[str, Union[str, bytes]]  # a source's name and text


def _numpy() -> Any:
    import numpy as np  # imported on use: the rest of vcsched does not need it
    return np


def _table(columns: Mapping[str, Sequence[Any]]) -> Any:
    """A numpy structured array with a ``to_pandas()`` method."""
    np = _numpy()
    ndarray: Any = np.ndarray  # numpy is imported on use, so typed as Any here

    class _Table(ndarray):  # type: ignore[misc]
        def to_pandas(self) -> Any:
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


def _source(source: Source, what: str) -> Text:
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


def _config(config: Any) -> Optional["_vcsched.SchedulerConfig"]:
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
        out = {"jobs.csv": i.jobs_csv(), "timeline.csv": i.timeline_csv(), "queues.csv": i.queues_csv(),
               "summary.json": i.summary_json(), "utilization.svg": i.utilization_svg(),
               "queue_shares.svg": i.queue_shares_svg(), "wait_times.svg": i.wait_times_svg(),
               "report.html": i.report_html()}
        cards = i.cards_csv()
        if cards.count("\n") > 1:  # shared GPU cards in the cluster
            out["cards.csv"] = cards
            out["cards.svg"] = i.cards_svg()
        return out

    def write(self, directory: Union[str, "os.PathLike[str]"]) -> None:
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

    def summary_text(self) -> str:
        """The headline numbers, as ``vcsched simulate --out`` prints them."""
        return str(self._impl.summary_text())

    def __repr__(self) -> str:
        s = self.summary
        stall = s["stall"]
        return (f"<SimulationResult jobs={s['jobs']} finished={s['finished']} unfinished={s['unfinished']} "
                f"makespan_s={s['makespan_s']} goodput={s['goodput']}"
                f"{' stalled_s=' + str(stall['since_s']) if stall else ''}>")


def _simulate_texts(cluster: Text, workloads: List[Text], config: Optional["_vcsched.SchedulerConfig"],
                    until_ms: Optional[int], seed: Optional[int], flags: Sequence[str] = ()) -> "_vcsched.SimulationResult":
    return _vcsched.simulate(cluster[0], cluster[1], workloads, config, until_ms, seed, list(flags))


def simulate(cluster: Source, workload: Union[Source, Sequence[Source]], config: Any = None,
             until: Union[None, str, int, float] = None, seed: Optional[int] = None, *,
             sharding_mode: Optional[str] = None, sharding_name: Optional[str] = None,
             cluster_runtimes: bool = False, default_runtime: Union[None, str, int, float] = None) -> SimulationResult:
    """Runs `workload` (a Workload path, YAML text or dict, or a list of them) on
    `cluster` (a scenario file, text or dict) under `config` (a SchedulerConfig, a path,
    text or dict; default: the cluster file's, else Volcano's). `until`: seconds or a
    duration such as "24h" (default: when no work remains). `seed` overrides the
    workload's. `sharding_mode`, `sharding_name`: vc-scheduler's sharding flags
    (vcsched.sharding_args). `cluster_runtimes`: the cluster file's pods end on their expected
    runtimes (docs/ETA.md; `default_runtime` for those without one, and implies it).
    Raises vcsched.Error on bad input, naming the file and field."""
    from . import sharding_args
    workloads = workload if isinstance(workload, (list, tuple)) else [workload]
    texts = [_source(w, "workload") for w in workloads]
    cluster_text = _source(cluster, "cluster")
    return SimulationResult(_vcsched.simulate(
        cluster_text[0], cluster_text[1], texts, _config(config), _until_ms(until), optional_whole("seed", seed, 0, UINT64_MAX),
        list(sharding_args(sharding_mode, sharding_name)), bool(cluster_runtimes),
        None if default_runtime is None else duration_ms("default_runtime", default_runtime)))


@dataclass(frozen=True)
class SweepRun:
    """One cell of a sweep's grid, named by its variants' names."""
    cluster: str
    config: str
    workload: str
    seed: Optional[int]


def _column_name(resource: str) -> str:
    """A resource as a column suffix pandas users can type: nvidia.com/gpu -> nvidia_com_gpu."""
    return re.sub(r"[^0-9A-Za-z]+", "_", resource).strip("_")


def _percentile(values: List[float], p: float) -> Optional[float]:
    """Nearest rank, as summary.json's wait percentiles."""
    if not values:
        return None
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


def _rows_of(run: SweepRun, r: "_vcsched.SimulationResult") -> List[Dict[str, Any]]:
    """The tidy rows of one run: queue "*" for all its jobs, then one per queue."""
    summary = json.loads(r.summary_json())
    jobs = r.job_columns()
    stall = summary["stall"]
    common: Dict[str, Any] = {
        "cluster": run.cluster, "config": run.config, "workload": run.workload, "seed": run.seed,
        "makespan_s": summary["makespan_s"], "unfinished_total": summary["unfinished"],
        "evictions": summary["evictions"], "stalled_s": stall["since_s"] if stall else None,
        "deadlocked_jobs": len(stall["deadlock"]["jobs"]) if stall and stall["deadlock"] else 0,
        "sessions": summary["sessions"], "end_s": summary["end_s"]}
    queues = sorted(set(jobs["queue"]))
    rows = []
    for queue in ["*"] + queues:
        picked = [i for i, q in enumerate(jobs["queue"]) if queue == "*" or q == queue]
        waits = [jobs["wait_s"][i] for i in picked if not math.isnan(jobs["wait_s"][i])]
        row = dict(common)
        row["queue"] = queue
        row["jobs"] = len(picked)
        row["finished"] = sum(1 for i in picked if jobs["phase"][i] == "Completed")
        row["started"] = len(waits)
        row["never_started"] = len(picked) - len(waits)
        for p in (50, 90, 99):
            row[f"wait_p{p}_s"] = _percentile(waits, p)
        usage = {"utilization": summary["utilization"], "goodput": summary["goodput"]} if queue == "*" else \
            summary["queues"].get(queue, {"utilization": {}, "goodput": {}})
        for kind in ("utilization", "goodput"):
            for res, value in usage[kind].items():
                row[f"{kind}_{_column_name(res)}"] = value
        rows.append(row)
    return rows


Cell = Tuple[SweepRun, Text, List[Text], Optional[Text], Optional[int]]


def _run_cell(args: Cell) -> List[Dict[str, Any]]:
    """One sweep run (a top-level function, so that processes and dask can call it)."""
    run, cluster, workloads, config_text, until_ms = args
    config = None if config_text is None else _vcsched.load_config(config_text[0], config_text[1])
    return _rows_of(run, _simulate_texts(cluster, workloads, config, until_ms, run.seed))


def _named(values: Any, what: str, describe: Callable[[int, Any], str]) -> List[Tuple[str, Any]]:
    """(name, value) pairs of a mapping, or of a sequence named by `describe`."""
    if isinstance(values, Mapping):
        return [(str(k), v) for k, v in values.items()]
    if isinstance(values, (str, bytes, os.PathLike)) or not isinstance(values, Sequence):
        raise TypeError(f"sweep: {what} must be a list or a dict of names to values, got {type(values).__name__}")
    return [(describe(k, v), v) for k, v in enumerate(values)]


def _describe(k: int, value: Any) -> str:
    if value is None:
        return "default"
    if isinstance(value, (str, os.PathLike)) and "\n" not in os.fspath(value):
        return os.fspath(value)
    return str(k)


def _check_main_guard() -> None:
    """A spawned worker re-imports the main script: without the guard it would sweep
    again, for ever. Say so instead of hanging."""
    import multiprocessing
    if multiprocessing.current_process().name != "MainProcess" or multiprocessing.parent_process() is not None:
        raise RuntimeError("vcsched.sweep(processes=...) was called while a worker process imported the main script: "
                           "put the script's top-level code under `if __name__ == \"__main__\":`, or sweep on "
                           "threads (the default)")


class _Progress:
    def __init__(self, total: int, show: Any) -> None:
        self.total, self.done = total, 0
        self.callback = show if callable(show) else None
        self.bar = show is True or (show is None and sys.stderr.isatty())

    def step(self) -> None:
        self.done += 1
        if self.callback is not None:
            self.callback(self.done, self.total)
        if self.bar:
            width = 40
            filled = self.done * width // max(self.total, 1)
            sys.stderr.write(f"\r[{'#' * filled:<{width}}] {self.done}/{self.total} runs")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def sweep(cluster: Optional[Source] = None, workload: Union[None, Source, Sequence[Source]] = None,
          configs: Any = (None,), seeds: Sequence[Optional[int]] = (None,), *, clusters: Any = None,
          workloads: Any = None, threads: Optional[int] = None, processes: Optional[int] = None,
          client: Any = None, until: Union[None, str, int, float] = None, progress: Any = None,
          as_frame: bool = True) -> Any:
    """Runs every combination of cluster variant, configuration, workload and seed, and
    returns a pandas DataFrame of tidy rows: for each run, a row with ``queue == "*"``
    (all its jobs) and one row per queue. Columns: ``cluster``, ``config``,
    ``workload``, ``seed``, ``queue``, ``jobs``, ``finished``, ``started``,
    ``never_started``, ``wait_p50_s``/``wait_p90_s``/``wait_p99_s``,
    ``utilization_<resource>`` and ``goodput_<resource>`` (resource names with
    non-alphanumerics as ``_``: ``goodput_nvidia_com_gpu``), and per run
    ``makespan_s`` (None unless every job finished), ``unfinished_total``, ``evictions``,
    ``stalled_s``, ``deadlocked_jobs``, ``sessions``, ``end_s``.

    `clusters`, `configs` and `workloads` are lists or dicts of name -> value (a path,
    YAML text or dict; a config may be None for the cluster file's or Volcano's); the
    names label the rows. `cluster` and `workload` are the single ones when the plural is
    not given. Runs go to `client` (a dask.distributed Client: past one machine) when
    given, else to `processes` spawned processes when given, else to `threads` threads
    (default: the machine's CPUs; a run releases the GIL). `progress`: True for a bar on
    stderr (the default when stderr is a terminal), False for none, or a callable
    ``(done, total)``. ``as_frame=False`` returns the rows as a list of dicts."""
    if clusters is None:
        if cluster is None:
            raise TypeError("sweep: give a cluster (or clusters=)")
        clusters = [cluster]
    if workloads is None:
        if workload is None:
            raise TypeError("sweep: give a workload (or workloads=)")
        workloads = [workload]
    cluster_cells = [(name, _source(c, "cluster")) for name, c in _named(clusters, "clusters", _describe)]
    workload_cells = []
    for name, w in _named(workloads, "workloads", _describe):
        parts = w if isinstance(w, (list, tuple)) else [w]
        workload_cells.append((name, [_source(x, "workload") for x in parts]))
    config_cells: List[Tuple[str, Optional[Text]]] = []
    for name, c in _named(configs, "configs", _describe):
        if c is None:
            config_cells.append((name, None))
        elif isinstance(c, _vcsched.SchedulerConfig):
            config_cells.append((name, ("<config>", c.to_yaml())))
        else:
            config_cells.append((name, _source(c, "config")))
    until_ms = _until_ms(until)
    seeds = [optional_whole(f"seeds[{k}]", seed, 0, UINT64_MAX) for k, seed in enumerate(seeds)]
    grid = [(SweepRun(cn, fn, wn, seed), ct, wt, fc, until_ms)
            for (cn, ct), (fn, fc), (wn, wt), seed in itertools.product(cluster_cells, config_cells, workload_cells, seeds)]
    bar = _Progress(len(grid), progress)
    results: List[List[Dict[str, Any]]] = [[] for _ in grid]
    if client is not None:
        import dask.distributed
        as_completed: Any = dask.distributed.as_completed
        futures = client.map(_run_cell, grid, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for future in as_completed(futures):
            results[index[future.key]] = future.result()
            bar.step()
    else:
        import concurrent.futures as cf
        if processes is not None:
            whole("processes", processes, 1, 4096)
            _check_main_guard()
            import multiprocessing
            pool: Any = cf.ProcessPoolExecutor(min(processes, max(len(grid), 1)),
                                               mp_context=multiprocessing.get_context("spawn"))
        else:
            workers = whole("threads", threads, 1, 4096) if threads is not None else (os.cpu_count() or 1)
            pool = cf.ThreadPoolExecutor(min(workers, max(len(grid), 1)))
        with pool:
            futures = {pool.submit(_run_cell, g): i for i, g in enumerate(grid)}
            for future in cf.as_completed(futures):
                results[futures[future]] = future.result()
                bar.step()
    rows = [row for cell in results for row in cell]
    if not as_frame:
        return rows
    import pandas as pd
    return pd.DataFrame(rows)
