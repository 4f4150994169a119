// Volcano's texts for why tasks and gangs did not schedule (docs/reference/scheduler.md §11.2).
#ifndef VCSCHED_SRC_INTERNAL_FIT_MESSAGES_H_
#define VCSCHED_SRC_INTERNAL_FIT_MESSAGES_H_

#include <string>

#include "vcsched/session.h"

namespace vcsched::internal {

// "0/3 nodes are unavailable: 3 Insufficient cpu." or the task's own message; empty
// when the task recorded nothing.
std::string TaskFitErrorText(const Session& ssn, TaskIndex t);

// "pod group is not ready, 2 Pending, 2 minAvailable; Pending: 2 Unschedulable. Origin
// reason is p1: 0/1 nodes are unavailable: 1 Insufficient cpu."
std::string JobFitErrorText(const Session& ssn, JobIndex j);

// Number of the job's Pending tasks whose last placement was undone (gang counts them as
// schedulable).
int32_t PendingOnceAllocated(const Session& ssn, JobIndex j);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_INTERNAL_FIT_MESSAGES_H_
