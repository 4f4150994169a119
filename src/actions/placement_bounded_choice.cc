// PlacementNodeChoice over every node of the cluster (RankAll): node-local ranks kept as
// lists and tournaments per shape, updated from the node-change log; and, when the
// placement parts bound where they answer differently, a try that looks at those nodes
// and at one node per group of the others.
#include <algorithm>
#include <iterator>
#include <map>

#include "src/actions/placement_node_choice.h"

namespace vcsched::internal {

void PlacementNodeChoice::Replay(Entry& e, NodeIndex n) {
  const ByRankThenScore better{&e.rank, &e.local};
  for (Entry::KeyGroups& k : e.by_key) {
    const auto g = static_cast<size_t>(k.domains->group_of[static_cast<size_t>(n)]);
    k.groups[g].Set(static_cast<size_t>(k.domains->slot_of[static_cast<size_t>(n)]), n, better);
  }
}

void PlacementNodeChoice::SyncAll(const Session& ssn, TaskIndex t, Entry& e) {
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
    e.by_key.clear();  // made again on use
  } else {
    const auto list_of = [&](uint8_t rank) { return rank == 2 ? &e.idle : rank == 1 ? &e.future : nullptr; };
    for (size_t k = e.log_pos; k < log.size(); ++k) {
      const NodeIndex n = log[k];
      if (k > e.log_pos && log[k - 1] == n) continue;  // logged twice in a row: one look
      const uint8_t was = e.rank[static_cast<size_t>(n)];
      Look(ssn, t, n, e);
      Replay(e, n);
      const uint8_t now = e.rank[static_cast<size_t>(n)];
      if (was == now) continue;
      if (std::vector<NodeIndex>* from = list_of(was)) from->erase(std::lower_bound(from->begin(), from->end(), n));
      if (std::vector<NodeIndex>* to = list_of(now)) to->insert(std::lower_bound(to->begin(), to->end(), n), n);
    }
  }
  e.log_pos = log.size();
}

bool PlacementNodeChoice::RankAll(const Session& ssn, TaskIndex t) {
  Entry& e = *all_entries_.Get(ssn.task_shape(t), num_nodes_).first;
  SyncAll(ssn, t, e);
  if (!ssn.HasGroupNodeOrderFns() && ssn.PlacementBoundNodes(t, bound_) && bound_.nodes.size() <= num_nodes_ / 8 &&
      (bound_.domain_key.empty() || DomainsOf(ssn, bound_.domain_key).members.size() <= num_nodes_ / 8)) {
    return RankBounded(ssn, t, e);
  }
  return Pool(ssn, t, e, e.idle, e.future);
}

NodeIndex PlacementNodeChoice::ChooseReusable(const Session& ssn, TaskIndex t) {
  Entry& e = *all_entries_.Get(ssn.task_shape(t), num_nodes_).first;
  SyncAll(ssn, t, e);
  const NodeIndex best = GroupsOf(ssn, e, std::string()).groups.front().Best();
  return best != kNone && e.rank[static_cast<size_t>(best)] > 0 ? best : kNone;
}

bool PlacementNodeChoice::RankBounded(const Session& ssn, TaskIndex t, Entry& e) {
  // The best node of each group outside bound_.nodes (a best-first walk of its
  // tournament past the listed nodes). The nodes of a group get the same placement
  // answers, so of them only this one can win, and it stands for the others where a
  // scorer looks at the whole set (Best).
  const Entry::KeyGroups& groups = GroupsOf(ssn, e, bound_.domain_key);
  if (++stamp_now_ == 0) {  // wrapped: every old stamp must stop counting
    std::fill(stamp_.begin(), stamp_.end(), 0);
    stamp_now_ = 1;
  }
  stamp_.resize(num_nodes_, 0);
  for (NodeIndex n : bound_.nodes) stamp_[static_cast<size_t>(n)] = stamp_now_;
  const auto listed = [&](NodeIndex n) { return stamp_[static_cast<size_t>(n)] == stamp_now_; };
  const ByRankThenScore better{&e.rank, &e.local};
  std::vector<NodeIndex>& others = future_;  // scratch until the lists are made below
  others.clear();
  for (const NodeTournament& g : groups.groups) others.push_back(g.BestExcept(listed, better, heap_));
  others.erase(std::remove_if(others.begin(), others.end(),
                              [&](NodeIndex n) { return n == kNone || e.rank[static_cast<size_t>(n)] == 0; }),
               others.end());
  std::sort(others.begin(), others.end());
  std::vector<NodeIndex> candidates;
  candidates.reserve(others.size() + bound_.nodes.size());
  std::merge(others.begin(), others.end(), bound_.nodes.begin(), bound_.nodes.end(), std::back_inserter(candidates));
  idle_.clear();
  future_.clear();
  for (NodeIndex n : candidates) {
    const uint8_t rank = e.rank[static_cast<size_t>(n)];
    if (rank != 0) (rank == 2 ? idle_ : future_).push_back(n);
  }
  return Pool(ssn, t, e, idle_, future_);
}

PlacementNodeChoice::Entry::KeyGroups& PlacementNodeChoice::GroupsOf(const Session& ssn, Entry& e,
                                                                     const std::string& key) {
  const Domains& d = DomainsOf(ssn, key);
  for (Entry::KeyGroups& k : e.by_key) {
    if (k.domains == &d) return k;
  }
  Entry::KeyGroups& k = e.by_key.emplace_back();
  k.domains = &d;
  k.groups.resize(d.members.size());
  const ByRankThenScore better{&e.rank, &e.local};
  for (size_t g = 0; g < d.members.size(); ++g) k.groups[g].Build(d.members[g], better);
  return k;
}

const PlacementNodeChoice::Domains& PlacementNodeChoice::DomainsOf(const Session& ssn, const std::string& key) {
  auto it = domains_.find(key);
  if (it != domains_.end()) return it->second;
  Domains& d = domains_[key];
  std::map<absl::string_view, int32_t> ids;  // label value -> group, in node order
  d.group_of.assign(num_nodes_, -1);
  for (size_t n = 0; n < num_nodes_ && !key.empty(); ++n) {
    const Labels& labels = ssn.node_info(static_cast<NodeIndex>(n)).spec.labels;
    auto v = labels.find(key);
    if (v == labels.end()) continue;
    d.group_of[n] = ids.try_emplace(v->second, static_cast<int32_t>(ids.size())).first->second;
  }
  const auto none = static_cast<int32_t>(ids.size());  // the nodes without the label (all: no key)
  d.members.resize(ids.size() + 1);
  d.slot_of.resize(num_nodes_);
  for (size_t n = 0; n < num_nodes_; ++n) {
    if (d.group_of[n] < 0) d.group_of[n] = none;
    std::vector<NodeIndex>& m = d.members[static_cast<size_t>(d.group_of[n])];
    d.slot_of[n] = static_cast<int32_t>(m.size());
    m.push_back(static_cast<NodeIndex>(n));
  }
  return d;
}

}  // namespace vcsched::internal
