// The frozen data behind a Snapshot. Internal to the library.
#ifndef VCSCHED_SRC_SNAPSHOT_SNAPSHOT_IMPL_H_
#define VCSCHED_SRC_SNAPSHOT_SNAPSHOT_IMPL_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "src/snapshot/dense_facts.h"
#include "vcsched/snapshot.h"

namespace vcsched {

// The most values the dense resource tables may hold (1 GiB of int64).
inline constexpr uint64_t kMaxResourceTableValues = uint64_t{1} << 27;

struct Snapshot::Impl {
  // What pods do not change (PatchSnapshot carries these over from its base).
  ResourceSpace space;
  std::vector<NodeInfo> nodes;
  std::vector<QueueInfo> queues;
  std::vector<PriorityClassSpec> priority_classes;
  // Per namespace: what PodSpec::namespace_labels shares.
  std::map<std::string, std::shared_ptr<const Labels>, std::less<>> namespace_labels;
  Resource total;
  std::map<std::string, int32_t, std::less<>> node_by_name, queue_by_name, pc_by_name;
  // The HyperNode tree (src/snapshot/hyper_node_tree.cc); the virtual root is last.
  std::vector<HyperNodeInfo> hyper_nodes;
  std::map<std::string, int32_t, std::less<>> hyper_node_by_name;
  std::vector<int32_t> hyper_node_depth;  // the virtual root's is 0
  std::vector<int32_t> hyper_node_tiers;
  std::map<std::string, int32_t> hyper_node_tier_by_name;  // spec.tierName -> tier
  std::vector<HyperNodeIndex> node_lowest_hyper_node;  // per node (rule 6)
  bool hyper_nodes_ready = true;
  SnapshotOptions options;
  std::shared_ptr<const StorageObjects> storage = std::make_shared<const StorageObjects>();  // never null
  std::shared_ptr<const PolicyObjects> policy = std::make_shared<const PolicyObjects>();     // never null

  // What pods change (PatchSnapshot works these out).
  std::vector<TaskInfo> tasks;
  std::vector<JobInfo> jobs;
  // Views of TaskInfo::key, filled once `tasks` is final, only when task keys are not in
  // byte order. Jobs are found by their key's order (FindJobByKey): no index is kept,
  // which a patch adding or removing a PodGroup would have to make again.
  absl::flat_hash_map<absl::string_view, int32_t> task_by_key;
  std::vector<std::string> warnings;
  DenseFacts dense;
  // The key of each shape-only shape by its number (empty for a task's own shape), for a
  // build that reuses this snapshot's task facts (SnapshotBuilder::ReuseFrom).
  std::vector<std::string> shape_keys;
  // The pods no task holds (another scheduler's, not placed), in pod order; the latest
  // creation time of the tasks' pods; per resource dimension, how many request lists of
  // pods and PodGroups name it (a dimension only they name goes when its last one goes);
  // and the tasks whose PodGroup is missing, as (group key, task key), sorted.
  std::vector<std::shared_ptr<const PodSpec>> hidden_pods;
  int64_t latest_pod_creation_time = 0;
  std::vector<int64_t> resource_refs;
  std::vector<std::pair<std::string, std::string>> orphans;
};

// The job of key "namespace/name" in a job table (jobs are in (namespace, name) order),
// found by binary search.
std::optional<JobIndex> FindJobByKey(const std::vector<JobInfo>& jobs, absl::string_view key);

// The library's way in: the session reads the dense facts, decisions share the data
// (their names are views into it), the builder makes a snapshot of it.
struct SnapshotInternals {
  static const Snapshot::Impl& Of(const Snapshot& s) { return *s.impl_; }
  static const std::shared_ptr<const Snapshot::Impl>& Shared(const Snapshot& s) { return s.impl_; }
  static Snapshot Make(std::shared_ptr<const Snapshot::Impl> impl) { return Snapshot(std::move(impl)); }
};

// The session clock RunSession uses when the caller gives none (RunOptions::now_seconds 0):
// the newest creationTimestamp of the snapshot's jobs and tasks.
inline int64_t DefaultSessionClock(const Snapshot& s) { return SnapshotInternals::Of(s).dense.latest_creation_time; }

}  // namespace vcsched

#endif  // VCSCHED_SRC_SNAPSHOT_SNAPSHOT_IMPL_H_
