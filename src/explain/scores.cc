// Node scores by plugin for one task, as the session opens (docs/EXPLAIN.md).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "src/framework/run_session.h"
#include "src/framework/session_state.h"
#include "src/util/status_macros.h"
#include "vcsched/explain.h"

namespace vcsched {
namespace {

// Adds `scores` (one per node of `nodes`) to `plugin`'s part of each NodeScore.
void AddPart(std::vector<NodeScore>& out, const std::string& plugin, absl::Span<const double> scores) {
  for (size_t i = 0; i < out.size(); ++i) {
    auto& parts = out[i].plugins;
    auto it = std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == plugin; });
    if (it == parts.end()) it = parts.insert(parts.end(), {plugin, 0.0});
    it->second += scores[i];
    out[i].total += scores[i];
  }
}

std::vector<NodeScore> Score(const Session& ssn, TaskIndex t) {
  const Session::State& s = SessionInternals::Of(ssn);
  std::vector<NodeIndex> nodes;
  if (ssn.PrePredicate(t).ok()) {
    for (NodeIndex n = 0; n < ssn.num_nodes(); ++n) {
      if (ssn.NodeFitsFutureIdle(ssn.task_resreq(t), n) && ssn.Predicate(t, n).ok()) nodes.push_back(n);
    }
  }
  std::vector<NodeScore> out(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) out[i].node = ssn.node_info(nodes[i]).spec.name;
  std::vector<double> part(nodes.size());
  for (const auto& reg : s.node_order) {
    for (size_t i = 0; i < nodes.size(); ++i) part[i] = reg.fn(t, nodes[i]);
    AddPart(out, reg.plugin, part);
  }
  for (const auto& reg : s.batch_node_order) {
    std::fill(part.begin(), part.end(), 0.0);
    reg.fn(t, nodes, absl::MakeSpan(part));
    AddPart(out, reg.plugin, part);
  }
  for (const auto& reg : s.placement_node_order) {
    if (!reg.applies(t)) continue;
    std::fill(part.begin(), part.end(), 0.0);
    reg.fn(t, nodes, absl::MakeSpan(part));
    AddPart(out, reg.plugin, part);
  }
  std::vector<double> by_group;
  for (size_t k = 0; k < s.group_node_order.size(); ++k) {
    ssn.ScoreGroups(t, k, &by_group);
    for (size_t i = 0; i < nodes.size(); ++i) part[i] = by_group[static_cast<size_t>(ssn.node_group(k, nodes[i]))];
    AddPart(out, s.group_node_order[k].plugin, part);
  }
  std::sort(out.begin(), out.end(), [](const NodeScore& a, const NodeScore& b) {
    return a.total != b.total ? a.total > b.total : a.node < b.node;
  });
  return out;
}

}  // namespace

absl::StatusOr<std::vector<NodeScore>> ScoreTask(const Snapshot& snapshot, const SchedulerConfig& config,
                                                 absl::string_view task, const RunOptions& options) {
  const std::optional<TaskIndex> t = snapshot.FindTask(task);
  if (!t) return absl::NotFoundError(absl::StrCat("pod ", task, " is not in the input"));
  if (snapshot.tasks()[static_cast<size_t>(*t)].job == kNone) {
    return absl::FailedPreconditionError(absl::StrCat("pod ", task, " is not scheduled by this scheduler (no PodGroup in a queue)"));
  }
  std::vector<NodeScore> scores;
  internal::SessionHooks hooks;
  hooks.on_open = [&](Session& ssn) {
    scores = Score(ssn, *t);
    return absl::OkStatus();
  };
  VCSCHED_RETURN_IF_ERROR(
      internal::RunSessionWith(internal::RegistryFor(options), snapshot, config, options, &hooks).status());
  return scores;
}

}  // namespace vcsched
