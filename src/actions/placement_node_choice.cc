#include "src/actions/placement_node_choice.h"

#include <algorithm>

namespace vcsched::internal {

PlacementNodeChoice::PlacementNodeChoice(const Session& ssn) : num_nodes_(static_cast<size_t>(ssn.num_nodes())) {}

void PlacementNodeChoice::Sync(const Session& ssn, Entry& e) const {
  const absl::Span<const NodeIndex> log = ssn.node_change_log();
  if (e.known.size() != num_nodes_ || log.size() - e.log_pos > num_nodes_) {
    e.known.assign(num_nodes_, 0);
    e.rank.resize(num_nodes_);
    e.local.resize(num_nodes_);
  } else {
    for (size_t k = e.log_pos; k < log.size(); ++k) e.known[static_cast<size_t>(log[k])] = 0;
  }
  e.log_pos = log.size();
}

void PlacementNodeChoice::Look(const Session& ssn, TaskIndex t, NodeIndex n, Entry& e) {
  const size_t i = static_cast<size_t>(n);
  const absl::Span<const int64_t> req = ssn.task_resreq(t);
  const bool feasible = ssn.NodeFitsFutureIdle(req, n) && ssn.PredicateNodeLocalOk(t, n);
  e.rank[i] = !feasible ? 0 : ssn.NodeFitsIdle(req, n) ? 2 : 1;
  if (feasible) {
    const NodeIndex one[] = {n};
    ssn.ScoreNodesNodeLocal(t, one, absl::MakeSpan(&e.local[i], 1));
  }
}

bool PlacementNodeChoice::Pool(const Session& ssn, TaskIndex t, const Entry& e, const std::vector<NodeIndex>& idle,
                               const std::vector<NodeIndex>& future) {
  const bool checks = ssn.PlacementPredicatesApply(t);
  pool_.assign(idle.begin(), idle.end());
  if (checks) ssn.KeepPlacementFeasible(t, pool_);
  if (pool_.empty()) {
    pool_.assign(future.begin(), future.end());
    if (checks) ssn.KeepPlacementFeasible(t, pool_);
  }
  if (pool_.empty()) return false;
  scores_.resize(pool_.size());
  for (size_t k = 0; k < pool_.size(); ++k) scores_[k] = e.local[static_cast<size_t>(pool_[k])];
  return true;
}

bool PlacementNodeChoice::Rank(const Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes) {
  Entry& e = *entries_.Get(ssn.task_shape(t), num_nodes_).first;
  Sync(ssn, e);
  idle_.clear();
  future_.clear();
  for (NodeIndex n : nodes) {
    const size_t i = static_cast<size_t>(n);
    if (!e.known[i]) {
      e.known[i] = 1;
      Look(ssn, t, n, e);
    }
    if (e.rank[i] == 2) idle_.push_back(n);
    if (e.rank[i] == 1) future_.push_back(n);
  }
  return Pool(ssn, t, e, idle_, future_);
}

NodeIndex PlacementNodeChoice::Best(const Session& ssn, TaskIndex t) {
  if (pool_.empty()) return kNone;
  const absl::Span<double> scores = absl::MakeSpan(scores_);
  ssn.AddPlacementScores(t, pool_, scores);
  ssn.AddGroupScores(t, pool_, scores);
  size_t best = 0;  // ascending nodes: the first of the highest is the lowest index
  for (size_t k = 1; k < pool_.size(); ++k) {
    if (scores[k] > scores[best]) best = k;
  }
  return pool_[best];
}

}  // namespace vcsched::internal
