#include "vcsched/lifecycle/job_simulator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/lifecycle/saturating.h"
#include "vcsched/lifecycle/expand.h"

namespace vcsched::lifecycle {

namespace {

bool IsPodPhase(const std::string& phase) {
  static const char* kPhases[] = {"Pending", "Running", "Succeeded", "Failed", "Unknown"};
  return std::find(std::begin(kPhases), std::end(kPhases), phase) != std::end(kPhases);
}

bool IsJobLevel(JobAction a) {
  return a == JobAction::kAbortJob || a == JobAction::kRestartJob || a == JobAction::kTerminateJob ||
         a == JobAction::kCompleteJob || a == JobAction::kResumeJob;
}

}  // namespace

absl::StatusOr<JobRequest> EventRequest(absl::string_view event, std::string task, std::string pod) {
  const std::optional<JobEvent> e = ParseJobEvent(event);
  if (!e || *e == JobEvent::kAny || *e == JobEvent::kCommandIssued) {
    std::vector<absl::string_view> names;
    for (JobEvent k : {JobEvent::kPodFailed, JobEvent::kPodEvicted, JobEvent::kPodPending, JobEvent::kPodRunning,
                       JobEvent::kTaskCompleted, JobEvent::kTaskFailed, JobEvent::kUnknown, JobEvent::kOutOfSync,
                       JobEvent::kJobUpdated, JobEvent::kJobUnknown}) {
      names.push_back(JobEventName(k));
    }
    return absl::InvalidArgumentError(absl::StrCat("unknown event \"", event, "\"; expected one of ",
                                                   absl::StrJoin(names, ", "), " (a command is delivered as one)"));
  }
  return JobRequest{*e, std::nullopt, std::move(task), std::move(pod), std::nullopt, std::nullopt};
}

absl::StatusOr<JobSimulator> JobSimulator::Create(VolcanoJob job, int64_t now, int64_t max_pods) {
  if (const int64_t n = job.TotalReplicas(); n > max_pods) {
    return absl::InvalidArgumentError(absl::StrCat("job ", job.metadata.name, " has ", n,
                                                   " pods, over the simulator's limit of ", max_pods));
  }
  return JobSimulator(std::move(job), now);
}

JobSimulator::JobSimulator(VolcanoJob job, int64_t now) : job_(std::move(job)), now_(now) {
  for (const JobTask& t : job_.tasks) {
    for (int32_t i = 0; i < t.replicas; ++i) slots_.emplace(PodNameOf(job_, t.name, i), std::make_pair(t.name, i));
  }
}

JobPod* JobSimulator::FindPod(const std::string& name) {
  for (JobPod& p : world_.pods) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

void JobSimulator::Apply(const JobStep& step) {
  status_ = step.status;
  for (const JobCommand& c : step.commands) {
    if (c.kind == JobCommandKind::kCreatePodGroup) {
      world_.pod_group_phase = "Pending";
    } else if (c.kind == JobCommandKind::kDeletePodGroup) {
      world_.pod_group_phase.clear();
    } else if (c.kind == JobCommandKind::kDeletePod) {
      const JobPod* p = FindPod(c.target);
      if (p != nullptr) restarts_.erase(p->task);
      world_.pods.erase(std::remove_if(world_.pods.begin(), world_.pods.end(),
                                       [&](const JobPod& q) { return q.name == c.target; }),
                        world_.pods.end());
    } else if (c.kind == JobCommandKind::kCreatePod) {
      if (auto slot = slots_.find(c.target); slot != slots_.end()) {
        world_.pods.push_back({c.target, slot->second.first, slot->second.second, "Pending", false, false, status_.version});
      }
    }
  }
  std::sort(world_.pods.begin(), world_.pods.end(), [](const JobPod& a, const JobPod& b) { return a.name < b.name; });
  if (DueForTtlDeletion(job_, status_, now_)) deleted_ = true;
}

SimulatorStep JobSimulator::Run(const JobRequest& request, std::string what, const PolicyChoice& choice) {
  SimulatorStep out{std::move(what), request, choice, std::nullopt, {}};
  // A non-PodPending event of a pod cancels its delayed PodPending action; PodRunning also
  // cancels delayed PodFailed/PodEvicted actions of the pod.
  if (!request.pod.empty() && request.event != JobEvent::kPodPending) {
    delayed_.erase(std::remove_if(delayed_.begin(), delayed_.end(),
                                  [&](const DelayedAction& d) {
                                    return d.pod == request.pod &&
                                           (d.cause_event == JobEvent::kPodPending ||
                                            (request.event == JobEvent::kPodRunning &&
                                             (d.cause_event == JobEvent::kPodFailed ||
                                              d.cause_event == JobEvent::kPodEvicted)));
                                  }),
                   delayed_.end());
  }
  if (choice.timeout_seconds) {
    DelayedAction d{choice.action, request.task, request.pod, internal::AddSat(now_, *choice.timeout_seconds),
                    request.event};
    auto same = std::find_if(delayed_.begin(), delayed_.end(),
                             [&](const DelayedAction& e) { return e.pod == d.pod && e.task == d.task; });
    if (same == delayed_.end()) delayed_.push_back(d);
    else if (same->action != d.action) *same = d;
    return out;
  }
  // Executing an action cancels the delayed actions of the same kind.
  if (choice.action != JobAction::kSyncJob) {
    delayed_.erase(std::remove_if(delayed_.begin(), delayed_.end(),
                                  [&](const DelayedAction& d) {
                                    if (IsJobLevel(choice.action)) return IsJobLevel(d.action);
                                    if (d.action != choice.action) return false;
                                    return choice.action == JobAction::kRestartTask ? d.task == request.task : d.pod == request.pod;
                                  }),
                   delayed_.end());
  }
  const std::string before = status_.phase;
  JobStep step = ExecuteAction(job_, status_, world_, choice.action, request, now_);
  Apply(step);
  out.executed = std::move(step);
  // The status write is an OutOfSync event of its own; bounded, as phases settle fast.
  std::string last = before;
  for (int i = 0; i < 8 && status_.phase != last; ++i) {
    last = status_.phase;
    JobStep again = ExecuteAction(job_, status_, world_, JobAction::kSyncJob, JobRequest{}, now_);
    Apply(again);
    out.follow_ups.push_back(std::move(again));
  }
  return out;
}

absl::StatusOr<SimulatorStep> JobSimulator::Deliver(JobRequest request, std::string what) {
  // "*" only matches in policies; a command names its action.
  if (request.event == JobEvent::kAny) {
    return absl::InvalidArgumentError("the event \"*\" matches events in policies; it cannot be delivered");
  }
  if (request.event == JobEvent::kCommandIssued && !request.action) {
    return absl::InvalidArgumentError("a CommandIssued event names its action");
  }
  const PolicyChoice choice = ChooseAction(job_, status_, request);
  return Run(request, std::move(what), choice);
}

SimulatorStep JobSimulator::Sync() {
  return Run(JobRequest{}, "sync", ChooseAction(job_, status_, JobRequest{}));
}

absl::StatusOr<SimulatorStep> JobSimulator::SetPodGroupPhase(const std::string& phase) {
  static const char* kPhases[] = {"Pending", "Inqueue", "Running", "Unknown", "Completed"};
  if (std::find(std::begin(kPhases), std::end(kPhases), phase) == std::end(kPhases)) {
    return absl::InvalidArgumentError(absl::StrCat("unknown PodGroup phase \"", phase, "\"; expected one of ",
                                                   absl::StrJoin(std::begin(kPhases), std::end(kPhases), ", ")));
  }
  world_.pod_group_phase = phase;
  JobRequest r;
  r.event = phase == "Unknown" ? JobEvent::kUnknown : JobEvent::kOutOfSync;
  return Deliver(r, absl::StrCat("podgroup -> ", phase));
}

absl::StatusOr<SimulatorStep> JobSimulator::SetPodPhase(const std::string& pod_name, const std::string& phase,
                                                        std::optional<int32_t> exit_code) {
  const std::string name = pod_name;  // the caller's string may live in a pod this step removes
  JobPod* p = FindPod(name);
  if (p == nullptr) return absl::NotFoundError(absl::StrCat("no pod \"", name, "\" in the job (yet)"));
  if (!IsPodPhase(phase)) {
    return absl::InvalidArgumentError(absl::StrCat("unknown pod phase \"", phase, "\""));
  }
  p->phase = phase;
  p->ready = phase == "Running";
  JobRequest r{JobEvent::kOutOfSync, std::nullopt, p->task, p->name, std::nullopt, p->version};
  if (phase == "Failed") {
    r.event = JobEvent::kPodFailed;
    r.exit_code = exit_code;
  } else if (phase == "Running") {
    r.event = JobEvent::kPodRunning;
  } else if (phase == "Pending") {
    r.event = JobEvent::kPodPending;
  } else if (phase == "Succeeded") {
    bool all = true;
    for (const JobPod& q : world_.pods) all = all && (q.task != p->task || q.phase == "Succeeded");
    const JobTask* t = job_.FindTask(p->task);
    int32_t n = 0;
    for (const JobPod& q : world_.pods) n += q.task == p->task;
    if (all && t != nullptr && n == t->replicas) r.event = JobEvent::kTaskCompleted;
  }
  std::string what = absl::StrCat("pod ", name, " -> ", phase);
  if (exit_code) absl::StrAppend(&what, " (exit code ", *exit_code, ")");
  return Deliver(r, what);
}

absl::StatusOr<std::vector<SimulatorStep>> JobSimulator::SetAllPods(const std::string& phase) {
  if (!IsPodPhase(phase)) return absl::InvalidArgumentError(absl::StrCat("unknown pod phase \"", phase, "\""));
  std::vector<std::string> names;
  for (const JobPod& p : world_.pods) {
    if (p.phase != "Succeeded" && p.phase != "Failed") names.push_back(p.name);  // finished pods stay so
  }
  std::vector<SimulatorStep> out;
  for (const std::string& n : names) {
    if (FindPod(n) == nullptr) continue;  // removed by an earlier step's action
    absl::StatusOr<SimulatorStep> s = SetPodPhase(n, phase);
    if (!s.ok() && absl::IsInvalidArgument(s.status())) return s.status();
    if (s.ok()) out.push_back(*std::move(s));
  }
  return out;
}

absl::StatusOr<SimulatorStep> JobSimulator::EvictPod(const std::string& pod_name) {
  const std::string name = pod_name;  // the caller's string may live in the pod removed here
  JobPod* p = FindPod(name);
  if (p == nullptr) return absl::NotFoundError(absl::StrCat("no pod \"", name, "\" in the job (yet)"));
  JobRequest r{JobEvent::kPodEvicted, std::nullopt, p->task, p->name, std::nullopt, p->version};
  world_.pods.erase(world_.pods.begin() + (p - world_.pods.data()));
  return Deliver(r, absl::StrCat("pod ", name, " evicted"));
}

absl::StatusOr<SimulatorStep> JobSimulator::RestartContainer(const std::string& pod_name) {
  const std::string name = pod_name;  // the caller's string may live in a pod this step removes
  JobPod* p = FindPod(name);
  if (p == nullptr) return absl::NotFoundError(absl::StrCat("no pod \"", name, "\" in the job (yet)"));
  const JobTask* t = job_.FindTask(p->task);
  int32_t max_retry = t != nullptr && t->max_retry.value_or(0) != 0 ? *t->max_retry : 3;
  const int32_t n = ++restarts_[p->task];
  JobRequest r{JobEvent::kOutOfSync, std::nullopt, p->task, p->name, std::nullopt, p->version};
  if (max_retry != -1 && n >= max_retry && (p->phase == "Running" || p->phase == "Pending")) {
    r.event = JobEvent::kTaskFailed;
  }
  return Deliver(r, absl::StrCat("container restart in pod ", name, " (task restarts: ", n, ")"));
}

absl::StatusOr<SimulatorStep> JobSimulator::Command(const std::string& action) {
  const std::optional<JobAction> a = ParseJobAction(action);
  if (!a) {
    std::vector<absl::string_view> known;
    for (JobAction k : PolicyJobActions()) known.push_back(JobActionName(k));
    known.push_back(JobActionName(JobAction::kSyncJob));
    return absl::InvalidArgumentError(
        absl::StrCat("unknown command action \"", action, "\"; expected one of ", absl::StrJoin(known, ", ")));
  }
  return Command(*a);
}

absl::StatusOr<SimulatorStep> JobSimulator::Command(JobAction action) {
  return Deliver({JobEvent::kCommandIssued, action, "", "", std::nullopt, std::nullopt},
                 absl::StrCat("command ", JobActionName(action)));
}

absl::StatusOr<std::vector<SimulatorStep>> JobSimulator::Advance(int64_t seconds) {
  if (seconds < 0) {
    return absl::InvalidArgumentError(absl::StrCat("cannot move the clock back: advance by ", seconds, " seconds"));
  }
  std::vector<SimulatorStep> out;
  const int64_t until = internal::AddSat(now_, seconds);
  while (true) {
    auto next = std::min_element(delayed_.begin(), delayed_.end(),
                                 [](const DelayedAction& a, const DelayedAction& b) { return a.due < b.due; });
    if (next == delayed_.end() || next->due > until) break;
    const DelayedAction d = *next;
    delayed_.erase(next);
    now_ = std::max(now_, d.due);
    JobRequest r{d.cause_event, d.action, d.task, d.pod, std::nullopt, std::nullopt};
    out.push_back(Run(r, absl::StrCat("timeout: ", JobActionName(d.action), " after ", JobEventName(d.cause_event)),
                      PolicyChoice{d.action, std::nullopt, "delayed policy"}));
  }
  now_ = until;
  if (DueForTtlDeletion(job_, status_, now_)) deleted_ = true;
  return out;
}

}  // namespace vcsched::lifecycle
