// allocate: queue by queue, job by job, place pending tasks on the best feasible node;
// a gang's placements are committed only once it is ready (docs/reference/scheduler.md §9.2).
#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "src/actions/actions.h"
#include "src/actions/allocate_topology.h"
#include "src/actions/gang_nomination.h"
#include "src/actions/helpers.h"
#include "src/actions/job_task_heaps.h"
#include "src/actions/node_choice_cache.h"
#include "src/actions/placement_node_choice.h"
#include "src/actions/waiting_job_heap.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

class AllocateAction : public Action {
 public:
  explicit AllocateAction(bool error_cache) : error_cache_(error_cache) {}

  absl::Status Execute(Session& ssn) override {
    const Session& s = ssn;
    const ResourceReasons reasons(ssn);
    const std::vector<std::string>& actions = s.config().actions;
    const bool has_enqueue = std::find(actions.begin(), actions.end(), "enqueue") != actions.end();
    auto queues = QueueHeap(ssn);
    std::map<QueueIndex, WaitingJobHeap> jobs;
    JobTaskHeaps tasks(ssn, s.num_jobs());
    TopologyAllocator topology(ssn, error_cache_, reasons);
    std::vector<bool> uses_topology(static_cast<size_t>(s.num_jobs()), false);
    for (JobIndex j = 0; j < static_cast<JobIndex>(s.num_jobs()); ++j) {
      const QueueIndex queue = s.queue_of(j);
      if (queue == kNone) continue;
      if (ssn.JobIsPending(j)) {
        if (has_enqueue) continue;
        ssn.SetJobPhase(j, "Inqueue");
      }
      if (ssn.JobValid(j)) continue;
      if (TopologyAllocator::Uses(ssn, j)) {
        // HyperNodes with two parents or a cycle: Volcano's view is not ready.
        if (!s.snapshot().hyper_nodes_ready() && HasNetworkTopology(s.job(j))) continue;
        if (!topology.Open(j)) continue;
        uses_topology[static_cast<size_t>(j)] = true;
        auto [it, inserted] = jobs.try_emplace(queue, ssn);
        if (inserted) queues.Push(queue);
        it->second.Push(j);
        continue;
      }
      tasks.Open(j);
      for (TaskIndex t : s.job_tasks(j)) {
        if (s.task_status(t) == TaskStatus::kPending &&
            !(s.task_flags(t) & (kTaskGated | kTaskBestEffort))) {
          tasks.Push(t);
        }
      }
      if (tasks.empty(j)) continue;
      auto [it, inserted] = jobs.try_emplace(queue, ssn);
      if (inserted) queues.Push(queue);
      it->second.Push(j);
    }
    const std::vector<NodeIndex> all_nodes = AllNodes(ssn);
    placement_choice_ = std::make_unique<PlacementNodeChoice>(ssn);
    while (!queues.empty()) {
      const QueueIndex q = queues.Pop();
      if (ssn.Overused(q)) continue;
      auto& job_heap = jobs.at(q);
      if (job_heap.empty()) continue;
      const JobIndex j = job_heap.Pop();
      if (uses_topology[static_cast<size_t>(j)]) {
        VCSCHED_ASSIGN_OR_RETURN(std::optional<Statement> stmt, topology.Visit(j));
        if (stmt && ssn.JobReady(j)) {  // a pipelined gang keeps its placements, uncommitted
          stmt->Commit();
          topology.CommitDecision(j);
          if (!topology.Empty(j)) job_heap.Push(j);
        }
        queues.Push(q);
        continue;
      }
      Statement stmt(ssn);
      VCSCHED_ASSIGN_OR_RETURN(bool keep, AllocateNominated(ssn, j, tasks, stmt));
      if (!keep) {
        VCSCHED_ASSIGN_OR_RETURN(keep, AllocateTasks(ssn, j, tasks, all_nodes, reasons, stmt));
      }
      if (keep && ssn.JobReady(j)) {
        stmt.Commit();
        ssn.SetSubJobNominatedHyperNode(j, 0, kNone);  // redeemed, if there was one
        if (!tasks.empty(j)) job_heap.Push(j);
      }
      queues.Push(q);
    }
    return absl::OkStatus();
  }

 private:
  // The quick path for a job whose sub-group gangpreempt or gangreclaim nominated a
  // HyperNode for (gang_nomination.h): its pending tasks on their nominated nodes. On a
  // miss the tasks go back for the full search.
  static absl::StatusOr<bool> AllocateNominated(Session& ssn, JobIndex j, JobTaskHeaps& tasks, Statement& stmt) {
    if (ssn.job(j).sub_jobs.size() != 1 || ssn.sub_job_nominated_hyper_node(j, 0) == kNone) return false;
    std::vector<TaskIndex> pending;
    while (!tasks.empty(j)) pending.push_back(tasks.Pop(j));
    VCSCHED_ASSIGN_OR_RETURN(const bool placed, AllocateFromNomination(ssn, j, 0, pending, stmt));
    if (placed && (ssn.JobReady(j) || ssn.JobPipelined(j))) return true;
    stmt.Discard();
    for (TaskIndex t : pending) tasks.Push(t);
    return false;
  }

