// The session's sub-groups and network topology: sub-group counters, allocated
// HyperNodes and the combined HyperNode and sub-group questions
// (docs/FORMAT-hypernode.md; Volcano's SubJobInfo and session_plugins.go).
#include <algorithm>

#include "src/framework/session_state.h"
#include "vcsched/session.h"

namespace vcsched {
namespace {

const SubJobInfo& SubJob(const Session& ssn, JobIndex j, int32_t k) {
  return ssn.job(j).sub_jobs[static_cast<size_t>(k)];
}

template <typename Pred>
int32_t CountTasks(const Session& ssn, JobIndex j, int32_t k, Pred pred) {
  int32_t n = 0;
  for (TaskIndex t : SubJob(ssn, j, k).tasks) n += pred(t) ? 1 : 0;
  return n;
}

// Whether sorted `nodes` holds n.
bool Holds(const HyperNodeInfo& h, NodeIndex n) { return std::binary_search(h.nodes.begin(), h.nodes.end(), n); }

}  // namespace

int32_t Session::SubJobReadyTaskNum(JobIndex j, int32_t k) const {
  return CountTasks(*this, j, k, [&](TaskIndex t) {
    const TaskStatus st = task_status(t);
    return IsAllocatedStatus(st) || st == TaskStatus::kSucceeded;
  });
}
int32_t Session::SubJobWaitingTaskNum(JobIndex j, int32_t k) const {
  return CountTasks(*this, j, k, [&](TaskIndex t) { return task_status(t) == TaskStatus::kPipelined; });
}
int32_t Session::SubJobPendingBestEffortNum(JobIndex j, int32_t k) const {
  return CountTasks(*this, j, k,
                    [&](TaskIndex t) { return task_status(t) == TaskStatus::kPending && task(t).best_effort; });
}
int32_t Session::SubJobAllocatedTaskNum(JobIndex j, int32_t k) const {
  return CountTasks(*this, j, k, [&](TaskIndex t) { return IsAllocatedStatus(task_status(t)); });
}
bool Session::SubJobIsReady(JobIndex j, int32_t k) const {
  return SubJobReadyTaskNum(j, k) + SubJobPendingBestEffortNum(j, k) >= SubJob(*this, j, k).min_available;
}
bool Session::SubJobIsPipelined(JobIndex j, int32_t k) const {
  return SubJobWaitingTaskNum(j, k) + SubJobReadyTaskNum(j, k) + SubJobPendingBestEffortNum(j, k) >=
         SubJob(*this, j, k).min_available;
}

HyperNodeIndex Session::job_allocated_hyper_node(JobIndex j) const {
  return s_->job_allocated_hyper_node[static_cast<size_t>(j)];
}
HyperNodeIndex Session::sub_job_allocated_hyper_node(JobIndex j, int32_t k) const {
  return s_->sub_job_allocated_hyper_node[static_cast<size_t>(s_->sub_job_begin[static_cast<size_t>(j)] + k)];
}
void Session::SetJobAllocatedHyperNode(JobIndex j, HyperNodeIndex h) {
  s_->job_allocated_hyper_node[static_cast<size_t>(j)] = h;
}
void Session::SetSubJobAllocatedHyperNode(JobIndex j, int32_t k, HyperNodeIndex h) {
  s_->sub_job_allocated_hyper_node[static_cast<size_t>(s_->sub_job_begin[static_cast<size_t>(j)] + k)] = h;
}
HyperNodeIndex Session::task_job_allocated_hyper_node(TaskIndex t) const {
  return s_->task_job_allocated_hyper_node[static_cast<size_t>(t)];
}
HyperNodeIndex Session::sub_job_nominated_hyper_node(JobIndex j, int32_t k) const {
  auto it = s_->sub_job_nominated_hyper_node.find({j, k});
  return it == s_->sub_job_nominated_hyper_node.end() ? kNone : it->second;
}
void Session::SetSubJobNominatedHyperNode(JobIndex j, int32_t k, HyperNodeIndex h) {
  if (h == kNone) s_->sub_job_nominated_hyper_node.erase({j, k});
  else s_->sub_job_nominated_hyper_node[{j, k}] = h;
}
void Session::SetTaskJobAllocatedHyperNode(TaskIndex t, HyperNodeIndex h) {
  s_->task_job_allocated_hyper_node[static_cast<size_t>(t)] = h;
}

std::vector<std::vector<HyperNodeIndex>> Session::HyperNodeGradient(JobIndex j, int32_t sub_job,
                                                                    HyperNodeIndex within,
                                                                    SearchPurpose purpose) const {
  if (!s_->hyper_node_gradient.empty()) return s_->hyper_node_gradient.front().fn(j, sub_job, within, purpose);
  return {{within}};
}

void Session::ScoreHyperNodes(JobIndex j, int32_t sub_job, absl::Span<const HyperNodeIndex> candidates,
                              absl::Span<double> scores) const {
  std::fill(scores.begin(), scores.end(), 0.0);
  for (const auto& reg : s_->hyper_node_order) reg.fn(j, sub_job, candidates, scores);
}

bool Session::SubJobReady(JobIndex j, int32_t k) const {
  if (!JobHasSubGroupPolicy(j)) return JobReady(j);
  for (const auto& reg : s_->sub_job_ready) {
    if (!reg.fn(j, k)) return false;
  }
  return true;
}

bool Session::SubJobPipelined(JobIndex j, int32_t k) const {
  if (!JobHasSubGroupPolicy(j)) return JobPipelined(j);
  const auto& regs = s_->sub_job_pipelined;
  size_t i = 0;
  while (i < regs.size()) {
    const int tier = regs[i].tier;
    bool permit = false;
    for (; i < regs.size() && regs[i].tier == tier; ++i) {
      const Vote v = regs[i].fn(j, k);
      if (v == Vote::kReject) return false;
      if (v == Vote::kPermit) permit = true;
    }
    if (permit) return true;
  }
  return true;
}

bool Session::SubJobOrderLess(JobIndex j, int32_t l, int32_t r) const {
  for (const auto& reg : s_->sub_job_order) {
    if (const int c = reg.fn(j, l, r); c != 0) return c < 0;
  }
  const SubJobInfo& a = SubJob(*this, j, l);
  const SubJobInfo& b = SubJob(*this, j, r);
  if (a.match_index != b.match_index) return a.match_index < b.match_index;
  return a.id < b.id;
}

namespace internal {

void RecoverAllocatedHyperNodes(Session::State& s) {
  const Snapshot& snap = *s.snapshot;
  const absl::Span<const HyperNodeInfo> hyper_nodes = snap.hyper_nodes();
  s.job_allocated_hyper_node.assign(s.jobs.size(), kNone);
  s.task_job_allocated_hyper_node.assign(s.tasks.size(), kNone);
  s.sub_job_begin.resize(s.jobs.size() + 1);
  s.sub_job_begin[0] = 0;
  for (size_t j = 0; j < s.jobs.size(); ++j) {
    s.sub_job_begin[j + 1] = s.sub_job_begin[j] + static_cast<int32_t>(s.jobs[j].sub_jobs.size());
  }
  s.sub_job_allocated_hyper_node.assign(static_cast<size_t>(s.sub_job_begin.back()), kNone);
  if (!snap.hyper_nodes_ready()) return;
  for (size_t j = 0; j < s.jobs.size(); ++j) {
    const JobInfo& job = s.jobs[j];
    if (!HasNetworkTopology(job)) continue;
    HyperNodeIndex job_hn = kNone;
    for (size_t k = 0; k < job.sub_jobs.size(); ++k) {
      const SubJobInfo& sub = job.sub_jobs[k];
      if (!sub.network_topology) continue;
      // The HyperNodes that hold every placed task's node; then the lowest-tier one.
      std::vector<HyperNodeIndex> holding;
      bool first = true;
      for (TaskIndex t : sub.tasks) {
        const TaskStatus st = s.status[static_cast<size_t>(t)];
        const NodeIndex n = s.node[static_cast<size_t>(t)];
        if (!IsAllocatedStatus(st) || n == kNone) continue;
        std::vector<HyperNodeIndex> next;
        if (first) {
          for (const HyperNodeInfo& h : hyper_nodes) {
            if (Holds(h, n)) next.push_back(h.index);
          }
        } else {
          for (HyperNodeIndex h : holding) {
            if (Holds(hyper_nodes[static_cast<size_t>(h)], n)) next.push_back(h);
          }
        }
        first = false;
        holding = std::move(next);
        if (holding.empty()) break;
      }
      HyperNodeIndex lowest = kNone;
      for (HyperNodeIndex h : holding) {
        if (lowest == kNone || hyper_nodes[static_cast<size_t>(h)].tier < hyper_nodes[static_cast<size_t>(lowest)].tier) {
          lowest = h;
        }
      }
      s.sub_job_allocated_hyper_node[static_cast<size_t>(s.sub_job_begin[j]) + k] = lowest;
      if (lowest != kNone) job_hn = snap.HyperNodeLca(job_hn, lowest);
    }
    s.job_allocated_hyper_node[j] = job_hn;
  }
}

}  // namespace internal
}  // namespace vcsched
