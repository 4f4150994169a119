#include "src/plugins/topology.h"

#include "src/internal/k8s_match.h"
#include "src/session_state.h"

namespace vcsched::internal {

std::map<std::string, int64_t> CountPodsPerDomain(const Session& ssn, TaskIndex t,
                                                  const TopologySpreadConstraint& c) {
  const Session::State& s = ssn.state();
  const PodSpec& pod = s.task(t).pod;
  std::map<std::string, int64_t> counts;
  for (const NodeInfo& node : s.snapshot->nodes()) {
    auto key = node.spec.labels.find(c.topology_key);
    if (key == node.spec.labels.end() || !MatchNodeSelectorAndAffinity(pod, node.spec)) continue;
    int64_t& count = counts[key->second];
    for (TaskIndex other : s.node_view.pods(node.index)) {
      const PodSpec& op = s.task(other).pod;
      if (other == t || op.namespace_ != pod.namespace_) continue;
      if (MatchLabelSelector(c.label_selector, op.labels)) ++count;
    }
  }
  return counts;
}

bool SelfMatches(const PodSpec& pod, const TopologySpreadConstraint& c) {
  return MatchLabelSelector(c.label_selector, pod.labels);
}

}  // namespace vcsched::internal
