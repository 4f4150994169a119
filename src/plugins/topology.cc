#include "src/plugins/topology.h"

#include "src/internal/k8s_match.h"
#include "src/session_state.h"

namespace vcsched::internal {

bool NodeCountsForSpread(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c, NodeIndex n) {
  const Session::State& s = ssn.state();
  const PodSpec& pod = *s.task(t).pod;
  const NodeSpec& node = s.node_info(n).spec;
  for (const TopologySpreadConstraint& other : pod.topology_spread_constraints) {
    if (other.do_not_schedule == c.do_not_schedule && node.labels.count(other.topology_key) == 0) return false;
  }
  if (c.honor_node_affinity && !MatchNodeSelectorAndAffinity(pod, node)) return false;
  if (c.honor_node_taints) {
    for (const Taint& taint : node.taints) {
      if ((taint.effect == "NoSchedule" || taint.effect == "NoExecute") && !ToleratesTaint(pod.tolerations, taint)) {
        return false;
      }
    }
  }
  return true;
}

bool CountsForSpread(const PodSpec& other, const PodSpec& owner, const TopologySpreadConstraint& c) {
  return c.has_label_selector && !other.deleting && other.namespace_ == owner.namespace_ &&
         MatchLabelSelector(c.label_selector, other.labels);
}

namespace {

// The domains of the nodes that count, each with 0 pods, and each node's domain.
std::map<std::string, int64_t> Domains(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c,
                                       std::vector<const std::string*>& domain) {
  const Session::State& s = ssn.state();
  std::map<std::string, int64_t> counts;
  domain.assign(s.snapshot->nodes().size(), nullptr);
  for (const NodeInfo& node : s.snapshot->nodes()) {
    if (!NodeCountsForSpread(ssn, t, c, node.index)) continue;
    const std::string& value = node.spec.labels.find(c.topology_key)->second;
    counts[value];  // every eligible domain is present, even with no pods
    domain[static_cast<size_t>(node.index)] = &value;
  }
  return counts;
}

}  // namespace

std::map<std::string, int64_t> CountPodsPerDomain(const Session& ssn, TaskIndex t,
                                                  const TopologySpreadConstraint& c,
                                                  const std::vector<NodeView::Placement>& placements) {
  const Session::State& s = ssn.state();
  std::vector<const std::string*> domain;
  std::map<std::string, int64_t> counts = Domains(ssn, t, c, domain);
  if (!c.has_label_selector) return counts;  // selects no pod
  for (const NodeView::Placement& p : placements) {
    const std::string* d = domain[static_cast<size_t>(p.node)];
    if (d == nullptr || p.task == t) continue;
    if (CountsForSpread(*s.task(p.task).pod, *s.task(t).pod, c)) ++counts[*d];
  }
  return counts;
}

std::map<std::string, int64_t> CountPodsPerDomainNow(const Session& ssn, TaskIndex t,
                                                     const TopologySpreadConstraint& c, NodeView& view) {
  const Session::State& s = ssn.state();
  std::vector<const std::string*> domain;
  std::map<std::string, int64_t> counts = Domains(ssn, t, c, domain);
  if (!c.has_label_selector) return counts;  // selects no pod
  std::string key, value;
  const std::vector<TaskIndex>* candidates = SelectorRequiredLabel(c.label_selector, &key, &value)
                                                 ? view.PodsWithLabel(key, value)
                                                 : &view.PodsEverPlaced();
  if (candidates == nullptr) return counts;  // no pod has had the label
  for (TaskIndex o : *candidates) {
    const NodeIndex n = view.node_of(o);
    if (n == kNone || o == t) continue;
    const std::string* d = domain[static_cast<size_t>(n)];
    if (d != nullptr && CountsForSpread(*s.task(o).pod, *s.task(t).pod, c)) ++counts[*d];
  }
  return counts;
}

bool SelfMatches(const PodSpec& pod, const TopologySpreadConstraint& c) {
  return c.has_label_selector && MatchLabelSelector(c.label_selector, pod.labels);
}

}  // namespace vcsched::internal
