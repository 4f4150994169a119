// What every session reads for every task and job, laid out densely once per snapshot.
#ifndef VCSCHED_SRC_SNAPSHOT_DENSE_FACTS_H_
#define VCSCHED_SRC_SNAPSHOT_DENSE_FACTS_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "src/snapshot/packed_strings.h"
#include "src/model/resource_matrix.h"
#include "vcsched/snapshot.h"

namespace vcsched {

// Consecutive tasks carried over by a patch: the earlier tasks [old_begin, old_end) are
// now [new_begin, new_begin + (old_end - old_begin)).
struct TaskRun {
  TaskIndex old_begin = 0, old_end = 0, new_begin = 0;
};

// Moves each run's `width`-wide elements to its new place: the runs moving left in
// ascending order, those moving right in descending order, so that none overwrites
// another's elements before they move (the new places keep the runs' order).
template <typename T>
void MoveRuns(T* data, size_t width, absl::Span<const TaskRun> runs) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (width == 0) return;  // nothing to move (and no buffer to pass to memmove)
  const auto move = [&](const TaskRun& r) {
    std::memmove(data + static_cast<size_t>(r.new_begin) * width, data + static_cast<size_t>(r.old_begin) * width,
                 static_cast<size_t>(r.old_end - r.old_begin) * width * sizeof(T));
  };
  for (const TaskRun& r : runs) {
    if (r.new_begin < r.old_begin) move(r);
  }
  for (auto r = runs.rbegin(); r != runs.rend(); ++r) {
    if (r->new_begin > r->old_begin) move(*r);
  }
}

// A per-task column laid out again where it lies: `n` entries, each run's at its new
// places (the others are left for the caller to write).
template <typename T>
void ShiftRuns(std::vector<T>& v, absl::Span<const TaskRun> runs, size_t n) {
  if (n > v.size()) v.resize(n);
  MoveRuns(v.data(), 1, runs);
  v.resize(n);
}

// Statuses whose task holds resources on its node.
inline bool HoldsNode(TaskStatus s) {
  return s != TaskStatus::kPending && s != TaskStatus::kSucceeded && s != TaskStatus::kFailed;
}

// What every session reads for every task and job, laid out densely once at build, so
// that opening a session and its per-job passes do not walk the large TaskInfo and
// JobInfo records (tens of thousands of cache misses each).
struct DenseFacts {
  // Lays the facts out from a snapshot's final task and job records.
  static DenseFacts Of(absl::Span<const TaskInfo> tasks, absl::Span<const JobInfo> jobs, size_t nodes, int dims);
  // The same with what comes from the pods' specs already worked out (by the builder,
  // while it had each spec at hand): each task's TaskFlag bits (FlagsOf) and the latest
  // creation time of their pods.
  static DenseFacts Of(absl::Span<const TaskInfo> tasks, absl::Span<const JobInfo> jobs, size_t nodes, int dims,
                       std::vector<uint8_t> task_flags, int64_t latest_pod_creation_time);
  // The facts of a task table made from an earlier one's (PatchSnapshot), its per-task
  // columns shifted where they lie (`own`: `was` itself when they may be taken over, else
  // null and they are copied first): the earlier tasks of each run are now the run's new places
  // (the rest are gone), the earlier task i is now moved[i] (kNone: gone), its job
  // job_moved[j] (empty: the same), the tasks listed in `fresh` are new, `task_flags`,
  // `task_shape` and `shape_first_task` are the new table's, `job_redone` says per new
  // job whether its record was worked out again and `job_affected` whether it lost or
  // gained a task. Only the records of new tasks, and of redone and affected jobs' tasks,
  // are read.
  static DenseFacts Patched(const DenseFacts& was, DenseFacts* own, absl::Span<const TaskRun> runs, absl::Span<const TaskIndex> moved,
                            absl::Span<const JobIndex> job_moved, absl::Span<const TaskInfo> tasks,
                            absl::Span<const TaskIndex> fresh, absl::Span<const JobInfo> jobs,
                            const std::vector<bool>& job_redone, const std::vector<bool>& job_affected, size_t nodes, int dims,
                            std::vector<uint8_t> task_flags, std::vector<int32_t> task_shape,
                            std::vector<TaskIndex> shape_first_task, int64_t latest_pod_creation_time);
  // A task's TaskFlag bits, from its record and its pod's spec.
  static uint8_t FlagsOf(const TaskInfo& t);

