// preempt: inside one queue, starving jobs evict lower-priority work (between jobs, then
// between tasks of one job); the preemptor is pipelined, not bound (reference §9.4).
#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "src/actions/actions.h"
#include "src/actions/helpers.h"
#include "src/actions/victims.h"
#include "src/internal/status_macros.h"

namespace vcsched::internal {
namespace {

using VictimFilter = std::function<bool(TaskIndex)>;

class PreemptAction : public Action {
 public:
  absl::Status Execute(Session& ssn) override {
    Session::State& s = ssn.state();
    auto queues = QueueHeap(ssn);
    std::map<QueueIndex, OrderedHeap<JobIndex>> preemptors;
    std::map<QueueIndex, std::vector<JobIndex>> under_request;
    std::map<JobIndex, OrderedHeap<TaskIndex>> tasks;
    for (const JobInfo& job : s.snapshot->jobs()) {
      if (job.queue == kNone || ssn.JobIsPending(job.index) || ssn.JobValid(job.index) ||
          !ssn.JobStarving(job.index)) {
        continue;
      }
      auto [it, inserted] = preemptors.try_emplace(job.queue, JobHeap(ssn));
      if (inserted) queues.Push(job.queue);
      it->second.Push(job.index);
      under_request[job.queue].push_back(job.index);
      auto heap = TaskHeap(ssn);
      for (TaskIndex t : job.tasks) {
        if (s.status[static_cast<size_t>(t)] == TaskStatus::kPending && !s.task(t).pod.scheduling_gated) heap.Push(t);
      }
      tasks.emplace(job.index, std::move(heap));
    }
    while (!queues.empty()) {
      const QueueIndex q = queues.Pop();
      // (a) Between jobs of the queue.
      auto& jobs = preemptors.at(q);
      while (!jobs.empty()) {
        const JobIndex pj = jobs.Pop();
        Statement stmt(ssn);
        auto& heap = tasks.at(pj);
        while (ssn.JobStarving(pj) && !heap.empty()) {
          const TaskIndex p = heap.Pop();
          VCSCHED_RETURN_IF_ERROR(PreemptOne(ssn, stmt, p, [&, p, pj](TaskIndex v) {
                                    const JobIndex vj = s.task(v).job;
                                    return Eligible(ssn, p, v) && vj != kNone && s.job(vj).queue == q && vj != pj;
                                  }).status());
        }
        if (ssn.JobPipelined(pj)) stmt.Commit();
        else stmt.Discard();
      }
      // (b) Between tasks of each starving job, in job order (Volcano: map order).
      std::vector<JobIndex>& starving = under_request[q];
      std::stable_sort(starving.begin(), starving.end(),
                       [&](JobIndex a, JobIndex b) { return ssn.JobOrderLess(a, b); });
      for (JobIndex j : starving) {
        auto heap = TaskHeap(ssn);
        for (TaskIndex t : s.job(j).tasks) {
          if (s.status[static_cast<size_t>(t)] == TaskStatus::kPending && !s.task(t).pod.scheduling_gated) heap.Push(t);
        }
        while (!heap.empty()) {
          const TaskIndex p = heap.Pop();
          Statement stmt(ssn);
          VCSCHED_ASSIGN_OR_RETURN(const bool assigned,
                                   PreemptOne(ssn, stmt, p, [&, p, j](TaskIndex v) {
                                     return Eligible(ssn, p, v) && s.task(v).job == j;
                                   }));
          stmt.Commit();
          if (!assigned) break;
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  // Victims must be bound or running and preemptable; a best-effort preemptor only
  // takes best-effort victims.
  static bool Eligible(const Session& ssn, TaskIndex p, TaskIndex v) {
    const Session::State& s = ssn.state();
    const TaskStatus st = s.status[static_cast<size_t>(v)];
    if (st != TaskStatus::kBound && st != TaskStatus::kRunning) return false;
    if (!s.task(v).preemptable) return false;
    if (s.task(p).best_effort && !s.task(v).best_effort) return false;
    return true;
  }

  // Tries to make room for `p` on one node; true when `p` was pipelined there.
  static absl::StatusOr<bool> PreemptOne(Session& ssn, Statement& stmt, TaskIndex p, const VictimFilter& filter) {
    Session::State& s = ssn.state();
    const TaskInfo& task = s.task(p);
    if (task.pod.preemption_policy == "Never") return false;
    if (!task.pod.nominated_node_name.empty()) {
      if (auto nominated = s.snapshot->FindNode(task.pod.nominated_node_name)) {
        const FitResult r = ssn.Predicate(p, *nominated);
        if (r.ok()) return false;  // it will fit there once its victims are gone
        if (r.code != FitCode::kUnschedulableAndUnresolvable) {
          for (TaskIndex other : ssn.node_tasks(*nominated)) {
            if (s.status[static_cast<size_t>(other)] == TaskStatus::kReleasing &&
                s.task(other).priority < task.priority) {
              return false;  // a lower-priority pod is already terminating for it
            }
          }
        }
      }
    }
    if (!ssn.PrePredicate(p).ok()) return false;
    std::vector<NodeIndex> nodes = PreemptCandidateNodes(ssn, p);
    std::vector<double> scores(nodes.size());
    ssn.ScoreNodes(p, nodes, absl::MakeSpan(scores));
    std::vector<size_t> order(nodes.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    const JobIndex pj = task.job;
    const QueueIndex pq = pj == kNone ? kNone : s.job(pj).queue;
    for (size_t i : order) {
      const NodeIndex n = nodes[i];
      std::vector<TaskIndex> candidates;
      for (TaskIndex v : ssn.node_tasks(n)) {
        if (filter(v)) candidates.push_back(v);
      }
      std::vector<TaskIndex> victims = ssn.Preemptable(p, candidates);
      if (!ValidateVictims(ssn, p, n, victims)) continue;
      victims = InVictimOrder(ssn, p, std::move(victims));
      Statement node_stmt(ssn);
      auto fits = [&] {
        return (pq == kNone || ssn.Allocatable(pq, p)) && s.FitsFutureIdle(s.req(p), n) && ssn.Predicate(p, n).ok();
      };
      bool evicted = false;
      for (TaskIndex v : victims) {
        if (fits()) break;
        VCSCHED_RETURN_IF_ERROR(node_stmt.Evict(v, "preempt", p, absl::StrCat("preempted for ", task.key)));
        evicted = true;
      }
      if (fits()) {
        VCSCHED_RETURN_IF_ERROR(node_stmt.Pipeline(p, n, evicted));
        stmt.Merge(node_stmt);
        return true;
      }
      node_stmt.Discard();
    }
    return false;
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Action>> NewPreemptAction(const Arguments& args) {
  VCSCHED_RETURN_IF_ERROR(args.GetBool("predicateErrorCacheEnable", true).status());
  VCSCHED_RETURN_IF_ERROR(args.GetBool("enableTopologyAwarePreemption", false).status());
  VCSCHED_RETURN_IF_ERROR(args.GetInt("topologyAwarePreemptWorkerNum", 16).status());
  VCSCHED_RETURN_IF_ERROR(args.GetInt("minCandidateNodesPercentage", 10).status());
  VCSCHED_RETURN_IF_ERROR(args.GetInt("minCandidateNodesAbsolute", 1).status());
  VCSCHED_RETURN_IF_ERROR(args.GetInt("maxCandidateNodesAbsolute", 100).status());
  return std::unique_ptr<Action>(new PreemptAction());
}

}  // namespace vcsched::internal
