// Topology-domain counting shared by the topology-spread filter and score, with
// Kubernetes' PodTopologySpread rules (v1.36, NodeInclusionPolicyInPodTopologySpread on).
#ifndef VCSCHED_SRC_PLUGINS_TOPOLOGY_H_
#define VCSCHED_SRC_PLUGINS_TOPOLOGY_H_

#include <map>
#include <string>

#include "src/plugins/node_view.h"
#include "vcsched/session.h"

namespace vcsched::internal {

// Whether node `n` takes part in spreading `t` by `constraint`: it carries the topology
// key of every constraint of t of the same kind (DoNotSchedule for the filter,
// ScheduleAnyway for the score), and passes the constraint's node inclusion policies
// (t's node affinity and selector under Honor; its tolerations under taints Honor).
bool NodeCountsForSpread(const Session& ssn, TaskIndex t, const TopologySpreadConstraint& constraint, NodeIndex n);

// For `constraint` of task `t`: the number of placed pods matching its selector (in t's
// namespace, not terminating) per value of the topology key, over the nodes that count
// (NodeCountsForSpread). Every such domain is present, possibly with 0. `placements` are
// the pods to count (NodeView::AsOf).
std::map<std::string, int64_t> CountPodsPerDomain(const Session& ssn, TaskIndex t,
                                                  const TopologySpreadConstraint& constraint,
                                                  const std::vector<NodeView::Placement>& placements);

// The same over the pods placed now, found through the view's label index: it costs the
// pods the selector can select, not every pod of the cluster.
std::map<std::string, int64_t> CountPodsPerDomainNow(const Session& ssn, TaskIndex t,
                                                     const TopologySpreadConstraint& constraint, NodeView& view);

// True when the pod's own labels match the constraint's selector (never without one).
bool SelfMatches(const PodSpec& pod, const TopologySpreadConstraint& constraint);
// A pod that counts for `constraint` of `owner`: same namespace, not terminating, selected.
bool CountsForSpread(const PodSpec& other, const PodSpec& owner, const TopologySpreadConstraint& constraint);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_TOPOLOGY_H_
