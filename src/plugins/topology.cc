#include "src/plugins/topology.h"

#include "src/internal/k8s_match.h"
#include "src/session_state.h"

namespace vcsched::internal {

std::map<std::string, int64_t> CountPodsPerDomain(const Session& ssn, TaskIndex t,
                                                  const TopologySpreadConstraint& c,
                                                  const std::vector<NodeView::Placement>& placements) {
  const Session::State& s = ssn.state();
  const PodSpec& pod = *s.task(t).pod;
  std::map<std::string, int64_t> counts;
  std::vector<const std::string*> domain(s.snapshot->nodes().size(), nullptr);
  for (const NodeInfo& node : s.snapshot->nodes()) {
    auto key = node.spec.labels.find(c.topology_key);
    if (key == node.spec.labels.end() || !MatchNodeSelectorAndAffinity(pod, node.spec)) continue;
    counts[key->second];  // every eligible domain is present, even with no pods
    domain[static_cast<size_t>(node.index)] = &key->second;
  }
  for (const NodeView::Placement& p : placements) {
    const std::string* d = domain[static_cast<size_t>(p.node)];
    if (d == nullptr || p.task == t) continue;
    const PodSpec& op = *s.task(p.task).pod;
    if (op.namespace_ == pod.namespace_ && MatchLabelSelector(c.label_selector, op.labels)) ++counts[*d];
  }
  return counts;
}

bool SelfMatches(const PodSpec& pod, const TopologySpreadConstraint& c) {
  return MatchLabelSelector(c.label_selector, pod.labels);
}

}  // namespace vcsched::internal
