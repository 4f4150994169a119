// A Cluster's policy objects: ResourceQuotas, PodDisruptionBudgets, NodeShards and Numatopologies, put and
// deleted.
#include "absl/strings/str_cat.h"
#include "src/cluster/object_status.h"
#include "vcsched/cluster.h"

namespace vcsched {
using cluster_internal::Check;
using cluster_internal::Erase;

void Cluster::PolicyChanged() {
  shared_policy_.reset();
  Changed();
}

absl::Status Cluster::PutResourceQuota(ResourceQuotaSpec quota) {
  if (absl::Status s = Check(quota); !s.ok()) return s;
  std::string key = absl::StrCat(quota.namespace_, "/", quota.name);
  policy_.quotas.insert_or_assign(std::move(key), std::move(quota));
  PolicyChanged();
  return absl::OkStatus();
}

absl::Status Cluster::PutPodDisruptionBudget(PodDisruptionBudgetSpec budget) {
  if (absl::Status s = Check(budget); !s.ok()) return s;
  std::string key = absl::StrCat(budget.namespace_, "/", budget.name);
  policy_.disruption_budgets.insert_or_assign(std::move(key), std::move(budget));
  PolicyChanged();
  return absl::OkStatus();
}

absl::Status Cluster::PutNodeShard(NodeShardSpec shard) {
  if (absl::Status s = Check(shard); !s.ok()) return s;
  std::string key = shard.name;
  policy_.node_shards.insert_or_assign(std::move(key), std::move(shard));
  PolicyChanged();
  return absl::OkStatus();
}

absl::Status Cluster::PutNumatopology(NumatopologySpec topology) {
  if (absl::Status s = Check(topology); !s.ok()) return s;
  std::string key = topology.name;
  policy_.numatopologies.insert_or_assign(std::move(key), std::move(topology));
  PolicyChanged();
  return absl::OkStatus();
}

absl::Status Cluster::DeleteResourceQuota(absl::string_view namespace_, absl::string_view name) {
  absl::Status s = Erase(policy_.quotas, "ResourceQuota", absl::StrCat(namespace_, "/", name));
  if (s.ok()) PolicyChanged();
  return s;
}

absl::Status Cluster::DeletePodDisruptionBudget(absl::string_view namespace_, absl::string_view name) {
  absl::Status s = Erase(policy_.disruption_budgets, "PodDisruptionBudget", absl::StrCat(namespace_, "/", name));
  if (s.ok()) PolicyChanged();
  return s;
}

absl::Status Cluster::DeleteNodeShard(absl::string_view name) {
  absl::Status s = Erase(policy_.node_shards, "NodeShard", std::string(name));
  if (s.ok()) PolicyChanged();
  return s;
}

absl::Status Cluster::DeleteNumatopology(absl::string_view name) {
  absl::Status s = Erase(policy_.numatopologies, "Numatopology", std::string(name));
  if (s.ok()) PolicyChanged();
  return s;
}

}  // namespace vcsched
