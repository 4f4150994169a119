// Volcano Queues for admission and the queue controller: the object, its create-time
// defaults, its validation (including the hierarchy rules) and the queue state machine.
#ifndef VCSCHED_LIFECYCLE_QUEUE_H_
#define VCSCHED_LIFECYCLE_QUEUE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "vcsched/lifecycle/findings.h"
#include "vcsched/lifecycle/job.h"
#include "vcsched/value.h"

namespace vcsched::lifecycle {

struct VolcanoQueue {
  ObjectMeta metadata;
  int32_t weight = 0;
  std::optional<bool> reclaimable;
  std::string parent;
  // Resource name -> quantity text, as written.
  std::map<std::string, std::string> capability, deserved, guarantee;
  std::string state;           // status.state; empty is Open
  int64_t allocated_pods = 0;  // status.allocated.pods
};

VolcanoQueue ReadQueue(const Value& doc, Findings* findings);
// The queue named `name` (the first of that name), or nullptr.
const VolcanoQueue* FindQueue(const std::vector<VolcanoQueue>& queues, const std::string& name);
// The queues whose parent is `name` (an unset parent is `root`).
std::vector<const VolcanoQueue*> ChildQueues(const std::string& name, const std::vector<VolcanoQueue>& queues);
// Create-time defaults: reclaimable true, weight 1, hierarchy annotations rooted at root.
void MutateQueue(VolcanoQueue& queue);
// Create-time validation against the other queues of the cluster (`others` may include
// `queue` itself; it is skipped by name). max_depth is Volcano's max-queue-depth (5).
Findings ValidateQueue(const VolcanoQueue& queue, const std::vector<VolcanoQueue>& others, int max_depth = 5);
// Delete-time rules.
Findings ValidateQueueDelete(const VolcanoQueue& queue, const std::vector<VolcanoQueue>& others);

// The queue controller's state machine (§11.3). `action` is OpenQueue, CloseQueue or
// SyncQueue; `has_pod_groups` says whether any PodGroup is in the queue.
std::string NextQueueState(const std::string& state, const std::string& action, bool has_pod_groups);

struct QueueStateChange {
  std::string queue;
  std::string from, to;
  bool by_parent = false;  // closed or reopened because of an ancestor
};

// An action on queue `name` with the hierarchy's cascade: closing a queue closes its open
// descendants (annotated `volcano.sh/closed-by-parent: "true"`), reopening it reopens the
// descendants it closed, and a queue cannot be opened under a Closing or Closed parent.
// `pod_groups[q]` counts the PodGroups in queue q. Updates `queues` in place.
absl::StatusOr<std::vector<QueueStateChange>> ApplyQueueAction(std::vector<VolcanoQueue>& queues,
                                                              const std::string& name, const std::string& action,
                                                              const std::map<std::string, int>& pod_groups);

}  // namespace vcsched::lifecycle

#endif  // VCSCHED_LIFECYCLE_QUEUE_H_
