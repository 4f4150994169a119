#include "src/actions/node_choice_cache.h"

namespace vcsched::internal {

bool NodeChoiceCache::Usable(Session& ssn, TaskIndex t) { return ssn.NodeChoiceReusable(t); }

NodeIndex NodeChoiceCache::Better(const Entry& e, NodeIndex a, NodeIndex b) {
  if (b == kNone) return a;
  if (a == kNone) return b;
  const uint8_t ra = e.rank[static_cast<size_t>(a)], rb = e.rank[static_cast<size_t>(b)];
  if (ra != rb) return ra > rb ? a : b;
  // a always has the lower index here (left subtree), so it keeps ties.
  return e.score[static_cast<size_t>(b)] > e.score[static_cast<size_t>(a)] ? b : a;
}

void NodeChoiceCache::BuildTree(Entry& e) {
  const size_t n = e.rank.size();
  e.leaves = 1;
  while (e.leaves < n) e.leaves *= 2;
  e.tree.assign(2 * e.leaves, kNone);
  for (size_t i = 0; i < n; ++i) e.tree[e.leaves + i] = static_cast<NodeIndex>(i);
  for (size_t k = e.leaves - 1; k >= 1; --k) e.tree[k] = Better(e, e.tree[2 * k], e.tree[2 * k + 1]);
}

void NodeChoiceCache::UpdateTree(Entry& e, NodeIndex n) {
  for (size_t k = (e.leaves + static_cast<size_t>(n)) / 2; k >= 1; k /= 2) {
    e.tree[k] = Better(e, e.tree[2 * k], e.tree[2 * k + 1]);
  }
}

void NodeChoiceCache::Refresh(Session& ssn, TaskIndex t, NodeIndex n, Entry& e) {
  const Session& s = ssn;
  const size_t i = static_cast<size_t>(n);
  const bool feasible = s.NodeFitsFutureIdle(s.task_resreq(t), n) && ssn.Predicate(t, n).ok();
  e.rank[i] = !feasible ? 0 : s.NodeFitsIdle(s.task_resreq(t), n) ? 2 : 1;
  if (feasible) {
    const NodeIndex one[] = {n};
    ssn.ScoreNodes(t, one, absl::MakeSpan(&e.score[i], 1));
  }
  UpdateTree(e, n);
}

void NodeChoiceCache::Fill(Session& ssn, TaskIndex t, Entry& e) {
  const Session& s = ssn;
  const size_t n = s.snapshot().nodes().size();
  e.rank.assign(n, 0);
  e.score.assign(n, 0.0);
  std::vector<NodeIndex> feasible;
  feasible.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const NodeIndex node = static_cast<NodeIndex>(i);
    if (!s.NodeFitsFutureIdle(s.task_resreq(t), node) || !ssn.Predicate(t, node).ok()) continue;
    e.rank[i] = s.NodeFitsIdle(s.task_resreq(t), node) ? 2 : 1;
    feasible.push_back(node);
  }
  std::vector<double> scores(feasible.size());
  ssn.ScoreNodes(t, feasible, absl::MakeSpan(scores));
  for (size_t k = 0; k < feasible.size(); ++k) e.score[static_cast<size_t>(feasible[k])] = scores[k];
  BuildTree(e);
  e.log_pos = s.node_change_log().size();
}

NodeIndex NodeChoiceCache::Choose(Session& ssn, TaskIndex t) {
  const Session& s = ssn;
  auto [it, fresh] = entries_.try_emplace(s.task_shape(t));
  Entry& e = it->second;
  const absl::Span<const NodeIndex> log = s.node_change_log();
  if (fresh || log.size() - e.log_pos > e.rank.size() / 4 + 1) {
    Fill(ssn, t, e);
  } else {
    // A node logged twice in a row (allocate, then bind) needs one look at its state now.
    for (size_t k = e.log_pos; k < log.size(); ++k) {
      if (k == e.log_pos || log[k] != log[k - 1]) Refresh(ssn, t, log[k], e);
    }
    e.log_pos = log.size();
  }
  if (e.tree.size() < 2) return kNone;
  const NodeIndex best = e.tree[1];
  return best != kNone && e.rank[static_cast<size_t>(best)] > 0 ? best : kNone;
}

}  // namespace vcsched::internal
