// Topology-domain counting shared by the topology-spread filter and score, with
// Kubernetes' PodTopologySpread rules (v1.36, NodeInclusionPolicyInPodTopologySpread on).
#ifndef VCSCHED_SRC_PLUGINS_TOPOLOGY_H_
#define VCSCHED_SRC_PLUGINS_TOPOLOGY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/plugins/node_view.h"
#include "vcsched/session.h"

namespace vcsched::internal {

// Whether node `n` takes part in spreading `t` by `constraint`: it carries the topology
// key of every constraint of t of the same kind (DoNotSchedule for the filter,
// ScheduleAnyway for the score), and passes the constraint's node inclusion policies
// (t's node affinity and selector under Honor; its tolerations under taints Honor).
bool NodeCountsForSpread(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& constraint, NodeIndex n);

// Placed pods matching a constraint's selector, per domain of its topology key (domain
// ids of NodeView::DomainsOf). `present` marks the domains of the nodes that count
// (NodeCountsForSpread), with 0 pods or more; only pods on such nodes are counted.
struct DomainCounts {
  const NodeView::Domains* domains = nullptr;
  std::vector<int64_t> count;    // by domain id
  std::vector<uint8_t> present;  // by domain id
  int32_t present_domains = 0;
  // The count of node n's domain: 0 when n has no domain or nothing counted there.
  int64_t OfNode(NodeIndex n) const {
    const int32_t d = domains->of_node[static_cast<size_t>(n)];
    return d < 0 ? 0 : count[static_cast<size_t>(d)];
  }
  // The smallest count among the present domains (INT64_MAX when none is present).
  int64_t MinPresent() const;
};

// For `constraint` of task `t`: the placed pods matching its selector (in t's namespace,
// not terminating) per domain. `placements` are the pods to count (NodeView::AsOf).
DomainCounts CountPodsPerDomain(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& constraint,
                                const std::vector<NodeView::Placement>& placements);

// The same over the pods placed now, found through the view's label index: it costs the
// pods the selector can select, not every pod of the cluster.
DomainCounts CountPodsPerDomainNow(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& constraint,
                                   NodeView& view);

// Whether the pod has a spread constraint of that kind (DoNotSchedule, else ScheduleAnyway).
bool HasSpreadConstraint(const PodSpec& pod, bool do_not_schedule);

// True when the pod's own labels match the constraint's selector (never without one).
bool SelfMatches(const PodSpec& pod, const TopologySpreadConstraint& constraint);
// A pod that counts for `constraint` of `owner`: same namespace, not terminating, selected.
bool CountsForSpread(const PodSpec& other, const PodSpec& owner, const TopologySpreadConstraint& constraint);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_TOPOLOGY_H_
