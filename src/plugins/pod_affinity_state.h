// Kubernetes' InterPodAffinity PreFilter state: for one incoming pod, how many placed
// pods count in each topology domain (key, value) for the three required rules. Made
// once per task, when its PreFilter runs, so that each node's check is a few lookups
// instead of a walk over every placed pod (which made sessions cubic in real clusters).
#ifndef VCSCHED_SRC_PLUGINS_POD_AFFINITY_STATE_H_
#define VCSCHED_SRC_PLUGINS_POD_AFFINITY_STATE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "src/plugins/node_view.h"
#include "vcsched/snapshot.h"

namespace vcsched::internal {

class PodAffinityState {
 public:
  // From the pods placed now, found through the view's label index.
  static PodAffinityState FromView(const Snapshot& snap, TaskIndex t, NodeView& view);
  // From an explicit list of placements (the preemption dry run, with victims removed).
  static PodAffinityState FromPlacements(const Snapshot& snap, TaskIndex t,
                                         const std::vector<NodeView::Placement>& placed);

  // satisfyExistingPodsAntiAffinity: no placed pod's required anti-affinity term that
  // selects the incoming pod has a pod in a domain of this node.
  bool ExistingAntiAffinityOk(const NodeSpec& node) const;
  // satisfyPodAntiAffinity: no pod selected by an incoming anti-affinity term in the
  // term's domain of this node.
  bool AntiAffinityOk(const NodeSpec& node) const;
  // satisfyPodAffinity: the node has every term's topology key, and each domain holds a
  // pod matching all the terms, or no such pod exists anywhere and the incoming pod
  // matches its own terms (the first pod of a group).
  bool AffinityOk(const NodeSpec& node) const;

 private:
  // Views of a topology key and a node's label value: both live in the snapshot, so
  // counting makes no strings.
  using Pair = std::pair<absl::string_view, absl::string_view>;
  PodAffinityState(const Snapshot& snap, TaskIndex t);
  // Counts placed pod `other` on `node` for the rules of the incoming pod.
  void AddExisting(TaskIndex other, const NodeSpec& node);  // its anti-affinity against us
  void CountExistingAnti(const PodAffinityTerm& term, const NodeSpec& node);  // a term that selects us
  void AddIncoming(TaskIndex other, const NodeSpec& node);  // our terms against it

  const Snapshot* snap_;
  TaskIndex task_;
  const PodSpec* pod_;
  absl::flat_hash_map<Pair, int64_t> existing_anti_, anti_, affinity_;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_POD_AFFINITY_STATE_H_
