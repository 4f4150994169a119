#include "src/internal/victims.h"

#include <algorithm>

#include "vcsched/session.h"

namespace vcsched::internal {

bool VictimBefore(const Session& ssn, TaskIndex preemptor, TaskIndex l, TaskIndex r) {
  const Session& s = ssn;
  const JobIndex lj = s.job_of(l), rj = s.job_of(r);
  // The task that would be scheduled last goes first.
  auto task_rule = [&] { return !ssn.TaskOrderLess(l, r); };
  if (lj == rj) return task_rule();
  const bool l_missing = lj == kNone || s.queue_of(lj) == kNone;
  const bool r_missing = rj == kNone || s.queue_of(rj) == kNone;
  if (l_missing != r_missing) return l_missing;
  if (l_missing) return task_rule();
  const JobIndex pj = s.job_of(preemptor);
  const QueueIndex lq = s.queue_of(lj), rq = s.queue_of(rj);
  if (lq == rq || pj == kNone) {
    const int c = ssn.JobOrderCompare(lj, rj);
    if (c != 0) return c > 0;  // the job ranked later loses first
    return task_rule();
  }
  return ssn.VictimQueueOrderLess(lq, rq, s.queue_of(pj));
}

std::vector<TaskIndex> InVictimOrder(const Session& ssn, TaskIndex preemptor, std::vector<TaskIndex> victims) {
  std::stable_sort(victims.begin(), victims.end(),
                   [&](TaskIndex a, TaskIndex b) { return VictimBefore(ssn, preemptor, a, b); });
  return victims;
}

std::vector<NodeIndex> PreemptCandidateNodes(Session& ssn, TaskIndex t) {
  std::vector<NodeIndex> out;
  const size_t n = ssn.snapshot().nodes().size();
  for (size_t i = 0; i < n; ++i) {
    const FitResult r = ssn.Predicate(t, static_cast<NodeIndex>(i));
    if (r.ok() || r.code == FitCode::kUnschedulable) out.push_back(static_cast<NodeIndex>(i));
  }
  return out;
}

bool ValidateVictims(const Session& ssn, TaskIndex preemptor, NodeIndex n, const std::vector<TaskIndex>& victims) {
  // No victims is valid (Volcano HEAD's util.ValidateVictims): a node with room already
  // takes the preemptor without an eviction.
  Resource future = ssn.node_future_idle(n);
  for (TaskIndex v : victims) future += ssn.task_resreq(v);
  return LessEqual(ssn.task_resreq(preemptor), future.span());
}

}  // namespace vcsched::internal
