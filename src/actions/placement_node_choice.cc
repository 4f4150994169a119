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

bool PlacementNodeChoice::RankAll(const Session& ssn, TaskIndex t) {
  Entry& e = *all_entries_.Get(ssn.task_shape(t), num_nodes_).first;
  const absl::Span<const NodeIndex> log = ssn.node_change_log();
  if (!e.listed || log.size() - e.log_pos > num_nodes_) {
    e.rank.assign(num_nodes_, 0);
    e.local.assign(num_nodes_, 0.0);
    e.idle.clear();
    e.future.clear();
    for (size_t i = 0; i < num_nodes_; ++i) {
      const NodeIndex n = static_cast<NodeIndex>(i);
      Look(ssn, t, n, e);
      if (e.rank[i] == 2) e.idle.push_back(n);
      if (e.rank[i] == 1) e.future.push_back(n);
    }
    e.listed = true;
    BuildTree(e);
  } else {
    const auto list_of = [&](uint8_t rank) { return rank == 2 ? &e.idle : rank == 1 ? &e.future : nullptr; };
    for (size_t k = e.log_pos; k < log.size(); ++k) {
      const NodeIndex n = log[k];
      const uint8_t was = e.rank[static_cast<size_t>(n)];
      Look(ssn, t, n, e);
      const uint8_t now = e.rank[static_cast<size_t>(n)];
      UpdateTree(e, n);
      if (was == now) continue;
      if (std::vector<NodeIndex>* from = list_of(was)) from->erase(std::lower_bound(from->begin(), from->end(), n));
      if (std::vector<NodeIndex>* to = list_of(now)) to->insert(std::lower_bound(to->begin(), to->end(), n), n);
    }
  }
  e.log_pos = log.size();
  if (!ssn.HasGroupNodeOrderFns() && ssn.PlacementBoundNodes(t, bound_) && bound_.size() <= num_nodes_ / 8) {
    return RankBounded(ssn, t, e);
  }
  return Pool(ssn, t, e, e.idle, e.future);
}

bool PlacementNodeChoice::RankBounded(const Session& ssn, TaskIndex t, Entry& e) {
  // The best node outside bound_: the tree's winner with bound_'s nodes masked. Every
  // node outside bound_ gets the same placement answers, so of those only this one can
  // win, and it stands for the others where a scorer looks at the whole set (Best).
  for (NodeIndex n : bound_) {
    e.masked[static_cast<size_t>(n)] = 1;
    UpdateTree(e, n);
  }
  const NodeIndex other = e.tree[1];
  for (NodeIndex n : bound_) {
    e.masked[static_cast<size_t>(n)] = 0;
    UpdateTree(e, n);
  }
  idle_.clear();
  future_.clear();
  bool placed_other = other == kNone || e.rank[static_cast<size_t>(other)] == 0;
  for (NodeIndex n : bound_) {
    if (!placed_other && other < n) {
      (e.rank[static_cast<size_t>(other)] == 2 ? idle_ : future_).push_back(other);
      placed_other = true;
    }
    const uint8_t rank = e.rank[static_cast<size_t>(n)];
    if (rank != 0) (rank == 2 ? idle_ : future_).push_back(n);
  }
  if (!placed_other) (e.rank[static_cast<size_t>(other)] == 2 ? idle_ : future_).push_back(other);
  return Pool(ssn, t, e, idle_, future_);
}

NodeIndex PlacementNodeChoice::Better(const Entry& e, NodeIndex a, NodeIndex b) {
  if (b == kNone) return a;  // a masked node's leaf holds kNone
  if (a == kNone) return b;
  const uint8_t ra = e.rank[static_cast<size_t>(a)], rb = e.rank[static_cast<size_t>(b)];
  if (ra != rb) return ra > rb ? a : b;
  // a has the lower index here (left subtree), so it keeps ties.
  return e.local[static_cast<size_t>(b)] > e.local[static_cast<size_t>(a)] ? b : a;
}

void PlacementNodeChoice::BuildTree(Entry& e) {
  const size_t n = e.rank.size();
  e.masked.assign(n, 0);
  e.leaves = 1;
  while (e.leaves < n) e.leaves *= 2;
  e.tree.assign(2 * e.leaves, kNone);
  for (size_t i = 0; i < n; ++i) e.tree[e.leaves + i] = static_cast<NodeIndex>(i);
  for (size_t k = e.leaves - 1; k >= 1; --k) e.tree[k] = Better(e, e.tree[2 * k], e.tree[2 * k + 1]);
}

void PlacementNodeChoice::UpdateTree(Entry& e, NodeIndex n) {
  const size_t leaf = e.leaves + static_cast<size_t>(n);
  e.tree[leaf] = e.masked[static_cast<size_t>(n)] ? kNone : n;
  for (size_t k = leaf / 2; k >= 1; k /= 2) e.tree[k] = Better(e, e.tree[2 * k], e.tree[2 * k + 1]);
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
