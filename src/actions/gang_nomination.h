// Nominations: how gangpreempt and gangreclaim plan a starving gang's placement in one
// network domain (Volcano's actions/utils/simulate.go), and how allocate later in the
// session redeems the HyperNode they nominated for a sub-group (allocateFromNomination).
#ifndef VCSCHED_SRC_ACTIONS_GANG_NOMINATION_H_
#define VCSCHED_SRC_ACTIONS_GANG_NOMINATION_H_

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vcsched/statement.h"

namespace vcsched::internal {

// A job's sub-groups with tasks to place, in the order allocate takes them (those
// minSubGroups needs first, then sub-group order), each with its pending tasks in task
// order.
using EvictionSheet = std::vector<std::pair<int32_t, std::vector<TaskIndex>>>;
EvictionSheet OrganizeEvictionSheet(const Session& ssn, JobIndex j);

// What a gang eviction tries to place for job j: when the job is ready, the tasks of the
// first sub-group of its sheet; else every task of the sheet.
std::vector<TaskIndex> PendingForGangEviction(const Session& ssn, JobIndex j);

// The domains victims of job j may come from: the eviction gradients under the cluster's
// root, flattened, at most `max_domains`; a job without a hard limit falls back to the
// root.
std::vector<HyperNodeIndex> CandidateDomains(const Session& ssn, JobIndex j, int64_t max_domains);

// A dry run in `domain`: evicts `victims` (for `action`), then places the sheet's
// sub-groups one by one, each in the first HyperNode of its eviction gradients (a job
// with a hard limit) or in the domain, every task pipelined onto the best node by idle,
// then future idle. Stops once the job is pipelined (or, for a job that was ready, after
// one sub-group). On success the operations move into `into` and the sub-groups'
// HyperNodes are returned; otherwise nothing stays applied.
absl::StatusOr<std::optional<std::map<int32_t, HyperNodeIndex>>> PlanInDomain(
    Session& ssn, QueueIndex q, JobIndex j, HyperNodeIndex domain, const std::vector<TaskIndex>& victims,
    absl::string_view action, Statement& into);

// Allocate's quick path for sub-group k with a nominated HyperNode: every task of `tasks`
// (in task order) must be allocatable by its queue and have a nominated node inside the
// HyperNode that passes its predicates; then each is allocated there (or pipelined) in
// `into`. On any miss the nomination is cleared and false is returned, nothing applied.
absl::StatusOr<bool> AllocateFromNomination(Session& ssn, JobIndex j, int32_t k, const std::vector<TaskIndex>& tasks,
                                            Statement& into);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_GANG_NOMINATION_H_
