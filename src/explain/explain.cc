// Explain's entry points: a session run with its records kept, then hints.
#include "vcsched/explain.h"

#include <algorithm>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "re2/re2.h"
#include "src/explain/assemble.h"
#include "src/explain/hints.h"
#include "src/framework/run_session.h"
#include "src/util/status_macros.h"

namespace vcsched {
namespace {

absl::StatusOr<ExplainResult> RunExplaining(const Snapshot& snapshot, const SchedulerConfig& config,
                                            const RunOptions& options, const std::vector<std::string>* jobs = nullptr,
                                            bool by_node = false) {
  ExplainResult r;
  internal::SessionHooks hooks;
  hooks.node_verdicts_by_node = by_node;
  hooks.on_close = [&r, jobs](Session& ssn) { r.explanation = internal::AssembleExplanation(ssn, jobs); };
  VCSCHED_ASSIGN_OR_RETURN(r.decisions,
                           internal::RunSessionWith(internal::RegistryFor(options), snapshot, config, options, &hooks));
  return r;
}

// Whether job `j` is the one `spec` names: its PodGroup key, or a Volcano Job's
// "namespace/name" that its pods carry (volcano.sh/job-name).
bool Names(const Snapshot& snapshot, const JobInfo& job, absl::string_view spec) {
  if (job.key == spec) return true;
  const size_t slash = spec.find('/');
  const absl::string_view ns = slash == absl::string_view::npos ? "default" : spec.substr(0, slash);
  const absl::string_view name = slash == absl::string_view::npos ? spec : spec.substr(slash + 1);
  if (job.pod_group.namespace_ != ns) return false;
  for (TaskIndex t : job.tasks) {
    const PodSpec& pod = *snapshot.tasks()[static_cast<size_t>(t)].pod;
    for (const Labels* m : {&pod.labels, &pod.annotations}) {
      auto it = m->find("volcano.sh/job-name");
      if (it != m->end() && it->second == name) return true;
    }
  }
  return false;
}

// The Volcano Job that owns the PodGroup: its pods' volcano.sh/job-name, else the
// name Volcano's controller gives a Job's PodGroup ("<job>-<job uid>") without the uid.
std::string VolcanoJobOf(const Snapshot& snapshot, const JobInfo& job) {
  const std::string& ns = job.pod_group.namespace_;
  for (TaskIndex t : job.tasks) {
    const PodSpec& pod = *snapshot.tasks()[static_cast<size_t>(t)].pod;
    for (const Labels* m : {&pod.labels, &pod.annotations}) {
      auto it = m->find("volcano.sh/job-name");
      if (it != m->end() && !it->second.empty()) return absl::StrCat(ns, "/", it->second);
    }
  }
  static const RE2 kUidSuffix("^(.+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
  std::string name;
  if (RE2::FullMatch(job.pod_group.name, kUidSuffix, &name)) return absl::StrCat(ns, "/", name);
  return "";
}

absl::StatusOr<std::string> ResolveJob(const Snapshot& snapshot, absl::string_view spec) {
  for (const JobInfo& job : snapshot.jobs()) {
    if (job.key == spec) return job.key;
  }
  for (const JobInfo& job : snapshot.jobs()) {
    if (Names(snapshot, job, spec)) return job.key;
  }
  const std::string qualified = absl::StrContains(spec, '/') ? std::string(spec) : absl::StrCat("default/", spec);
  for (const JobInfo& job : snapshot.jobs()) {
    if (VolcanoJobOf(snapshot, job) == qualified) return job.key;
  }
  return absl::NotFoundError(absl::StrCat("job ", spec, ": no PodGroup or Volcano Job of that name in the input"));
}

void NoteWhoseJobs(const Snapshot& snapshot, Explanation& e) {
  for (JobExplanation& j : e.jobs) {
    if (const std::optional<JobIndex> i = snapshot.FindJob(j.job)) {
      j.volcano_job = VolcanoJobOf(snapshot, snapshot.jobs()[static_cast<size_t>(*i)]);
    }
  }
  const auto& others = snapshot.other_scheduler_pods();
  e.other_scheduler_pods = static_cast<int64_t>(others.size());
  if (!others.empty()) {
    const PodSpec& p = *others.front();
    e.other_scheduler_example = absl::StrCat(p.namespace_, "/", p.name, " (schedulerName ",
                                             p.scheduler_name.empty() ? "empty" : p.scheduler_name, ")");
  }
}

}  // namespace

absl::StatusOr<ExplainResult> Explain(const Snapshot& snapshot, const SchedulerConfig& config,
                                      const ExplainOptions& options) {
  std::string only;
  if (!options.job.empty()) {
    VCSCHED_ASSIGN_OR_RETURN(only, ResolveJob(snapshot, options.job));
  }
  std::optional<std::vector<std::string>> jobs = options.jobs;
  if (!only.empty()) {
    const bool listed = !jobs || std::find(jobs->begin(), jobs->end(), only) != jobs->end();
    jobs = listed ? std::vector<std::string>{only} : std::vector<std::string>{};
  }
  // Re-runs start from the scheduler's memory as the session found it.
  std::optional<SchedulerMemory> memory_before;
  if (options.run.memory != nullptr) memory_before = *options.run.memory;
  VCSCHED_ASSIGN_OR_RETURN(ExplainResult r,
                           RunExplaining(snapshot, config, options.run, jobs ? &*jobs : nullptr, !only.empty()));
  RunOptions rerun = options.run;
  rerun.memory = memory_before ? &*memory_before : nullptr;
  NoteWhoseJobs(snapshot, r.explanation);
  // One budget of re-runs for the call, spent on the jobs in order: a large file
  // explained whole stays as fast as a few sessions.
  int32_t budget = std::max(options.max_reruns, 0);
  for (JobExplanation& e : r.explanation.jobs) {
    if (budget == 0) break;
    if (e.reason == reason_code::kScheduled) continue;
    VCSCHED_ASSIGN_OR_RETURN(e.hints, internal::FindHints(snapshot, config, rerun, e, &budget));
  }
  return r;
}

absl::StatusOr<std::vector<QueueView>> DescribeQueues(const Snapshot& snapshot, const SchedulerConfig& config,
                                                      const RunOptions& options) {
  VCSCHED_ASSIGN_OR_RETURN(ExplainResult r, RunExplaining(snapshot, config, options));
  return std::move(r.explanation.queues);
}

absl::StatusOr<FitAnswer> WouldFit(const Snapshot& snapshot, const SchedulerConfig& config, absl::string_view job,
                                   const RunOptions& options) {
  VCSCHED_ASSIGN_OR_RETURN(const std::string key, ResolveJob(snapshot, job));
  VCSCHED_ASSIGN_OR_RETURN(ExplainResult r, RunExplaining(snapshot, config, options));
  FitAnswer a;
  for (JobExplanation& e : r.explanation.jobs) {
    if (e.job == key) a.explanation = std::move(e);
  }
  if (a.explanation.job.empty()) {
    return absl::FailedPreconditionError(absl::StrCat("job ", key, " is not in the session (its PodGroup has no queue)"));
  }
  const JobIndex j = *snapshot.FindJob(key);
  for (TaskIndex t : snapshot.jobs()[static_cast<size_t>(j)].tasks) {
    const TaskInfo& task = snapshot.tasks()[static_cast<size_t>(t)];
    if (task.node != kNone) a.placements.emplace_back(task.key, snapshot.nodes()[static_cast<size_t>(task.node)].spec.name);
  }
  auto add_if_mine = [&](absl::string_view task, absl::string_view node) {
    const std::optional<TaskIndex> t = snapshot.FindTask(task);
    if (t && snapshot.tasks()[static_cast<size_t>(*t)].job == j) a.placements.emplace_back(task, node);
  };
  for (const Bind& b : r.decisions.binds) add_if_mine(b.task, b.node);
  for (const Pipelined& p : r.decisions.pipelined) add_if_mine(p.task, p.node);
  std::sort(a.placements.begin(), a.placements.end());
  a.fits = a.explanation.reason == reason_code::kScheduled || a.explanation.reason == reason_code::kPreemptionPending;
  if (a.explanation.reason == reason_code::kPreemptionPending) {
    a.fits = static_cast<int32_t>(a.placements.size()) >= a.explanation.pods;
  }
  return a;
}

}  // namespace vcsched
