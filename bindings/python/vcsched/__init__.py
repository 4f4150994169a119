"""vcsched: Volcano's scheduling decisions, deterministic and fast, from Python.

Build a cluster snapshot (from Kubernetes-shaped dicts, keyword arguments or a scenario
file), run one scheduling session, and read the decisions::

    import vcsched
    b = vcsched.SnapshotBuilder()
    b.add_node("n1", allocatable={"cpu": "32", "memory": "256Gi", "pods": "110"})
    b.add_pod_group("train", namespace="ml", min_member=2)
    for i in range(2):
        b.add_pod(f"train-{i}", namespace="ml", group="train", requests={"cpu": "4"})
    decisions = vcsched.schedule(b.build())
    decisions.binds   # {"ml/train-0": "n1", "ml/train-1": "n1"}

Bad input raises :class:`vcsched.Error` (a ValueError) with a message that names the
document, object and field.
"""
from __future__ import annotations

import dataclasses
import inspect
import json
import os
from typing import Any, BinaryIO, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

Labels = Optional[Mapping[str, str]]
"""Labels, annotations or a node selector: a dict of strings."""

from . import _vcsched
from ._args import INT32_MAX, INT32_MIN, optional_whole, whole
from .results import Explanation, FitAnswer, Hint, JobExplanation, NodeScore, NodeVerdict, QueueView

__version__: str = _vcsched.__version__
"""The vcsched version (CMakeLists.txt's project VERSION, as VCSCHED_VERSION_STRING in C++)."""

__all__ = [
    "Error", "NotFoundError", "TaskRef", "NodeRef", "NodeList", "JobRef", "PathOrText", "Snapshot", "SnapshotBuilder", "Cluster", "SchedulerConfig", "SchedulerMemory", "Scenario",
    "Decisions", "Eviction", "PodGroupStatus", "Usage", "Scheduler", "load_scenario",
    "load_config", "default_config", "schedule", "register_plugin", "unregister_plugin",
    "registered_plugins", "parse_quantity", "builtin_plugins", "builtin_actions", "sharding_args",
    # Explanations (docs/EXPLAIN.md)
    "explain", "queues", "scores", "would_fit", "Explanation", "JobExplanation", "NodeVerdict", "Hint", "QueueView",
    "NodeScore", "FitAnswer",
    # The Job lifecycle (vcsched.lifecycle)
    "AdmissionResult", "validate", "expand", "JobSimulator", "cron_next",
    # Simulation over virtual time (docs/SIMULATE.md)
    "simulate", "sweep", "SimulationResult", "SweepRun",
    # Start-time estimates (docs/ETA.md)
    "eta", "EtaResult", "EtaJob", "EtaWait",
]

Error = _vcsched.Error
"""Raised for bad input (malformed YAML, invalid quantities, unknown plugins, ...)."""
NotFoundError = _vcsched.NotFoundError
"""Raised when a named thing does not exist (a KeyError)."""

SchedulerConfig = _vcsched.SchedulerConfig
SchedulerMemory = _vcsched.SchedulerMemory
"""A Volcano scheduler configuration (actions and tiers of plugins)."""

PathOrText = Union[str, os.PathLike]
"""Where a function takes a file or its text, one rule decides which it is:

- an ``os.PathLike`` (``pathlib.Path``) is always a file;
- a ``str`` containing a newline is YAML or JSON text;
- any other ``str`` is a file path.

A file that does not exist raises ``FileNotFoundError`` naming it."""


def _read(path_or_text: PathOrText) -> Tuple[str, Union[str, bytes]]:
    """(name, content) of a path or of literal text, by the PathOrText rule. Files are
    read as bytes so that the library, not Python, judges their encoding."""
    if isinstance(path_or_text, os.PathLike):
        path = os.fsdecode(os.fspath(path_or_text))
    elif isinstance(path_or_text, str):
        if "\n" in path_or_text:
            return "<text>", path_or_text
        path = path_or_text
    else:
        raise TypeError(f"expected a path or YAML text, got {type(path_or_text).__name__}")
    with open(path, "rb") as f:  # FileNotFoundError / IsADirectoryError name the path
        return path, _read_bounded(f, path)


_MAX_INPUT_BYTES = 256 << 20  # the loader's limit (LoadOptions::max_bytes)


def _read_bounded(f: BinaryIO, path: str) -> bytes:
    """The file's bytes, read in pieces up to the loader's limit: /dev/zero, /dev/urandom
    or an endless pipe is refused at once (a NUL byte is never YAML or JSON text) or at the
    limit, never read into all memory."""
    pieces: List[bytes] = []
    total = 0
    while True:
        piece = f.read(1 << 20)
        if not piece:
            return b"".join(pieces)
        nul = piece.find(b"\0")
        if nul >= 0:
            raise Error(f"{path}: byte {total + nul} is NUL: not YAML or JSON text")
        total += len(piece)
        if total > _MAX_INPUT_BYTES:
            raise Error(f"{path}: input exceeds the limit of {_MAX_INPUT_BYTES} bytes")
        pieces.append(piece)


TaskRef = _vcsched.TaskRef
TaskRef.__doc__ = """A task (pod) as a plugin callback sees it, valid while the callback runs.

Attributes: ``key`` ("namespace/name"), ``name``, ``namespace``, ``labels``,
``annotations`` (dicts), ``priority`` (int), ``job`` (its PodGroup's key), ``request``
(resource name -> int: millicores for cpu, bytes or units otherwise) and ``status``
("Pending", "Running", ...). Reading one after its session ended raises vcsched.Error:
copy what you need during the callback."""

NodeRef = _vcsched.NodeRef
NodeRef.__doc__ = """A node as a plugin callback sees it, at that moment of the session.

Attributes: ``name``, ``labels``, and resource dicts ``allocatable``, ``idle`` and
``used`` (as in TaskRef.request). Valid while the callback runs, like TaskRef."""

NodeList = _vcsched.NodeList
NodeList.__doc__ = """The nodes batch_node_order(task, nodes) scores, in the order its scores must follow.

A sequence of NodeRef (``len(nodes)``, ``nodes[i]``, ``for node in nodes``), and bulk
accessors that avoid one Python object per node: ``names`` (list of str),
``label(key, default=None)`` (each node's value), and ``idle(resource)``,
``used(resource)``, ``allocatable(resource)`` (numpy int64 arrays; 0 for a resource no
node has). Valid while the callback runs, like NodeRef."""

JobRef = _vcsched.JobRef
JobRef.__doc__ = """A job (PodGroup) as job_order / job_order_key see it: ``key``, ``queue``,
``priority``, ``min_member`` and ``annotations``. Valid while the callback runs."""


