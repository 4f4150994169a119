// Victim bundles of the gang-aware evictions (gangpreempt, gangreclaim): a victim job's
// candidates split into what it can lose and stay gang-ready (safe) and the rest, which
// breaks it (whole), ordered so the cheapest room comes first (Volcano's
// actions/utils/bundle.go; docs/reference/scheduler.md §9.7).
#ifndef VCSCHED_SRC_ACTIONS_GANG_BUNDLES_H_
#define VCSCHED_SRC_ACTIONS_GANG_BUNDLES_H_

#include <vector>

#include "vcsched/session.h"

namespace vcsched::internal {

enum class BundleType { kSafe = 0, kWhole = 1 };

struct Bundle {
  BundleType type;
  JobIndex job;
  std::vector<TaskIndex> tasks;  // by task priority, then uid
  Resource local;                // what evicting the bundle frees
  Resource global;               // a whole bundle: the request of all its job's tasks
};

// Splits `tasks` (candidates of job j) into at most a safe and a whole bundle. A task is
// safe while the job keeps more ready tasks than its minimum, each role with a minimum
// keeps more than that minimum, and each sub-group policy keeps more ready sub-groups than
// its minSubGroups (a sub-group already missing a pod costs nothing more).
std::vector<Bundle> JobBundles(const Session& ssn, JobIndex j, std::vector<TaskIndex> tasks);

// Orders bundles: safe before whole; then gangpreempt: the victim job the job order ranks
// later first; gangreclaim: the victim queue ranked first for `preemptor_queue`; then
// the share of `need` a bundle covers per unit of the job it breaks (higher first); then
// job key, first task uid and size.
void SortBundles(const Session& ssn, EvictionKind kind, QueueIndex preemptor_queue, const Resource& need,
                 std::vector<Bundle>& bundles);

// The bundles after a UnifiedEvictable vote: a whole bundle stays only when every task
// was allowed, a safe one keeps its allowed tasks.
std::vector<Bundle> KeepAllowed(const Session& ssn, const std::vector<Bundle>& bundles,
                                const std::vector<TaskIndex>& allowed);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_GANG_BUNDLES_H_
