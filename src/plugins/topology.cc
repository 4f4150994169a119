#include "src/plugins/topology.h"

#include <algorithm>
#include <cstdint>

#include "src/model/k8s_match.h"

namespace vcsched::internal {

namespace {

// The domain tables of the keys of t's constraints of c's kind: a node counts for
// spreading only when it has a domain in each.
std::vector<const NodeView::Domains*> SameKindDomains(const Session& ssn, TaskIndex t,
                                                      const TopologySpreadConstraint& c) {
  const Session& s = ssn;
  std::vector<const NodeView::Domains*> out;
  for (const TopologySpreadConstraint& other : s.task(t).pod->topology_spread_constraints) {
    if (other.do_not_schedule == c.do_not_schedule) out.push_back(&s.Shared<NodeView>().DomainsOf(other.topology_key));
  }
  return out;
}

// NodeCountsForSpread past the topology keys (checked by the caller through `keys`).
bool PassesInclusionPolicies(const PodSpec& pod, const TopologySpreadConstraint& c, const NodeSpec& node) {
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

bool HasEveryKey(const std::vector<const NodeView::Domains*>& keys, NodeIndex n) {
  for (const NodeView::Domains* d : keys) {
    if (d->of_node[static_cast<size_t>(n)] < 0) return false;
  }
  return true;
}

}  // namespace

bool NodeCountsForSpread(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c, NodeIndex n) {
  const Session& s = ssn;
  return HasEveryKey(SameKindDomains(ssn, t, c), n) && PassesInclusionPolicies(*s.task(t).pod, c, s.node_info(n).spec);
}

int64_t DomainCounts::MinPresent() const {
  int64_t min = INT64_MAX;
  for (size_t d = 0; d < count.size(); ++d) {
    if (present[d]) min = std::min(min, count[d]);
  }
  return min;
}

bool CountsForSpread(const PodSpec& other, const PodSpec& owner, const TopologySpreadConstraint& c) {
  return c.has_label_selector && !other.deleting && other.namespace_ == owner.namespace_ &&
         MatchesLabelSelector(c.label_selector, other.labels);
}

namespace {

// The domains of the nodes that count, each present with 0 pods, and for each node its
// domain id when it counts (-1 otherwise).
DomainCounts Domains(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c,
                     std::vector<int32_t>& counting_domain) {
  const Session& s = ssn;
  const PodSpec& pod = *s.task(t).pod;
  const std::vector<const NodeView::Domains*> keys = SameKindDomains(ssn, t, c);
  DomainCounts out;
  out.domains = &s.Shared<NodeView>().DomainsOf(c.topology_key);
  out.count.assign(out.domains->value.size(), 0);
  out.present.assign(out.domains->value.size(), 0);
  counting_domain.assign(s.snapshot().nodes().size(), -1);
  for (const NodeInfo& node : s.snapshot().nodes()) {
    if (!HasEveryKey(keys, node.index) || !PassesInclusionPolicies(pod, c, node.spec)) continue;
    const int32_t d = out.domains->of_node[static_cast<size_t>(node.index)];
    if (!out.present[static_cast<size_t>(d)]) {
      out.present[static_cast<size_t>(d)] = 1;
      ++out.present_domains;
    }
    counting_domain[static_cast<size_t>(node.index)] = d;
  }
  return out;
}

}  // namespace

DomainCounts CountPodsPerDomain(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c,
                                const std::vector<NodeView::Placement>& placements) {
  const Session& s = ssn;
  std::vector<int32_t> domain;
  DomainCounts counts = Domains(ssn, t, c, domain);
  if (!c.has_label_selector) return counts;  // selects no pod
  for (const NodeView::Placement& p : placements) {
    const int32_t d = domain[static_cast<size_t>(p.node)];
    if (d < 0 || p.task == t) continue;
    if (CountsForSpread(*s.task(p.task).pod, *s.task(t).pod, c)) ++counts.count[static_cast<size_t>(d)];
  }
  return counts;
}

DomainCounts CountPodsPerDomainNow(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c,
                                   NodeView& view) {
  const Session& s = ssn;
  std::vector<int32_t> domain;
  DomainCounts counts = Domains(ssn, t, c, domain);
  if (!c.has_label_selector) return counts;  // selects no pod
  std::string key, value;
  const std::vector<TaskIndex>* candidates = SelectorRequiredLabel(c.label_selector, &key, &value)
                                                 ? view.PodsWithLabel(key, value)
                                                 : &view.PodsEverPlaced();
  if (candidates == nullptr) return counts;  // no pod has had the label
  for (TaskIndex o : *candidates) {
    const NodeIndex n = view.node_of(o);
    if (n == kNone || o == t) continue;
    const int32_t d = domain[static_cast<size_t>(n)];
    if (d >= 0 && CountsForSpread(*s.task(o).pod, *s.task(t).pod, c)) ++counts.count[static_cast<size_t>(d)];
  }
  return counts;
}

bool SelfMatches(const PodSpec& pod, const TopologySpreadConstraint& c) {
  return c.has_label_selector && MatchesLabelSelector(c.label_selector, pod.labels);
}

}  // namespace vcsched::internal
