// ResourceQuota, PodDisruptionBudget, NodeShard and Numatopology manifests (vcsched/policy.h).
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "src/io/k8s_reader.h"
#include "src/model/cpu_topology.h"

namespace vcsched::io_internal {
namespace {

// An IntOrString count ("2", 2 or "50%") as written; empty when absent.
std::string CountOrPercent(ObjectReader& r, const DocNode& parent, const char* key, absl::string_view field) {
  const DocNode v = parent.IsDefined() ? parent.Get(key) : DocNode();
  if (!v.IsDefined() || v.IsNull()) return "";
  if (!v.IsScalar()) {
    r.Fail(v, field, "expected an integer or a percentage");
    return "";
  }
  std::string text = v.Scalar();
  absl::string_view digits = text;
  absl::ConsumeSuffix(&digits, "%");
  const bool ok = !digits.empty() && digits.size() <= 10 &&
                  std::all_of(digits.begin(), digits.end(), [](char c) { return absl::ascii_isdigit(c); });
  if (!ok) r.Fail(v, field, absl::StrCat("expected an integer or a percentage, got \"", text, "\""));
  return text;
}

}  // namespace

void ReadResourceQuota(ObjectReader& r, const DocNode& doc, ResourceQuotaSpec* out) {
  ResourceQuotaSpec& q = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  q.name = r.String(meta, "name", "metadata.name").value_or("");
  q.namespace_ = r.String(meta, "namespace", "metadata.namespace").value_or("default");
  const DocNode spec = r.Map(doc, "spec", "spec");
  q.spec_hard = r.Quotas(spec, "hard", "spec.hard");
  q.scopes = StringList(r, spec, "scopes", "spec.scopes");
  const DocNode scope_selector = r.Map(spec, "scopeSelector", "spec.scopeSelector");
  const DocNode expressions = r.List(scope_selector, "matchExpressions", "spec.scopeSelector.matchExpressions");
  const std::vector<DocNode> items = expressions.Items();
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string f = absl::StrCat("spec.scopeSelector.matchExpressions[", i, "].scopeName");
    if (std::optional<std::string> s = r.String(items[i], "scopeName", f)) q.scopes.push_back(*std::move(s));
  }
  const DocNode status = r.Map(doc, "status", "status");
  q.hard = r.Quotas(status, "hard", "status.hard");
  q.used = r.Quotas(status, "used", "status.used");
  if (q.hard.empty() && !q.spec_hard.empty()) {
    r.Warn("status.hard", "is empty: Volcano's resourcequota plugin compares against status.hard, which the "
                          "quota controller copies from spec.hard, so this quota limits nothing yet");
  }
}

void ReadPodDisruptionBudget(ObjectReader& r, const DocNode& doc, PodDisruptionBudgetSpec* out) {
  PodDisruptionBudgetSpec& b = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  b.name = r.String(meta, "name", "metadata.name").value_or("");
  b.namespace_ = r.String(meta, "namespace", "metadata.namespace").value_or("default");
  const DocNode spec = r.Map(doc, "spec", "spec");
  const DocNode selector = r.Map(spec, "selector", "spec.selector");
  if (selector.IsDefined() && !selector.IsNull()) b.selector = Selector(r, selector, "spec.selector");
  b.min_available = CountOrPercent(r, spec, "minAvailable", "spec.minAvailable");
  b.max_unavailable = CountOrPercent(r, spec, "maxUnavailable", "spec.maxUnavailable");
  const DocNode status = r.Map(doc, "status", "status");
  if (!status.IsDefined() || status.IsNull()) {
    r.Warn("status", "is absent: disruptionsAllowed is 0 until the disruption controller fills it, so the pdb "
                     "plugin protects every pod the budget selects from eviction");
  }
  b.disruptions_allowed = r.Int32(status, "disruptionsAllowed", "status.disruptionsAllowed").value_or(0);
  b.current_healthy = r.Int32(status, "currentHealthy", "status.currentHealthy").value_or(0);
  b.desired_healthy = r.Int32(status, "desiredHealthy", "status.desiredHealthy").value_or(0);
  b.expected_pods = r.Int32(status, "expectedPods", "status.expectedPods").value_or(0);
  r.Map(status, "disruptedPods", "status.disruptedPods").ForEachEntry([&](std::string pod, const DocNode&) {
    b.disrupted_pods.insert(std::move(pod));
  });
}

