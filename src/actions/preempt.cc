// preempt: inside one queue, starving jobs evict lower-priority work (between jobs, then
// between tasks of one job); the preemptor is pipelined, not bound (docs/reference/scheduler.md §9.4).
#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "src/actions/actions.h"
#include "src/actions/helpers.h"
#include "src/internal/victims.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

using VictimFilter = std::function<bool(TaskIndex)>;

struct TopologyLimits {
  bool enabled = false;
  int64_t min_percentage = 10;
  int64_t min_absolute = 1;
  int64_t max_absolute = 100;
};

// A dry-run eviction plan for one node.
struct Candidate {
  NodeIndex node = kNone;
  std::vector<TaskIndex> victims;
};

class PreemptAction : public Action {
 public:
  explicit PreemptAction(TopologyLimits limits) : limits_(limits) {}

  absl::Status Execute(Session& ssn) override {
    const Session& s = ssn;
    auto queues = QueueHeap(ssn);
    std::vector<JobIndex> starving_jobs;
    std::map<QueueIndex, OrderedHeap<JobIndex>> preemptors =
        StarvingJobsByQueue(ssn, queues, &starving_jobs, /*with_network_topology=*/false);
    std::map<QueueIndex, std::vector<JobIndex>> under_request;
    std::map<JobIndex, OrderedHeap<TaskIndex>> tasks;
    for (const JobIndex j : starving_jobs) {
      const JobInfo& job = s.job(j);
      under_request[job.queue].push_back(j);
      tasks.emplace(j, PendingTaskHeap(ssn, job));
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
          VCSCHED_RETURN_IF_ERROR(PreemptOne(ssn, stmt, p, limits_, [&, p, pj](TaskIndex v) {
                                    const JobIndex vj = s.job_of(v);
                                    return Eligible(ssn, p, v) && vj != kNone && s.queue_of(vj) == q && vj != pj;
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
          if (s.task_status(t) == TaskStatus::kPending && !s.task(t).pod->scheduling_gated) heap.Push(t);
        }
        while (!heap.empty()) {
          const TaskIndex p = heap.Pop();
          Statement stmt(ssn);
          VCSCHED_ASSIGN_OR_RETURN(const bool assigned,
                                   PreemptOne(ssn, stmt, p, limits_, [&, p, j](TaskIndex v) {
                                     return Eligible(ssn, p, v) && s.job_of(v) == j;
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
    const Session& s = ssn;
    const TaskStatus st = s.task_status(v);
    if (st != TaskStatus::kBound && st != TaskStatus::kRunning) return false;
    if (!s.task(v).preemptable) return false;
    if (s.task(p).best_effort && !s.task(v).best_effort) return false;
    return true;
  }

  // Tries to make room for `p` on one node; true when `p` was pipelined there.
  static absl::StatusOr<bool> PreemptOne(Session& ssn, Statement& stmt, TaskIndex p, const TopologyLimits& limits,
                                         const VictimFilter& filter) {
    const Session& s = ssn;
    const TaskInfo& task = s.task(p);
    if (task.pod->preemption_policy == "Never") {
      ExplainNoRoomByEviction(ssn, p, "its preemptionPolicy is Never, so it does not preempt");
      return false;
    }
    if (!task.pod->nominated_node_name.empty()) {
      if (auto nominated = s.snapshot().FindNode(task.pod->nominated_node_name)) {
        const FitResult r = ssn.Predicate(p, *nominated);
        if (r.ok()) return false;  // it will fit there once its victims are gone
        if (r.code != FitCode::kUnschedulableAndUnresolvable) {
          for (TaskIndex other : ssn.node_tasks(*nominated)) {
            if (s.task_status(other) == TaskStatus::kReleasing &&
                s.task(other).priority < task.priority) {
              return false;  // a lower-priority pod is already terminating for it
            }
          }
        }
      }
    }
    if (!ssn.PrePredicate(p).ok()) return false;
    std::vector<NodeIndex> nodes = PreemptCandidateNodes(ssn, p);
    // Under soft sharding the shard's nodes are tried first, on their own, then the others.
    std::vector<NodeIndex> groups[2];
    for (NodeIndex n : nodes) groups[s.NodeInOtherShard(n) ? 1 : 0].push_back(n);
    for (const std::vector<NodeIndex>& group : groups) {
      VCSCHED_ASSIGN_OR_RETURN(const bool placed, limits.enabled ? TopologyAwarePreempt(ssn, stmt, p, group, limits, filter)
                                                                  : NormalPreempt(ssn, stmt, p, group, filter));
      if (placed) return true;
    }
    ExplainNoRoomByEviction(ssn, p, "no node where evicting preemptable lower-priority pods makes room for it");
    return false;
  }

  // Volcano's normalPreempt: the nodes by score, the first where evicting the victims in
  // order makes room takes `p`.
  static absl::StatusOr<bool> NormalPreempt(Session& ssn, Statement& stmt, TaskIndex p,
                                            const std::vector<NodeIndex>& nodes, const VictimFilter& filter) {
    const Session& s = ssn;
    const TaskInfo& task = s.task(p);
    if (nodes.empty()) return false;
    std::vector<double> scores(nodes.size());
    ssn.ScoreNodes(p, nodes, absl::MakeSpan(scores));
    std::vector<size_t> order(nodes.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    const JobIndex pj = task.job;
    const QueueIndex pq = pj == kNone ? kNone : s.queue_of(pj);
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
        return (pq == kNone || ssn.Allocatable(pq, p)) && s.NodeFitsFutureIdle(s.task_resreq(p), n) && ssn.Predicate(p, n).ok();
      };
      for (TaskIndex v : victims) {
        if (fits()) break;
        VCSCHED_RETURN_IF_ERROR(node_stmt.Evict(v, "preempt", p, absl::StrCat("preempted for ", task.key)));
      }
      if (fits()) {
        VCSCHED_RETURN_IF_ERROR(node_stmt.Pipeline(p, n, !node_stmt.empty()));
        stmt.Merge(node_stmt);
        return true;
      }
      node_stmt.Discard();
    }
    return false;
  }
  // Kubernetes-style preemption (enableTopologyAwarePreemption): dry-run victim
  // selection on a sample of nodes (from the first, where Volcano starts at a random
  // offset), keep the smallest victim set per node by reprieving victims, then pick the
  // node whose victims matter least.
  static absl::StatusOr<bool> TopologyAwarePreempt(Session& ssn, Statement& stmt, TaskIndex p,
                                                   const std::vector<NodeIndex>& nodes, const TopologyLimits& limits,
                                                   const VictimFilter& filter) {
    const Session& s = ssn;
    const TaskInfo& task = s.task(p);
    const QueueIndex pq = task.job == kNone ? kNone : s.job(task.job).queue;
    const int64_t n = static_cast<int64_t>(nodes.size());
    int64_t wanted = std::clamp(n * limits.min_percentage / 100, limits.min_absolute, limits.max_absolute);
    wanted = std::min(wanted, n);
    std::vector<Candidate> candidates;
    for (NodeIndex node : nodes) {
      if (static_cast<int64_t>(candidates.size()) >= wanted) break;
      if (auto c = SelectVictimsOnNode(ssn, p, pq, node, filter)) candidates.push_back(*std::move(c));
    }
    if (candidates.empty()) return false;
    const Candidate& best = PickCandidate(s, candidates);
    Statement tmp(ssn);
    for (TaskIndex v : best.victims) {
      VCSCHED_RETURN_IF_ERROR(tmp.Evict(v, "preempt", p, absl::StrCat("preempted for ", task.key)));
    }
    const FitResult final_check = ssn.Predicate(p, best.node);
    if (!final_check.ok() && final_check.code != FitCode::kUnschedulable) {
      tmp.Discard();
      return false;
    }
    VCSCHED_RETURN_IF_ERROR(tmp.Pipeline(p, best.node, true));
    stmt.Merge(tmp);
    return true;
  }

  static std::optional<Candidate> SelectVictimsOnNode(Session& ssn, TaskIndex p, QueueIndex pq, NodeIndex node,
                                                      const VictimFilter& filter) {
    const Session& s = ssn;
    std::vector<TaskIndex> cands;
    for (TaskIndex v : ssn.node_tasks(node)) {
      if (filter(v)) cands.push_back(v);
    }
    std::vector<TaskIndex> all = ssn.Preemptable(p, cands);
    if (!ValidateVictims(ssn, p, node, all)) return std::nullopt;
    all = InVictimOrder(ssn, p, std::move(all));
    std::vector<TaskIndex> removed;
    auto fits = [&] {
      if (pq == kNone || !ssn.SimulateAllocatable(pq, p, removed)) return false;
      Resource future = ssn.node_future_idle(node);
      for (TaskIndex v : removed) future += s.task_resreq(v);
      if (!LessEqual(s.task_resreq(p), future.span())) return false;
      return ssn.SimulatePredicate(p, node, removed).ok();
    };
    for (TaskIndex v : all) {
      removed.push_back(v);
      if (fits()) break;
    }
    // No potential victim: the node is not a candidate, even where the preemptor already
    // fits (Volcano's SelectVictimsOnNode answers "no preemption victims found").
    if (removed.empty()) return std::nullopt;
    if (!ssn.SimulatePredicate(p, node, removed).ok()) return std::nullopt;
    // Reprieve, highest priority first: put each back; keep it only if `p` still fits.
    std::vector<TaskIndex> potential = removed;
    std::vector<TaskIndex> victims;
    for (auto it = potential.rbegin(); it != potential.rend(); ++it) {
      removed.erase(std::find(removed.begin(), removed.end(), *it));
      if (!fits()) {
        removed.push_back(*it);
        victims.push_back(*it);
      }
    }
    return Candidate{node, std::move(victims)};
  }

  // Kubernetes' pickOneNodeForPreemption: lowest highest-victim priority, then lowest
  // priority sum, then fewest victims; the first such node otherwise (start times are
  // not modelled).
  static const Candidate& PickCandidate(const Session& s, const std::vector<Candidate>& cs) {
    auto pod_priority = [&](TaskIndex t) -> int64_t {
      const auto& prio = s.task(t).pod->priority;
      return prio ? *prio : 0;
    };
    std::vector<size_t> pool(cs.size());
    for (size_t i = 0; i < pool.size(); ++i) pool[i] = i;
    const std::vector<std::function<int64_t(const Candidate&)>> scores = {
        [&](const Candidate& c) { return c.victims.empty() ? int64_t{0} : -pod_priority(c.victims.front()); },
        [&](const Candidate& c) {
          int64_t sum = 0;
          for (TaskIndex v : c.victims) sum += pod_priority(v) + (int64_t{1} << 31);
          return -sum;
        },
        [&](const Candidate& c) { return -static_cast<int64_t>(c.victims.size()); },
    };
    for (const auto& score : scores) {
      int64_t best = INT64_MIN;
      std::vector<size_t> kept;
      for (size_t i : pool) {
        const int64_t v = score(cs[i]);
        if (v > best) {
          best = v;
          kept.clear();
        }
        if (v == best) kept.push_back(i);
      }
      pool = kept;
      if (pool.size() == 1) break;
    }
    return cs[pool.front()];
  }

  TopologyLimits limits_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Action>> NewPreemptAction(const Arguments& args) {
  VCSCHED_RETURN_IF_ERROR(args.GetBool("predicateErrorCacheEnable", true).status());
  TopologyLimits limits;
  VCSCHED_ASSIGN_OR_RETURN(limits.enabled, args.GetBool("enableTopologyAwarePreemption", false));
  VCSCHED_RETURN_IF_ERROR(args.GetInt("topologyAwarePreemptWorkerNum", 16).status());  // threads: not used
  VCSCHED_ASSIGN_OR_RETURN(limits.min_percentage, args.GetInt("minCandidateNodesPercentage", 10));
  VCSCHED_ASSIGN_OR_RETURN(limits.min_absolute, args.GetInt("minCandidateNodesAbsolute", 1));
  VCSCHED_ASSIGN_OR_RETURN(limits.max_absolute, args.GetInt("maxCandidateNodesAbsolute", 100));
  if (limits.min_absolute < 1) limits.min_absolute = 1;
  if (limits.max_absolute < limits.min_absolute) limits.max_absolute = limits.min_absolute;
  return std::unique_ptr<Action>(new PreemptAction(limits));
}

}  // namespace vcsched::internal
