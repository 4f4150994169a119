// Volcano's texts for why tasks and gangs did not schedule (docs/reference/scheduler.md §11.2).
#include "vcsched/session.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/framework/session_state.h"

namespace vcsched {

std::string Session::TaskFitErrorText(TaskIndex t) const {
  const State& s = *s_;
  const TaskFitErrors& f = s.Fit(t);
  if (!f.messages.empty()) return f.messages.front();
  if (f.nodes == 0) return "";
  std::vector<std::string> parts;
  for (const auto& [reason, count] : f.reason_counts) {
    parts.push_back(absl::StrCat(count, " ", ReasonText(reason)));
  }
  std::sort(parts.begin(), parts.end());
  const std::string text = absl::StrCat("0/", f.nodes, " nodes are unavailable: ", absl::StrJoin(parts, ", "), ".");
  if (f.hyper_node == kNone) return text;
  return absl::StrCat("In hyperNode ", s.snapshot->hyper_nodes()[static_cast<size_t>(f.hyper_node)].name, ": ", text);
}

int32_t Session::JobPendingOnceAllocatedNum(JobIndex j) const {
  const State& s = *s_;
  int32_t n = 0;
  for (TaskIndex t : s.job(j).tasks) {
    const size_t ti = static_cast<size_t>(t);
    if (s.status[ti] == TaskStatus::kPending && s.last_txn_status[ti] == TaskStatus::kAllocated) ++n;
  }
  return n;
}

std::string Session::JobFitErrorText(JobIndex j) const {
  const State& s = *s_;
  const JobInfo& job = s.job(j);
  std::vector<std::string> h1;
  for (int st = 0; st < kTaskStatusCount; ++st) {
    const int32_t c = job_count(j, static_cast<TaskStatus>(st));
    if (c > 0) h1.push_back(absl::StrCat(c, " ", TaskStatusName(static_cast<TaskStatus>(st))));
  }
  h1.push_back(absl::StrCat(job_min_member(j), " minAvailable"));
  std::sort(h1.begin(), h1.end());
  std::string out = absl::StrCat(JobIsReady(j) ? "pod group is ready, " : "pod group is not ready, ",
                                 absl::StrJoin(h1, ", "));
  std::map<std::string, int32_t> pending;
  for (TaskIndex t : job.tasks) {
    const size_t ti = static_cast<size_t>(t);
    if (s.status[ti] != TaskStatus::kPending) continue;
    ++pending[s.last_txn_status[ti] == TaskStatus::kAllocated ? "Schedulable" : "Unschedulable"];
  }
  if (!pending.empty()) {
    std::vector<std::string> h2;
    for (const auto& [reason, c] : pending) h2.push_back(absl::StrCat(c, " ", reason));
    absl::StrAppend(&out, "; Pending: ", absl::StrJoin(h2, ", "));
  }
  // The origin is the first task, in name order, with node fit errors.
  for (TaskIndex t : job.tasks) {
    if (s.Fit(t).nodes == 0 && s.Fit(t).messages.empty()) continue;
    absl::StrAppend(&out, ". Origin reason is ", s.task(t).pod->name, ": ", TaskFitErrorText(t));
    break;
  }
  return out;
}

}  // namespace vcsched
