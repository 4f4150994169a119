// Allocate's node choice for a run of identical tasks (same shape) in one job visit.
//
// For built-in predicates and scores, a task's feasibility and score on a node depend
// only on its shape and that node's state, so after a placement on node n only n needs
// another look: the first task of a shape pays for the whole cluster, the rest pay for
// one node and a scan of cached scores. Decisions are exactly those of the full pass.
#ifndef VCSCHED_SRC_ACTIONS_NODE_CHOICE_CACHE_H_
#define VCSCHED_SRC_ACTIONS_NODE_CHOICE_CACHE_H_

#include <cstdint>
#include <vector>

#include "src/actions/helpers.h"

namespace vcsched::internal {

class NodeChoiceCache {
 public:
  // Whether `t` may use the cache: built-in node callbacks only, no pod (anti-)affinity
  // or spread anywhere it could matter, no PreferNoSchedule taints, no nominated node.
  static bool Usable(const Session& ssn, TaskIndex t);

  // The best node for `t` (Volcano's gradients: idle fit first, then future idle), or
  // kNone when no node is feasible. REQUIRES: Usable(ssn, t).
  NodeIndex Choose(Session& ssn, TaskIndex t);
  // The session changed node `n` (a placement); its entry is refreshed on next use.
  void Touch(NodeIndex n) { touched_.push_back(n); }
  void Reset() { shape_ = -1; touched_.clear(); }

 private:
  void Fill(Session& ssn, TaskIndex t);
  void Refresh(Session& ssn, TaskIndex t, NodeIndex n);

  int32_t shape_ = -1;
  std::vector<uint8_t> feasible_, fits_idle_;
  std::vector<double> score_;
  std::vector<NodeIndex> touched_;
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_NODE_CHOICE_CACHE_H_
