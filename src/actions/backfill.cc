// backfill: place best-effort tasks (no requests) wherever predicates pass
// (docs/reference/scheduler.md §9.3). The order is fixed before the first placement.
#include <map>

#include "src/actions/actions.h"
#include "src/actions/helpers.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

class BackfillAction : public Action {
 public:
  absl::Status Execute(Session& ssn) override {
    const Session& s = ssn;
    const ResourceReasons reasons(ssn);
    auto queues = QueueHeap(ssn);
    std::map<QueueIndex, OrderedHeap<JobIndex>> jobs;
    std::map<JobIndex, OrderedHeap<TaskIndex>> tasks;
    for (const JobInfo& job : s.snapshot().jobs()) {
      if (job.queue == kNone || ssn.JobIsPending(job.index) || ssn.JobValid(job.index)) continue;
      // Only a pending or pipelined best-effort task is backfilled: most jobs have none,
      // and their task records are not read.
      if (ssn.JobPendingBestEffortNum(job.index) == 0 && ssn.job_count(job.index, TaskStatus::kPipelined) == 0) continue;
      auto heap = TaskHeap(ssn);
      for (TaskIndex t : job.tasks) {
        const TaskInfo& info = s.task(t);
        const TaskStatus st = s.task_status(t);
        if (!info.best_effort || info.pod->scheduling_gated) continue;
        if (st == TaskStatus::kPipelined) {
          // A pipelined best-effort task is un-pipelined and placed again.
          VCSCHED_RETURN_IF_ERROR(ssn.Unpipeline(t));
          heap.Push(t);
        } else if (st == TaskStatus::kPending) {
          heap.Push(t);
        }
      }
      if (heap.empty()) continue;
      tasks.emplace(job.index, std::move(heap));
      auto [it, inserted] = jobs.try_emplace(job.queue, JobHeap(ssn));
      if (inserted) queues.Push(job.queue);
      it->second.Push(job.index);
    }
    std::vector<TaskIndex> order;
    while (!queues.empty()) {
      auto& job_heap = jobs.at(queues.Pop());
      while (!job_heap.empty()) {
        auto& task_heap = tasks.at(job_heap.Pop());
        while (!task_heap.empty()) order.push_back(task_heap.Pop());
      }
    }
    const std::vector<NodeIndex> all_nodes = AllNodes(ssn);
    FitErrorBuffer errors;
    for (TaskIndex t : order) {
      const FitResult pre = ssn.PrePredicate(t);
      if (!pre.ok()) {
        RecordPrePredicateFailure(ssn, t, all_nodes, pre);
        continue;
      }
      const std::vector<NodeIndex> nodes = FeasibleNodes(ssn, t, all_nodes, false, reasons, &errors);
      if (nodes.empty()) {
        errors.Flush(ssn, t);
        continue;
      }
      errors.failures.clear();
      VCSCHED_RETURN_IF_ERROR(ssn.Allocate(t, BestNode(ssn, t, nodes)));
    }
    return absl::OkStatus();
  }

 private:
  // The best of the shard's nodes, else of the others (soft sharding); a single feasible
  // node is taken wherever it is.
  static NodeIndex BestNode(const Session& ssn, TaskIndex t, const std::vector<NodeIndex>& nodes) {
    if (nodes.size() <= 1 || ssn.sharding_mode() != ShardingMode::kSoft) return SelectBestNode(ssn, t, nodes);
    std::vector<NodeIndex> own, other;
    for (NodeIndex n : nodes) (ssn.NodeInOtherShard(n) ? other : own).push_back(n);
    return SelectBestNode(ssn, t, own.empty() ? other : own);
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Action>> NewBackfillAction(const Arguments& args) {
  VCSCHED_RETURN_IF_ERROR(args.GetBool("predicateErrorCacheEnable", true).status());
  return std::unique_ptr<Action>(new BackfillAction());
}

}  // namespace vcsched::internal