void ReadNodeShard(ObjectReader& r, const DocNode& doc, NodeShardSpec* out) {
  NodeShardSpec& n = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  n.name = r.String(meta, "name", "metadata.name").value_or("");
  const DocNode spec = r.Map(doc, "spec", "spec");
  n.nodes_desired = StringList(r, spec, "nodesDesired", "spec.nodesDesired");
  const DocNode status = r.Map(doc, "status", "status");
  n.nodes_in_use = StringList(r, status, "nodesInUse", "status.nodesInUse");
  n.nodes_to_remove = StringList(r, status, "nodesToRemove", "status.nodesToRemove");
  n.nodes_to_add = StringList(r, status, "nodesToAdd", "status.nodesToAdd");
}

void ReadNumatopology(ObjectReader& r, const DocNode& doc, NumatopologySpec* out) {
  NumatopologySpec& t = *out;
  const DocNode meta = r.Map(doc, "metadata", "metadata");
  t.name = r.String(meta, "name", "metadata.name").value_or("");
  const DocNode spec = r.Map(doc, "spec", "spec");
  for (auto& [k, v] : r.StringMap(spec, "policies", "spec.policies")) t.policies.emplace(k, v);
  for (auto& [k, v] : r.StringMap(spec, "resReserved", "spec.resReserved")) t.reserved.emplace(k, v);
  r.Map(spec, "numares", "spec.numares").ForEachEntry([&](std::string name, const DocNode& v) {
    const std::string f = absl::StrCat("spec.numares[", name, "]");
    NumaResourceSpec& res = t.resources[name];
    if (std::optional<std::string> text = r.String(v, "allocatable", absl::StrCat(f, ".allocatable"))) {
      absl::StatusOr<internal::CpuSet> cpus = internal::ParseCpuList(*text);
      if (cpus.ok()) res.allocatable.assign(cpus->begin(), cpus->end());
      else r.Fail(v, absl::StrCat(f, ".allocatable"), cpus.status().message());
    }
    res.capacity = r.Int(v, "capacity", absl::StrCat(f, ".capacity")).value_or(0);
  });
  r.Map(spec, "cpuDetail", "spec.cpuDetail").ForEachEntry([&](std::string id, const DocNode& v) {
    const std::string f = absl::StrCat("spec.cpuDetail[", id, "]");
    int64_t cpu = 0;
    if (!absl::SimpleAtoi(id, &cpu) || cpu < 0 || cpu > INT32_MAX) {
      r.Fail(v, f, "the key must be a CPU id (a whole number, 0 or more)");
      return;
    }
    NumaCpuSpec& c = t.cpus[static_cast<int32_t>(cpu)];
    c.numa = r.Int32(v, "numa", absl::StrCat(f, ".numa")).value_or(0);
    c.socket = r.Int32(v, "socket", absl::StrCat(f, ".socket")).value_or(0);
    c.core = r.Int32(v, "core", absl::StrCat(f, ".core")).value_or(0);
  });
  // spec.podAllocations: which pods the kubelet has given CPUs (what it gave them,
  // allocatable already leaves out). Volcano holds back the CPUs it gave pods not listed.
  const std::vector<DocNode> pods = r.List(spec, "podAllocations", "spec.podAllocations").Items();
  for (size_t i = 0; i < pods.size(); ++i) {
    const std::string f = absl::StrCat("spec.podAllocations[", i, "]");
    NumaPodAllocation& p = t.pod_allocations.emplace_back();
    p.uid = r.String(pods[i], "uid", absl::StrCat(f, ".uid")).value_or("");
    p.name = r.String(pods[i], "name", absl::StrCat(f, ".name")).value_or("");
    p.namespace_ = r.String(pods[i], "namespace", absl::StrCat(f, ".namespace")).value_or("");
  }
}

}  // namespace vcsched::io_internal
