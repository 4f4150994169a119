// An immutable cluster snapshot with dense indices in a canonical order.
//
// Build, freeze, use: add objects to a SnapshotBuilder in any order, then Build()
// validates everything and returns a Snapshot whose nodes and queues are sorted by name
// and whose jobs and tasks are sorted by "namespace/name". Decisions iterate these index
// ranges, so document order never changes a decision.
//
//   SnapshotBuilder b;
//   b.AddNode(node); b.AddPod(pod); b.AddPodGroup(pg); b.AddQueue(q);
//   absl::StatusOr<Snapshot> snap = std::move(b).Build();
//
// Snapshot is cheap to copy (shared, immutable state) and thread-compatible.
#ifndef VCSCHED_SNAPSHOT_H_
#define VCSCHED_SNAPSHOT_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "vcsched/objects.h"
#include "vcsched/resource.h"
#include "vcsched/policy.h"
#include "vcsched/storage.h"

namespace vcsched {

using NodeIndex = int32_t;
using TaskIndex = int32_t;
using JobIndex = int32_t;
using QueueIndex = int32_t;
using HyperNodeIndex = int32_t;
inline constexpr int32_t kNone = -1;

// Task status, as Volcano derives it from a pod (and the in-session ones).
enum class TaskStatus : uint8_t {
  kPending,
  kAllocated,
  kPipelined,
  kBinding,
  kBound,
  kRunning,
  kReleasing,
  kSucceeded,
  kFailed,
  kUnknown,
};
inline constexpr int kTaskStatusCount = 10;
const char* TaskStatusName(TaskStatus s);
// Bound, Binding, Running, Allocated.
inline bool IsAllocatedStatus(TaskStatus s) {
  return s == TaskStatus::kBound || s == TaskStatus::kBinding || s == TaskStatus::kRunning ||
         s == TaskStatus::kAllocated;
}

// What a task's pod says about its placement, as bits (Session::task_flags), worked out
// once per snapshot so that hot paths do not read the pod spec.
enum TaskFlag : uint8_t {
  kTaskGated = 1,        // spec.schedulingGates is non-empty
  kTaskBestEffort = 2,   // requests nothing
  kTaskHasRole = 4,      // volcano.sh/task-spec is set
  // No nominated node, node affinity, pod (anti-)affinity or spread terms: built-in
  // checks and scores see only the task's shape (allocate may reuse a node choice).
  kTaskShapeOnly = 8,
  // The pod spec's placement fields, so that node checks and scores read the (large)
  // spec only when it has something to say.
  kTaskPlacementTerms = 16,    // node affinity terms, pod (anti-)affinity or spread constraints
  kTaskPodAffinityTerms = 32,  // pod affinity or anti-affinity terms
  kTaskNodeSelection = 64,     // a node selector or required node affinity
  // Placement terms, all of them pod (anti-)affinity or spread constraints (no node
  // affinity terms, no nominated node): the task's node-local checks and scores see
  // only its shape, which it shares with tasks of the same requests and constraints.
  kTaskPodTermsOnly = 128,
};

struct NodeInfo {
  NodeIndex index = kNone;
  NodeSpec spec;
  Resource allocatable;
};

struct QueueInfo {
  QueueIndex index = kNone;
  QueueSpec spec;
  QueueIndex parent = kNone;  // from spec.parent, or root for top-level queues
  Resource capability;        // kUnlimited where spec.capability names no amount
  Resource guarantee;
  Resource deserved;
  bool deserved_set = false;
  bool synthesized = false;  // created because it was missing (root, default)
};

struct TaskInfo {
  // The fields sessions read most come first (a session walks many records; the pod
  // spec, read rarely, is last).
  TaskIndex index = kNone;
  JobIndex job = kNone;  // kNone: not scheduled by this scheduler
  TaskStatus status = TaskStatus::kPending;
  NodeIndex node = kNone;
  int32_t priority = 1;
  bool best_effort = false;
  bool preemptable = true;
  // Tasks with the same shape have the same requests and the same node constraints
  // (selector, tolerations) and no node affinity terms, so built-in predicates and
  // scores answer alike for them on every node, apart from what depends on other pods'
  // placement (pod affinity and spread, asked per task). A task with node affinity terms
  // has a shape of its own.
  int32_t shape = 0;
  std::string key;       // "namespace/name"
  Resource resreq;            // request used for accounting and fit (pods: 1 included)
  int64_t nonzero_cpu = 0;    // kube-scheduler's non-zero request (100m default)
  int64_t nonzero_memory = 0; // and 200Mi default
  std::string role;          // volcano.sh/task-spec
  int64_t pod_index = -1;    // the number after the last '-', when the name has 3+ parts
  std::string uid;       // pod uid, or "namespace-name" when unset
  int32_t sub_job = kNone;  // index into its job's sub_jobs
  // The pod's spec (never null), shared: the specs stay where the builder received
  // them, so building a snapshot does not copy or move them.
  std::shared_ptr<const PodSpec> pod;
};

// A network domain of the HyperNode tree (docs/FORMAT-hypernode.md rules 1-6).
struct HyperNodeInfo {
  HyperNodeIndex index = kNone;
  std::string name;
  int32_t tier = 0;
  std::string tier_name;
  HyperNodeIndex parent = kNone;         // kNone only for the virtual root
  std::vector<HyperNodeIndex> children;  // ascending
  std::vector<NodeIndex> nodes;          // every node it holds, ascending
  HyperNodeSpec spec;                    // as given (the virtual root's: name and tier)
};
// The name of the virtual HyperNode above all others (rule 5).
inline constexpr absl::string_view kClusterTopHyperNode = "<cluster-top-hypernode>";

// A sub-group of a job (rule 7): the pods of one subGroupPolicy with the same
// matchLabelKeys values, or the job's default sub-group.
struct SubJobInfo {
  int32_t policy = kNone;  // index into the PodGroup's sub_group_policy; kNone: the default sub-group
  std::string id;          // Volcano's SubJobID: "<job key>/<policy>-<values>", or the job key
  int32_t min_available = 1;
  int32_t match_index = 0;  // the first label value, when it is an integer
  // The constraint as sessions apply it: highestTierName turned into its tier and soft
  // turned into hard at the permitted limit (rule 8). Unset: no network topology.
  std::optional<NetworkTopologySpec> network_topology;
  std::vector<TaskIndex> tasks;  // ascending
};

struct JobInfo {
  // The fields sessions read most come first; the PodGroup spec is last.
  JobIndex index = kNone;
  QueueIndex queue = kNone;  // kNone: the queue does not exist; the job is not scheduled
  int32_t priority = 0;
  bool preemptable = false;  // PodGroup volcano.sh/preemptable
  bool has_min_resources = false;
  int32_t task_min_available_total = 0;
  std::vector<TaskIndex> tasks;  // in index order
  std::string key;  // "namespace/name"
  Resource min_resources;        // zero when unset
  int64_t waiting_time_seconds = -1;  // volcano.sh/sla-waiting-time, -1 when unset
  // The job's network topology as sessions apply it (see SubJobInfo), and its
  // sub-groups in Volcano's order (match index, then id). Every task is in one.
  std::optional<NetworkTopologySpec> network_topology;
  std::vector<SubJobInfo> sub_jobs;
  PodGroupSpec pod_group;
};

// Whether the job or one of its sub-groups has a network topology.
bool HasNetworkTopology(const JobInfo& job);

struct SnapshotOptions {
  // Pods whose schedulerName is one of these are scheduled. Default: {"volcano"}.
  std::vector<std::string> scheduler_names = {"volcano"};
  // Also schedule pods with an empty schedulerName. Default: false.
  bool schedule_empty_scheduler_name = false;
  // Queue used by PodGroups with an empty spec.queue; created when missing.
  // Default: "default".
  std::string default_queue = "default";
  // Create the implicit PodGroup Volcano's controller makes for a plain pod.
  // Default: true.
  bool implicit_pod_groups = true;
  // Count the resource names that no node offers and no queue names (only pods and
  // PodGroups do) as one dimension, kUnofferedResource, instead of one each. A pod
  // requesting any of them fits no node either way, and every rule compares such
  // amounts with a cluster total of zero, so decisions are the same; the tables stay
  // small when pods name thousands of such resources. Messages and queue amounts then
  // name kUnofferedResource. Build does this on its own (with a warning) when more than
  // 16 names are of that sort, or the resource tables would otherwise pass their limit.
  // Default: false.
  bool fold_unoffered_resources = false;
  // Provisioners (CSI drivers) whose claims are not counted against a node's CSI attach
  // limits, beside the two Volcano always ignores (rancher.io/local-path,
  // hostpath.csi.k8s.io): vc-scheduler's --ignored-provisioners.
  std::vector<std::string> ignored_provisioners;
};

// The problems Build finds in one object on its own (name, namespace, phase, counts),
// worded as Build reports them; empty when there are none. Build also checks what needs
// several objects: duplicate names, the queue hierarchy, a plain pod whose controller's
// PodGroup name is taken.
std::vector<std::string> ObjectProblems(const NodeSpec& node);
std::vector<std::string> ObjectProblems(const PodSpec& pod);
std::vector<std::string> ObjectProblems(const PodGroupSpec& pod_group);
std::vector<std::string> ObjectProblems(const QueueSpec& queue);
std::vector<std::string> ObjectProblems(const PriorityClassSpec& priority_class);
std::vector<std::string> ObjectProblems(const NamespaceSpec& ns);
std::vector<std::string> ObjectProblems(const HyperNodeSpec& hyper_node);
// The problems of an object's name, and of its namespace when `namespace_` is given,
// worded as ObjectProblems words them (for kinds a snapshot does not hold: Volcano Jobs).
std::vector<std::string> NameProblems(absl::string_view kind, absl::string_view name,
                                      const std::string* namespace_ = nullptr);

// Whether a snapshot with these options schedules the pod (its schedulerName).
bool SchedulesPod(const SnapshotOptions& options, const PodSpec& pod);

class Snapshot {
 public:
  Snapshot();