  int64_t latest_creation_time = 0;  // over jobs and tasks: a session's default clock
  std::vector<uint8_t> task_flags;   // TaskFlag bits
  ResourceMatrix task_req;           // TaskInfo::resreq, one row per task
  // At least the largest magnitude in task_req (a patch raises it for its new tasks and
  // never lowers it): a session reads from it that sums of requests are exact without
  // walking every row. Saturates at INT64_MAX.
  int64_t task_req_bound = 0;
  std::vector<JobIndex> task_job;
  std::vector<int32_t> task_shape;  // TaskInfo::shape
  // Per shape, its first task: shapes are numbered in the order their first tasks come.
  std::vector<TaskIndex> shape_first_task;
  std::vector<int64_t> task_nonzero_cpu, task_nonzero_memory;  // TaskInfo::nonzero_*
  // Tasks that do not start Pending off any node: the session moves only these.
  std::vector<TaskIndex> placed_tasks;
  // Where a session starts each task: its status, and its node while it holds one
  // (HoldsNode; kNone otherwise).
  std::vector<TaskStatus> task_status;
  std::vector<NodeIndex> task_node;
  // Per node, the requests of the tasks holding it (pipelined ones aside), of those
  // releasing and of those pipelined to it. Exact (node_sums_exact) when no request is
  // negative and no sum reaches kExactSumLimit: a session then starts from them, and a
  // patch takes a changed task's requests out and puts the new ones in. Otherwise a
  // session sums its tasks itself, saturating, in task order.
  static constexpr int64_t kExactSumLimit = int64_t{1} << 62;
  ResourceMatrix node_used, node_releasing, node_pipelined;
  bool node_sums_exact = false;
  std::vector<QueueIndex> job_queue;
  std::vector<int32_t> job_min_member;
  std::vector<uint8_t> job_checks_roles;  // minTaskMember applies
  // Per task: the position of its role among its job's roles with a minimum
  // (minTaskMember, in key order); -1 for none, and for tasks of jobs without minimums.
  std::vector<int32_t> task_role_slot;
  std::vector<int32_t> job_priority;
  std::vector<int64_t> job_creation_time;
  ResourceMatrix job_min_resources;  // JobInfo::min_resources, one row per job
  std::vector<uint8_t> job_has_min_resources;
  // JobInfo::tasks of every job in one list: job j's are [job_task_begin[j], job_task_begin[j+1]).
  std::vector<int32_t> job_task_begin;
  std::vector<TaskIndex> job_task_list;
  // Per job, its tasks as the snapshot has them (where a session starts): how many have
  // each status, the requests of those allocated (summed in task order, saturating, as
  // a session sums them), the best-effort ones still pending, and the minTaskMember
  // checks' answers (RoleAnswers; every check holds for a job without minimums). A patch
  // works these out again only for jobs whose tasks or record changed.
  std::vector<std::array<int32_t, kTaskStatusCount>> job_opening_counts;
  ResourceMatrix job_opening_allocated;
  std::vector<int32_t> job_opening_best_effort_pending;
  std::vector<uint8_t> job_opening_roles;
  // status.phase ("Pending" when unset) as a position in phase_names, which holds each
  // distinct phase once: jobs share a handful, and a patch rewrites every job's.
  std::vector<int32_t> job_phase;
  std::vector<std::string> phase_names;
  const std::string& PhaseOf(size_t job) const { return phase_names[static_cast<size_t>(job_phase[job])]; }
  // TaskInfo::key and JobInfo::key, packed: decisions copy them for every bind and status.
  PackedStrings task_key, job_key;
  // The keys in index order are in byte order too (false when a namespace holds a
  // character that sorts before '/'): lists written in index order are then sorted.
  bool task_keys_sorted = true, job_keys_sorted = true;

 private:
  // What comes from the jobs (and the tasks' jobs and flags, laid out already).
  void FillJobFacts(absl::Span<const JobInfo> jobs, int dims);
  // Job j's opening facts, from the task columns (laid out already).
  void CountOpening(size_t j, const JobInfo& job, int dims);
  void SizeOpening(size_t jobs, int dims);
  // Adds (sign +1) or takes out (-1) the requests `req` of a task with status `st` on
  // node `n`; false when that leaves the sums inexact.
  bool CountOnNode(TaskStatus st, NodeIndex n, const int64_t* req, int dims, int sign);
  // Every node's sums, from the task columns.
  void SumNodes(size_t nodes, int dims);
  // Raises task_req_bound to the magnitudes of `count` values from `req`.
  void BoundRequests(const int64_t* req, size_t count);
};

}  // namespace vcsched

#endif  // VCSCHED_SRC_SNAPSHOT_DENSE_FACTS_H_
