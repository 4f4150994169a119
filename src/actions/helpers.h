// Pieces the actions share: ordered heaps over the session's order functions, node
// feasibility, and best-node selection with the deterministic tie rule.
#ifndef VCSCHED_SRC_ACTIONS_HELPERS_H_
#define VCSCHED_SRC_ACTIONS_HELPERS_H_

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "vcsched/session.h"
#include "vcsched/statement.h"

namespace vcsched::internal {

// A binary heap that pops the element `before(a, b)` ranks first.
template <typename T>
class OrderedHeap {
 public:
  explicit OrderedHeap(std::function<bool(T, T)> before) : before_(std::move(before)) {}
  void Push(T v) {
    items_.push_back(v);
    std::push_heap(items_.begin(), items_.end(), Cmp());
  }
  T Pop() {
    std::pop_heap(items_.begin(), items_.end(), Cmp());
    T v = items_.back();
    items_.pop_back();
    return v;
  }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }

 private:
  auto Cmp() const {
    return [this](const T& a, const T& b) { return before_(b, a); };
  }
  std::function<bool(T, T)> before_;
  absl::InlinedVector<T, 2> items_;  // a heap per job: most jobs wait with one or two tasks
};

inline OrderedHeap<JobIndex> JobHeap(const Session& ssn) {
  return OrderedHeap<JobIndex>([&ssn](JobIndex a, JobIndex b) { return ssn.JobOrderLess(a, b); });
}
inline OrderedHeap<TaskIndex> TaskHeap(const Session& ssn) {
  return OrderedHeap<TaskIndex>([&ssn](TaskIndex a, TaskIndex b) { return ssn.TaskOrderLess(a, b); });
}
inline OrderedHeap<QueueIndex> QueueHeap(const Session& ssn) {
  return OrderedHeap<QueueIndex>([&ssn](QueueIndex a, QueueIndex b) { return ssn.QueueOrderLess(a, b); });
}

// The job's pending tasks that are not held back by scheduling gates, in task order:
// what preempt and reclaim try to place.
OrderedHeap<TaskIndex> PendingTaskHeap(const Session& ssn, const JobInfo& job);

// Starving jobs of admitted, valid gangs by queue (the preemptors of preempt and
// gangpreempt); each queue that has one is pushed once onto `queues`. `in_index_order`,
// when given, receives the same jobs in job-index order. Without
// `with_network_topology`, jobs with network topology (theirs or a sub-group's) are left
// out: Volcano's preempt does not serve them (volcano-sh/volcano#4374).
std::map<QueueIndex, OrderedHeap<JobIndex>> StarvingJobsByQueue(Session& ssn, OrderedHeap<QueueIndex>& queues,
                                                                std::vector<JobIndex>* in_index_order = nullptr,
                                                                bool with_network_topology = true);

// Failures collected while looking for nodes; written to the session only when the
// task ends up with no node, as Volcano does.
struct FitErrorBuffer {
  std::vector<std::pair<NodeIndex, FitResult>> failures;
  // The task's fit errors become these (Volcano replaces them on each failure); tried
  // within HyperNode `hn` (not the cluster's root), the text names it.
  void Flush(Session& ssn, TaskIndex t, HyperNodeIndex hn = kNone) {
    ssn.ResetTaskFitErrors(t);
    for (const auto& failure : failures) ssn.RecordFitError(t, failure.second);
    if (hn != kNone) ssn.SetTaskFitErrorsHyperNode(t, hn);
    if (ssn.explaining()) ssn.ExplainNodeVerdicts(t, failures);
    failures.clear();
  }
};

// A pre-predicate failure of t, recorded as a failure on each of `nodes` (replacing
// what t recorded before).
void RecordPrePredicateFailure(Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes, const FitResult& pre);

// "Insufficient <name>" reasons by dimension, interned once per session.
class ResourceReasons {
 public:
  explicit ResourceReasons(Session& ssn);
  ReasonId Insufficient(int dim) const { return ids_[static_cast<size_t>(dim)]; }

 private:
  std::vector<ReasonId> ids_;
};

// Nodes (from `candidates`, in order) where the task fits FutureIdle and every
// predicate passes. With `check_resources` false only predicates are run (backfill).
std::vector<NodeIndex> FeasibleNodes(Session& ssn, TaskIndex t, absl::Span<const NodeIndex> candidates,
                                     bool check_resources, const ResourceReasons& reasons,
                                     FitErrorBuffer* errors);

// The highest-scoring node; among equal scores the one with the lowest index (first
// in name order). A single candidate is chosen without scoring.
NodeIndex SelectBestNode(const Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes);

// Allocate's gradients: nodes where the task fits Idle, else the rest; under soft
// sharding each gradient's shard nodes before its other nodes.
NodeIndex SelectBestNodeByGradient(const Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes);

// Under soft sharding, the shard's nodes before the others (each in the given order);
// otherwise `nodes` as given. Volcano's GetPredicatedNodeByShard.
std::vector<NodeIndex> ShardFirst(const Session& ssn, std::vector<NodeIndex> nodes);

// Should a visit go on after a task found no node, given the roles that failed
// (docs/reference/scheduler.md §9.2.3)?
bool NeedContinueAllocating(const Session& ssn, JobIndex j, const std::set<std::string>& failed_roles);

// Allocate's node search for one task: the pod's nominated node first, when it is one of
// `candidates` (ascending) and its future idle fits, else every candidate.
std::vector<NodeIndex> FeasibleNodesNominatedFirst(Session& ssn, TaskIndex t, absl::Span<const NodeIndex> candidates,
                                                   const ResourceReasons& reasons, FitErrorBuffer* errors);

// Allocates t on n when its idle fits, else pipelines it when its future idle does.
absl::Status AllocateOrPipeline(Statement& stmt, const Session& ssn, TaskIndex t, NodeIndex n);

// The reason of a task skipped because another of its role found no node.
std::string RoleFailedText(const TaskInfo& task);
// Records it as the task's only reason.
void RecordRoleFailed(Session& ssn, TaskIndex t);

// While explaining: what `nodes` would have said of a task its queue refused, so that
// a share problem and a capacity problem are never confused. Records nothing else.
void ExplainRefusedTask(Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes, const ResourceReasons& reasons);

// While explaining: records that an eviction action (preempt, reclaim) found no room
// for t, and why.
void ExplainNoRoomByEviction(const Session& ssn, TaskIndex t, absl::string_view why);

// Volcano's ContainsHardTopology: the job or one of its sub-groups has a hard limit with
// a tier.
bool ContainsHardTopology(const JobInfo& job);

// The unready sub-groups job j's minSubGroups still needs, taken in sub-group order:
// allocate and the gang evictions work on them before the others.
std::set<int32_t> RequiredSubJobs(const Session& ssn, JobIndex j);

// Sub-group k's pending tasks that allocate would place (not gated, not best effort),
// in task order.
std::vector<TaskIndex> SubJobPendingTasks(const Session& ssn, JobIndex j, int32_t k);

// Every node index of the session.
std::vector<NodeIndex> AllNodes(const Session& ssn);

}  // namespace vcsched::internal

#endif  // VCSCHED_SRC_ACTIONS_HELPERS_H_