  const ResourceSpace& space() const;
  int dims() const { return space().size(); }
  absl::Span<const NodeInfo> nodes() const;
  absl::Span<const TaskInfo> tasks() const;
  absl::Span<const JobInfo> jobs() const;
  absl::Span<const QueueInfo> queues() const;
  absl::Span<const PriorityClassSpec> priority_classes() const;
  // The PersistentVolumeClaims, PersistentVolumes, StorageClasses and CSINodes.
  const StorageObjects& storage() const;
  // The ResourceQuotas and PodDisruptionBudgets (vcsched/policy.h).
  const PolicyObjects& policy() const;
  // Sum of every node's allocatable.
  const Resource& total_allocatable() const;

  std::optional<NodeIndex> FindNode(absl::string_view name) const;
  std::optional<QueueIndex> FindQueue(absl::string_view name) const;
  // By "namespace/name".
  std::optional<JobIndex> FindJob(absl::string_view key) const;
  std::optional<TaskIndex> FindTask(absl::string_view key) const;
  // The HyperNode tree: the input's HyperNodes by name, then the virtual root (always
  // present, the last index).
  absl::Span<const HyperNodeInfo> hyper_nodes() const;
  HyperNodeIndex hyper_node_root() const;
  std::optional<HyperNodeIndex> FindHyperNode(absl::string_view name) const;
  // False when a HyperNode has two parents or a cycle (rule 3): jobs with network
  // topology are then not scheduled.
  bool hyper_nodes_ready() const;
  // The distinct tiers, ascending, the virtual root's included.
  absl::Span<const int32_t> hyper_node_tiers() const;
  // The HyperNode of the lowest tier holding node n, or kNone (rule 6).
  HyperNodeIndex lowest_tier_hyper_node(NodeIndex n) const;
  // The lowest common ancestor of two HyperNodes; either may be kNone (then the other).
  HyperNodeIndex HyperNodeLca(HyperNodeIndex a, HyperNodeIndex b) const;
  // Value of a PriorityClass, or nullopt.
  std::optional<int32_t> PriorityClassValue(absl::string_view name) const;
  // What Build() tolerated but the caller should know (dangling references, ...), sorted.
  const std::vector<std::string>& warnings() const;
  // Pending pods whose schedulerName this scheduler does not serve (options): in no
  // session, neither placed nor explained; by key.
  const std::vector<std::shared_ptr<const PodSpec>>& other_scheduler_pods() const;
  // The options it was built with.
  const SnapshotOptions& options() const;

