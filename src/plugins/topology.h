// Topology-domain counting shared by the topology-spread filter and score.
#ifndef VCSCHED_SRC_PLUGINS_TOPOLOGY_H_
#define VCSCHED_SRC_PLUGINS_TOPOLOGY_H_

#include <map>
#include <string>

#include "src/plugins/node_view.h"
#include "vcsched/session.h"

namespace vcsched::internal {

// For `constraint` of task `t`: the number of placed pods matching its selector (in t's
// namespace) per value of the topology key, over the nodes that pass t's node
// selector/affinity and carry the key. Every such domain is present, possibly with 0.
// `placements` are the pods to count (NodeView::AsOf).
std::map<std::string, int64_t> CountPodsPerDomain(const Session& ssn, TaskIndex t,
                                                  const TopologySpreadConstraint& constraint,
                                                  const std::vector<NodeView::Placement>& placements);

// True when the pod's own labels match the constraint's selector.
bool SelfMatches(const PodSpec& pod, const TopologySpreadConstraint& constraint);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_TOPOLOGY_H_
