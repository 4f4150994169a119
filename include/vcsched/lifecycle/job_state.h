// The Volcano Job state machine as a pure reducer (docs/reference/lifecycle.md §6, §7): given a
// job, its status, its pods and a request (an event, or an explicit command), compute the
// action, the new status and the commands for the host (create/delete pods, delete the
// PodGroup, run a delayed action later). Nothing here performs them.
#ifndef VCSCHED_LIFECYCLE_JOB_STATE_H_
#define VCSCHED_LIFECYCLE_JOB_STATE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vcsched/lifecycle/events.h"
#include "vcsched/lifecycle/job.h"

namespace vcsched::lifecycle {

// Phases: Pending, Aborting, Aborted, Running, Restarting, Completing, Completed,
// Terminating, Terminated, Failed.
const std::vector<std::string>& JobPhases();
bool IsFinishedPhase(const std::string& phase);  // Completed, Failed, Terminated

struct JobCondition {
  std::string status;  // the phase entered
  int64_t time = 0;    // seconds since the epoch
};

struct JobStatus {
  std::string phase;  // empty: a new job, Pending after its first sync
  int32_t min_available = 0;
  int32_t version = 0;
  int32_t retry_count = 0;
  int32_t pending = 0, running = 0, succeeded = 0, failed = 0, terminating = 0, unknown = 0;
  std::map<std::string, std::map<std::string, int32_t>> task_status_count;  // task -> pod phase -> n
  int64_t last_transition_time = 0;
  std::vector<JobCondition> conditions;
};

// A pod of the job as the controller sees it.
struct JobPod {
  std::string name;
  std::string task;
  int32_t index = 0;
  std::string phase = "Pending";  // Pending, Running, Succeeded, Failed, Unknown
  bool terminating = false;       // deletionTimestamp set
  bool ready = false;             // Running with every container ready (for dependsOn)
  int32_t version = 0;            // volcano.sh/job-version it was created with
};

struct JobRequest {
  JobEvent event = JobEvent::kOutOfSync;
  std::optional<JobAction> action;  // explicit action (a bus Command); nullopt: chosen by policies
  std::string task;    // the task the event is about, if any
  std::string pod;     // the pod the event is about, if any
  std::optional<int32_t> exit_code;
  std::optional<int32_t> job_version;  // the pod's job-version; older than status.version -> SyncJob
};

struct PolicyChoice {
  JobAction action = JobAction::kSyncJob;  // SyncJob when no policy matched
  std::optional<int64_t> timeout_seconds;  // the action is to run after this delay
  std::string matched;                     // "task worker policy 0", "job policy 1", "" (none)
};

// Which action a request leads to (§7.2): explicit action, internal events, stale
// versions, task policies, then job policies, else SyncJob.
PolicyChoice ChooseAction(const VolcanoJob& job, const JobStatus& status, const JobRequest& request);

struct JobCommand {
  JobCommandKind kind = JobCommandKind::kCreatePod;
  std::string target;  // pod or object name
};

struct JobStep {
  JobAction action = JobAction::kSyncJob;  // the action executed
  JobStatus status;
  std::vector<JobCommand> commands;
};

struct JobWorld {
  std::vector<JobPod> pods;
  // PodGroup phase: "" (none yet), Pending, Inqueue, Running, Unknown, Completed. Pods are
  // only created once it is neither empty nor Pending.
  std::string pod_group_phase;
  // Tasks whose dependsOn is met (nullopt: computed from the pods).
  std::optional<std::vector<std::string>> ready_tasks;
};

// Executes `action` (§6.2–§6.4) for the request's target at time `now`.
JobStep ExecuteAction(const VolcanoJob& job, const JobStatus& status, const JobWorld& world, JobAction action,
                      const JobRequest& request, int64_t now);

// ttlSecondsAfterFinished (§8): whether a finished job is due for deletion at `now`.
bool DueForTtlDeletion(const VolcanoJob& job, const JobStatus& status, int64_t now);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_JOB_STATE_H_
