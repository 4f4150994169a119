"""Typed results of explain, queues, scores and would_fit (docs/EXPLAIN.md).

Numbers are numbers: a check's ``"3"`` is ``3``, ``"500m"`` of cpu is ``0.5``, ``"4Gi"`` of
memory is ``4294967296``; texts that are not quantities stay texts. Every record keeps
the JSON it was made from (``to_dict()``), exactly as ``vcsched explain -o json`` prints it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Union

Number = Union[int, float]

_PLAIN_INT = re.compile(r"^-?[0-9]+$")
_QUANTITY = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$")
_SUFFIX = {"": 1, "Ki": 2 ** 10, "Mi": 2 ** 20, "Gi": 2 ** 30, "Ti": 2 ** 40, "Pi": 2 ** 50, "Ei": 2 ** 60,
           "n": 1e-9, "u": 1e-6, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}


def number(text: str) -> Union[Number, str]:
    """A Kubernetes quantity or plain number as an int (when whole) or float; any
    other text as it is."""
    if _PLAIN_INT.match(text):
        return int(text)
    m = _QUANTITY.match(text)
    if not m:
        return text
    suffix = m.group(3) or ""
    mantissa = text[: len(text) - len(suffix)] if suffix and not suffix[0] in "eE" else text
    try:
        value = float(mantissa) * (_SUFFIX[suffix] if suffix in _SUFFIX else 1)
    except ValueError:
        return text
    return int(value) if value.is_integer() and abs(value) < 2 ** 63 else value


def _numbers(pairs: Mapping[str, str]) -> Dict[str, Union[Number, str]]:
    return {k: number(v) for k, v in pairs.items()}


_INSUFFICIENT = re.compile(r"^Insufficient (\S+) \(requests (\S+); on these nodes at most (\S+) free, (\S+) allocatable\)$")
_TAINT = re.compile(r"^node\(s\) had untolerated taint \{(.*?): (.*?)\} \((\w+)\)$")


@dataclass(frozen=True)
class NodeVerdict:
    """Why some nodes refused the pod: the cause as Kubernetes words it, how many
    nodes, and the cause as data (kind, and for resources and taints their parts)."""
    cause: str
    nodes: int
    kind: str  # "insufficient", "taint", or "other"
    resource: Optional[str] = None
    requested: Optional[Number] = None
    most_free: Optional[Number] = None
    most_allocatable: Optional[Number] = None
    taint: Optional[Dict[str, str]] = None  # {"key", "value", "effect"}

    @staticmethod
    def parse(cause: str, nodes: int) -> "NodeVerdict":
        m = _INSUFFICIENT.match(cause)
        if m:
            req, free, alloc = (number(x) for x in m.group(2, 3, 4))
            return NodeVerdict(cause, nodes, "insufficient", m.group(1), req if not isinstance(req, str) else None,
                               free if not isinstance(free, str) else None, alloc if not isinstance(alloc, str) else None)
        m = _TAINT.match(cause)
        if m:
            return NodeVerdict(cause, nodes, "taint", taint={"key": m.group(1), "value": m.group(2), "effect": m.group(3)})
        return NodeVerdict(cause, nodes, "other")


@dataclass(frozen=True)
class Hint:
    kind: str
    change: str
    target: str
    amount: int


@dataclass(frozen=True)
class JobExplanation:
    """Why one job waits (or that it does not): explain's record of it."""
    job: str
    volcano_job: str
    queue: str
    stage: str
    reason: str
    causes: List[str]
    message: str
    min_member: int
    pods: int
    placed: int
    pipelined: int
    fit: int
    check: Dict[str, Union[Number, str]]
    nodes_pod: str
    node_verdicts: List[NodeVerdict]
    # With one job asked: each refusing node's verdicts, keyed by node (nodes=1 each).
    by_node: Dict[str, List[NodeVerdict]]
    hints: List[Hint]
    raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "JobExplanation":
        return JobExplanation(
            job=d["job"], volcano_job=d.get("volcanoJob", ""), queue=d["queue"], stage=d["stage"], reason=d["reason"],
            causes=list(d["causes"]), message=d["message"], min_member=d["minMember"], pods=d["pods"],
            placed=d["placed"], pipelined=d["pipelined"], fit=d["fit"], check=_numbers(d["check"]),
            nodes_pod=d["nodesPod"], node_verdicts=[NodeVerdict.parse(c, n) for c, n in d["nodes"].items()],
            by_node={node: [NodeVerdict.parse(c, 1) for c in causes] for node, causes in d.get("nodeVerdicts", {}).items()},
            hints=[Hint(h["kind"], h["change"], h["target"], h["amount"]) for h in d["hints"]], raw=dict(d))

    def to_dict(self) -> Dict[str, Any]:
        """As ``vcsched explain -o json`` prints it."""
        return dict(self.raw)

    def __repr__(self) -> str:
        name = self.volcano_job or self.job
        return f"<JobExplanation {name} {self.reason}{' at ' + self.stage if self.stage else ''}: {self.message}>"