def _call_factory(factory: Callable[..., Any], args: Dict[str, Any]) -> Any:
    """A plugin factory called by its signature: with the arguments dict when it takes a
    parameter (or *args), without when it takes none. Errors it raises are the plugin's
    and propagate as they are."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # a callable whose signature Python cannot read
        return factory(args)
    takes_one = any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in params)
    return factory(args) if takes_one else factory()


class Snapshot:
    """An immutable cluster: nodes, pods, pod groups, queues, priority classes."""

    def __init__(self, impl: "_vcsched.Snapshot") -> None:
        self._impl = impl

    @property
    def nodes(self) -> List[str]:
        """Node names, in the canonical (name) order."""
        return list(self._impl.node_names)

    @property
    def pods(self) -> List[str]:
        """Pod keys "namespace/name", in the canonical order."""
        return list(self._impl.pod_keys)

    @property
    def pod_groups(self) -> List[str]:
        return list(self._impl.job_keys)

    @property
    def queues(self) -> List[str]:
        return list(self._impl.queue_names)

    @property
    def resources(self) -> List[str]:
        """Resource dimensions: cpu (milli), memory (bytes), pods, then scalars (milli)."""
        return list(self._impl.resource_names)

    @property
    def warnings(self) -> List[str]:
        return list(self._impl.warnings)

    @property
    def hyper_nodes(self) -> List[Dict[str, Any]]:
        """The HyperNode tree: name, tier, parent and nodes of each HyperNode, by name, then
        the virtual root ``<cluster-top-hypernode>`` (docs/FORMAT-hypernode.md)."""
        return list(self._impl.hyper_nodes)

    @property
    def hyper_nodes_ready(self) -> bool:
        """False when a HyperNode has two parents or a cycle: jobs with network topology wait."""
        return bool(self._impl.hyper_nodes_ready)

    def node_allocatable(self) -> Any:
        """A numpy array (nodes x resources) of allocatable amounts in stored units."""
        return self._impl.node_allocatable()

    def __repr__(self) -> str:
        return (f"<vcsched.Snapshot nodes={len(self._impl.node_names)} pods={len(self._impl.pod_keys)} "
                f"pod_groups={len(self._impl.job_keys)} queues={len(self._impl.queue_names)}>")


def _meta(name: str, namespace: Optional[str] = None, labels: Labels = None, annotations: Labels = None) -> Dict[str, Any]:
    meta: Dict[str, Any] = {"name": name}
    if namespace is not None:
        meta["namespace"] = namespace
    if labels:
        meta["labels"] = dict(labels)
    if annotations:
        meta["annotations"] = dict(annotations)
    return meta


def _quantities(values: Optional[Mapping[str, Any]]) -> Dict[str, str]:
    return {str(k): str(v) for k, v in (values or {}).items()}


def _name_or_object(obj: Any, name: str) -> Tuple[Optional[Mapping[str, Any]], str]:
    """add_*("n1", ...) names the object; add_*({...}) passes a whole manifest."""
    if isinstance(obj, str):
        return None, obj
    return obj, name


class SnapshotBuilder:
    """Collects Kubernetes-shaped objects, then :meth:`build` validates and freezes them.

    Every ``add_*`` method takes either a dict in Kubernetes shape (exactly what
    ``yaml.safe_load`` of a manifest gives) or keyword arguments.
    """

    def __init__(self) -> None:
        self._docs: List[Tuple[str, Dict[str, Any]]] = []

    def __repr__(self) -> str:
        return f"<vcsched.SnapshotBuilder objects={len(self._docs)}>"

    def _add(self, kind: str, api: str, obj: Optional[Mapping[str, Any]], built: Dict[str, Any]) -> "SnapshotBuilder":
        if obj is not None and not isinstance(obj, str):
            if not isinstance(obj, Mapping):
                raise TypeError(f"add_{kind.lower()}: expected a dict, got {type(obj).__name__}")
            doc = dict(obj)
            doc.setdefault("apiVersion", api)
            doc.setdefault("kind", kind)
        else:
            doc = {"apiVersion": api, "kind": kind, **built}
        self._docs.append((f"{kind}[{len(self._docs)}]", doc))
        return self

    def add(self, obj: Mapping[str, Any]) -> "SnapshotBuilder":
        """Adds any supported object (its ``kind`` decides), or a ``kind: List``."""
        if not isinstance(obj, Mapping) or "kind" not in obj:
            raise Error("add: expected a Kubernetes object with a kind")
        self._docs.append((f"{obj['kind']}[{len(self._docs)}]", dict(obj)))
        return self

    def add_node(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                 allocatable: Optional[Mapping[str, Any]] = None, labels: Labels = None,
                 taints: Optional[Sequence[Mapping[str, Any]]] = None,
                 unschedulable: bool = False, annotations: Labels = None,
                 capacity: Optional[Mapping[str, Any]] = None) -> "SnapshotBuilder":
        """A node; ``annotations`` may carry its measured load for the usage plugin
        (``vcsched.io/cpu-usage-percent``, ``vcsched.io/memory-usage-percent``,
        ``vcsched.io/usage-time``), ``capacity`` its status.capacity."""
        obj, name = _name_or_object(obj, name)
        spec: Dict[str, Any] = {}
        if taints:
            spec["taints"] = [dict(t) for t in taints]
        if unschedulable:
            spec["unschedulable"] = True
        status: Dict[str, Any] = {"allocatable": _quantities(allocatable)}
        if capacity:
            status["capacity"] = _quantities(capacity)
        return self._add("Node", "v1", obj, {"metadata": _meta(name, labels=labels, annotations=annotations),
                                              "spec": spec, "status": status})

    def add_pod(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *, namespace: str = "default",
                group: Optional[str] = None, requests: Optional[Mapping[str, Any]] = None, node: Optional[str] = None,
                phase: Optional[str] = None, priority: Optional[int] = None, labels: Labels = None,
                annotations: Labels = None, node_selector: Labels = None,
                tolerations: Optional[Sequence[Mapping[str, Any]]] = None, affinity: Optional[Mapping[str, Any]] = None,
                scheduler_name: str = "volcano",
                uid: Optional[str] = None, claims: Optional[Sequence[str]] = None) -> "SnapshotBuilder":
        """A pod; ``claims`` names PersistentVolumeClaims of its namespace it mounts."""
        obj, name = _name_or_object(obj, name)
        annotations = dict(annotations or {})
        if group:
            annotations["scheduling.k8s.io/group-name"] = group
        meta = _meta(name, namespace, labels, annotations)
        if uid:
            meta["uid"] = uid
        spec: Dict[str, Any] = {"schedulerName": scheduler_name,
                                "containers": [{"name": "main", "resources": {"requests": _quantities(requests)}}]}
        if node:
            spec["nodeName"] = node
        if priority is not None:
            spec["priority"] = whole("priority", priority, INT32_MIN, INT32_MAX)
        if node_selector:
            spec["nodeSelector"] = dict(node_selector)
        if tolerations:
            spec["tolerations"] = [dict(t) for t in tolerations]
        if affinity:
            spec["affinity"] = dict(affinity)
        if claims:
            spec["volumes"] = [{"name": f"claim-{i}", "persistentVolumeClaim": {"claimName": c}}
                               for i, c in enumerate(claims)]
        status = {"phase": phase or ("Running" if node else "Pending")}
        return self._add("Pod", "v1", obj, {"metadata": meta, "spec": spec, "status": status})

    def add_pod_group(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                      namespace: str = "default", min_member: int = 1, queue: Optional[str] = None,
                      phase: str = "Inqueue", min_resources: Optional[Mapping[str, Any]] = None,
                      priority_class_name: Optional[str] = None, annotations: Labels = None,
                      network_topology: Optional[Mapping[str, Any]] = None,
                      sub_group_policy: Optional[List[Mapping[str, Any]]] = None) -> "SnapshotBuilder":
        obj, name = _name_or_object(obj, name)
        spec: Dict[str, Any] = {"minMember": whole("min_member", min_member, 0, INT32_MAX)}
        if network_topology is not None:
            spec["networkTopology"] = dict(network_topology)
        if sub_group_policy is not None:
            spec["subGroupPolicy"] = [dict(p) for p in sub_group_policy]
        if queue:
            spec["queue"] = queue
        if min_resources is not None:
            spec["minResources"] = _quantities(min_resources)
        if priority_class_name:
            spec["priorityClassName"] = priority_class_name
        return self._add("PodGroup", "scheduling.volcano.sh/v1beta1", obj,
                         {"metadata": _meta(name, namespace, annotations=annotations), "spec": spec,
                          "status": {"phase": phase}})

    def add_queue(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *, weight: int = 1,
                  capability: Optional[Mapping[str, Any]] = None, guarantee: Optional[Mapping[str, Any]] = None,
                  deserved: Optional[Mapping[str, Any]] = None, reclaimable: bool = True,
                  parent: Optional[str] = None, state: str = "Open", priority: int = 0,
                  annotations: Labels = None) -> "SnapshotBuilder":
        obj, name = _name_or_object(obj, name)
        spec: Dict[str, Any] = {"weight": whole("weight", weight, INT32_MIN, INT32_MAX), "reclaimable": bool(reclaimable),
                                "priority": whole("priority", priority, INT32_MIN, INT32_MAX)}
        if capability:
            spec["capability"] = _quantities(capability)
        if guarantee:
            spec["guarantee"] = {"resource": _quantities(guarantee)}
        if deserved:
            spec["deserved"] = _quantities(deserved)
        if parent:
            spec["parent"] = parent
        return self._add("Queue", "scheduling.volcano.sh/v1beta1", obj,
                         {"metadata": _meta(name, annotations=annotations), "spec": spec, "status": {"state": state}})

    def add_priority_class(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *, value: int = 0,
                           global_default: bool = False) -> "SnapshotBuilder":
        obj, name = _name_or_object(obj, name)
        return self._add("PriorityClass", "scheduling.k8s.io/v1", obj,
                         {"metadata": _meta(name), "value": whole("value", value, INT32_MIN, INT32_MAX),
                          "globalDefault": bool(global_default)})

    def add_storage_class(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                          provisioner: str = "kubernetes.io/no-provisioner",
                          binding_mode: str = "WaitForFirstConsumer",
                          allowed_zones: Optional[Sequence[str]] = None) -> "SnapshotBuilder":
        """A StorageClass; ``allowed_zones`` becomes allowedTopologies on topology.kubernetes.io/zone."""
        obj, name = _name_or_object(obj, name)
        built: Dict[str, Any] = {"metadata": _meta(name), "provisioner": provisioner, "volumeBindingMode": binding_mode}
        if allowed_zones:
            built["allowedTopologies"] = [{"matchLabelExpressions": [
                {"key": "topology.kubernetes.io/zone", "values": list(allowed_zones)}]}]
        return self._add("StorageClass", "storage.k8s.io/v1", obj, built)

    def add_persistent_volume(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                              storage_class: str = "", capacity: str = "10Gi",
                              access_modes: Sequence[str] = ("ReadWriteOnce",), node: Optional[str] = None,
                              zone: Optional[str] = None, claim: Optional[str] = None,
                              csi_driver: Optional[str] = None, phase: Optional[str] = None,
                              labels: Labels = None) -> "SnapshotBuilder":
        """A PersistentVolume: pinned to ``node`` (hostname) and/or ``zone`` by node affinity, bound
        to ``claim`` ("namespace/name") when given; phase Available, or Bound with a claim."""
        obj, name = _name_or_object(obj, name)
        spec: Dict[str, Any] = {"capacity": {"storage": capacity}, "accessModes": list(access_modes),
                                "storageClassName": storage_class}
        exprs = []
        if node:
            exprs.append({"key": "kubernetes.io/hostname", "operator": "In", "values": [node]})
        if zone:
            exprs.append({"key": "topology.kubernetes.io/zone", "operator": "In", "values": [zone]})
        if exprs:
            spec["nodeAffinity"] = {"required": {"nodeSelectorTerms": [{"matchExpressions": exprs}]}}
        if claim:
            ns, _, claim_name = claim.rpartition("/")
            spec["claimRef"] = {"namespace": ns or "default", "name": claim_name}
        if csi_driver:
            spec["csi"] = {"driver": csi_driver, "volumeHandle": name}
        return self._add("PersistentVolume", "v1", obj,
                         {"metadata": _meta(name, labels=labels), "spec": spec,
                          "status": {"phase": phase or ("Bound" if claim else "Available")}})

    def add_persistent_volume_claim(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                                    namespace: str = "default", storage_class: Optional[str] = None,
                                    request: str = "1Gi", access_modes: Sequence[str] = ("ReadWriteOnce",),
                                    volume: Optional[str] = None) -> "SnapshotBuilder":
        """A PersistentVolumeClaim; with ``volume`` it is bound to that PersistentVolume
        (spec.volumeName and pv.kubernetes.io/bind-completed)."""
        obj, name = _name_or_object(obj, name)
        spec: Dict[str, Any] = {"accessModes": list(access_modes), "resources": {"requests": {"storage": request}}}
        if storage_class is not None:
            spec["storageClassName"] = storage_class
        annotations = None
        if volume:
            spec["volumeName"] = volume
            annotations = {"pv.kubernetes.io/bind-completed": "yes"}
        return self._add("PersistentVolumeClaim", "v1", obj,
                         {"metadata": _meta(name, namespace, annotations=annotations), "spec": spec,
                          "status": {"phase": "Bound" if volume else "Pending"}})

    def add_csi_node(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                     drivers: Optional[Mapping[str, Optional[int]]] = None) -> "SnapshotBuilder":
        """A node's CSINode: driver name -> attach limit (None: no limit stated)."""
        obj, name = _name_or_object(obj, name)
        items = []
        for d, limit in (drivers or {}).items():
            item: Dict[str, Any] = {"name": d, "nodeID": name}
            if limit is not None:
                item["allocatable"] = {"count": whole("limit", limit, 0, INT32_MAX)}
            items.append(item)
        return self._add("CSINode", "storage.k8s.io/v1", obj, {"metadata": {"name": name}, "spec": {"drivers": items}})

    def add_resource_quota(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                           namespace: str = "default", hard: Optional[Mapping[str, str]] = None,
                           used: Optional[Mapping[str, str]] = None) -> "SnapshotBuilder":
        """A ResourceQuota as the quota controller leaves it: ``hard`` in spec and status,
        ``used`` in status (what the resourcequota plugin reads; names as the API has them:
        "cpu", "requests.cpu", "count/pods", ...)."""
        obj, name = _name_or_object(obj, name)
        hard_list = {str(k): str(v) for k, v in (hard or {}).items()}
        status: Dict[str, Any] = {"hard": hard_list}
        if used:
            status["used"] = {str(k): str(v) for k, v in used.items()}
        return self._add("ResourceQuota", "v1", obj,
                         {"metadata": _meta(name, namespace), "spec": {"hard": dict(hard_list)}, "status": status})

    def add_pod_disruption_budget(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                                  namespace: str = "default", match_labels: Optional[Mapping[str, str]] = None,
                                  disruptions_allowed: int = 0, min_available: Union[None, int, str] = None,
                                  max_unavailable: Union[None, int, str] = None,
                                  disrupted_pods: Sequence[str] = ()) -> "SnapshotBuilder":
        """A policy/v1 PodDisruptionBudget selecting pods by ``match_labels``, with the status
        the disruption controller would write: ``disruptions_allowed`` (what the pdb plugin
        reads) and the pods it already counts as disrupted."""
        obj, name = _name_or_object(obj, name)
        spec: Dict[str, Any] = {"selector": {"matchLabels": dict(match_labels or {})}}
        if min_available is not None:
            spec["minAvailable"] = min_available
        if max_unavailable is not None:
            spec["maxUnavailable"] = max_unavailable
        status: Dict[str, Any] = {"disruptionsAllowed": whole("disruptions_allowed", disruptions_allowed, 0, INT32_MAX)}
        if disrupted_pods:
            status["disruptedPods"] = {p: "1970-01-01T00:00:00Z" for p in disrupted_pods}
        return self._add("PodDisruptionBudget", "policy/v1", obj,
                         {"metadata": _meta(name, namespace), "spec": spec, "status": status})

    def add_node_shard(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                       nodes_desired: Sequence[str] = (), nodes_in_use: Sequence[str] = ()) -> "SnapshotBuilder":
        """A shard.volcano.sh NodeShard: the nodes a scheduler of that shard name desires, and
        (status) those it has in use, which schedulers of other shards then leave alone."""
        obj, name = _name_or_object(obj, name)
        body: Dict[str, Any] = {"metadata": {"name": name}, "spec": {"nodesDesired": [str(n) for n in nodes_desired]}}
        if nodes_in_use:
            body["status"] = {"nodesInUse": [str(n) for n in nodes_in_use]}
        return self._add("NodeShard", "shard.volcano.sh/v1alpha1", obj, body)

    def add_numatopology(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *,
                         cpus: Optional[Mapping[int, Sequence[int]]] = None, free: Optional[str] = None,
                         cpu_manager_policy: str = "static", topology_manager_policy: str = "best-effort",
                         reserved_cpu: Optional[str] = None) -> "SnapshotBuilder":
        """A nodeinfo.volcano.sh Numatopology for node ``name`` (numa-aware): ``cpus`` maps each
        CPU id to (numa, socket, core); ``free`` is the CPU list still free ("0-3,8"; default:
        every CPU)."""
        obj, name = _name_or_object(obj, name)
        detail = {str(c): {"numa": int(v[0]), "socket": int(v[1]), "core": int(v[2])} for c, v in (cpus or {}).items()}
        if free is None:
            free = ",".join(str(c) for c in sorted(int(c) for c in detail))
        spec: Dict[str, Any] = {"policies": {"CPUManagerPolicy": cpu_manager_policy,
                                             "TopologyManagerPolicy": topology_manager_policy},
                                "numares": {"cpu": {"allocatable": free, "capacity": len(detail)}},
                                "cpuDetail": detail}
        if reserved_cpu is not None:
            spec["resReserved"] = {"cpu": str(reserved_cpu)}
        return self._add("Numatopology", "nodeinfo.volcano.sh/v1alpha1", obj, {"metadata": {"name": name}, "spec": spec})

    def add_hyper_node(self, obj: Union[None, str, Mapping[str, Any]] = None, /, name: str = "", *, tier: int = 1,
                       tier_name: Optional[str] = None, nodes: Optional[List[str]] = None,
                       hyper_nodes: Optional[List[str]] = None, node_regex: Optional[str] = None,
                       node_labels: Optional[Mapping[str, str]] = None) -> "SnapshotBuilder":
        """A HyperNode (network domain): member nodes by name, by regex or by labels, and
        child HyperNodes by name."""
        obj, name = _name_or_object(obj, name)
        members: List[Dict[str, Any]] = []
        members += [{"type": "Node", "selector": {"exactMatch": {"name": n}}} for n in nodes or []]
        members += [{"type": "HyperNode", "selector": {"exactMatch": {"name": h}}} for h in hyper_nodes or []]
        if node_regex is not None:
            members.append({"type": "Node", "selector": {"regexMatch": {"pattern": node_regex}}})
        if node_labels is not None:
            members.append({"type": "Node", "selector": {"labelMatch": {"matchLabels": dict(node_labels)}}})
        spec: Dict[str, Any] = {"tier": whole("tier", tier, INT32_MIN, INT32_MAX), "members": members}
        if tier_name:
            spec["tierName"] = tier_name
        return self._add("HyperNode", "topology.volcano.sh/v1alpha1", obj, {"metadata": {"name": name}, "spec": spec})

    def build(self) -> Snapshot:
        """Validates every object and returns the Snapshot; raises Error on bad input."""
        try:
            sources = [(name, json.dumps(doc)) for name, doc in self._docs]
        except (TypeError, ValueError) as e:
            raise Error(f"SnapshotBuilder: an object is not JSON-serialisable: {e}") from None
        loaded = _vcsched.load_scenario(sources)
        return Snapshot(loaded["snapshot"])


