// Allocate's node choice for a run of identical tasks (same shape) in one job visit.
//
// For built-in predicates and scores, a task's feasibility and score on a node depend
// only on its shape and that node's state, so after a placement on node n only n needs
// another look: the first task of a shape pays for the whole cluster, later tasks of the
// same shape (in any job) replay the session's log of changed nodes and scan cached
// scores. Decisions are exactly those of the full pass.
#ifndef VCSCHED_SRC_ACTIONS_NODE_CHOICE_CACHE_H_
#define VCSCHED_SRC_ACTIONS_NODE_CHOICE_CACHE_H_

#include <cstdint>
#include <map>
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

 private:
  struct Entry {
    std::vector<uint8_t> feasible, fits_idle;
    std::vector<double> score;
    size_t log_pos = 0;  // position in the session's node-change log when last synced
  };
  void Fill(Session& ssn, TaskIndex t, Entry& e);
  void Refresh(Session& ssn, TaskIndex t, NodeIndex n, Entry& e);

  std::map<int32_t, Entry> entries_;  // by task shape
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_NODE_CHOICE_CACHE_H_
