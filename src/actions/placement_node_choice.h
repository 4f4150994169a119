// Node choice inside one HyperNode for tasks that a placement scorer scores (network
// topology: a pod's score is the tier it would share with its sub-group's placed pods).
//
// Such a task's whole score changes with every pod its sub-group places, but its
// feasibility and its other scores depend only on its shape and each node's own state
// (Session::NodeLocalScoresReusable). Those are kept per shape and node, and refreshed
// from the session's node-change log, so a try in a HyperNode of N nodes costs one
// look at the nodes that changed plus O(N) additions per task, instead of N
// predicate and scoring passes. The placement and group scores are added anew, in the
// session's order (ScoreNodes), so the choice is exactly SelectBestNodeByGradient's
// over the feasible nodes.
#ifndef VCSCHED_SRC_ACTIONS_PLACEMENT_NODE_CHOICE_H_
#define VCSCHED_SRC_ACTIONS_PLACEMENT_NODE_CHOICE_H_

#include <cstdint>
#include <vector>

#include "src/actions/helpers.h"
#include "src/actions/shape_entries.h"

namespace vcsched::internal {

class PlacementNodeChoice {
 public:
  explicit PlacementNodeChoice(const Session& ssn);

  // Looks at `nodes` (ascending) for `t`; false when none is feasible (the caller's full
  // pass then records why). REQUIRES: ssn.NodeLocalScoresReusable(t).
  bool Rank(const Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes);
  // After a true Rank for `t`: Volcano's gradient (nodes whose idle resources fit, else
  // those whose future idle fits), then the highest score, then the lower index.
  NodeIndex Best(const Session& ssn, TaskIndex t);

 private:
  struct Entry {
    std::vector<uint8_t> known;  // per node: 1 while rank and local are current
    std::vector<uint8_t> rank;   // 2 fits idle, 1 fits only future idle, 0 infeasible
    std::vector<double> local;   // ScoreNodesNodeLocal
    size_t log_pos = 0;          // position in the session's node-change log when synced
  };
  void Sync(const Session& ssn, Entry& e) const;

  size_t num_nodes_;
  ShapeEntries<Entry> entries_;
  std::vector<NodeIndex> pool_;  // Rank's nodes of the best gradient, ascending
  std::vector<double> scores_;   // scratch for Best
};

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_PLACEMENT_NODE_CHOICE_H_
