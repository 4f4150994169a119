#include "src/actions/node_choice_cache.h"

#include <algorithm>

namespace vcsched::internal {

bool NodeChoiceCache::Usable(Session& ssn, TaskIndex t) { return ssn.NodeChoiceReusable(t); }

NodeIndex NodeChoiceCache::Better(const Entry& e, NodeIndex a, NodeIndex b) {
  if (b == kNone) return a;
  if (a == kNone) return b;
  return ByRankThenScore{&e.rank, &e.score}(a, b);  // a, from the left subtree, keeps ties
}

void NodeChoiceCache::BuildTree(Entry& e) {
  const size_t n = e.rank.size();
  e.leaves = 1;
  while (e.leaves < n) e.leaves *= 2;
  e.tree.assign(2 * e.leaves, kNone);
  for (size_t i = 0; i < n; ++i) e.tree[e.leaves + i] = static_cast<NodeIndex>(i);
  for (size_t k = e.leaves - 1; k >= 1; --k) e.tree[k] = Better(e, e.tree[2 * k], e.tree[2 * k + 1]);
}

void NodeChoiceCache::Refresh(Session& ssn, TaskIndex t, NodeIndex n, Entry& e) {
  const Session& s = ssn;
  const size_t i = static_cast<size_t>(n);
  const bool feasible = s.NodeFitsFutureIdle(s.task_resreq(t), n) && s.PredicateNodeLocalOk(t, n);
  e.rank[i] = !feasible ? 0 : s.NodeFitsIdle(s.task_resreq(t), n) ? 2 : 1;
  if (feasible) {  // Regroup adds the groups' scores and updates the trees
    const NodeIndex one[] = {n};
    ssn.ScoreNodesUngrouped(t, one, absl::MakeSpan(&e.ungrouped[i], 1));
  }
}

void NodeChoiceCache::Regroup(const Session& ssn, TaskIndex t, Entry& e, const std::vector<NodeIndex>& changed,
                              bool rebuild) {
  if (e.by_group) {
    RegroupByGroup(ssn, t, e, changed, rebuild);
    return;
  }
  const size_t n = e.rank.size();
  const size_t scorers = ssn.num_group_node_order_fns();
  std::vector<std::vector<double>> now(scorers);
  std::vector<std::vector<uint8_t>> moved(scorers);
  bool any_moved = false;
  for (size_t k = 0; k < scorers; ++k) {
    ssn.ScoreGroups(t, k, &now[k]);
    moved[k].assign(now[k].size(), 1);
    if (!rebuild && k < e.group_scores.size() && e.group_scores[k].size() == now[k].size()) {
      for (size_t g = 0; g < now[k].size(); ++g) moved[k][g] = now[k][g] != e.group_scores[k][g];
    }
    any_moved |= std::find(moved[k].begin(), moved[k].end(), 1) != moved[k].end();
  }
  e.group_scores = std::move(now);
  const auto total = [&](size_t i) {
    double v = e.ungrouped[i];
    for (size_t k = 0; k < scorers; ++k) {
      v += e.group_scores[k][static_cast<size_t>(ssn.node_group(k, static_cast<NodeIndex>(i)))];
    }
    return v;
  };
  if (rebuild) {
    for (size_t i = 0; i < n; ++i) e.score[i] = total(i);
    BuildTree(e);
    return;
  }
  std::vector<NodeIndex> update = changed;
  if (any_moved) {
    for (size_t k = 0; k < scorers; ++k) {
      for (size_t g = 0; g < moved[k].size(); ++g) {
        if (!moved[k][g]) continue;
        const absl::Span<const NodeIndex> members = ssn.group_nodes(k, static_cast<int32_t>(g));
        update.insert(update.end(), members.begin(), members.end());
      }
    }
  }
  if (update.size() > n / 2) {  // a rebuild compares 2n times
    for (size_t i = 0; i < n; ++i) e.score[i] = total(i);
    BuildTree(e);
    return;
  }
  for (NodeIndex node : update) e.score[static_cast<size_t>(node)] = total(static_cast<size_t>(node));
  UpdateTreeAt(e, std::move(update));
}

namespace {

// Re-ranks a tournament tree (leaves at [leaves, 2*leaves)) above the leaves at the
// sorted, distinct positions `at`, level by level; halving keeps them sorted.
template <typename BetterFn>
void UpdatePaths(std::vector<NodeIndex>& tree, size_t leaves, std::vector<size_t> at, BetterFn better) {
  for (size_t& k : at) k = (leaves + k) / 2;
  while (!at.empty() && at.front() >= 1) {
    for (size_t k : at) tree[k] = better(tree[2 * k], tree[2 * k + 1]);
    if (at.front() == 1) break;
    size_t kept = 0;
    for (size_t k : at) {
      if (kept == 0 || at[kept - 1] != k / 2) at[kept++] = k / 2;
    }
    at.resize(kept);
  }
}

}  // namespace

double NodeChoiceCache::Total(const Session& ssn, const Entry& e, NodeIndex n) {
  // As Regroup's totals: the ungrouped score, then the group's added.
  double v = e.ungrouped[static_cast<size_t>(n)];
  v += e.group_scores[0][static_cast<size_t>(ssn.node_group(0, n))];
  return v;
}

NodeIndex NodeChoiceCache::BetterByTotal(const Entry& e, NodeIndex a, NodeIndex b) {
  if (b == kNone) return a;
  if (a == kNone) return b;
  const uint8_t ra = e.rank[static_cast<size_t>(a)], rb = e.rank[static_cast<size_t>(b)];
  if (ra != rb) return ra > rb ? a : b;
  const double ta = e.score[static_cast<size_t>(a)], tb = e.score[static_cast<size_t>(b)];
  if (ta != tb) return tb > ta ? b : a;
  return b < a ? b : a;
}

void NodeChoiceCache::BuildGroupTree(const Session& ssn, Entry& e, int32_t g) {
  const absl::Span<const NodeIndex> members = ssn.group_nodes(0, g);
  const double group_score = e.group_scores[0][static_cast<size_t>(g)];
  for (NodeIndex n : members) {
    double v = e.ungrouped[static_cast<size_t>(n)];  // as Total: ungrouped, then the group's
    v += group_score;
    e.score[static_cast<size_t>(n)] = v;
  }
  std::vector<NodeIndex>& tree = e.group_trees[static_cast<size_t>(g)];
  size_t leaves = tree.size() / 2;
  if (tree.empty()) {  // the leaves, once: the members never change
    leaves = 1;
    while (leaves < members.size()) leaves *= 2;
    tree.assign(2 * leaves, kNone);
    for (size_t i = 0; i < members.size(); ++i) tree[leaves + i] = members[i];
  }
  for (size_t k = leaves - 1; k >= 1; --k) tree[k] = BetterByTotal(e, tree[2 * k], tree[2 * k + 1]);
}

void NodeChoiceCache::BuildGroupsTree(Entry& e) {
  const size_t groups = e.group_trees.size();
  e.leaves = 1;
  while (e.leaves < groups) e.leaves *= 2;
  e.tree.assign(2 * e.leaves, kNone);
  for (size_t g = 0; g < groups; ++g) e.tree[e.leaves + g] = e.group_trees[g][1];
  for (size_t k = e.leaves - 1; k >= 1; --k) e.tree[k] = BetterByTotal(e, e.tree[2 * k], e.tree[2 * k + 1]);
}

void NodeChoiceCache::RegroupByGroup(const Session& ssn, TaskIndex t, Entry& e, const std::vector<NodeIndex>& changed,
                                     bool rebuild) {
  ssn.ScoreGroups(t, 0, &e.next_group_scores);
  e.group_scores.resize(1);
  std::vector<double>& now = e.next_group_scores;
  std::vector<double>& was = e.group_scores[0];
  const size_t groups = now.size();
  const auto better = [&](NodeIndex a, NodeIndex b) { return BetterByTotal(e, a, b); };
  if (rebuild || was.size() != groups || e.group_trees.size() != groups) {
    std::swap(now, was);
    e.group_trees.assign(groups, {});
    e.moved.assign(groups, 0);
    for (size_t g = 0; g < groups; ++g) BuildGroupTree(ssn, e, static_cast<int32_t>(g));
    BuildGroupsTree(e);
    return;
  }
  std::vector<size_t>& touched = e.touched;
  touched.clear();
  for (size_t g = 0; g < groups; ++g) {
    if (now[g] != was[g]) touched.push_back(g);
  }
  std::swap(now, was);
  for (size_t g : touched) {
    e.moved[g] = 1;
    BuildGroupTree(ssn, e, static_cast<int32_t>(g));  // every member's total moved
  }
  // Changed nodes of unmoved groups: their totals, then their paths in their group's
  // tree, group by group.
  std::vector<std::pair<int32_t, size_t>>& within = e.within;  // (group, place among its members)
  within.clear();
  for (NodeIndex n : changed) {
    const int32_t g = ssn.node_group(0, n);
    if (e.moved[static_cast<size_t>(g)]) continue;
    e.score[static_cast<size_t>(n)] = Total(ssn, e, n);
    const absl::Span<const NodeIndex> members = ssn.group_nodes(0, g);
    within.emplace_back(g, static_cast<size_t>(std::lower_bound(members.begin(), members.end(), n) - members.begin()));
  }
  for (size_t g : touched) e.moved[g] = 0;
  std::sort(within.begin(), within.end());
  within.erase(std::unique(within.begin(), within.end()), within.end());
  std::vector<size_t> at;
  for (size_t i = 0; i < within.size();) {
    const int32_t g = within[i].first;
    at.clear();
    for (; i < within.size() && within[i].first == g; ++i) at.push_back(within[i].second);
    std::vector<NodeIndex>& tree = e.group_trees[static_cast<size_t>(g)];
    UpdatePaths(tree, tree.size() / 2, at, better);
    touched.push_back(static_cast<size_t>(g));
  }
  if (touched.empty()) return;
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (size_t g : touched) e.tree[e.leaves + g] = e.group_trees[g][1];
  UpdatePaths(e.tree, e.leaves, touched, better);
}

void NodeChoiceCache::UpdateTreeAt(Entry& e, std::vector<NodeIndex> nodes) {
  std::vector<size_t> at(nodes.begin(), nodes.end());
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  UpdatePaths(e.tree, e.leaves, std::move(at), [&](NodeIndex a, NodeIndex b) { return Better(e, a, b); });
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
    if (!s.NodeFitsFutureIdle(s.task_resreq(t), node) || !s.PredicateNodeLocalOk(t, node)) continue;
    e.rank[i] = s.NodeFitsIdle(s.task_resreq(t), node) ? 2 : 1;
    feasible.push_back(node);
  }
  std::vector<double> scores(feasible.size());
  e.by_group = s.num_group_node_order_fns() == 1;
  ssn.ScoreNodesUngrouped(t, feasible, absl::MakeSpan(scores));
  e.ungrouped.assign(n, 0.0);
  for (size_t k = 0; k < feasible.size(); ++k) e.ungrouped[static_cast<size_t>(feasible[k])] = scores[k];
  e.log_pos = s.node_change_log().size();
  Regroup(s, t, e, {}, /*rebuild=*/true);
}

NodeIndex NodeChoiceCache::Choose(Session& ssn, TaskIndex t) {
  const Session& s = ssn;
  auto [entry, fresh] = entries_.Get(s.task_shape(t), static_cast<size_t>(s.num_nodes()));
  Entry& e = *entry;
  const absl::Span<const NodeIndex> log = s.node_change_log();
  if (fresh || log.size() - e.log_pos > e.rank.size() + 1) {
    Fill(ssn, t, e);
  } else {
    // A node logged twice in a row (allocate, then bind) needs one look at its state now.
    std::vector<NodeIndex> changed;
    for (size_t k = e.log_pos; k < log.size(); ++k) {
      if (k == e.log_pos || log[k] != log[k - 1]) {
        Refresh(ssn, t, log[k], e);
        changed.push_back(log[k]);
      }
    }
    if (e.log_pos != log.size()) Regroup(s, t, e, changed, /*rebuild=*/false);
    e.log_pos = log.size();
  }
  if (e.tree.size() < 2) return kNone;
  const NodeIndex best = e.tree[1];
  return best != kNone && e.rank[static_cast<size_t>(best)] > 0 ? best : kNone;
}

}  // namespace vcsched::internal
