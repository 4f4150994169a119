// The policy objects Volcano's scheduler reads beside pods and nodes: ResourceQuotas
// (the resourcequota plugin, at enqueue), PodDisruptionBudgets (pdb, when choosing
// victims) and NodeShards (which nodes a scheduler in a sharding mode owns).
//
// Both are read as Volcano reads them: a quota's `status` (the quota controller's
// accounting), not its `spec`; a budget's `status.disruptionsAllowed` and
// `status.disruptedPods`, not its minAvailable/maxUnavailable (kept for the record and for
// explanations). docs/FORMAT.md, "Policy objects", says what each field does.
#ifndef VCSCHED_POLICY_H_
#define VCSCHED_POLICY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/objects.h"

namespace vcsched {

// Whether `name` is held in bytes: memory, *storage and hugepages-* names, with or
// without a requests./limits. prefix.
bool QuotaUnitIsBytes(absl::string_view name);
// One quantity in QuotaList units. Errors name neither the field nor the resource:
// `invalid quantity "4Gx"`; negative amounts are refused by the object checks.
absl::StatusOr<int64_t> ParseQuotaQuantity(absl::string_view name, absl::string_view text);
// The quantity as Kubernetes prints it: "4Gi", "1500m", "10".
std::string FormatQuotaAmount(absl::string_view name, int64_t amount);
// A ResourceList (stored units) in QuotaList units, name for name.
QuotaList QuotaListOf(const ResourceList& resources);

// v1 ResourceQuota.
struct ResourceQuotaSpec {
  std::string name;
  std::string namespace_ = "default";
  QuotaList spec_hard;  // spec.hard: what the quota controller copies into status.hard
  QuotaList hard;       // status.hard: what the resourcequota plugin compares against
  QuotaList used;       // status.used
  // spec.scopes and the scopes of spec.scopeSelector: kept, and ignored as Volcano ignores
  // them (its plugin counts every PodGroup of the namespace).
  std::vector<std::string> scopes;
};

// policy/v1 PodDisruptionBudget.
struct PodDisruptionBudgetSpec {
  std::string name;
  std::string namespace_ = "default";
  // spec.selector; nullopt or empty selects nothing (policy/v1's rule, and Volcano's).
  std::optional<LabelSelector> selector;
  std::string min_available;    // spec.minAvailable as written ("2", "50%"); empty: unset
  std::string max_unavailable;  // spec.maxUnavailable as written; empty: unset
  int32_t disruptions_allowed = 0;  // status.disruptionsAllowed
  int32_t current_healthy = 0;      // status.currentHealthy
  int32_t desired_healthy = 0;      // status.desiredHealthy
  int32_t expected_pods = 0;        // status.expectedPods
  std::set<std::string> disrupted_pods;  // status.disruptedPods' pod names
};

// shard.volcano.sh/v1alpha1 NodeShard (cluster-scoped): the nodes one scheduler of a
// sharded deployment owns. A scheduler in a sharding mode schedules on its shard's
// nodesDesired less the nodes other shards have in use (their status.nodesInUse).
struct NodeShardSpec {
  std::string name;
  std::vector<std::string> nodes_desired;    // spec.nodesDesired
  std::vector<std::string> nodes_in_use;     // status.nodesInUse
  std::vector<std::string> nodes_to_remove;  // status.nodesToRemove: kept, not read
  std::vector<std::string> nodes_to_add;     // status.nodesToAdd: kept, not read
};

// nodeinfo.volcano.sh/v1alpha1 Numatopology (cluster-scoped, named after its node), as
// Volcano's resource exporter writes it: the kubelet's CPU and topology manager policies,
// each CPU's NUMA node, socket and core, the CPUs still free per resource, and what the
// kubelet reserves. The numa-aware plugin reads it (docs/FORMAT.md "NUMA topology").
struct NumaCpuSpec {
  int32_t numa = 0;    // spec.cpuDetail[id].numa (0..63)
  int32_t socket = 0;  // .socket
  int32_t core = 0;    // .core
};
struct NumaResourceSpec {
  std::vector<int32_t> allocatable;  // spec.numares[name].allocatable: a CPU list ("0-3,8"), sorted
  int64_t capacity = 0;              // .capacity
};
// One entry of spec.podAllocations: a pod the node's exporter reports the kubelet has
// given NUMA resources (its container allocations are not read).
struct NumaPodAllocation {
  std::string uid;
  std::string name;
  std::string namespace_;
};
struct NumatopologySpec {
  std::string name;
  std::map<std::string, std::string> policies;  // spec.policies: CPUManagerPolicy, TopologyManagerPolicy
  std::map<std::string, std::string> reserved;  // spec.resReserved, as written (cpu: "2")
  std::map<std::string, NumaResourceSpec> resources;  // spec.numares
  std::map<int32_t, NumaCpuSpec> cpus;              // spec.cpuDetail, by CPU id
  std::vector<NumaPodAllocation> pod_allocations;   // spec.podAllocations
};

// Keys are "namespace/name" (node shards and NUMA topologies: "name").
struct PolicyObjects {
  std::map<std::string, ResourceQuotaSpec, std::less<>> quotas;
  std::map<std::string, PodDisruptionBudgetSpec, std::less<>> disruption_budgets;
  std::map<std::string, NodeShardSpec, std::less<>> node_shards;
  std::map<std::string, NumatopologySpec, std::less<>> numatopologies;
  bool empty() const {
    return quotas.empty() && disruption_budgets.empty() && node_shards.empty() && numatopologies.empty();
  }
};

// The nodes a scheduler whose shard is `shard_name` schedules on, as Volcano's cache
// works them out: that shard's nodesDesired less every other shard's nodesInUse. Empty
// when no shard has that name (Volcano then keeps the empty set it starts with).
std::set<std::string, std::less<>> NodesInShard(const PolicyObjects& policy, absl::string_view shard_name);

// Problems of one object alone ("ResourceQuota \"ns/q\": status.hard[cpu]: must not be
// negative"), as Build reports them; empty when it is well formed.
std::vector<std::string> ObjectProblems(const ResourceQuotaSpec& quota);
std::vector<std::string> ObjectProblems(const PodDisruptionBudgetSpec& budget);
std::vector<std::string> ObjectProblems(const NodeShardSpec& shard);
std::vector<std::string> ObjectProblems(const NumatopologySpec& topology);

}  // namespace vcsched

#endif  // VCSCHED_POLICY_H_
