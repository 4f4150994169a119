// Victim selection shared by preempt and reclaim: the order in which candidate victims
// are evicted (Volcano's BuildVictimsPriorityQueue, docs/reference/scheduler.md §9.4.1) and the predicate
// filter that keeps nodes where evictions could help.
#ifndef VCSCHED_SRC_INTERNAL_VICTIMS_H_
#define VCSCHED_SRC_INTERNAL_VICTIMS_H_

#include <vector>

#include "vcsched/session.h"

namespace vcsched::internal {

// True when `l` should be evicted before `r` for `preemptor`.
bool VictimBefore(const Session& ssn, TaskIndex preemptor, TaskIndex l, TaskIndex r);

// `victims` sorted into eviction order (a stable sort of the given order).
std::vector<TaskIndex> InVictimOrder(const Session& ssn, TaskIndex preemptor, std::vector<TaskIndex> victims);

// Nodes where a predicate failure, if any, could be resolved by evictions (no
// UnschedulableAndUnresolvable, Error, Skip or Wait status).
std::vector<NodeIndex> PreemptCandidateNodes(Session& ssn, TaskIndex t);

// p.InitResreq <= node FutureIdle + the victims' requests. An empty list passes when the
// node's future idle already holds the preemptor, as in Volcano HEAD.
bool ValidateVictims(const Session& ssn, TaskIndex preemptor, NodeIndex n, const std::vector<TaskIndex>& victims);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_INTERNAL_VICTIMS_H_