@dataclasses.dataclass(frozen=True)
class Scenario:
    """A loaded scenario file: the snapshot, its configuration and expectation, if any."""
    snapshot: Snapshot
    config: Optional[SchedulerConfig]
    expectation: Any
    warnings: List[str]
    # The Volcano Jobs as the file gave them (opaque), for a Cluster to keep and print.
    _volcano_jobs: Tuple[Any, ...] = dataclasses.field(default=(), repr=False, compare=False)

    def check(self, decisions: "Decisions") -> List[str]:
        """Differences between `decisions` and the scenario's Expectation ([] = agree)."""
        if self.expectation is None:
            raise Error("the scenario has no Expectation document")
        return list(_vcsched.compare(decisions._impl, self.expectation, self.snapshot._impl))


def load_scenario(path_or_text: PathOrText, *, hyper_node_labels: Sequence[str] = (), threads: int = 1) -> Scenario:
    """Loads a scenario file (docs/FORMAT.md) from a path or from YAML text.

    `hyper_node_labels` (node label keys, widest network domain first) adds the HyperNodes
    Volcano's label discoverer would make from the nodes' labels. `threads` > 1 lets the
    loader parse a YAML stream's documents on that many threads (the result is the same)."""
    threads = whole("threads", threads, 1, 1024)
    name, text = _read(path_or_text)
    loaded = _vcsched.load_scenario([(name, text)], list(hyper_node_labels), threads)
    return Scenario(Snapshot(loaded["snapshot"]), loaded["config"], loaded["expectation"], list(loaded["warnings"]),
                    tuple(loaded["volcano_jobs"]))


