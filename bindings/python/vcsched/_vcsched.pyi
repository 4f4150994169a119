# Type stubs for the C++ extension; the public API is the vcsched package.
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

class Error(ValueError): ...
class NotFoundError(KeyError): ...

class SchedulerConfig:
    @property
    def actions(self) -> List[str]: ...
    @property
    def plugins(self) -> List[List[str]]: ...
    def to_yaml(self) -> str: ...

class Snapshot:
    resource_names: List[str]
    node_names: List[str]
    queue_names: List[str]
    pod_keys: List[str]
    job_keys: List[str]
    warnings: List[str]
    def node_allocatable(self) -> Any: ...
    def pod_requests(self) -> Any: ...
    def pod_nodes(self) -> List[str]: ...
    def pod_queues(self) -> List[str]: ...

class TaskRef:
    key: str
    name: str
    namespace: str
    labels: Dict[str, str]
    annotations: Dict[str, str]
    priority: int
    job: str
    request: Dict[str, int]
    status: str

class NodeRef:
    name: str
    labels: Dict[str, str]
    allocatable: Dict[str, int]
    idle: Dict[str, int]
    used: Dict[str, int]

class JobRef:
    key: str
    queue: str
    priority: int
    min_member: int
    annotations: Dict[str, str]

class Decisions:
    binds: List[Tuple[str, str]]
    pipelined: List[Tuple[str, str]]
    evictions: List[Tuple[str, str, str, str]]
    pod_groups: List[Dict[str, Any]]
    task_reasons: List[Tuple[str, str, str]]
    warnings: List[str]
    def to_text(self) -> str: ...
    def to_json(self) -> str: ...
    def to_manifests(self) -> str: ...

class Expectation: ...

def load_scenario(sources: Sequence[Tuple[str, str]]) -> Dict[str, Any]: ...
def load_config(name: str, text: str) -> SchedulerConfig: ...
def default_config() -> SchedulerConfig: ...
def compare(decisions: Decisions, expectation: Expectation) -> List[str]: ...
def schedule(snapshot: Snapshot, config: SchedulerConfig, now: int = ...,
             plugins: Mapping[str, Callable[[Dict[str, Any]], Any]] = ...) -> Decisions: ...
def parse_quantity(text: str, milli: bool = ...) -> int: ...
def builtin_plugins() -> List[str]: ...
def builtin_actions() -> List[str]: ...
