#include "vcsched/lifecycle/events.h"

#include <array>
#include <utility>

namespace vcsched::lifecycle {
namespace {

constexpr std::array<std::pair<JobEvent, absl::string_view>, 12> kEvents = {{
    {JobEvent::kAny, "*"},
    {JobEvent::kPodFailed, "PodFailed"},
    {JobEvent::kPodEvicted, "PodEvicted"},
    {JobEvent::kPodPending, "PodPending"},
    {JobEvent::kPodRunning, "PodRunning"},
    {JobEvent::kTaskCompleted, "TaskCompleted"},
    {JobEvent::kTaskFailed, "TaskFailed"},
    {JobEvent::kUnknown, "Unknown"},
    {JobEvent::kOutOfSync, "OutOfSync"},
    {JobEvent::kCommandIssued, "CommandIssued"},
    {JobEvent::kJobUpdated, "JobUpdated"},
    {JobEvent::kJobUnknown, "JobUnknown"},
}};

constexpr std::array<std::pair<JobAction, absl::string_view>, 9> kActions = {{
    {JobAction::kAbortJob, "AbortJob"},
    {JobAction::kRestartJob, "RestartJob"},
    {JobAction::kRestartTask, "RestartTask"},
    {JobAction::kRestartPod, "RestartPod"},
    {JobAction::kRestartPartition, "RestartPartition"},
    {JobAction::kTerminateJob, "TerminateJob"},
    {JobAction::kCompleteJob, "CompleteJob"},
    {JobAction::kResumeJob, "ResumeJob"},
    {JobAction::kSyncJob, "SyncJob"},
}};

constexpr std::array<std::pair<JobCommandKind, absl::string_view>, 6> kCommands = {{
    {JobCommandKind::kCreatePod, "CreatePod"},
    {JobCommandKind::kDeletePod, "DeletePod"},
    {JobCommandKind::kCreatePodGroup, "CreatePodGroup"},
    {JobCommandKind::kDeletePodGroup, "DeletePodGroup"},
    {JobCommandKind::kDeletePluginObjects, "DeletePluginObjects"},
    {JobCommandKind::kDeleteJob, "DeleteJob"},
}};

template <typename E, size_t N>
absl::string_view NameIn(const std::array<std::pair<E, absl::string_view>, N>& table, E value) {
  for (const auto& [e, name] : table) {
    if (e == value) return name;
  }
  return "";
}

template <typename E, size_t N>
std::optional<E> ParseIn(const std::array<std::pair<E, absl::string_view>, N>& table, absl::string_view name) {
  for (const auto& [e, n] : table) {
    if (n == name) return e;
  }
  return std::nullopt;
}

}  // namespace

absl::string_view JobEventName(JobEvent event) { return NameIn(kEvents, event); }
absl::string_view JobActionName(JobAction action) { return NameIn(kActions, action); }
absl::string_view JobCommandKindName(JobCommandKind kind) { return NameIn(kCommands, kind); }
std::optional<JobEvent> ParseJobEvent(absl::string_view name) { return ParseIn(kEvents, name); }
std::optional<JobAction> ParseJobAction(absl::string_view name) { return ParseIn(kActions, name); }

const std::vector<JobEvent>& PolicyJobEvents() {
  static const std::vector<JobEvent> kPolicy = {JobEvent::kAny,        JobEvent::kPodFailed,     JobEvent::kPodEvicted,
                                                JobEvent::kPodPending, JobEvent::kUnknown,       JobEvent::kTaskCompleted,
                                                JobEvent::kTaskFailed, JobEvent::kJobUpdated};
  return kPolicy;
}

const std::vector<JobAction>& PolicyJobActions() {
  static const std::vector<JobAction> kPolicy = {
      JobAction::kAbortJob,     JobAction::kRestartJob,  JobAction::kRestartTask, JobAction::kRestartPod,
      JobAction::kRestartPartition, JobAction::kTerminateJob, JobAction::kCompleteJob, JobAction::kResumeJob};
  return kPolicy;
}

}  // namespace vcsched::lifecycle