def load_config(config: Union[PathOrText, Mapping[str, Any]]) -> SchedulerConfig:
    """Loads a Volcano scheduler configuration from a path, YAML text or a dict."""
    if isinstance(config, Mapping):
        return _vcsched.load_config("<dict>", json.dumps(dict(config)))
    name, text = _read(config)
    return _vcsched.load_config(name, text)


def default_config() -> SchedulerConfig:
    """Volcano's built-in default configuration."""
    return _vcsched.default_config()


_PLUGINS: Dict[str, Callable[[Dict[str, Any]], Any]] = {}


def register_plugin(name: str, factory: Callable[..., Any]) -> None:
    """Registers a host plugin usable by `name` in a configuration's tiers.

    `factory` is called with the plugin's ``arguments`` (a dict) and returns an object
    with any of these methods::

        predicate(task, node) -> bool | (bool, reason)
        node_order(task, node) -> float        # added to the node's score
        batch_node_order(task, nodes) -> one float per node, in order (a sequence or a
                                         numpy array); one call scores every node;
                                         `nodes` is a NodeList
        job_order(job_a, job_b) -> int         # <0: a first, >0: b first, 0: no opinion
        job_order_key(job) -> float            # lower first; from the job's own state only
        task_order(task_a, task_b) -> int

    `task` and `node` are TaskRef and NodeRef; `job_a`, `job_b` and `job` are JobRef.
    The factory is called according to its signature: with the arguments dict when it
    takes a parameter, without when it takes none (so a class whose constructor takes
    the dict, or nothing, is a factory).
    """
    if not name or not isinstance(name, str):
        raise Error("register_plugin: the name must be a non-empty string")
    if name in _vcsched.builtin_plugins():
        raise Error(f"register_plugin: \"{name}\" is a built-in plugin")

    if not callable(factory):
        raise TypeError(f"register_plugin: the factory must be callable, got {type(factory).__name__}")
    _PLUGINS[name] = lambda args: _call_factory(factory, args)


