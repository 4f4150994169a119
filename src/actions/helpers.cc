#include "src/actions/helpers.h"

#include "absl/strings/str_cat.h"

namespace vcsched::internal {

ResourceReasons::ResourceReasons(Session& ssn) {
  const ResourceSpace& space = ssn.snapshot().space();
  for (int d = 0; d < space.size(); ++d) {
    ids_.push_back(ssn.InternReason(absl::StrCat("Insufficient ", space.name(d))));
  }
}

std::vector<NodeIndex> FeasibleNodes(Session& ssn, TaskIndex t, absl::Span<const NodeIndex> candidates,
                                     bool check_resources, const ResourceReasons& reasons,
                                     FitErrorBuffer* errors) {
  const Session& s = ssn;
  const auto req = s.task_resreq(t);
  std::vector<NodeIndex> out;
  out.reserve(candidates.size());
  const bool hard_shard = s.sharding_mode() == ShardingMode::kHard;
  for (NodeIndex n : candidates) {
    if (hard_shard && !s.NodeInShard(n)) {
      // Volcano refuses a node outside the shard before it looks at anything else; the
      // session's first predicate says so.
      if (errors != nullptr) errors->failures.emplace_back(n, ssn.Predicate(t, n));
      continue;
    }
    if (check_resources && !s.NodeFitsFutureIdle(req, n)) {
      if (errors != nullptr) {
        Resource future = ssn.node_future_idle(n);
        const int d = FirstExceeded(req, future.span());
        errors->failures.emplace_back(n, FitResult::Fail(FitCode::kUnschedulable, reasons.Insufficient(d < 0 ? kCpu : d)));
      }
      continue;
    }
    FitResult r = ssn.Predicate(t, n);
    if (!r.ok()) {
      if (errors != nullptr) errors->failures.emplace_back(n, std::move(r));
      continue;
    }
    out.push_back(n);
  }
  return out;
}

NodeIndex SelectBestNode(const Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes) {
  if (nodes.empty()) return kNone;
  if (nodes.size() == 1) return nodes[0];
  std::vector<double> scores(nodes.size());
  ssn.ScoreNodes(t, nodes, absl::MakeSpan(scores));
  size_t best = 0;
  for (size_t i = 1; i < nodes.size(); ++i) {
    if (scores[i] > scores[best] || (scores[i] == scores[best] && nodes[i] < nodes[best])) best = i;
  }
  return nodes[best];
}

NodeIndex SelectBestNodeByGradient(const Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes) {
  const Session& s = ssn;
  // Idle fit in the shard, idle fit in another shard, future-idle fit in the shard, in
  // another shard (the "other shard" groups are empty unless sharding is soft).
  std::vector<NodeIndex> groups[4];
  for (NodeIndex n : nodes) {
    const int g = (s.NodeFitsIdle(s.task_resreq(t), n) ? 0 : 2) + (s.NodeInOtherShard(n) ? 1 : 0);
    groups[g].push_back(n);
  }
  for (const auto& group : groups) {
    if (!group.empty()) return SelectBestNode(ssn, t, group);
  }
  return kNone;
}

std::vector<NodeIndex> ShardFirst(const Session& ssn, std::vector<NodeIndex> nodes) {
  if (ssn.sharding_mode() == ShardingMode::kSoft) {
    std::stable_partition(nodes.begin(), nodes.end(), [&](NodeIndex n) { return !ssn.NodeInOtherShard(n); });
  }
  return nodes;
}

std::vector<NodeIndex> AllNodes(const Session& ssn) {
  std::vector<NodeIndex> out(ssn.snapshot().nodes().size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<NodeIndex>(i);
  return out;
}

OrderedHeap<TaskIndex> PendingTaskHeap(const Session& ssn, const JobInfo& job) {
  const Session& s = ssn;
  auto heap = TaskHeap(ssn);
  for (TaskIndex t : job.tasks) {
    if (s.task_status(t) == TaskStatus::kPending && !s.task(t).pod->scheduling_gated) heap.Push(t);
  }
  return heap;
}

std::map<QueueIndex, OrderedHeap<JobIndex>> StarvingJobsByQueue(Session& ssn, OrderedHeap<QueueIndex>& queues,
                                                                std::vector<JobIndex>* in_index_order,
                                                                bool with_network_topology) {
  std::map<QueueIndex, OrderedHeap<JobIndex>> preemptors;
  for (const JobInfo& job : ssn.snapshot().jobs()) {
    if (job.queue == kNone || ssn.JobIsPending(job.index) || ssn.JobValid(job.index) ||
        !ssn.JobStarving(job.index) || (!with_network_topology && HasNetworkTopology(job))) {
      continue;
    }
    auto [it, inserted] = preemptors.try_emplace(job.queue, JobHeap(ssn));
    if (inserted) queues.Push(job.queue);
    it->second.Push(job.index);
    if (in_index_order != nullptr) in_index_order->push_back(job.index);
  }
  return preemptors;
}

// Should a visit go on after a task found no node? (docs/reference/scheduler.md §9.2.3)
bool NeedContinueAllocating(const Session& ssn, JobIndex j, const std::set<std::string>& failed_roles) {
  const Session& s = ssn;
  const JobInfo& job = s.job(j);
  const int32_t min = s.job_min_member(j);
  if (min == static_cast<int32_t>(job.tasks.size())) return false;
  std::map<std::string, int32_t> pending, occupied;
  for (TaskIndex t : job.tasks) {
    const TaskStatus st = s.task_status(t);
    const std::string& role = s.task(t).role;
    if (st == TaskStatus::kPending) ++pending[role];
    if (IsAllocatedStatus(st) || st == TaskStatus::kSucceeded ||
        (st == TaskStatus::kPending && s.task(t).best_effort)) {
      ++occupied[role];
    }
  }
  if (min < job.task_min_available_total) {
    int32_t sum = ssn.JobReadyTaskNum(j);
    for (const auto& [role, n] : pending) {
      if (!failed_roles.count(role)) sum += n;
    }
    return sum >= min;
  }
  for (const std::string& role : failed_roles) {
    auto m = job.pod_group.min_task_member.find(role);
    if (m == job.pod_group.min_task_member.end() || m->second <= 0) continue;
    if (occupied[role] < m->second) return false;
  }
  return true;
}

std::vector<NodeIndex> FeasibleNodesNominatedFirst(Session& ssn, TaskIndex t, absl::Span<const NodeIndex> candidates,
                                                   const ResourceReasons& reasons, FitErrorBuffer* errors) {
  const Session& s = ssn;
  const std::string& nominated = s.task(t).pod->nominated_node_name;
  if (!nominated.empty()) {
    if (auto n = s.snapshot().FindNode(nominated);
        n && std::binary_search(candidates.begin(), candidates.end(), *n) && s.NodeFitsFutureIdle(s.task_resreq(t), *n)) {
      const NodeIndex only[] = {*n};
      std::vector<NodeIndex> nodes = FeasibleNodes(ssn, t, only, true, reasons, nullptr);
      if (!nodes.empty()) return nodes;
    }
  }
  return FeasibleNodes(ssn, t, candidates, true, reasons, errors);
}

absl::Status AllocateOrPipeline(Statement& stmt, const Session& ssn, TaskIndex t, NodeIndex n) {
  if (ssn.NodeFitsIdle(ssn.task_resreq(t), n)) return stmt.Allocate(t, n);
  if (ssn.NodeFitsFutureIdle(ssn.task_resreq(t), n)) return stmt.Pipeline(t, n);
  return absl::OkStatus();
}

bool ContainsHardTopology(const JobInfo& job) {
  const auto hard = [](const std::optional<NetworkTopologySpec>& t) {
    return t && t->mode == NetworkTopologySpec::Mode::kHard && t->highest_tier_allowed.has_value();
  };
  if (hard(job.network_topology)) return true;
  return std::any_of(job.sub_jobs.begin(), job.sub_jobs.end(), [&](const SubJobInfo& s) { return hard(s.network_topology); });
}

std::set<int32_t> RequiredSubJobs(const Session& ssn, JobIndex j) {
  const JobInfo& job = ssn.job(j);
  std::map<int32_t, int32_t> ready_by_policy;
  std::vector<int32_t> unready;
  for (int32_t k = 0; k < static_cast<int32_t>(job.sub_jobs.size()); ++k) {
    if (ssn.SubJobReady(j, k)) {
      ++ready_by_policy[job.sub_jobs[static_cast<size_t>(k)].policy];
    } else {
      unready.push_back(k);
    }
  }
  std::stable_sort(unready.begin(), unready.end(), [&](int32_t a, int32_t b) { return ssn.SubJobOrderLess(j, a, b); });
  std::set<int32_t> required;
  for (int32_t k : unready) {
    const int32_t policy = job.sub_jobs[static_cast<size_t>(k)].policy;
    const int32_t min = policy == kNone ? 0 : job.pod_group.sub_group_policy[static_cast<size_t>(policy)].min_sub_groups;
    if (ready_by_policy[policy] < min) {
      required.insert(k);
      ++ready_by_policy[policy];
    }
  }
  return required;
}

std::vector<TaskIndex> SubJobPendingTasks(const Session& ssn, JobIndex j, int32_t k) {
  std::vector<TaskIndex> out;
  for (TaskIndex t : ssn.job(j).sub_jobs[static_cast<size_t>(k)].tasks) {
    if (ssn.task_status(t) == TaskStatus::kPending && !(ssn.task_flags(t) & (kTaskGated | kTaskBestEffort))) {
      out.push_back(t);
    }
  }
  std::sort(out.begin(), out.end(), [&](TaskIndex a, TaskIndex b) { return ssn.TaskOrderLess(a, b); });
  return out;
}

std::string RoleFailedText(const TaskInfo& task) {
  return absl::StrCat("Task ", task.pod->name, " with role spec ", task.role, " has already predicated failed, skip");
}

void RecordRoleFailed(Session& ssn, TaskIndex t) {
  ssn.ResetTaskFitErrors(t);
  ssn.RecordTaskError(t, RoleFailedText(ssn.task(t)));
}

void RecordPrePredicateFailure(Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes, const FitResult& pre) {
  ssn.ResetTaskFitErrors(t);
  for (size_t k = 0; k < nodes.size(); ++k) ssn.RecordFitError(t, pre);
  if (!ssn.explaining()) return;
  std::vector<std::pair<NodeIndex, FitResult>> failures;
  failures.reserve(nodes.size());
  for (NodeIndex n : nodes) failures.emplace_back(n, pre);
  ssn.ExplainNodeVerdicts(t, failures);
}

void ExplainNoRoomByEviction(const Session& ssn, TaskIndex t, absl::string_view why) {
  if (!ssn.explaining()) return;
  ssn.ExplainJob(ssn.job_of(t), reason_code::kNoFeasibleNode, absl::StrCat("pod ", ssn.task(t).key, ": ", why),
                 {{"pod", ssn.task(t).key}});
}

void ExplainRefusedTask(Session& ssn, TaskIndex t, absl::Span<const NodeIndex> nodes, const ResourceReasons& reasons) {
  if (!ssn.explaining()) return;
  std::vector<std::pair<NodeIndex, FitResult>> failures;
  const FitResult pre = ssn.PrePredicate(t);
  if (!pre.ok()) {
    for (NodeIndex n : nodes) failures.emplace_back(n, pre);
  } else {
    FitErrorBuffer errors;
    FeasibleNodes(ssn, t, nodes, true, reasons, &errors);
    failures = std::move(errors.failures);
  }
  ssn.ExplainNodeVerdicts(t, failures);
}

}  // namespace vcsched::internal
