#include "vcsched/snapshot.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "src/snapshot/builder_state.h"
#include "src/snapshot/snapshot_impl.h"
#include "src/snapshot/snapshot_patch.h"

namespace vcsched {

const char* TaskStatusName(TaskStatus s) {
  static const char* kNames[kTaskStatusCount] = {"Pending", "Allocated", "Pipelined",
                                                 "Binding", "Bound",     "Running",
                                                 "Releasing", "Succeeded", "Failed",
                                                 "Unknown"};
  return kNames[static_cast<int>(s)];
}

Snapshot::Snapshot() : impl_(std::make_shared<Impl>()) {}
Snapshot::Snapshot(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
const ResourceSpace& Snapshot::space() const { return impl_->space; }
absl::Span<const NodeInfo> Snapshot::nodes() const { return impl_->nodes; }
absl::Span<const TaskInfo> Snapshot::tasks() const { return impl_->tasks; }
absl::Span<const JobInfo> Snapshot::jobs() const { return impl_->jobs; }
absl::Span<const QueueInfo> Snapshot::queues() const { return impl_->queues; }
absl::Span<const PriorityClassSpec> Snapshot::priority_classes() const {
  return impl_->priority_classes;
}
const StorageObjects& Snapshot::storage() const { return *impl_->storage; }
const PolicyObjects& Snapshot::policy() const { return *impl_->policy; }
const Resource& Snapshot::total_allocatable() const { return impl_->total; }
const std::vector<std::string>& Snapshot::warnings() const { return impl_->warnings; }
const std::vector<std::shared_ptr<const PodSpec>>& Snapshot::other_scheduler_pods() const { return impl_->hidden_pods; }
const SnapshotOptions& Snapshot::options() const { return impl_->options; }
absl::Span<const HyperNodeInfo> Snapshot::hyper_nodes() const { return impl_->hyper_nodes; }
bool HasNetworkTopology(const JobInfo& job) {
  if (job.network_topology) return true;
  return std::any_of(job.sub_jobs.begin(), job.sub_jobs.end(),
                     [](const SubJobInfo& sub) { return sub.network_topology.has_value(); });
}

HyperNodeIndex Snapshot::hyper_node_root() const { return static_cast<HyperNodeIndex>(impl_->hyper_nodes.size()) - 1; }
std::optional<HyperNodeIndex> Snapshot::FindHyperNode(absl::string_view name) const {
  return internal::Lookup(impl_->hyper_node_by_name, name);
}
bool Snapshot::hyper_nodes_ready() const { return impl_->hyper_nodes_ready; }
absl::Span<const int32_t> Snapshot::hyper_node_tiers() const { return impl_->hyper_node_tiers; }
HyperNodeIndex Snapshot::lowest_tier_hyper_node(NodeIndex n) const {
  return static_cast<size_t>(n) < impl_->node_lowest_hyper_node.size()
             ? impl_->node_lowest_hyper_node[static_cast<size_t>(n)] : kNone;
}
HyperNodeIndex Snapshot::HyperNodeLca(HyperNodeIndex a, HyperNodeIndex b) const {
  if (a == kNone) return b;
  if (b == kNone) return a;
  const auto& depth = impl_->hyper_node_depth;
  const auto& hn = impl_->hyper_nodes;
  while (a != b) {
    if (depth[static_cast<size_t>(a)] >= depth[static_cast<size_t>(b)]) {
      a = hn[static_cast<size_t>(a)].parent;
    } else {
      b = hn[static_cast<size_t>(b)].parent;
    }
    if (a == kNone || b == kNone) return kNone;
  }
  return a;
}

bool SchedulesPod(const SnapshotOptions& options, const PodSpec& pod) {
  if (pod.scheduler_name.empty()) return options.schedule_empty_scheduler_name;
  return std::find(options.scheduler_names.begin(), options.scheduler_names.end(), pod.scheduler_name) !=
         options.scheduler_names.end();
}

using internal::Lookup;

std::optional<NodeIndex> Snapshot::FindNode(absl::string_view n) const { return Lookup(impl_->node_by_name, n); }
std::optional<QueueIndex> Snapshot::FindQueue(absl::string_view n) const { return Lookup(impl_->queue_by_name, n); }
std::optional<JobIndex> Snapshot::FindJob(absl::string_view k) const { return FindJobByKey(impl_->jobs, k); }
std::optional<JobIndex> FindJobByKey(const std::vector<JobInfo>& jobs, absl::string_view key) {
  const size_t slash = key.find('/');
  if (slash == absl::string_view::npos) return std::nullopt;  // no PodGroup has such a key
  const absl::string_view ns = key.substr(0, slash), name = key.substr(slash + 1);
  const auto before = [](const JobInfo& j, std::pair<absl::string_view, absl::string_view> k) {
    return internal::KeyBefore(j.pod_group.namespace_, j.pod_group.name, k.first, k.second);
  };
  auto it = std::lower_bound(jobs.begin(), jobs.end(), std::make_pair(ns, name), before);
  if (it == jobs.end() || it->pod_group.namespace_ != ns || it->pod_group.name != name) return std::nullopt;
  return it->index;
}
std::optional<TaskIndex> Snapshot::FindTask(absl::string_view k) const {
  const DenseFacts& f = impl_->dense;
  if (!f.task_keys_sorted) return Lookup(impl_->task_by_key, k);
  // Keys in byte order (the usual case): searched in place, no index kept.
  size_t lo = 0, hi = f.task_key.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (f.task_key[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  if (lo < f.task_key.size() && f.task_key[lo] == k) return static_cast<TaskIndex>(lo);
  return std::nullopt;
}
std::optional<int32_t> Snapshot::PriorityClassValue(absl::string_view name) const {
  auto i = Lookup(impl_->pc_by_name, name);
  if (!i) return std::nullopt;
  return impl_->priority_classes[static_cast<size_t>(*i)].value;
}


SnapshotBuilder::SnapshotBuilder(SnapshotOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
}
SnapshotBuilder::~SnapshotBuilder() = default;
SnapshotBuilder::SnapshotBuilder(SnapshotBuilder&&) noexcept = default;
SnapshotBuilder& SnapshotBuilder::operator=(SnapshotBuilder&&) noexcept = default;
void SnapshotBuilder::AddNode(NodeSpec n) { state_->nodes.push_back(std::move(n)); }
void SnapshotBuilder::AddPod(PodSpec p) { state_->pods.push_back(std::move(p)); }
void SnapshotBuilder::AddSharedPod(std::shared_ptr<const PodSpec> pod) {
  if (pod != nullptr) state_->shared_pods.push_back(std::move(pod));
}
void SnapshotBuilder::AddOwnedPod(std::shared_ptr<PodSpec> pod) {
  if (pod != nullptr) state_->owned_pods.push_back(std::move(pod));
}
void SnapshotBuilder::AddPods(std::deque<PodSpec>&& pods) {
  if (state_->pods.empty()) {
    state_->pods.swap(pods);
  } else {
    for (PodSpec& p : pods) state_->pods.push_back(std::move(p));
  }
  std::deque<PodSpec>().swap(pods);
}
void SnapshotBuilder::AddPodGroup(PodGroupSpec g) { state_->pod_groups.push_back(std::move(g)); }
void SnapshotBuilder::AddQueue(QueueSpec q) { state_->queues.push_back(std::move(q)); }
void SnapshotBuilder::AddPriorityClass(PriorityClassSpec c) {
  state_->priority_classes.push_back(std::move(c));
}
void SnapshotBuilder::AddNamespace(NamespaceSpec ns) { state_->namespaces.push_back(std::move(ns)); }
void SnapshotBuilder::AddHyperNode(HyperNodeSpec hyper_node) { state_->hyper_nodes.push_back(std::move(hyper_node)); }
void SnapshotBuilder::AddPersistentVolumeClaim(PersistentVolumeClaimSpec claim) {
  state_->claims.push_back(std::move(claim));
}
void SnapshotBuilder::AddPersistentVolume(PersistentVolumeSpec volume) { state_->volumes.push_back(std::move(volume)); }
void SnapshotBuilder::AddStorageClass(StorageClassSpec c) { state_->storage_classes.push_back(std::move(c)); }
void SnapshotBuilder::AddCSINode(CSINodeSpec csi_node) { state_->csi_nodes.push_back(std::move(csi_node)); }
void SnapshotBuilder::SetStorage(std::shared_ptr<const StorageObjects> storage) { state_->storage = std::move(storage); }
void SnapshotBuilder::AddResourceQuota(ResourceQuotaSpec quota) { state_->quotas.push_back(std::move(quota)); }
void SnapshotBuilder::AddPodDisruptionBudget(PodDisruptionBudgetSpec budget) {
  state_->disruption_budgets.push_back(std::move(budget));
}
void SnapshotBuilder::AddNodeShard(NodeShardSpec shard) { state_->node_shards.push_back(std::move(shard)); }
void SnapshotBuilder::AddNumatopology(NumatopologySpec topology) {
  state_->numatopologies.push_back(std::move(topology));
}
void SnapshotBuilder::SetPolicy(std::shared_ptr<const PolicyObjects> policy) { state_->policy = std::move(policy); }
void SnapshotBuilder::AddWarning(std::string w) { state_->warnings.push_back(std::move(w)); }

void SnapshotBuilder::ReuseFrom(const Snapshot& previous) { state_->previous = SnapshotInternals::Shared(previous); }

}  // namespace vcsched