def unregister_plugin(name: str) -> None:
    _PLUGINS.pop(name, None)


def registered_plugins() -> List[str]:
    return sorted(_PLUGINS)


@dataclasses.dataclass(frozen=True)
class Eviction:
    pod: str
    action: str
    preemptor: str
    reason: str


@dataclasses.dataclass(frozen=True)
class PodGroupStatus:
    name: str
    old_phase: str
    phase: str
    running: int
    succeeded: int
    failed: int
    conditions: List[Dict[str, str]]


@dataclasses.dataclass(frozen=True)
class Usage:
    """Resource use after the session: rows are nodes or queues, columns resources."""
    names: List[str]
    resources: List[str]
    used: Any          # numpy int64 array
    allocatable: Any   # numpy int64 array (nodes) or None (queues)


class Decisions:
    """What one session decided. Lists are sorted; ``str()`` gives the stable text form."""

    def __init__(self, impl: "_vcsched.Decisions", snapshot: Snapshot, session: Optional[Tuple[Any, int, Any]] = None) -> None:
        self._impl = impl
        self._snapshot = snapshot
        self._session = session  # (config, now, plugins) the session ran with, for explain()
        self._explained: Optional[Dict[str, Any]] = None

    @property
    def snapshot(self) -> Snapshot:
        """The snapshot the session ran on."""
        return self._snapshot

    @property
    def binds(self) -> Dict[str, str]:
        """Pod "namespace/name" -> node for every new bind."""
        return dict(self._impl.binds)

    @property
    def bind_annotations(self) -> Dict[str, Dict[str, str]]:
        """Pod -> the annotations its bind writes on it (deviceshare's ``volcano.sh/gpu-index``):
        only binds that carry some. A host patches them onto the pod, or sends them as the
        Binding's metadata.annotations (``to_manifests()`` does)."""
        return {pod: dict(a) for pod, a in self._impl.bind_annotations.items()}

    @property
    def pipelined(self) -> Dict[str, str]:
        """Pods that wait for resources being released -> the node they wait on."""
        return dict(self._impl.pipelined)

    @property
    def evictions(self) -> List[str]:
        """Pods evicted ("namespace/name")."""
        return [e[0] for e in self._impl.evictions]

    @property
    def eviction_details(self) -> List[Eviction]:
        return [Eviction(*e) for e in self._impl.evictions]

    @property
    def pod_groups(self) -> List[PodGroupStatus]:
        return [PodGroupStatus(g["podGroup"], g["oldPhase"], g["phase"], g["running"], g["succeeded"], g["failed"],
                               list(g["conditions"])) for g in self._impl.pod_groups]

    @property
    def phases(self) -> Dict[str, str]:
        """PodGroup "namespace/name" -> phase after the session."""
        return {g["podGroup"]: g["phase"] for g in self._impl.pod_groups}

    @property
    def reasons(self) -> Dict[str, str]:
        """Pending pod -> why it was not placed."""
        return {t: f"{r}: {m}" for t, r, m in self._impl.task_reasons}

    @property
    def volume_bindings(self) -> Dict[str, Dict[str, str]]:
        """Claim "namespace/name" -> {"task", "volume", "node"}: the claims a bound pod's bind must
        bind first (to `volume`; an empty volume means: provisioned for `node`)."""
        return {v["claim"]: {"task": v["task"], "volume": v["volume"], "node": v["node"]}
                for v in self._impl.volume_bindings}

    @property
    def warnings(self) -> List[str]:
        return list(self._impl.warnings)

    def to_dict(self) -> Dict[str, Any]:
        """The decisions as plain data (what ``vcsched schedule -o json`` prints)."""
        return dict(json.loads(self._impl.to_json()))

    def to_manifests(self) -> List[Dict[str, Any]]:
        """v1 Binding and policy/v1 Eviction objects, as dicts."""
        out: List[Dict[str, Any]] = []
        annotations = self.bind_annotations
        for pod, node in self.binds.items():
            ns, name = pod.split("/", 1)
            meta: Dict[str, Any] = {"name": name, "namespace": ns}
            if pod in annotations:
                meta["annotations"] = annotations[pod]
            out.append({"apiVersion": "v1", "kind": "Binding", "metadata": meta,
                        "target": {"apiVersion": "v1", "kind": "Node", "name": node}})
        for pod in self.evictions:
            ns, name = pod.split("/", 1)
            out.append({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": name, "namespace": ns}})
        return out

    def _placements(self) -> Dict[str, str]:
        snap = self._snapshot._impl
        placed = {k: n for k, n in zip(snap.pod_keys, snap.pod_nodes()) if n}
        placed.update(self.binds)
        placed.update(self.pipelined)
        return placed

    def node_usage(self) -> Usage:
        """Per node (rows, name order) the requests of pods placed on it after the
        session (running before, bound or pipelined now; evicted pods still count while
        they terminate), against allocatable."""
        import numpy as np
        snap = self._snapshot._impl
        req = snap.pod_requests()
        index = {n: i for i, n in enumerate(snap.node_names)}
        used = np.zeros((len(index), len(snap.resource_names)), dtype=np.int64)
        pod_index = {k: i for i, k in enumerate(snap.pod_keys)}
        for pod, node in self._placements().items():
            used[index[node]] += req[pod_index[pod]]
        return Usage(list(snap.node_names), list(snap.resource_names), used, snap.node_allocatable())

    def queue_usage(self) -> Usage:
        """Per queue (rows, name order) the requests of its pods placed after the session."""
        import numpy as np
        snap = self._snapshot._impl
        req = snap.pod_requests()
        queues = list(snap.queue_names)
        index = {q: i for i, q in enumerate(queues)}
        used = np.zeros((len(queues), len(snap.resource_names)), dtype=np.int64)
        pod_index = {k: i for i, k in enumerate(snap.pod_keys)}
        pod_queue = snap.pod_queues()
        for pod in self._placements():
            q = pod_queue[pod_index[pod]]
            if q:
                used[index[q]] += req[pod_index[pod]]
        return Usage(queues, list(snap.resource_names), used, None)

    def explain(self, job: Optional[str] = None) -> List[JobExplanation]:
        """Why each job waits after this session (docs/EXPLAIN.md), one typed record per
        job (``to_dict()`` gives ``vcsched explain -o json``'s entry).

        The session is run again with its records kept (the same inputs give the same
        decisions), once per Decisions; `job` selects one PodGroup or Volcano Job.
        """
        if self._session is None:
            raise Error("explain(): these Decisions did not come from schedule()")
        config, now, plugins = self._session
        if job is None:
            if self._explained is None:
                self._explained = json.loads(_vcsched.explain_json(self._snapshot._impl, config, now, plugins, "", 32))
            return [JobExplanation.from_dict(j) for j in self._explained["jobs"]]
        one = json.loads(_vcsched.explain_json(self._snapshot._impl, config, now, plugins, job, 32))
        return [JobExplanation.from_dict(j) for j in one["jobs"]]

    def __str__(self) -> str:
        return self._impl.to_text()

    def __repr__(self) -> str:
        return (f"<vcsched.Decisions binds={len(self._impl.binds)} pipelined={len(self._impl.pipelined)} "
                f"evictions={len(self._impl.evictions)}>")


def _as_config(config: Union[None, SchedulerConfig, PathOrText, Mapping[str, Any]]) -> SchedulerConfig:
    if config is None:
        return _vcsched.default_config()
    if isinstance(config, SchedulerConfig):
        return config
    return load_config(config)


def sharding_args(sharding_mode: Optional[str] = None, sharding_name: Optional[str] = None) -> List[str]:
    """vc-scheduler's sharding flags as its command line holds them: ``sharding_mode``
    "none", "hard" (only the nodes of the scheduler's NodeShard) or "soft" (those first),
    ``sharding_name`` the NodeShard's name (default "volcano")."""
    args: List[str] = []
    if sharding_mode is not None:
        if sharding_mode not in ("none", "hard", "soft"):
            raise Error(f"sharding_mode: expected \"none\", \"hard\" or \"soft\", got {sharding_mode!r}")
        args.append(f"--scheduler-sharding-mode={sharding_mode}")
    if sharding_name is not None:
        if not isinstance(sharding_name, str):
            raise TypeError(f"sharding_name: expected a string, got {type(sharding_name).__name__}")
        args.append(f"--scheduler-sharding-name={sharding_name}")
    return args


def schedule(snapshot: Union[Snapshot, Scenario], config: Union[None, SchedulerConfig, PathOrText, Mapping[str, Any]] = None,
             *, now: int = 0, plugins: Optional[Mapping[str, Callable[..., Any]]] = None,
             sharding_mode: Optional[str] = None, sharding_name: Optional[str] = None,
             memory: Optional[SchedulerMemory] = None) -> Decisions:
    """Runs one scheduling session and returns its Decisions.

    `config` None means Volcano's default configuration (for a Scenario: its own, else
    the default). `now` is the session clock in seconds (0: the newest creation time).
    `plugins` adds host plugins for this call on top of :func:`register_plugin`'s.
    `sharding_mode` and `sharding_name` are vc-scheduler's sharding flags beside the
    configuration (:func:`sharding_args`). `memory`: a :class:`SchedulerMemory` that one
    scheduler's sessions share (periodic plugin work: rescheduling's interval, tdm's evict
    period); None: the session is the first of a scheduler started at its clock. The GIL
    is released while the C++ session runs.
    """
    now = whole("now", now)
    if memory is not None and not isinstance(memory, SchedulerMemory):
        raise TypeError(f"schedule: memory must be a vcsched.SchedulerMemory, got {type(memory).__name__}")
    snap, cfg, all_plugins = _session_args(snapshot, config, plugins, "schedule", sharding_args(sharding_mode, sharding_name))
    impl = _vcsched.schedule(snap._impl, cfg, now, all_plugins, memory)
    return Decisions(impl, snap, (cfg, now, all_plugins))


def _session_args(snapshot: Union[Snapshot, Scenario], config: Any, plugins: Optional[Mapping[str, Callable[..., Any]]],
                  caller: str = "schedule", flags: Sequence[str] = ()) -> Tuple[Snapshot, SchedulerConfig, Dict[str, Callable[..., Any]]]:
    """The snapshot, configuration and host plugins a session runs with."""
    if isinstance(snapshot, Scenario):
        if config is None and snapshot.config is not None:
            config = snapshot.config
        snapshot = snapshot.snapshot
    if not isinstance(snapshot, Snapshot):
        raise TypeError(f"{caller}: expected a Snapshot, got {type(snapshot).__name__}")
    all_plugins = dict(_PLUGINS)
    for name, factory in (plugins or {}).items():
        all_plugins[name] = (lambda f: (lambda args: _call_factory(f, args)))(factory)
    cfg = _as_config(config)
    return snapshot, cfg.with_scheduler_args(list(flags)) if flags else cfg, all_plugins


ConfigArg = Union[None, SchedulerConfig, PathOrText, Mapping[str, Any]]


def _job_then_config(job: Any, config: Any, caller: str) -> Tuple[Optional[str], Any]:
    """explain's second argument is the job, as scores' is the pod; a configuration
    given there (the order before 0.3) is taken as the configuration."""
    if job is not None and (not isinstance(job, str) or "\n" in job):  # a config object, dict or YAML text
        if config is not None:
            raise TypeError(f"{caller}: job must be a \"namespace/name\" string, got {type(job).__name__}")
        return None, job
    return job, config


def explain(snapshot: Union[Snapshot, Scenario], job: Optional[str] = None, config: ConfigArg = None, *,
            now: int = 0, max_reruns: int = 32,
            plugins: Optional[Mapping[str, Callable[..., Any]]] = None,
            sharding_mode: Optional[str] = None, sharding_name: Optional[str] = None) -> Explanation:
    """One session explained (docs/EXPLAIN.md): an :class:`Explanation` whose jobs are
    typed records (``reason``, ``check`` with numbers, ``node_verdicts``, ``hints``) and
    whose ``to_dict()`` is exactly ``vcsched explain -o json``. `job` narrows to one
    PodGroup or Volcano Job. `max_reruns` bounds the hint search: sessions re-run for the
    whole call, spent on the waiting jobs in order."""
    job, config = _job_then_config(job, config, "explain")
    snap, cfg, all_plugins = _session_args(snapshot, config, plugins, "explain", sharding_args(sharding_mode, sharding_name))
    return Explanation.from_dict(json.loads(_vcsched.explain_json(snap._impl, cfg, whole("now", now), all_plugins,
                                                                  job or "", whole("max_reruns", max_reruns, 0, INT32_MAX))))


def queues(snapshot: Union[Snapshot, Scenario], config: ConfigArg = None, *, now: int = 0,
           plugins: Optional[Mapping[str, Callable[..., Any]]] = None,
           sharding_mode: Optional[str] = None, sharding_name: Optional[str] = None) -> List[QueueView]:
    """Each queue after one session, as typed records (name, state, weight, parent,
    deserved, allocated, capability, guarantee, inqueue with numbers, share)."""
    snap, cfg, all_plugins = _session_args(snapshot, config, plugins, "queues", sharding_args(sharding_mode, sharding_name))
    return [QueueView.from_dict(q)
            for q in json.loads(_vcsched.queues_json(snap._impl, cfg, whole("now", now), all_plugins))["queues"]]


def scores(snapshot: Union[Snapshot, Scenario], task: str, config: ConfigArg = None, *, now: int = 0,
           plugins: Optional[Mapping[str, Callable[..., Any]]] = None,
           sharding_mode: Optional[str] = None, sharding_name: Optional[str] = None) -> List[NodeScore]:
    """Each feasible node's score for pod `task` ("namespace/name") as the session opens,
    highest total first, ties by name."""
    snap, cfg, all_plugins = _session_args(snapshot, config, plugins, "scores", sharding_args(sharding_mode, sharding_name))
    return [NodeScore.from_dict(n)
            for n in json.loads(_vcsched.scores_json(snap._impl, cfg, whole("now", now), all_plugins, task))["nodes"]]


def would_fit(snapshot: Union[Snapshot, Scenario], job: str, config: ConfigArg = None, *, now: int = 0,
              plugins: Optional[Mapping[str, Callable[..., Any]]] = None,
              sharding_mode: Optional[str] = None, sharding_name: Optional[str] = None) -> FitAnswer:
    """Would `job` (a PodGroup's or Volcano Job's "namespace/name") fit now, and where,
    from one session. True in a boolean context when it fits."""
    snap, cfg, all_plugins = _session_args(snapshot, config, plugins, "would_fit", sharding_args(sharding_mode, sharding_name))
    return FitAnswer.from_dict(_vcsched.would_fit(snap._impl, cfg, whole("now", now), all_plugins, job))


class Scheduler:
    """A configuration and host plugins, reused across sessions."""

    def __init__(self, config: Union[None, SchedulerConfig, PathOrText, Mapping[str, Any]] = None, *,
                 plugins: Optional[Mapping[str, Callable[..., Any]]] = None, now: int = 0) -> None:
        self.config = _as_config(config)
        self.plugins = dict(plugins or {})
        self.now = now
        self.memory = SchedulerMemory()  # carried from one schedule() to the next

    def schedule(self, snapshot: Union[Snapshot, Scenario]) -> Decisions:
        if isinstance(snapshot, Scenario):
            snapshot = snapshot.snapshot
        return schedule(snapshot, self.config, now=self.now, plugins=self.plugins, memory=self.memory)

    def __repr__(self) -> str:
        return f"<vcsched.Scheduler actions={list(self.config.actions)}>"


class Cluster:
    """A living cluster: objects changed by watch events, sessions run on its snapshot,
    their decisions applied back (binds set the pod's node, evictions mark pods
    deleting, pipelined tasks get their nominated node, PodGroup statuses (phase,
    counts, conditions) are written as Volcano's job updater writes them).

    ``Cluster(scenario)`` starts from a loaded Scenario (its configuration is the default
    for :meth:`schedule`), ``Cluster(snapshot)`` from a Snapshot; ``Cluster()`` starts empty.
    """

    def __init__(self, scenario: Union[None, Scenario, Snapshot] = None) -> None:
        if scenario is None:
            self._impl = _vcsched.Cluster()
            self._config: Optional[SchedulerConfig] = None
        elif isinstance(scenario, Scenario):
            self._impl = _vcsched.Cluster.from_snapshot(scenario.snapshot._impl)
            for job in scenario._volcano_jobs:
                self._impl.put_volcano_job(job)
            self._config = scenario.config
        elif isinstance(scenario, Snapshot):
            self._impl = _vcsched.Cluster.from_snapshot(scenario._impl)
            self._config = None
        else:
            raise TypeError(f"Cluster: expected a Scenario, a Snapshot or None, got {type(scenario).__name__}")
        self.last_apply: Optional[Dict[str, Any]] = None
        """The report of the last :meth:`schedule`'s apply (conflicts included); None before the first."""
        self.memory = SchedulerMemory()
        """What the cluster's scheduler carries between :meth:`schedule` calls (a SchedulerMemory)."""

    def apply(self, event: Mapping[str, Any]) -> List[str]:
        """Applies one watch event {"type": ADDED|MODIFIED|DELETED|BOOKMARK|ERROR, "object": {...}}.

        A refused event raises vcsched.Error naming the object and field, and changes
        nothing. Returns notes: a DELETED for an object that does not exist, an ERROR
        event, objects of kinds a cluster does not hold.
        """
        if not isinstance(event, Mapping):
            raise TypeError(f"apply: expected a dict, got {type(event).__name__}")
        return list(self._impl.apply_events([event], "<event>"))

    def apply_all(self, events: Iterable[Mapping[str, Any]]) -> List[str]:
        """Applies events in order; the first refused one raises vcsched.Error naming it
        (its position in `events`), and the events before it stay applied."""
        return list(self._impl.apply_events(events, "<events>"))

    def snapshot(self) -> Snapshot:
        """The current state as an immutable Snapshot (shared while nothing changes)."""
        return Snapshot(self._impl.snapshot())

    def schedule(self, config: Union[None, SchedulerConfig, PathOrText, Mapping[str, Any]] = None, now: Optional[int] = None,
                 plugins: Optional[Mapping[str, Callable[..., Any]]] = None, *,
                 sharding_mode: Optional[str] = None, sharding_name: Optional[str] = None) -> Decisions:
        """Runs a session on the current state, applies its decisions, returns them.

        `config`: the given one, else the scenario's, else Volcano's default. The report
        of the apply (conflicts included) is in :attr:`last_apply`.
        """
        snap = self.snapshot()
        now = optional_whole("now", now) or 0
        decisions = schedule(snap, config if config is not None else self._config, now=now, plugins=plugins,
                             sharding_mode=sharding_mode, sharding_name=sharding_name, memory=self.memory)
        self.last_apply = dict(self._impl.apply_decisions(decisions._impl, now))
        return decisions

    def eta(self, config: Any = None, now: Any = None, default_runtime: Any = None, horizon: Any = None, *,
            workload: Any = None, samples: int = 1, seed: int = 0, threads: int = 0, client: Any = None) -> EtaResult:
        """When each pending job will start (docs/ETA.md): the state's pods run for their
        expected runtimes (vcsched.io/expected-runtime, activeDeadlineSeconds, else
        `default_runtime`) while the scheduler runs forward in virtual time. The cluster is
        not changed. See :func:`vcsched.eta` for the arguments."""
        from .eta import _estimate
        from .simulation import _config
        chosen = _config(config) if config is not None else self._config
        if chosen is None:
            chosen = default_config()
        return _estimate(self._impl, chosen, now, default_runtime, horizon, workload, samples, seed, threads, client)

    def to_yaml(self) -> str:
        """The whole state as scenario text: every object, and the configuration (the
        scenario's, else Volcano's default). :func:`load_scenario` reads it back to the
        same state."""
        return str(self._impl.to_yaml(self._config if self._config is not None else _vcsched.default_config()))

    @property
    def generation(self) -> int:
        """How many changes the cluster has taken (objects put or deleted, decisions applied)."""
        return int(self._impl.generation)

    @property
    def counts(self) -> Dict[str, int]:
        """How many objects of each kind the state holds (nodes, pods, pod_groups, queues,
        priority_classes, namespaces, volcano_jobs, persistent_volume_claims,
        persistent_volumes, storage_classes, csi_nodes, resource_quotas,
        pod_disruption_budgets, node_shards, numatopologies)."""
        return {k: int(v) for k, v in self._impl.counts.items()}

    @property
    def snapshot_counts(self) -> Dict[str, int]:
        """How the snapshots were made: {"built": from the objects, "patched": from the
        last one, when only pods and PodGroups changed since}."""
        return {k: int(v) for k, v in self._impl.snapshot_counts.items()}

    def __repr__(self) -> str:
        counts = self._impl.counts
        return f"<vcsched.Cluster nodes={counts['nodes']} pods={counts['pods']} pod_groups={counts['pod_groups']}>"


def parse_quantity(text: str, *, milli: bool = False) -> int:
    """A Kubernetes quantity as an int: whole units, or thousandths with milli=True."""
    return _vcsched.parse_quantity(text, milli)


def builtin_plugins() -> List[str]:
    return list(_vcsched.builtin_plugins())


def builtin_actions() -> List[str]:
    return list(_vcsched.builtin_actions())


from .lifecycle import AdmissionResult, JobSimulator, cron_next, expand, validate  # noqa: E402
from .simulation import SimulationResult, SweepRun, simulate, sweep  # noqa: E402
from .eta import EtaJob, EtaResult, EtaWait, eta  # noqa: E402
