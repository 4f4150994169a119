// What plugins and actions record for Explain (vcsched/explain.h, docs/EXPLAIN.md):
// the reason codes, a check's numbers and a queue's view. Kept apart from explain.h
// so that session.h can name them.
#ifndef VCSCHED_EXPLAIN_RECORDS_H_
#define VCSCHED_EXPLAIN_RECORDS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace vcsched {

// The reason codes, in the order a session meets them (docs/EXPLAIN.md).
namespace reason_code {
inline constexpr absl::string_view kQueueNotFound = "QueueNotFound";
inline constexpr absl::string_view kQueueClosed = "QueueClosed";
inline constexpr absl::string_view kQueueCapabilityExceeded = "QueueCapabilityExceeded";
inline constexpr absl::string_view kClusterOvercommitted = "ClusterOvercommitted";
inline constexpr absl::string_view kResourceQuotaExceeded = "ResourceQuotaExceeded";  // a namespace's ResourceQuota
inline constexpr absl::string_view kEnqueueRejected = "EnqueueRejected";  // a plugin without its own code
inline constexpr absl::string_view kNotEnoughTasks = "NotEnoughTasks";
inline constexpr absl::string_view kQueueShareExceeded = "QueueShareExceeded";
inline constexpr absl::string_view kNoFeasibleNode = "NoFeasibleNode";
inline constexpr absl::string_view kTopologyPlacementFailed = "TopologyPlacementFailed";
inline constexpr absl::string_view kGangShortfall = "GangShortfall";
inline constexpr absl::string_view kDisruptionBudgetProtected = "DisruptionBudgetProtected";  // pdb kept victims
inline constexpr absl::string_view kCooldownProtected = "CooldownProtected";  // cdp kept victims
inline constexpr absl::string_view kPreemptionPending = "PreemptionPending";
inline constexpr absl::string_view kPartiallyPlaced = "PartiallyPlaced";
inline constexpr absl::string_view kNotTried = "NotTried";  // no configured action reached the job
inline constexpr absl::string_view kAwaitingPods = "AwaitingPods";  // admitted, no pods made yet
inline constexpr absl::string_view kScheduled = "Scheduled";
}  // namespace reason_code

// A named number of a check ("cpu.request", "8"), in the order the check states them.
using CheckNumbers = std::vector<std::pair<std::string, std::string>>;

// A queue as its fair-share plugin computes it after the session (kubectl describe
// queue, computed). Amounts are per resource, in the snapshot's resource names and
// Kubernetes quantity text.
struct QueueView {
  std::string name;
  std::string state;
  int32_t weight = 0;
  std::string parent;
  std::string plugin;  // proportion or capacity; empty when neither is configured
  std::vector<std::pair<std::string, std::string>> deserved, allocated, capability, guarantee, inqueue;
  double share = 0;  // allocated / deserved, the largest over resources
};

}  // namespace vcsched

#endif  // VCSCHED_EXPLAIN_RECORDS_H_
