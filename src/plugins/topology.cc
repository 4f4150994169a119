#include "src/plugins/topology.h"

#include <algorithm>
#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

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
struct CountingDomains {
  DomainCounts zero;
  std::vector<int32_t> of_node;
};

void WorkOutCountingDomains(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c, CountingDomains& out) {
  const Session& s = ssn;
  const PodSpec& pod = *s.task(t).pod;
  const std::vector<const NodeView::Domains*> keys = SameKindDomains(ssn, t, c);
  DomainCounts& zero = out.zero;
  zero = DomainCounts();
  zero.domains = &s.Shared<NodeView>().DomainsOf(c.topology_key);
  zero.count.assign(zero.domains->value.size(), 0);
  zero.present.assign(zero.domains->value.size(), 0);
  out.of_node.assign(s.snapshot().nodes().size(), -1);
  for (const NodeInfo& node : s.snapshot().nodes()) {
    if (!HasEveryKey(keys, node.index) || !PassesInclusionPolicies(pod, c, node.spec)) continue;
    const int32_t d = zero.domains->of_node[static_cast<size_t>(node.index)];
    if (!zero.present[static_cast<size_t>(d)]) {
      zero.present[static_cast<size_t>(d)] = 1;
      ++zero.present_domains;
    }
    out.of_node[static_cast<size_t>(node.index)] = d;
  }
}

// CountingDomains depend on the task only through its node selector and tolerations
// (its shape, when shared: kTaskPodTermsOnly) and the constraint's keys and policies,
// so the tasks of a job share them: kept per session, within a budget of node slots
// (a hostile input may have a shape per pod).
class CountingDomainsCache {
 public:
  explicit CountingDomainsCache(const Session&) {}

  const CountingDomains& Get(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c) {
    if (!(ssn.task_flags(t) & kTaskPodTermsOnly)) {
      WorkOutCountingDomains(ssn, t, c, scratch_);
      return scratch_;
    }
    key_.clear();
    absl::StrAppend(&key_, ssn.task_shape(t), c.honor_node_affinity ? "|a" : "|-", c.honor_node_taints ? "t|" : "-|",
                    c.topology_key.size(), ":", c.topology_key);
    for (const TopologySpreadConstraint& other : ssn.task(t).pod->topology_spread_constraints) {
      if (other.do_not_schedule == c.do_not_schedule) absl::StrAppend(&key_, "|", other.topology_key.size(), ":", other.topology_key);
    }
    auto it = entries_.find(key_);
    if (it != entries_.end()) return it->second;
    const size_t nodes = static_cast<size_t>(ssn.num_nodes());
    if ((entries_.size() + 1) * std::max<size_t>(nodes, 1) > kNodeSlots) entries_.clear();
    CountingDomains& made = entries_[key_];
    WorkOutCountingDomains(ssn, t, c, made);
    return made;
  }

 private:
  static constexpr size_t kNodeSlots = size_t{1} << 22;
  std::string key_;
  CountingDomains scratch_;
  absl::flat_hash_map<std::string, CountingDomains> entries_;
};

const CountingDomains& CountingDomainsOf(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c) {
  return ssn.Shared<CountingDomainsCache>().Get(ssn, t, c);
}

}  // namespace

DomainCounts CountPodsPerDomain(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& c,
                                const std::vector<NodeView::Placement>& placements) {
  const Session& s = ssn;
  const CountingDomains& counting = CountingDomainsOf(ssn, t, c);
  const std::vector<int32_t>& domain = counting.of_node;
  DomainCounts counts = counting.zero;
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
  const CountingDomains& counting = CountingDomainsOf(ssn, t, c);
  const std::vector<int32_t>& domain = counting.of_node;
  DomainCounts counts = counting.zero;
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

bool HasSpreadConstraint(const PodSpec& pod, bool do_not_schedule) {
  return std::any_of(pod.topology_spread_constraints.begin(), pod.topology_spread_constraints.end(),
                     [&](const TopologySpreadConstraint& c) { return c.do_not_schedule == do_not_schedule; });
}

bool SelfMatches(const PodSpec& pod, const TopologySpreadConstraint& c) {
  return c.has_label_selector && MatchesLabelSelector(c.label_selector, pod.labels);
}

}  // namespace vcsched::internal
