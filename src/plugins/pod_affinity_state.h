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
#include "src/plugins/node_view.h"
#include "vcsched/snapshot.h"

namespace vcsched::internal {

class PodAffinityState {
 public:
  // From the pods placed now, found through the view's label index.
  static PodAffinityState FromView(const Snapshot& snap, TaskIndex t, NodeView& view);
  // From an explicit list of placements (the preemption dry run, with victims removed);
  // the view lends only its topology domains.
  static PodAffinityState FromPlacements(const Snapshot& snap, TaskIndex t, const NodeView& view,
                                         const std::vector<NodeView::Placement>& placed);

  // satisfyExistingPodsAntiAffinity: no placed pod's required anti-affinity term that
  // selects the incoming pod has a pod in a domain of this node.
  bool ExistingAntiAffinityOk(NodeIndex n) const {
    for (const KeyCounts& c : existing_anti_) {
      if (c.At(n) > 0) return false;
    }
    return true;
  }
  // satisfyPodAntiAffinity: no pod selected by an incoming anti-affinity term in the
  // term's domain of this node. Every key's counts hold the pods of all the terms with
  // that key, as Kubernetes' topology pairs do.
  bool AntiAffinityOk(NodeIndex n) const {
    for (const KeyCounts& c : anti_) {
      if (c.At(n) > 0) return false;
    }
    return true;
  }
  // satisfyPodAffinity: the node has every term's topology key, and each domain holds a
  // pod matching all the terms, or no such pod exists anywhere and the incoming pod
  // matches its own terms (the first pod of a group).
  bool AffinityOk(NodeIndex n) const;
  // Whether every node passes the three checks: no counts to look at, no affinity term.
  bool PassesEverywhere() const { return existing_anti_.empty() && anti_.empty() && affinity_slot_.empty(); }
  // Appends the nodes that may fail the checks, every other node passing them all (the
  // nodes of the domains holding a counted pod); false when that cannot be bounded so
  // (with affinity terms a node without a counted pod fails, or passes as the first).
  bool AppendFailableNodes(std::vector<NodeIndex>& out) const;

 private:
  // Matching pods per domain of one topology key (Kubernetes' topology pairs with that
  // key), by the view's domain ids: a node's check is an array read, not a label lookup.
  // A key with many domains (the hostname: one per node) keeps its counts in a hash
  // map, so that a state costs the pods it counts, not the nodes.
  static constexpr size_t kDenseDomains = 64;
  struct KeyCounts {
    const std::string* key;
    const NodeView::Domains* domains;
    std::vector<int64_t> count;  // by domain id, with few domains
    absl::flat_hash_map<int32_t, int64_t> sparse;  // by domain id, with many
    std::vector<int32_t> counted;  // the domains with a count, each once
    int64_t CountOf(int32_t d) const {
      if (!count.empty()) return count[static_cast<size_t>(d)];
      auto it = sparse.find(d);
      return it == sparse.end() ? 0 : it->second;
    }
    int64_t At(NodeIndex n) const {
      const int32_t d = domains->of_node[static_cast<size_t>(n)];
      return d < 0 ? 0 : CountOf(d);
    }
  };
  PodAffinityState(const Snapshot& snap, TaskIndex t, const NodeView& view);
  // The counts of `key`, added (all zero) on first use.
  KeyCounts* Slot(std::vector<KeyCounts>& counts, const std::string& key);
  // Adds one pod on node `n` to its domain of `key`; false when n lacks the key.
  bool Count(std::vector<KeyCounts>& counts, const std::string& key, NodeIndex n);
  // Counts placed pod `other` on node `n` for the rules of the incoming pod.
  void AddExisting(TaskIndex other, NodeIndex n);  // its anti-affinity against us
  void AddIncoming(TaskIndex other, NodeIndex n);  // our terms against it

  const Snapshot* snap_;
  const NodeView* view_;
  const PodSpec* pod_;
  std::vector<KeyCounts> existing_anti_, anti_, affinity_;  // a few keys each
  std::vector<int> affinity_slot_;  // by affinity term: its key's entry in affinity_
  int64_t affinity_total_ = 0;      // pods counted for affinity, in any domain
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_PLUGINS_POD_AFFINITY_STATE_H_