  struct Impl;  // the library's own data (src/snapshot_impl.h): not part of the API

 private:
  friend struct SnapshotInternals;
  explicit Snapshot(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

class SnapshotBuilder {
 public:
  explicit SnapshotBuilder(SnapshotOptions options = {});
  ~SnapshotBuilder();
  SnapshotBuilder(SnapshotBuilder&&) noexcept;
  SnapshotBuilder& operator=(SnapshotBuilder&&) noexcept;

  void AddNode(NodeSpec node);
  void AddPod(PodSpec pod);
  // Many pods at once; the deque is taken over whole when no pod was added before.
  void AddPods(std::deque<PodSpec>&& pods);
  // A pod the caller keeps and shares, never copied: a host that holds its pods (Cluster)
  // builds snapshot after snapshot without copying the unchanged ones. A pod the build
  // would have to change (a plain pod's PodGroup annotation, its namespace labels, the
  // parse flags of its node-selector terms) is copied first; the snapshot's
  // TaskInfo::pod then holds that prepared copy, which shares without a copy next time.
  void AddSharedPod(std::shared_ptr<const PodSpec> pod);
  // A pod handed over whole: prepared in place where the build must change it, then held
  // by the snapshot's task as this very object. The caller may keep the pointer to pass
  // to later builds with AddSharedPod (which then share it without a copy, and reuse its
  // task's facts: ReuseFrom), but must not change the pod.
  void AddOwnedPod(std::shared_ptr<PodSpec> pod);
  void AddPodGroup(PodGroupSpec pod_group);
  void AddQueue(QueueSpec queue);
  void AddPriorityClass(PriorityClassSpec priority_class);
  // A Namespace, for its labels (pod affinity namespaceSelector); a second one of the
  // same name is an error at Build.
  void AddNamespace(NamespaceSpec ns);
  // A topology.volcano.sh HyperNode (a network domain).
  void AddHyperNode(HyperNodeSpec hyper_node);
  // Storage objects (vcsched/storage.h); a second one of the same key is an error at Build.
  void AddPersistentVolumeClaim(PersistentVolumeClaimSpec claim);
  void AddPersistentVolume(PersistentVolumeSpec volume);
  void AddStorageClass(StorageClassSpec storage_class);
  void AddCSINode(CSINodeSpec csi_node);
  // All of them at once, shared (a Cluster's, unchanged since its last snapshot).
  void SetStorage(std::shared_ptr<const StorageObjects> storage);
  // Policy objects (vcsched/policy.h); a second one of the same key is an error at Build.
  void AddResourceQuota(ResourceQuotaSpec quota);
  void AddPodDisruptionBudget(PodDisruptionBudgetSpec budget);
  void AddNodeShard(NodeShardSpec shard);
  void AddNumatopology(NumatopologySpec topology);  // a node's NUMA topology (numa-aware)
  // All of them at once, shared (a Cluster's, unchanged since its last snapshot).
  void SetPolicy(std::shared_ptr<const PolicyObjects> policy);
  // A warning to carry into the snapshot (used by loaders for unsupported fields).
  void AddWarning(std::string warning);
  // A hint that saves work, never changes the result: the facts of a pod shared with
  // `previous` (AddSharedPod with the very spec one of its tasks holds) are copied from
  // that task instead of being worked out again. A host that snapshots a changing state
  // (Cluster) passes its last snapshot.
  void ReuseFrom(const Snapshot& previous);

  // Validates and freezes. Errors (kInvalidArgument) name the object and field:
  // duplicate names, empty names, invalid labels, negative quantities, ... All problems
  // found are reported, separated by newlines. The builder is left empty.
  absl::StatusOr<Snapshot> Build() &&;

 private:
  friend class SnapshotAssembly;  // Build's steps (src/snapshot/snapshot_assembly.cc)
  struct State;
  std::unique_ptr<State> state_;
};

// What changed since a snapshot, for PatchSnapshot: pods and PodGroups.
struct SnapshotChanges {
  // Pods added or replaced, handed over whole: prepared in place where a build would
  // change them (as SnapshotBuilder::AddOwnedPod), then held by the new snapshot's
  // tasks as these very objects. The caller must not change them afterwards.
  std::vector<std::shared_ptr<PodSpec>> put_pods;
  // Pods gone, by "namespace/name" (one that the snapshot does not hold is no change).
  std::vector<std::string> deleted_pods;
  // PodGroups added or replaced, and gone (by "namespace/name").
  std::vector<PodGroupSpec> put_pod_groups;
  std::vector<std::string> deleted_pod_groups;
};

// The snapshot a build of `base`'s objects with these changes would make, made from
// `base` instead: unchanged tasks, jobs, nodes and queues are carried over; the changed
// pods and PodGroups, and the pods whose PodGroup came or went, alone are worked out, so
// the cost follows the changes (and the copying of the tables), not the objects. It
// decides exactly what the build would decide.
// nullopt when the changes need a build: an object the build would refuse, a pod the
// build would give an implicit PodGroup, a pod of a namespace without pods or Namespace,
// a resource name that comes or goes, host ports or an unknown priorityClassName on a
// pod (their warnings involve other pods), a key given twice.
std::optional<Snapshot> PatchSnapshot(const Snapshot& base, SnapshotChanges changes);
// The same; and when nothing else holds `base`'s data (no copy of the snapshot, no
// decisions or views of it: a loop's last snapshot, let go of), that data becomes the new
// snapshot's instead of being copied, so the cost is the changes' alone. On success
// `base` is left empty; on nullopt it is as it was.
std::optional<Snapshot> PatchSnapshot(Snapshot&& base, SnapshotChanges changes);

}  // namespace vcsched

#endif  // VCSCHED_SNAPSHOT_H_
