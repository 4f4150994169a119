// Drives one job through its life: holds its status, its pods, its PodGroup phase, the
// clock and the delayed (timeout) actions, turns pod changes into the events Volcano's
// controller sees (§7.1), runs the reducer and applies its commands to the pods. Pure:
// the host says what happened; the simulator says what the controller would do.
#ifndef VCSCHED_LIFECYCLE_JOB_SIMULATOR_H_
#define VCSCHED_LIFECYCLE_JOB_SIMULATOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "vcsched/lifecycle/job_state.h"

namespace vcsched::lifecycle {

// A request for the event named as Volcano spells it (for JobSimulator::Deliver): an
// unknown name, "*" (policies only) and CommandIssued (JobSimulator::Command) are
// errors that list the events that can be delivered.
absl::StatusOr<JobRequest> EventRequest(absl::string_view event, std::string task, std::string pod);

struct DelayedAction {
  JobAction action = JobAction::kSyncJob;
  std::string task, pod;
  int64_t due = 0;
  JobEvent cause_event = JobEvent::kOutOfSync;
};

struct SimulatorStep {
  std::string what;   // the input, e.g. "pod j-w-0 -> Failed (exit 137)"
  JobRequest request;
  PolicyChoice choice;
  std::optional<JobStep> executed;  // empty when the action was delayed
  // A phase change makes the job out of sync: the controller syncs again until the
  // phase settles. Those syncs, in order.
  std::vector<JobStep> follow_ups;
};

class JobSimulator {
 public:
  // Fails for a job of more than `max_pods` pods: the simulator keeps every pod.
  static absl::StatusOr<JobSimulator> Create(VolcanoJob job, int64_t now, int64_t max_pods = 100000);
  // As Create, for a job known to be of a reasonable size.
  JobSimulator(VolcanoJob job, int64_t now);

  // A first sync of the new job (creates the PodGroup).
  SimulatorStep Sync();
  // The scheduler moved the PodGroup (Pending, Inqueue, Running, Unknown, Completed);
  // the controller syncs. Another phase is an error.
  absl::StatusOr<SimulatorStep> SetPodGroupPhase(const std::string& phase);
  // A pod changed phase (Running, Succeeded, Failed with an exit code, Pending).
  absl::StatusOr<SimulatorStep> SetPodPhase(const std::string& pod, const std::string& phase,
                                            std::optional<int32_t> exit_code = std::nullopt);
  // Every current pod to `phase`, one step per pod; pods already Succeeded or Failed
  // stay so (a finished pod never runs again). An unknown phase is an error.
  absl::StatusOr<std::vector<SimulatorStep>> SetAllPods(const std::string& phase);
  // A pod was deleted from outside (evicted, preempted, node lost): PodEvicted.
  absl::StatusOr<SimulatorStep> EvictPod(const std::string& pod);
  // A container restart of a pod; TaskFailed once the task's restarts reach its maxRetry.
  absl::StatusOr<SimulatorStep> RestartContainer(const std::string& pod);
  // An event delivered as is (e.g. Unknown for the PodGroup); an event Volcano does
  // not have is an error.
  absl::StatusOr<SimulatorStep> Deliver(JobRequest request, std::string what);
  // A bus Command (AbortJob, ResumeJob, ...); an action Volcano does not have is an error.
  absl::StatusOr<SimulatorStep> Command(const std::string& action);
  absl::StatusOr<SimulatorStep> Command(JobAction action);
  // Moves the clock forward; due delayed actions run, in due order. A negative
  // duration is an error.
  absl::StatusOr<std::vector<SimulatorStep>> Advance(int64_t seconds);

  const JobStatus& status() const { return status_; }
  const JobWorld& world() const { return world_; }
  const VolcanoJob& job() const { return job_; }
  const std::vector<DelayedAction>& delayed() const { return delayed_; }
  int64_t now() const { return now_; }
  bool deleted() const { return deleted_; }

 private:
  SimulatorStep Run(const JobRequest& request, std::string what, const PolicyChoice& choice);
  void Apply(const JobStep& step);
  JobPod* FindPod(const std::string& name);

  VolcanoJob job_;
  JobStatus status_;
  JobWorld world_;
  std::vector<DelayedAction> delayed_;
  std::map<std::string, int32_t> restarts_;  // task -> container restarts of its live pods
  std::map<std::string, std::pair<std::string, int32_t>> slots_;  // pod name -> (task, index)
  int64_t now_;
  bool deleted_ = false;
};

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_JOB_SIMULATOR_H_
