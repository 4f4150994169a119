// The builder's collected input, shared by SnapshotBuilder's methods (snapshot.cc) and
// its Build steps (snapshot_assembly.cc). Internal to the snapshot layer.
#ifndef VCSCHED_SRC_SNAPSHOT_BUILDER_STATE_H_
#define VCSCHED_SRC_SNAPSHOT_BUILDER_STATE_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "vcsched/snapshot.h"

namespace vcsched {

struct SnapshotBuilder::State {
  SnapshotOptions options;
  std::vector<NodeSpec> nodes;
  std::deque<PodSpec> pods;  // a deque: no 2x slack or reallocation copies of large specs
  std::vector<std::shared_ptr<const PodSpec>> shared_pods;  // AddSharedPod
  std::vector<std::shared_ptr<PodSpec>> owned_pods;         // AddOwnedPod
  std::vector<PodGroupSpec> pod_groups;
  std::vector<QueueSpec> queues;
  std::vector<PriorityClassSpec> priority_classes;
  std::vector<NamespaceSpec> namespaces;
  std::vector<HyperNodeSpec> hyper_nodes;
  std::vector<PersistentVolumeClaimSpec> claims;
  std::vector<PersistentVolumeSpec> volumes;
  std::vector<StorageClassSpec> storage_classes;
  std::vector<CSINodeSpec> csi_nodes;
  std::shared_ptr<const StorageObjects> storage;  // SetStorage
  std::vector<ResourceQuotaSpec> quotas;
  std::vector<PodDisruptionBudgetSpec> disruption_budgets;
  std::vector<NodeShardSpec> node_shards;
  std::vector<NumatopologySpec> numatopologies;
  std::shared_ptr<const PolicyObjects> policy;  // SetPolicy
  std::vector<std::string> warnings;
  std::shared_ptr<const Snapshot::Impl> previous;  // ReuseFrom
};

namespace internal {
// The index a name map gives `key`, or nullopt.
template <typename M>
std::optional<int32_t> Lookup(const M& m, absl::string_view key) {
  auto it = m.find(key);
  if (it == m.end()) return std::nullopt;
  return it->second;
}
}  // namespace internal

}  // namespace vcsched

#endif  // VCSCHED_SRC_SNAPSHOT_BUILDER_STATE_H_
