"""Volcano's admission and job controller as pure functions.

Validate manifests as Volcano's webhooks would, expand a Volcano Job into the objects its
controller creates, and step a job through its lifecycle::

    import vcsched
    for r in vcsched.validate("job.yaml"):
        print(r.kind, r.name, "accepted" if r.accepted else r.errors)
    objects = vcsched.expand("job.yaml")          # PodGroup, Service, ConfigMap, ..., pods
    sim = vcsched.JobSimulator("job.yaml")
    sim.sync(); sim.set_pod_group_phase("Inqueue"); sim.set_all_pods("Running")
    sim.evict_pod("test-job-default-nginx-0")["action"]   # "RestartJob"

Inputs are paths, YAML/JSON text, or dicts in Kubernetes shape.
"""
from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _vcsched
from ._args import whole

Source = Union[str, "os.PathLike[str]", Mapping[str, Any]]

__all__ = ["AdmissionResult", "validate", "expand", "JobSimulator", "cron_next"]


def _sources(items: Sequence[Source]) -> List[Tuple[str, Union[str, bytes]]]:
    from . import _read  # the package's path-or-text reader
    out: List[Tuple[str, Union[str, bytes]]] = []
    for i, item in enumerate(items):
        if isinstance(item, Mapping):
            out.append((f"<object {i}>", json.dumps(item)))
        else:
            out.append(_read(item))
    return out


@dataclasses.dataclass(frozen=True)
class AdmissionResult:
    """What admission said of one object. errors and warnings are (field, message) pairs."""
    where: str
    kind: str
    name: str
    accepted: bool
    errors: List[Tuple[str, str]]
    warnings: List[Tuple[str, str]]


def validate(*manifests: Source, strict: bool = False,
             cluster: Optional[Sequence[Source]] = None) -> List[AdmissionResult]:
    """Admission of every Volcano object (Job, PodGroup, Queue, CronJob, JobFlow,
    JobTemplate) in the manifests; other kinds are left out. ``cluster``: manifests
    holding the cluster's queues (then job queue rules are checked). ``strict``: pod
    template problems are errors, as in Volcano's webhook."""
    results = _vcsched.validate_manifests(_sources(manifests), strict,
                                          None if cluster is None else _sources(cluster))
    return [AdmissionResult(**r) for r in results]


def expand(job: Source, ssh_keys: Optional[Callable[[str], Tuple[str, str]]] = None) -> List[Dict[str, Any]]:
    """Every object Volcano's controller creates for the (first) Job of ``job``: the
    PodGroup, the job plugins' objects, then the pods, as dicts. ``ssh_keys(job_name)``
    returns (private key, public key) for the ssh plugin; without it a job using ssh
    raises :class:`vcsched.Error`."""
    return _vcsched.expand_job(_sources([job]), ssh_keys)


class JobSimulator:
    """One Volcano Job driven by events. Each step returns a dict: what happened, the
    event, the action chosen (and by which policy), the commands and the phase after."""

    def __init__(self, job: Source, now: int = 0) -> None:
        self._impl = _vcsched.JobSimulator(_sources([job]), whole("now", now))

    def sync(self) -> Dict[str, Any]:
        return self._impl.sync()

    def set_pod_group_phase(self, phase: str) -> Dict[str, Any]:
        """The scheduler moved the PodGroup (Inqueue, Running, Unknown)."""
        return self._impl.set_pod_group_phase(phase)

    def set_pod_phase(self, pod: str, phase: str, exit_code: Optional[int] = None) -> Dict[str, Any]:
        return self._impl.set_pod_phase(pod, phase, exit_code)

    def set_all_pods(self, phase: str) -> List[Dict[str, Any]]:
        return self._impl.set_all_pods(phase)

    def evict_pod(self, pod: str) -> Dict[str, Any]:
        return self._impl.evict_pod(pod)

    def restart_container(self, pod: str) -> Dict[str, Any]:
        return self._impl.restart_container(pod)

    def command(self, action: str) -> Dict[str, Any]:
        """A bus Command: AbortJob, ResumeJob, RestartJob, ..."""
        return self._impl.command(action)

    def event(self, event: str, task: str = "", pod: str = "") -> Dict[str, Any]:
        return self._impl.event(event, task, pod)

    def advance(self, seconds: int) -> List[Dict[str, Any]]:
        """Time passes; delayed (timeout) actions that fall due run."""
        return self._impl.advance(whole("seconds", seconds, 0))

    @property
    def status(self) -> Dict[str, Any]:
        return self._impl.status

    @property
    def phase(self) -> str:
        return str(self._impl.status["phase"])

    @property
    def pods(self) -> Dict[str, str]:
        """Pod name -> phase."""
        return self._impl.pods

    @property
    def pod_group_phase(self) -> str:
        return self._impl.pod_group_phase

    @property
    def now(self) -> int:
        return self._impl.now

    @property
    def deleted(self) -> bool:
        """ttlSecondsAfterFinished has elapsed: the controller deletes the job."""
        return self._impl.deleted

    def __repr__(self) -> str:
        return f"<vcsched.JobSimulator phase={self.phase!r} pods={len(self.pods)} t={self.now}>"


def cron_next(schedule: str, after: int, utc_offset_seconds: int = 0, *,
              time_zone: Optional[str] = None) -> Optional[int]:
    """The first activation of a cron schedule strictly after ``after`` (Unix seconds).

    The schedule is read in ``time_zone``, an IANA name ("Asia/Shanghai",
    "America/New_York": daylight-saving changes included, from the system's zoneinfo),
    or else at a fixed ``utc_offset_seconds`` east of UTC. None when it never fires."""
    return _vcsched.cron_next(schedule, whole("after", after), whole("utc_offset_seconds", utc_offset_seconds),
                              time_zone=time_zone)
