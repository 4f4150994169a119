// The checks of one object alone, as Build reports them (ObjectProblems in snapshot.h).
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "re2/re2.h"
#include "src/model/object_names.h"
#include "src/model/queue_checks.h"
#include "vcsched/policy.h"
#include "vcsched/snapshot.h"
#include "vcsched/storage.h"

namespace vcsched {
namespace {

bool OneOf(absl::string_view p, std::initializer_list<absl::string_view> allowed) {
  for (absl::string_view a : allowed) {
    if (p == a) return true;
  }
  return false;
}

// The name's problem (empty, too long, invalid; the namespace's when namespaced), if any.
void CheckName(absl::string_view kind, absl::string_view name, const std::string* namespace_, std::vector<std::string>* out) {
  const auto key = [&] { return namespace_ != nullptr ? absl::StrCat(*namespace_, "/", name) : std::string(name); };
  if (name.empty()) {
    out->push_back(absl::StrCat(kind, ": metadata.name: must not be empty"));
  } else if (name.size() > kMaxNameLength) {
    out->push_back(absl::StrCat(kind, " \"", key().substr(0, 64), "...\": metadata.name: is ", name.size(),
                                " characters, over Kubernetes' limit of ", kMaxNameLength));
  } else if (!IsValidObjectName(name)) {
    out->push_back(absl::StrCat(kind, " ", QuoteName(key()), ": metadata.name: ", kInvalidNameMessage));
  } else if (namespace_ != nullptr && !IsValidNamespace(*namespace_)) {
    out->push_back(absl::StrCat(kind, " ", QuoteName(key()), ": metadata.namespace: ", kInvalidNamespaceMessage));
  }
}

// Problems of the names in a resource list (qualified names, as the API server checks
// resource names). The object's label and the field are made only for a problem: every
// pod's lists are checked on their way in.
template <typename Object, typename Field>
void CheckResourceNames(const Object& object, const ResourceList& resources, const Field& field,
                        std::vector<std::string>* out) {
  for (const auto& [name, _] : resources) {
    if (!IsQualifiedName(name)) {
      out->push_back(absl::StrCat(object(), ": ", field(), ": resource name ", QuoteName(name), " is ",
                                  kQualifiedNameMessage));
    }
  }
}

template <typename Object, typename Field>
void CheckKey(const Object& object, absl::string_view key, const Field& field, std::vector<std::string>* out) {
  if (!IsQualifiedName(key)) out->push_back(absl::StrCat(object(), ": ", field(), ": ", QuoteName(key), " is ", kQualifiedNameMessage));
}

template <typename Object, typename Field>
void CheckValue(const Object& object, absl::string_view value, const Field& field, std::vector<std::string>* out) {
  if (!IsLabelValue(value)) out->push_back(absl::StrCat(object(), ": ", field(), ": ", QuoteName(value), " is ", kLabelValueMessage));
}

}  // namespace

std::vector<std::string> NameProblems(absl::string_view kind, absl::string_view name, const std::string* namespace_) {
  std::vector<std::string> out;
  CheckName(kind, name, namespace_, &out);
  return out;
}

std::vector<std::string> ObjectProblems(const NodeSpec& node) {
  std::vector<std::string> out;
  CheckName("Node", node.name, nullptr, &out);
  if (!out.empty()) return out;
  const auto object = [&] { return absl::StrCat("Node ", QuoteName(node.name)); };
  const auto text = [](absl::string_view f) { return [f] { return std::string(f); }; };
  CheckResourceNames(object, node.allocatable, text("status.allocatable"), &out);
  for (size_t i = 0; i < node.taints.size(); ++i) {
    CheckKey(object, node.taints[i].key, [i] { return absl::StrCat("spec.taints[", i, "].key"); }, &out);
    CheckValue(object, node.taints[i].value, [i] { return absl::StrCat("spec.taints[", i, "].value"); }, &out);
  }
  return out;
}

std::vector<std::string> ObjectProblems(const PodSpec& p) {
  std::vector<std::string> out;
  CheckName("Pod", p.name, &p.namespace_, &out);
  if (!OneOf(p.phase, {"Pending", "Running", "Succeeded", "Failed", "Unknown"})) {
    out.push_back(absl::StrCat("Pod \"", p.namespace_, "/", p.name, "\": status.phase: unknown phase \"", p.phase, "\""));
  }
  if (!out.empty()) return out;
  const auto object = [&] { return absl::StrCat("Pod \"", p.namespace_, "/", p.name, "\""); };
  for (size_t i = 0; i < p.containers.size(); ++i) {
    CheckResourceNames(object, p.containers[i].requests, [i] { return absl::StrCat("spec.containers[", i, "].resources"); },
                       &out);
  }
  for (size_t i = 0; i < p.init_containers.size(); ++i) {
    CheckResourceNames(object, p.init_containers[i].requests,
                       [i] { return absl::StrCat("spec.initContainers[", i, "].resources"); }, &out);
  }
  CheckResourceNames(object, p.overhead, [] { return std::string("spec.overhead"); }, &out);
  for (const auto& [k, v] : p.node_selector) {
    CheckKey(object, k, [] { return std::string("spec.nodeSelector"); }, &out);
    if (IsQualifiedName(k)) CheckValue(object, v, [&k = k] { return absl::StrCat("spec.nodeSelector.", k); }, &out);
  }
  for (size_t i = 0; i < p.tolerations.size(); ++i) {
    if (!p.tolerations[i].key.empty()) {
      CheckKey(object, p.tolerations[i].key, [i] { return absl::StrCat("spec.tolerations[", i, "].key"); }, &out);
    }
    CheckValue(object, p.tolerations[i].value, [i] { return absl::StrCat("spec.tolerations[", i, "].value"); }, &out);
  }
  return out;
}

std::vector<std::string> ObjectProblems(const PodGroupSpec& g) {
  std::vector<std::string> out;
  CheckName("PodGroup", g.name, &g.namespace_, &out);
  const std::string key = absl::StrCat(g.namespace_, "/", g.name);
  if (g.min_member < 0) {
    out.push_back(absl::StrCat("PodGroup \"", key, "\": spec.minMember: must not be negative, got ", g.min_member));
  }
  if (!OneOf(g.phase, {"Pending", "Inqueue", "Running", "Unknown", "Completed", ""})) {
    out.push_back(absl::StrCat("PodGroup \"", key, "\": status.phase: unknown phase \"", g.phase, "\""));
  }
  for (const auto& [role, n] : g.min_task_member) {
    if (n < 0) out.push_back(absl::StrCat("PodGroup \"", key, "\": spec.minTaskMember.", role, ": must not be negative"));
  }
  const std::pair<const char*, int32_t> counts[] = {{"running", g.running}, {"succeeded", g.succeeded}, {"failed", g.failed}};
  for (const auto& [field, n] : counts) {
    if (n < 0) out.push_back(absl::StrCat("PodGroup \"", key, "\": status.", field, ": must not be negative"));
  }
  const auto check_topology = [&](const std::optional<NetworkTopologySpec>& t, const std::string& field) {
    if (t && t->highest_tier_allowed && *t->highest_tier_allowed < 0) {
      out.push_back(absl::StrCat("PodGroup \"", key, "\": ", field, ".highestTierAllowed: must not be negative"));
    }
    if (t && t->highest_tier_allowed && !t->highest_tier_name.empty()) {
      out.push_back(absl::StrCat("PodGroup \"", key, "\": ", field,
                                 ": highestTierAllowed and highestTierName must not both be set"));
    }
  };
  check_topology(g.network_topology, "spec.networkTopology");
  if (g.min_resources && out.empty()) {
    CheckResourceNames([&] { return absl::StrCat("PodGroup \"", key, "\""); }, *g.min_resources,
                       [] { return std::string("spec.minResources"); }, &out);
  }
  for (size_t i = 0; i < g.sub_group_policy.size(); ++i) {
    const SubGroupPolicySpec& p = g.sub_group_policy[i];
    const std::string field = absl::StrCat("spec.subGroupPolicy[", i, "]");
    if (p.name.empty()) out.push_back(absl::StrCat("PodGroup \"", key, "\": ", field, ".name: is required"));
    if (p.sub_group_size && *p.sub_group_size < 0) {
      out.push_back(absl::StrCat("PodGroup \"", key, "\": ", field, ".subGroupSize: must not be negative"));
    }
    if (p.min_sub_groups < 0) {
      out.push_back(absl::StrCat("PodGroup \"", key, "\": ", field, ".minSubGroups: must not be negative"));
    }
    check_topology(p.network_topology, field + ".networkTopology");
  }
  return out;
}

std::vector<std::string> ObjectProblems(const QueueSpec& q) {
  std::vector<std::string> out;
  CheckName("Queue", q.name, nullptr, &out);
  if (q.weight < 0) out.push_back(absl::StrCat("Queue \"", q.name, "\": spec.weight: must not be negative, got ", q.weight));
  if (out.empty()) {
    const auto object = [&] { return absl::StrCat("Queue \"", q.name, "\""); };
    CheckResourceNames(object, q.capability, [] { return std::string("spec.capability"); }, &out);
    CheckResourceNames(object, q.deserved, [] { return std::string("spec.deserved"); }, &out);
    CheckResourceNames(object, q.guarantee, [] { return std::string("spec.guarantee.resource"); }, &out);
  }
  if (std::string problem = HierarchyAnnotationProblem(q); !problem.empty()) {
    out.push_back(absl::StrCat("Queue \"", q.name, "\": ", problem));
  }
  return out;
}

std::vector<std::string> ObjectProblems(const HyperNodeSpec& h) {
  std::vector<std::string> out;
  CheckName("HyperNode", h.name, nullptr, &out);
  if (!out.empty()) return out;
  const std::string key = absl::StrCat("HyperNode \"", h.name, "\": ");
  if (h.tier < 0) out.push_back(absl::StrCat(key, "spec.tier: must not be negative, got ", h.tier));
  // The virtual root sits one tier above the highest.
  if (h.tier == std::numeric_limits<int32_t>::max()) out.push_back(absl::StrCat(key, "spec.tier: must be below ", h.tier));
  for (size_t i = 0; i < h.members.size(); ++i) {
    const HyperNodeMember& m = h.members[i];
    const std::string field = absl::StrCat("spec.members[", i, "].selector");
    if (m.match == HyperNodeMember::Match::kExact && m.name.empty()) {
      out.push_back(absl::StrCat(key, field, ".exactMatch.name: must not be empty"));
    }
    if (m.match == HyperNodeMember::Match::kRegex) {
      RE2::Options options;
      options.set_log_errors(false);
      const RE2 re(m.name, options);
      if (!re.ok()) {
        out.push_back(absl::StrCat(key, field, ".regexMatch.pattern: invalid regular expression: ", re.error()));
      }
    }
  }
  return out;
}

std::vector<std::string> ObjectProblems(const PriorityClassSpec& pc) {
  std::vector<std::string> out;
  CheckName("PriorityClass", pc.name, nullptr, &out);
  return out;
}

std::vector<std::string> ObjectProblems(const NamespaceSpec& ns) {
  std::vector<std::string> out;
  CheckName("Namespace", ns.name, nullptr, &out);
  return out;
}

std::vector<std::string> ObjectProblems(const PersistentVolumeClaimSpec& claim) {
  std::vector<std::string> out;
  CheckName("PersistentVolumeClaim", claim.name, &claim.namespace_, &out);
  if (out.empty() && claim.storage_request < 0) {
    out.push_back(absl::StrCat("PersistentVolumeClaim \"", claim.namespace_, "/", claim.name,
                               "\": spec.resources.requests.storage: must not be negative"));
  }
  return out;
}

std::vector<std::string> ObjectProblems(const PersistentVolumeSpec& volume) {
  std::vector<std::string> out;
  CheckName("PersistentVolume", volume.name, nullptr, &out);
  if (out.empty() && volume.capacity < 0) {
    out.push_back(absl::StrCat("PersistentVolume \"", volume.name, "\": spec.capacity.storage: must not be negative"));
  }
  return out;
}

std::vector<std::string> ObjectProblems(const StorageClassSpec& storage_class) {
  std::vector<std::string> out;
  CheckName("StorageClass", storage_class.name, nullptr, &out);
  if (out.empty() && !OneOf(storage_class.volume_binding_mode, {"Immediate", "WaitForFirstConsumer"})) {
    out.push_back(absl::StrCat("StorageClass \"", storage_class.name, "\": volumeBindingMode: unknown mode ",
                               QuoteName(storage_class.volume_binding_mode), " (Immediate or WaitForFirstConsumer)"));
  }
  return out;
}

std::vector<std::string> ObjectProblems(const CSINodeSpec& csi_node) {
  std::vector<std::string> out;
  CheckName("CSINode", csi_node.name, nullptr, &out);
  for (size_t i = 0; out.empty() && i < csi_node.drivers.size(); ++i) {
    const CSINodeDriver& d = csi_node.drivers[i];
    if (d.name.empty()) {
      out.push_back(absl::StrCat("CSINode \"", csi_node.name, "\": spec.drivers[", i, "].name: must not be empty"));
    } else if (d.allocatable_count && *d.allocatable_count < 0) {
      out.push_back(absl::StrCat("CSINode \"", csi_node.name, "\": spec.drivers[", i,
                                 "].allocatable.count: must not be negative"));
    }
  }
  return out;
}

namespace {
void CheckQuotaList(const std::string& object, const QuotaList& list, absl::string_view field, std::vector<std::string>* out) {
  for (const auto& [name, v] : list) {
    if (!IsQualifiedName(name)) {
      out->push_back(absl::StrCat(object, ": ", field, ": resource name ", QuoteName(name), " is ", kQualifiedNameMessage));
    } else if (v < 0) {
      out->push_back(absl::StrCat(object, ": ", field, "[", name, "]: must not be negative"));
    }
  }
}
}  // namespace

std::vector<std::string> ObjectProblems(const ResourceQuotaSpec& quota) {
  std::vector<std::string> out;
  CheckName("ResourceQuota", quota.name, &quota.namespace_, &out);
  if (!out.empty()) return out;
  const std::string object = absl::StrCat("ResourceQuota \"", quota.namespace_, "/", quota.name, "\"");
  CheckQuotaList(object, quota.spec_hard, "spec.hard", &out);
  CheckQuotaList(object, quota.hard, "status.hard", &out);
  CheckQuotaList(object, quota.used, "status.used", &out);
  return out;
}

std::vector<std::string> ObjectProblems(const PodDisruptionBudgetSpec& budget) {
  std::vector<std::string> out;
  CheckName("PodDisruptionBudget", budget.name, &budget.namespace_, &out);
  if (!out.empty()) return out;
  const std::string object = absl::StrCat("PodDisruptionBudget \"", budget.namespace_, "/", budget.name, "\"");
  if (!budget.min_available.empty() && !budget.max_unavailable.empty()) {
    out.push_back(absl::StrCat(object, ": spec: minAvailable and maxUnavailable must not both be set"));
  }
  const std::pair<const char*, int32_t> counts[] = {{"disruptionsAllowed", budget.disruptions_allowed},
                                                    {"currentHealthy", budget.current_healthy},
                                                    {"desiredHealthy", budget.desired_healthy},
                                                    {"expectedPods", budget.expected_pods}};
  for (const auto& [field, v] : counts) {
    if (v < 0) out.push_back(absl::StrCat(object, ": status.", field, ": must not be negative, got ", v));
  }
  if (budget.selector) {
    const auto object_fn = [&] { return object; };
    for (const auto& [k, v] : budget.selector->match_labels) {
      CheckKey(object_fn, k, [] { return std::string("spec.selector.matchLabels"); }, &out);
      CheckValue(object_fn, v, [] { return std::string("spec.selector.matchLabels"); }, &out);
    }
    for (size_t i = 0; i < budget.selector->match_expressions.size(); ++i) {
      CheckKey(object_fn, budget.selector->match_expressions[i].key,
               [&] { return absl::StrCat("spec.selector.matchExpressions[", i, "].key"); }, &out);
    }
  }
  return out;
}

std::vector<std::string> ObjectProblems(const NodeShardSpec& shard) {
  std::vector<std::string> out;
  CheckName("NodeShard", shard.name, nullptr, &out);
  if (!out.empty()) return out;
  const std::pair<const char*, const std::vector<std::string>*> lists[] = {
      {"spec.nodesDesired", &shard.nodes_desired},
      {"status.nodesInUse", &shard.nodes_in_use},
      {"status.nodesToRemove", &shard.nodes_to_remove},
      {"status.nodesToAdd", &shard.nodes_to_add}};
  for (const auto& [field, names] : lists) {
    for (size_t i = 0; i < names->size(); ++i) {
      if ((*names)[i].empty()) {
        out.push_back(absl::StrCat("NodeShard \"", shard.name, "\": ", field, "[", i, "]: must not be empty"));
      }
    }
  }
  return out;
}

std::vector<std::string> ObjectProblems(const NumatopologySpec& topology) {
  std::vector<std::string> out;
  CheckName("Numatopology", topology.name, nullptr, &out);
  if (!out.empty()) return out;
  const std::string object = absl::StrCat("Numatopology \"", topology.name, "\": ");
  std::set<int32_t> numa_nodes;
  for (const auto& [cpu, info] : topology.cpus) {
    // Topology hints are 64-bit masks of NUMA nodes (the kubelet refuses ids past 63).
    if (info.numa < 0 || info.numa > 63) {
      out.push_back(absl::StrCat(object, "spec.cpuDetail[", cpu, "].numa: must be 0 to 63"));
    }
    numa_nodes.insert(info.numa);
  }
  // Hints are every set of NUMA nodes: 2^n of them.
  if (numa_nodes.size() > 16) {
    out.push_back(absl::StrCat(object, "spec.cpuDetail: ", numa_nodes.size(),
                               " NUMA nodes; vcsched models at most 16 (the kubelet's topology manager 8 by default)"));
  }
  for (const auto& [name, text] : topology.reserved) {
    bool tracked = false;
    const absl::StatusOr<int64_t> v = ParseResourceQuantity(name, text, &tracked);
    if (!v.ok()) out.push_back(absl::StrCat(object, "spec.resReserved[", name, "]: ", v.status().message()));
    else if (*v < 0) out.push_back(absl::StrCat(object, "spec.resReserved[", name, "]: must not be negative"));
  }
  return out;
}

}  // namespace vcsched
