// reclaim: starving jobs of queues entitled to more evict running tasks of other,
// reclaimable queues (docs/reference/scheduler.md §9.5).
#include <map>

#include "absl/strings/str_cat.h"
#include "src/actions/actions.h"
#include "src/actions/helpers.h"
#include "src/internal/victims.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

class ReclaimAction : public Action {
 public:
  absl::Status Execute(Session& ssn) override {
    const Session& s = ssn;
    auto queues = QueueHeap(ssn);
    std::map<QueueIndex, bool> queued;
    std::map<QueueIndex, OrderedHeap<JobIndex>> preemptors;
    std::map<JobIndex, OrderedHeap<TaskIndex>> tasks;
    for (const JobInfo& job : s.snapshot().jobs()) {
      if (job.queue == kNone || ssn.JobIsPending(job.index) || ssn.JobValid(job.index)) continue;
      if (!queued[job.queue]) {
        queued[job.queue] = true;
        queues.Push(job.queue);
      }
      if (!ssn.JobStarving(job.index)) continue;
      preemptors.try_emplace(job.queue, JobHeap(ssn)).first->second.Push(job.index);
      tasks.emplace(job.index, PendingTaskHeap(ssn, job));
    }
    while (!queues.empty()) {
      const QueueIndex q = queues.Pop();
      if (ssn.Overused(q)) continue;
      auto it = preemptors.find(q);
      if (it == preemptors.end()) continue;
      auto& jobs = it->second;
      while (!jobs.empty()) {
        const JobIndex j = jobs.Pop();
        Statement stmt(ssn);
        auto& heap = tasks.at(j);
        while (ssn.JobStarving(j) && !heap.empty()) {
          const TaskIndex t = heap.Pop();
          if (s.task(t).pod->preemption_policy == "Never") continue;
          const TaskIndex one[] = {t};
          if (!ssn.Preemptive(q, one)) {
            if (ssn.explaining()) ExplainQueueRefusedReclaim(ssn, j, t, q);
            continue;
          }
          if (!ssn.PrePredicate(t).ok()) continue;
          VCSCHED_RETURN_IF_ERROR(ReclaimOne(ssn, stmt, t, q));
        }
        if (ssn.JobPipelined(j)) stmt.Commit();
        else stmt.Discard();
      }
    }
    return absl::OkStatus();
  }

 private:
  static void ExplainQueueRefusedReclaim(const Session& ssn, JobIndex j, TaskIndex t, QueueIndex q) {
    const QueueSpec& queue = ssn.queue(q).spec;
    const bool open = queue.state == "Open";
    ssn.ExplainJob(j, open ? reason_code::kQueueShareExceeded : reason_code::kQueueClosed,
                   open ? absl::StrCat("queue ", queue.name, " may not reclaim for pod ", ssn.task(t).key,
                                       ": it would pass its deserved share")
                        : absl::StrCat("queue ", queue.name, " is ", queue.state, ": it does not reclaim"),
                   {{"queue", queue.name}, {"state", queue.state}});
  }

  static absl::Status ReclaimOne(Session& ssn, Statement& stmt, TaskIndex t, QueueIndex q) {
    const Session& s = ssn;
    for (NodeIndex n : ShardFirst(ssn, PreemptCandidateNodes(ssn, t))) {
      std::vector<TaskIndex> reclaimees;
      for (TaskIndex v : ssn.node_tasks(n)) {
        const TaskInfo& vt = s.task(v);
        if (s.task_status(v) != TaskStatus::kRunning || !vt.preemptable) continue;
        if (vt.job == kNone) continue;
        const QueueIndex vq = s.job(vt.job).queue;
        if (vq == kNone || vq == q || !s.queue(vq).spec.reclaimable) continue;
        reclaimees.push_back(v);
      }
      if (reclaimees.empty()) continue;
      std::vector<TaskIndex> victims = ssn.Reclaimable(t, reclaimees);
      if (!ValidateVictims(ssn, t, n, victims)) continue;
      victims = InVictimOrder(ssn, t, std::move(victims));
      Resource available = ssn.node_future_idle(n);
      Statement node_stmt(ssn);
      for (TaskIndex v : victims) {
        if (LessEqual(s.task_resreq(t), available.span())) break;
        VCSCHED_RETURN_IF_ERROR(node_stmt.Evict(v, "reclaim", t, absl::StrCat("reclaimed for ", s.task(t).key)));
        available += s.task_resreq(v);
      }
      if (LessEqual(s.task_resreq(t), available.span())) {
        VCSCHED_RETURN_IF_ERROR(node_stmt.Pipeline(t, n, !node_stmt.empty()));
        stmt.Merge(node_stmt);
        return absl::OkStatus();
      }
      node_stmt.Discard();
    }
    ExplainNoRoomByEviction(ssn, t, "no node where reclaiming other queues' pods makes room for it");
    return absl::OkStatus();
  }
};

class ShuffleAction : public Action {
 public:
  absl::Status Execute(Session& ssn) override {
    const Session& s = ssn;
    std::vector<TaskIndex> running;
    for (const JobInfo& job : s.snapshot().jobs()) {
      if (job.queue == kNone) continue;
      for (TaskIndex t : job.tasks) {
        if (s.task_status(t) == TaskStatus::kRunning) running.push_back(t);
      }
    }
    for (TaskIndex v : ssn.VictimTasks(running)) {
      if (s.task_status(v) != TaskStatus::kRunning) continue;
      VCSCHED_RETURN_IF_ERROR(ssn.Evict(v, "shuffle", "chosen by a victim-tasks plugin"));
    }
    return absl::OkStatus();
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Action>> NewReclaimAction(const Arguments& args) {
  VCSCHED_RETURN_IF_ERROR(args.GetBool("predicateErrorCacheEnable", true).status());
  return std::unique_ptr<Action>(new ReclaimAction());
}

absl::StatusOr<std::unique_ptr<Action>> NewShuffleAction(const Arguments&) {
  return std::unique_ptr<Action>(new ShuffleAction());
}

}  // namespace vcsched::internal