@dataclass(frozen=True)
class QueueView:
    """A queue as its fair-share plugin computes it after the session."""
    name: str
    state: str
    weight: int
    parent: str
    plugin: str
    deserved: Dict[str, Union[Number, str]]
    allocated: Dict[str, Union[Number, str]]
    capability: Dict[str, Union[Number, str]]
    guarantee: Dict[str, Union[Number, str]]
    inqueue: Dict[str, Union[Number, str]]
    share: float
    raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "QueueView":
        return QueueView(d["name"], d["state"], d["weight"], d["parent"], d["plugin"], _numbers(d["deserved"]),
                         _numbers(d["allocated"]), _numbers(d["capability"]), _numbers(d["guarantee"]),
                         _numbers(d["inqueue"]), float(d["share"]), dict(d))

    def to_dict(self) -> Dict[str, Any]:
        return dict(self.raw)

    def __repr__(self) -> str:
        return f"<QueueView {self.name} weight={self.weight} share={self.share:g} allocated={self.allocated}>"


@dataclass(frozen=True)
class Explanation:
    """One session explained: its jobs, its queues, and the pods left to other schedulers."""
    jobs: List[JobExplanation]
    queues: List[QueueView]
    pods_of_other_schedulers: int
    raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "Explanation":
        return Explanation([JobExplanation.from_dict(j) for j in d["jobs"]], [QueueView.from_dict(q) for q in d["queues"]],
                           int(d.get("podsOfOtherSchedulers", 0)), dict(d))

    def job(self, name: str) -> JobExplanation:
        """The job of that PodGroup or Volcano Job name (KeyError when absent)."""
        for j in self.jobs:
            if name in (j.job, j.volcano_job):
                return j
        raise KeyError(name)

    def to_dict(self) -> Dict[str, Any]:
        """As ``vcsched explain -o json`` prints it."""
        return dict(self.raw)

    def __repr__(self) -> str:
        waiting = sum(1 for j in self.jobs if j.reason != "Scheduled")
        return f"<Explanation jobs={len(self.jobs)} waiting={waiting} queues={len(self.queues)}>"


@dataclass(frozen=True)
class NodeScore:
    node: str
    plugins: Dict[str, float]
    total: float

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "NodeScore":
        return NodeScore(d["node"], {k: float(v) for k, v in d["plugins"].items()}, float(d["total"]))

    def __repr__(self) -> str:
        return f"<NodeScore {self.node} total={self.total:g}>"


@dataclass(frozen=True)
class FitAnswer:
    """Would the job fit now, and where."""
    job: str
    fits: bool
    placements: Dict[str, str]
    reason: str
    message: str

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "FitAnswer":
        return FitAnswer(d["job"], bool(d["fits"]), dict(d["placements"]), d["reason"], d["message"])

    def __bool__(self) -> bool:
        return self.fits

    def __repr__(self) -> str:
        return f"<FitAnswer {self.job} fits={self.fits} {self.reason}>"
