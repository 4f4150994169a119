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

void NodeChoiceCache::Refresh(Session& ssn, TaskIndex t, NodeIndex n) {
  const Session::State& s = ssn.state();
  const size_t i = static_cast<size_t>(n);
  feasible_[i] = s.FitsFutureIdle(s.req(t), n) && ssn.Predicate(t, n).ok();
  fits_idle_[i] = feasible_[i] && s.FitsIdle(s.req(t), n);
  if (feasible_[i]) {
    const NodeIndex one[] = {n};
    ssn.ScoreNodes(t, one, absl::MakeSpan(&score_[i], 1));
  }
}

void NodeChoiceCache::Fill(Session& ssn, TaskIndex t) {
  const Session::State& s = ssn.state();
  const size_t n = s.snapshot->nodes().size();
  feasible_.assign(n, 0);
  fits_idle_.assign(n, 0);
  score_.assign(n, 0.0);
  std::vector<NodeIndex> feasible;
  feasible.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const NodeIndex node = static_cast<NodeIndex>(i);
    if (!s.FitsFutureIdle(s.req(t), node) || !ssn.Predicate(t, node).ok()) continue;
    feasible_[i] = 1;
    fits_idle_[i] = s.FitsIdle(s.req(t), node);
    feasible.push_back(node);
  }
  std::vector<double> scores(feasible.size());
  ssn.ScoreNodes(t, feasible, absl::MakeSpan(scores));
  for (size_t k = 0; k < feasible.size(); ++k) score_[static_cast<size_t>(feasible[k])] = scores[k];
  shape_ = s.task(t).shape;
  touched_.clear();
}

NodeIndex NodeChoiceCache::Choose(Session& ssn, TaskIndex t) {
  if (shape_ != ssn.state().task(t).shape) {
    Fill(ssn, t);
  } else {
    for (NodeIndex n : touched_) Refresh(ssn, t, n);
    touched_.clear();
  }
  // Highest score among nodes where the task fits idle resources, else among the rest;
  // ties go to the lower index.
  NodeIndex best_idle = kNone, best_future = kNone;
  for (size_t i = 0; i < feasible_.size(); ++i) {
    if (!feasible_[i]) continue;
    NodeIndex& best = fits_idle_[i] ? best_idle : best_future;
    if (best == kNone || score_[i] > score_[static_cast<size_t>(best)]) best = static_cast<NodeIndex>(i);
  }
  return best_idle != kNone ? best_idle : best_future;
}

}  // namespace vcsched::internal
