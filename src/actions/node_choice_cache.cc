#include "src/actions/node_choice_cache.h"

namespace vcsched::internal {

bool NodeChoiceCache::Usable(const Session& ssn, TaskIndex t) {
  const Session::State& s = ssn.state();
  const TaskInfo& task = s.task(t);
  const Affinity& a = task.pod.affinity;
  return s.node_choice_cache && !s.host_node_callbacks && !s.any_prefer_no_schedule && task.pod.nominated_node_name.empty() &&
         !a.has_required_node_terms && a.preferred_node_terms.empty() && !HasPodAffinityTerms(task.pod) &&
         task.pod.topology_spread_constraints.empty() && s.node_view.pods_with_affinity().empty();
}

void NodeChoiceCache::Refresh(Session& ssn, TaskIndex t, NodeIndex n, Entry& e) {
  const Session::State& s = ssn.state();
  const size_t i = static_cast<size_t>(n);
  e.feasible[i] = s.FitsFutureIdle(s.req(t), n) && ssn.Predicate(t, n).ok();
  e.fits_idle[i] = e.feasible[i] && s.FitsIdle(s.req(t), n);
  if (e.feasible[i]) {
    const NodeIndex one[] = {n};
    ssn.ScoreNodes(t, one, absl::MakeSpan(&e.score[i], 1));
  }
}

void NodeChoiceCache::Fill(Session& ssn, TaskIndex t, Entry& e) {
  const Session::State& s = ssn.state();
  const size_t n = s.snapshot->nodes().size();
  e.feasible.assign(n, 0);
  e.fits_idle.assign(n, 0);
  e.score.assign(n, 0.0);
  std::vector<NodeIndex> feasible;
  feasible.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const NodeIndex node = static_cast<NodeIndex>(i);
    if (!s.FitsFutureIdle(s.req(t), node) || !ssn.Predicate(t, node).ok()) continue;
    e.feasible[i] = 1;
    e.fits_idle[i] = s.FitsIdle(s.req(t), node);
    feasible.push_back(node);
  }
  std::vector<double> scores(feasible.size());
  ssn.ScoreNodes(t, feasible, absl::MakeSpan(scores));
  for (size_t k = 0; k < feasible.size(); ++k) e.score[static_cast<size_t>(feasible[k])] = scores[k];
  e.log_pos = s.node_changes.size();
}

NodeIndex NodeChoiceCache::Choose(Session& ssn, TaskIndex t) {
  const Session::State& s = ssn.state();
  auto [it, fresh] = entries_.try_emplace(s.task(t).shape);
  Entry& e = it->second;
  const std::vector<NodeIndex>& log = s.node_changes;
  if (fresh || log.size() - e.log_pos > e.feasible.size() / 4 + 1) {
    Fill(ssn, t, e);
  } else {
    for (size_t k = e.log_pos; k < log.size(); ++k) Refresh(ssn, t, log[k], e);
    e.log_pos = log.size();
  }
  // Highest score among nodes where the task fits idle resources, else among the rest;
  // ties go to the lower index.
  NodeIndex best_idle = kNone, best_future = kNone;
  for (size_t i = 0; i < e.feasible.size(); ++i) {
    if (!e.feasible[i]) continue;
    NodeIndex& best = e.fits_idle[i] ? best_idle : best_future;
    if (best == kNone || e.score[i] > e.score[static_cast<size_t>(best)]) best = static_cast<NodeIndex>(i);
  }
  return best_idle != kNone ? best_idle : best_future;
}

}  // namespace vcsched::internal