  // One job visit. Returns whether the statement is kept (ready or pipelined); a
  // statement that is not kept has been discarded.
  absl::StatusOr<bool> AllocateTasks(Session& ssn, JobIndex j, JobTaskHeaps& tasks,
                                     const std::vector<NodeIndex>& all_nodes, const ResourceReasons& reasons,
                                     Statement& stmt) {
    const Session& s = ssn;
    FitErrorBuffer errors;
    while (!tasks.empty(j)) {
      const TaskIndex t = tasks.Pop(j);
      const TaskInfo& info = s.task(t);
      const uint8_t flags = s.task_flags(t);
      const QueueIndex queue = s.queue_of(j);
      if (!ssn.Allocatable(queue, t)) {
        ssn.RecordQueueRefusal(t, queue);
        if (ssn.explaining()) ExplainRefusedTask(ssn, t, all_nodes, reasons);
        continue;
      }
      if (flags & kTaskGated) continue;
      if (error_cache_ && (flags & kTaskHasRole) && FailedRoles(j).count(info.role)) {
        RecordRoleFailed(ssn, t);
        continue;
      }
      const FitResult pre = ssn.PrePredicate(t);
      if (!pre.ok()) {
        RecordPrePredicateFailure(ssn, t, all_nodes, pre);
        if (!info.role.empty()) failed_roles_[j].insert(info.role);
        if (NeedContinueAllocating(ssn, j, FailedRoles(j))) continue;
        break;
      }
      if (NodeChoiceCache::Usable(ssn, t)) {
        // Without group scorers the placement choice's kept ranks and scores serve, so
        // that tasks with and without pod terms of one shape share them.
        const NodeIndex best =
            s.HasGroupNodeOrderFns() ? cache_.Choose(ssn, t) : placement_choice_->ChooseReusable(s, t);
        if (best != kNone) {
          if (s.NodeFitsIdle(s.task_resreq(t), best)) {
            VCSCHED_RETURN_IF_ERROR(stmt.Allocate(t, best));
          } else {
            VCSCHED_RETURN_IF_ERROR(stmt.Pipeline(t, best));
          }
          if (ssn.JobReady(j)) break;
          continue;
        }
        // No node: the full pass below records why.
      } else if (s.NodeLocalScoresReusable(t) && placement_choice_->RankAll(s, t)) {
        // Pod affinity or spread: node-local answers cached by shape, placement asked now.
        VCSCHED_RETURN_IF_ERROR(AllocateOrPipeline(stmt, ssn, t, placement_choice_->Best(s, t)));
        if (ssn.JobReady(j)) break;
        continue;
      }
      const std::vector<NodeIndex> nodes = FeasibleNodesNominatedFirst(ssn, t, all_nodes, reasons, &errors);
      if (nodes.empty()) {
        errors.Flush(ssn, t);
        if (!info.role.empty()) failed_roles_[j].insert(info.role);
        if (NeedContinueAllocating(ssn, j, FailedRoles(j))) continue;
        break;
      }
      errors.failures.clear();
      const NodeIndex best = SelectBestNodeByGradient(ssn, t, nodes);
      if (best == kNone) continue;
      VCSCHED_RETURN_IF_ERROR(AllocateOrPipeline(stmt, ssn, t, best));
      if (ssn.JobReady(j)) break;
    }
    if (ssn.JobReady(j) || ssn.JobPipelined(j)) return true;
    stmt.Discard();
    return false;
  }

  // Roles of job j that found no node in this session (an entry only once one fails).
  const std::set<std::string>& FailedRoles(JobIndex j) const {
    static const std::set<std::string> kNoRoles;
    auto it = failed_roles_.find(j);
    return it == failed_roles_.end() ? kNoRoles : it->second;
  }

  bool error_cache_;
  std::map<JobIndex, std::set<std::string>> failed_roles_;
  NodeChoiceCache cache_;
  std::unique_ptr<PlacementNodeChoice> placement_choice_;  // made per Execute: sized by the session's nodes
};

}  // namespace

absl::StatusOr<std::unique_ptr<Action>> NewAllocateAction(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(const bool cache, args.GetBool("predicateErrorCacheEnable", true));
  return std::unique_ptr<Action>(new AllocateAction(cache));
}

}  // namespace vcsched::internal
