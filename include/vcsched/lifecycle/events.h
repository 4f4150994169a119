// The job controller's vocabulary as enums: the events it reacts to, the actions it
// takes and the commands it issues (docs/reference/lifecycle.md §6, §7). Strings appear
// only at the edges (manifests, the CLI, Python), where an unknown one is an error.
#ifndef VCSCHED_LIFECYCLE_EVENTS_H_
#define VCSCHED_LIFECYCLE_EVENTS_H_

#include <optional>
#include <vector>

#include "absl/strings/string_view.h"

namespace vcsched::lifecycle {

enum class JobEvent {
  kAny,  // "*" in a policy
  kPodFailed,
  kPodEvicted,
  kPodPending,
  kPodRunning,
  kTaskCompleted,
  kTaskFailed,
  kUnknown,
  kOutOfSync,
  kCommandIssued,
  kJobUpdated,
  kJobUnknown,
};

enum class JobAction {
  kAbortJob,
  kRestartJob,
  kRestartTask,
  kRestartPod,
  kRestartPartition,
  kTerminateJob,
  kCompleteJob,
  kResumeJob,
  kSyncJob,
};

enum class JobCommandKind {
  kCreatePod,
  kDeletePod,
  kCreatePodGroup,
  kDeletePodGroup,
  kDeletePluginObjects,
  kDeleteJob,
};

// Volcano's spellings ("PodFailed", "*", "RestartTask", "CreatePod").
absl::string_view JobEventName(JobEvent event);
absl::string_view JobActionName(JobAction action);
absl::string_view JobCommandKindName(JobCommandKind kind);
// nullopt for a spelling Volcano does not have.
std::optional<JobEvent> ParseJobEvent(absl::string_view name);
std::optional<JobAction> ParseJobAction(absl::string_view name);

// What a policy may name (Volcano's admission webhook): every event but the internal
// ones (PodRunning, OutOfSync, CommandIssued), every action but SyncJob.
const std::vector<JobEvent>& PolicyJobEvents();
const std::vector<JobAction>& PolicyJobActions();

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_EVENTS_H_
