// The quota controller of a simulated cluster: before each session, every ResourceQuota's
// status.used is recounted from the pods that exist and have not ended, as Kubernetes'
// quota controller keeps it (the resourcequota plugin reads status.used, not the pods).
#include <map>
#include <string>

#include "src/simulate/simulator.h"
#include "vcsched/policy.h"

namespace vcsched::simulate_internal {

namespace {
// A pod's usage under the names a quota may limit: its request under the resource's name
// and as requests.<name>, one pod as pods and count/pods. (Limits are not kept by a
// PodSpec: limits.* amounts stay as the cluster file gave them.)
void AddUsage(const Snapshot& s, const TaskInfo& t, QuotaList& into) {
  ResourceList request;
  for (int d = 0; d < s.space().size(); ++d) {
    if (d == kPods || t.resreq[d] <= 0) continue;
    request[s.space().name(d)] = t.resreq[d];
  }
  for (const auto& [name, v] : QuotaListOf(request)) {
    into[name] = SaturatingAdd(into[name], v);
    into["requests." + name] = SaturatingAdd(into["requests." + name], v);
  }
  into["pods"] = SaturatingAdd(into["pods"], 1000);
  into["count/pods"] = SaturatingAdd(into["count/pods"], 1000);
}
}  // namespace

bool SyncQuotaUsage(const Snapshot& snapshot, Cluster& cluster) {
  if (cluster.policy().quotas.empty()) return false;
  std::map<std::string, QuotaList> usage;  // by namespace
  for (const TaskInfo& t : snapshot.tasks()) {
    if (t.status == TaskStatus::kSucceeded || t.status == TaskStatus::kFailed) continue;
    AddUsage(snapshot, t, usage[t.pod->namespace_]);
  }
  bool changed = false;
  for (const auto& [key, quota] : std::map(cluster.policy().quotas.begin(), cluster.policy().quotas.end())) {
    ResourceQuotaSpec q = quota;
    const QuotaList& used = usage[q.namespace_];
    for (const auto& [name, _] : q.hard) {
      if (name.rfind("limits.", 0) == 0) continue;
      auto it = used.find(name);
      q.used[name] = it == used.end() ? 0 : it->second;
    }
    if (q.used != quota.used) {
      changed = true;
      (void)cluster.PutResourceQuota(std::move(q));  // checked when it came in; only used changed
    }
  }
  return changed;
}

}  // namespace vcsched::simulate_internal
