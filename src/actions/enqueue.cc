// enqueue: admit Pending PodGroups to Inqueue by the plugins' votes (docs/reference/scheduler.md §9.1).
#include <map>

#include "src/actions/actions.h"
#include "src/actions/helpers.h"

namespace vcsched::internal {
namespace {

class EnqueueAction : public Action {
 public:
  absl::Status Execute(Session& ssn) override {
    const Session& s = ssn;
    auto queues = QueueHeap(ssn);
    std::map<QueueIndex, OrderedHeap<JobIndex>> jobs;
    for (const JobInfo& job : s.snapshot().jobs()) {
      if (job.queue == kNone) continue;
      auto [it, inserted] = jobs.try_emplace(job.queue, JobHeap(ssn));
      if (inserted) queues.Push(job.queue);
      if (ssn.JobIsPending(job.index)) it->second.Push(job.index);
    }
    while (!queues.empty()) {
      const QueueIndex q = queues.Pop();
      auto& heap = jobs.at(q);
      if (heap.empty()) continue;  // the queue is done
      const JobIndex j = heap.Pop();
      if (!s.job(j).has_min_resources || ssn.JobEnqueueable(j)) {
        ssn.JobEnqueued(j);
        ssn.SetJobPhase(j, "Inqueue");
      }
      queues.Push(q);
    }
    return absl::OkStatus();
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Action>> NewEnqueueAction(const Arguments&) {
  return std::unique_ptr<Action>(new EnqueueAction());
}

}  // namespace vcsched::internal
