// The job state machine (docs/reference/lifecycle.md §6, §7.2, §8).
#include "vcsched/lifecycle/job_state.h"

#include <algorithm>
#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/strings/string_view.h"
#include "src/lifecycle/saturating.h"
#include "vcsched/lifecycle/dependencies.h"
#include "vcsched/lifecycle/expand.h"

namespace vcsched::lifecycle {

const std::vector<std::string>& JobPhases() {
  static const std::vector<std::string> kPhases = {"Pending",    "Aborting",    "Aborted",   "Running",
                                                   "Restarting", "Completing",  "Completed", "Terminating",
                                                   "Terminated", "Failed"};
  return kPhases;
}

bool IsFinishedPhase(const std::string& phase) {
  return phase == "Completed" || phase == "Failed" || phase == "Terminated";
}

namespace {

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// One policy list against a request; true when a policy matched.
bool Match(const std::vector<LifecyclePolicy>& policies, const JobRequest& r, const std::string& where,
           PolicyChoice& out) {
  for (size_t i = 0; i < policies.size(); ++i) {
    const LifecyclePolicy& p = policies[i];
    // Admitted policies name known events and actions (job_admission.cc); anything else
    // never matches.
    const std::optional<JobAction> action = ParseJobAction(p.action);
    if (!action) continue;
    const bool by_event = !p.events.empty() &&
                          (Contains(p.events, std::string(JobEventName(r.event))) || Contains(p.events, "*")) &&
                          (r.event != JobEvent::kPodPending || p.timeout_seconds.has_value());
    const bool by_code = p.exit_code.has_value() && r.exit_code.has_value() && *p.exit_code == *r.exit_code;
    if (by_event || by_code) {
      out = PolicyChoice{*action, p.timeout_seconds, absl::StrCat(where, " policy ", i)};
      return true;
    }
  }
  return false;
}

using Update = std::function<void(JobStatus&)>;

struct Context {
  const VolcanoJob& job;
  const JobWorld& world;
  int64_t now;
  JobStep step;
};

void SetPhase(JobStatus& s, const std::string& phase, int64_t now) {
  if (s.phase == phase) return;
  s.phase = phase;
  s.last_transition_time = now;
  s.conditions.erase(std::remove_if(s.conditions.begin(), s.conditions.end(),
                                    [&](const JobCondition& c) { return c.status == phase; }),
                     s.conditions.end());
  s.conditions.push_back({phase, now});
}

void ClearCounts(JobStatus& s) {
  s.pending = s.running = s.succeeded = s.failed = s.terminating = s.unknown = 0;
  s.task_status_count.clear();
}

void Count(JobStatus& s, const JobPod& p) {
  const absl::string_view phase = p.phase;  // compared by length first
  if (phase == "Pending") ++s.pending;
  else if (phase == "Running") ++s.running;
  else if (phase == "Succeeded") ++s.succeeded;
  else if (phase == "Failed") ++s.failed;
  else ++s.unknown;
  ++s.task_status_count[p.task][p.phase];
}

int32_t MinAvailable(const VolcanoJob& job, const JobStatus& s) {
  return s.min_available > 0 ? s.min_available : job.min_available.value_or(0);
}

std::vector<std::string> ReadyTasks(const VolcanoJob& job, const JobWorld& world) {
  if (world.ready_tasks) return *world.ready_tasks;
  std::map<std::string, int32_t> ready;
  for (const JobPod& p : world.pods) {
    const absl::string_view phase = p.phase;
    if (phase == "Succeeded" || (phase == "Running" && p.ready)) ++ready[p.task];
  }
  return TasksReadyToCreate(job, ready);
}

// Whether `name` is a pod name the job wants, PodNameOf(job, task, i) for one of its
// tasks and i below its replicas; marks that replica present for every task of that
// name. The index is the part after the last '-' (a task name may hold dashes), in
// StrCat's digits: no sign, no leading zero.
bool MarkReplica(const VolcanoJob& job, absl::string_view name, std::vector<std::vector<bool>>& present) {
  if (!absl::ConsumePrefix(&name, job.metadata.name) || !absl::ConsumePrefix(&name, "-")) return false;
  const size_t dash = name.rfind('-');
  if (dash == absl::string_view::npos) return false;
  const absl::string_view task = name.substr(0, dash), digits = name.substr(dash + 1);
  if (digits.empty() || digits.size() > 10 || (digits.size() > 1 && digits[0] == '0')) return false;
  int64_t index = 0;
  for (const char ch : digits) {
    if (ch < '0' || ch > '9') return false;
    index = index * 10 + (ch - '0');
  }
  bool wanted = false;
  for (size_t k = 0; k < job.tasks.size(); ++k) {
    if (job.tasks[k].name != task || index >= job.tasks[k].replicas) continue;
    present[k][static_cast<size_t>(index)] = true;
    wanted = true;
  }
  return wanted;
}

void Sync(Context& c, const Update& update) {
  JobStatus& s = c.step.status;
  if (s.phase.empty()) {
    SetPhase(s, "Pending", c.now);
    s.min_available = c.job.min_available.value_or(0);
  }
  if (c.world.pod_group_phase.empty()) c.step.commands.push_back({JobCommandKind::kCreatePodGroup, PodGroupNameOf(c.job)});
  if (c.world.pod_group_phase.empty() || c.world.pod_group_phase == "Pending") {
    update(s);  // pods are not touched before the scheduler enqueues the group
    return;
  }
  ClearCounts(s);
  const std::vector<std::string> ready = ReadyTasks(c.job, c.world);
  // Which replicas of each task have a pod (terminating or not), found by parsing the
  // pod names instead of listing every name the job wants.
  std::vector<std::vector<bool>> present(c.job.tasks.size());
  for (size_t k = 0; k < c.job.tasks.size(); ++k) present[k].assign(static_cast<size_t>(std::max(0, c.job.tasks[k].replicas)), false);
  for (const JobPod& p : c.world.pods) {
    const bool wanted = MarkReplica(c.job, p.name, present);
    if (p.terminating) {
      ++s.terminating;
    } else if (!wanted) {
      c.step.commands.push_back({JobCommandKind::kDeletePod, p.name});
      ++s.terminating;
    } else {
      Count(s, p);
    }
  }
  for (size_t k = 0; k < c.job.tasks.size(); ++k) {
    const JobTask& t = c.job.tasks[k];
    if (!Contains(ready, t.name)) continue;
    for (int32_t i = 0; i < t.replicas; ++i) {
      if (present[k][static_cast<size_t>(i)]) continue;
      c.step.commands.push_back({JobCommandKind::kCreatePod, PodNameOf(c.job, t.name, i)});
      ++s.pending;
      ++s.task_status_count[t.name]["Pending"];
    }
  }
  update(s);
}

// Which pods a targeted kill addresses.
bool InTarget(const JobPod& p, JobAction action, const JobRequest& r, const VolcanoJob& job) {
  if (action == JobAction::kRestartTask) return p.task == r.task;
  if (action == JobAction::kRestartPod) return p.name == r.pod;
  if (action == JobAction::kRestartPartition) {
    const JobTask* t = job.FindTask(p.task);
    if (t == nullptr || !t->partition_policy || t->partition_policy->partition_size <= 0 || p.task != r.task) return false;
    int32_t target_index = -1;
    const std::string prefix = absl::StrCat(job.metadata.name, "-", p.task, "-");
    if (r.pod.rfind(prefix, 0) == 0) target_index = std::atoi(r.pod.c_str() + prefix.size());
    return target_index >= 0 &&
           p.index / t->partition_policy->partition_size == target_index / t->partition_policy->partition_size;
  }
  return true;
}

// KillJob (no target) or KillTarget.
void Kill(Context& c, bool soft, std::optional<JobAction> target_action, const JobRequest& r, const Update& update) {
  JobStatus& s = c.step.status;
  const bool whole_job = !target_action.has_value();
  const int32_t max_retry = c.job.max_retry.value_or(3);
  const bool last_retry = s.retry_count >= max_retry - 1;
  const bool retain_soft = soft || last_retry;
  if (whole_job) ++s.version;
  ClearCounts(s);
  for (const JobPod& p : c.world.pods) {
    if (p.terminating) {
      ++s.terminating;
      continue;
    }
    if (!whole_job && !InTarget(p, *target_action, r, c.job)) {
      Count(s, p);
      continue;
    }
    if (retain_soft && (p.phase == "Succeeded" || p.phase == "Failed")) continue;
    c.step.commands.push_back({JobCommandKind::kDeletePod, p.name});
    ++s.terminating;
  }
  update(s);
  if (whole_job) {
    c.step.commands.push_back({JobCommandKind::kDeletePluginObjects, c.job.metadata.name});
    if (!c.world.pod_group_phase.empty()) c.step.commands.push_back({JobCommandKind::kDeletePodGroup, PodGroupNameOf(c.job)});
  }
}

Update To(const std::string& phase, int64_t now, bool retry = false) {
  return [=](JobStatus& s) {
    if (retry) ++s.retry_count;
    SetPhase(s, phase, now);
  };
}

Update WhenDrained(const std::string& phase, int64_t now) {
  return [=](JobStatus& s) {
    if (s.terminating == 0 && s.pending == 0 && s.running == 0) SetPhase(s, phase, now);
  };
}

Update Restarting(const VolcanoJob& job, int64_t now) {
  return [&job, now](JobStatus& s) {
    if (s.retry_count >= job.max_retry.value_or(3)) {
      SetPhase(s, "Failed", now);
    } else if (job.TotalReplicas() - s.terminating >= MinAvailable(job, s)) {
      SetPhase(s, "Pending", now);
    }
  };
}

Update PendingSync(const VolcanoJob& job, int64_t now) {
  return [&job, now](JobStatus& s) {
    if (s.running + s.succeeded + s.failed >= MinAvailable(job, s)) SetPhase(s, "Running", now);
  };
}

Update RunningSync(const VolcanoJob& job, int64_t now) {
  return [&job, now](JobStatus& s) {
    const int64_t replicas = job.TotalReplicas();
    if (replicas == 0) return;
    const int32_t min_available = MinAvailable(job, s);
    if (job.min_success && s.succeeded >= *job.min_success) return SetPhase(s, "Completed", now);
    if (s.succeeded + s.failed == replicas) {
      int64_t task_min = 0;
      for (const JobTask& t : job.tasks) task_min += t.min_available.value_or(0);
      if (min_available >= task_min) {
        for (const JobTask& t : job.tasks) {
          if (!t.min_available) continue;
          auto it = s.task_status_count.find(t.name);
          int32_t ok = 0;
          if (it != s.task_status_count.end() && it->second.count("Succeeded")) ok = it->second.at("Succeeded");
          if (ok < *t.min_available) return SetPhase(s, "Failed", now);
        }
      }
      if (job.min_success && s.succeeded < *job.min_success) return SetPhase(s, "Failed", now);
      return SetPhase(s, s.succeeded >= min_available ? "Completed" : "Failed", now);
    }
    if (s.pending > replicas - min_available) SetPhase(s, "Pending", now);
  };
}

bool IsTargetAction(JobAction a) {
  return a == JobAction::kRestartTask || a == JobAction::kRestartPod || a == JobAction::kRestartPartition;
}

}  // namespace

PolicyChoice ChooseAction(const VolcanoJob& job, const JobStatus& status, const JobRequest& r) {
  if (r.action) return PolicyChoice{*r.action, std::nullopt, "explicit command"};
  const PolicyChoice sync{JobAction::kSyncJob, std::nullopt, ""};
  if (r.event == JobEvent::kOutOfSync || r.event == JobEvent::kCommandIssued || r.event == JobEvent::kPodRunning) {
    return sync;
  }
  if (r.job_version && *r.job_version < status.version) return sync;
  PolicyChoice out;
  if (!r.task.empty()) {
    if (const JobTask* t = job.FindTask(r.task); t != nullptr && Match(t->policies, r, absl::StrCat("task ", r.task), out)) {
      return out;
    }
  }
  if (Match(job.policies, r, "job", out)) return out;
  return sync;
}

JobStep ExecuteAction(const VolcanoJob& job, const JobStatus& status, const JobWorld& world, JobAction action,
                      const JobRequest& request, int64_t now) {
  Context c{job, world, now, JobStep{action, status, {}}};
  const std::string phase = status.phase.empty() ? "Pending" : status.phase;
  const std::optional<JobAction> target = IsTargetAction(action) ? std::optional<JobAction>(action) : std::nullopt;
  const Update nothing = [](JobStatus&) {};
  if (phase == "Pending" || phase == "Running") {
    if (action == JobAction::kRestartJob) Kill(c, false, std::nullopt, request, To("Restarting", now, true));
    else if (target) Kill(c, false, target, request, To("Restarting", now, true));
    else if (action == JobAction::kAbortJob) Kill(c, true, std::nullopt, request, To("Aborting", now));
    else if (action == JobAction::kTerminateJob) Kill(c, true, std::nullopt, request, To("Terminating", now));
    else if (action == JobAction::kCompleteJob) Kill(c, true, std::nullopt, request, To("Completing", now));
    else if (status.phase.empty() || phase == "Pending") Sync(c, PendingSync(job, now));
    else Sync(c, RunningSync(job, now));
  } else if (phase == "Restarting") {
    if (target) Kill(c, false, target, request, Restarting(job, now));
    else if (action == JobAction::kSyncJob) Sync(c, Restarting(job, now));
    else Kill(c, false, std::nullopt, request, Restarting(job, now));
  } else if (phase == "Aborting" || phase == "Aborted") {
    if (action == JobAction::kResumeJob) Kill(c, true, std::nullopt, request, To("Restarting", now, true));
    else Kill(c, true, std::nullopt, request, phase == "Aborting" ? WhenDrained("Aborted", now) : nothing);
  } else if (phase == "Completing") {
    Kill(c, true, std::nullopt, request, WhenDrained("Completed", now));
  } else if (phase == "Terminating") {
    Kill(c, true, std::nullopt, request, WhenDrained("Terminated", now));
  } else {
    Kill(c, true, std::nullopt, request, nothing);  // Completed, Terminated, Failed
  }
  return c.step;
}

bool DueForTtlDeletion(const VolcanoJob& job, const JobStatus& status, int64_t now) {
  if (!job.ttl_seconds_after_finished || !IsFinishedPhase(status.phase)) return false;
  return now >= internal::AddSat(status.last_transition_time, *job.ttl_seconds_after_finished);
}

}  // namespace vcsched::lifecycle
