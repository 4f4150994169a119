#include "src/actions/gang_nomination.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "src/actions/helpers.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

// Eviction may resolve a plain Unschedulable verdict, never the others.
bool PassesForPreempt(const Session& ssn, TaskIndex t, NodeIndex n) {
  const FitResult r = ssn.Predicate(t, n);
  return r.ok() || r.code == FitCode::kUnschedulable;
}

// Pipelines every task of sub-group k onto nodes of `hn`; succeeds when each found a node
// and the sub-group is then ready or pipelined. On failure nothing stays applied.
absl::StatusOr<bool> TrialIn(Session& ssn, QueueIndex q, JobIndex j, int32_t k, const std::vector<TaskIndex>& tasks,
                             HyperNodeIndex hn, bool after_evictions, Statement& into) {
  const std::vector<NodeIndex>& domain = ssn.snapshot().hyper_nodes()[static_cast<size_t>(hn)].nodes;
  if (domain.empty() || tasks.empty()) return false;
  Statement trial(ssn);
  bool placed_all = true;
  for (TaskIndex t : tasks) {
    if ((q != kNone && !ssn.Allocatable(q, t)) || !ssn.PrePredicate(t).ok()) {
      placed_all = false;
      break;
    }
    std::vector<NodeIndex> fit;
    for (NodeIndex n : domain) {
      if (ssn.NodeFitsFutureIdle(ssn.task_resreq(t), n) && PassesForPreempt(ssn, t, n)) fit.push_back(n);
    }
    const NodeIndex best = SelectBestNodeByGradient(ssn, t, fit);
    if (best == kNone) {
      placed_all = false;
      break;
    }
    VCSCHED_RETURN_IF_ERROR(trial.Pipeline(t, best, after_evictions));
  }
  if (!placed_all || (!ssn.SubJobReady(j, k) && !ssn.SubJobPipelined(j, k))) {
    trial.Discard();
    return false;
  }
  into.Merge(trial);
  return true;
}

}  // namespace

EvictionSheet OrganizeEvictionSheet(const Session& ssn, JobIndex j) {
  const std::set<int32_t> required = RequiredSubJobs(ssn, j);
  EvictionSheet sheet;
  const int32_t count = static_cast<int32_t>(ssn.job(j).sub_jobs.size());
  for (int32_t k = 0; k < count; ++k) {
    std::vector<TaskIndex> tasks = SubJobPendingTasks(ssn, j, k);
    if (!tasks.empty()) sheet.emplace_back(k, std::move(tasks));
  }
  std::stable_sort(sheet.begin(), sheet.end(), [&](const auto& a, const auto& b) {
    const bool ra = required.count(a.first) > 0, rb = required.count(b.first) > 0;
    if (ra != rb) return ra;
    return ssn.SubJobOrderLess(j, a.first, b.first);
  });
  return sheet;
}

std::vector<TaskIndex> PendingForGangEviction(const Session& ssn, JobIndex j) {
  EvictionSheet sheet = OrganizeEvictionSheet(ssn, j);
  if (sheet.empty()) return {};
  if (ssn.JobReady(j)) return std::move(sheet.front().second);
  std::vector<TaskIndex> out;
  for (auto& [k, tasks] : sheet) out.insert(out.end(), tasks.begin(), tasks.end());
  return out;
}

std::vector<HyperNodeIndex> CandidateDomains(const Session& ssn, JobIndex j, int64_t max_domains) {
  const HyperNodeIndex root = ssn.snapshot().hyper_node_root();
  std::vector<HyperNodeIndex> out;
  std::set<HyperNodeIndex> seen;
  for (const std::vector<HyperNodeIndex>& gradient : ssn.HyperNodeGradient(j, kNone, root, SearchPurpose::kEvict)) {
    for (HyperNodeIndex h : gradient) {
      if (!seen.insert(h).second) continue;
      out.push_back(h);
      if (static_cast<int64_t>(out.size()) >= max_domains) return out;
    }
  }
  if (out.empty() && !ContainsHardTopology(ssn.job(j))) out.push_back(root);
  return out;
}

absl::StatusOr<std::optional<std::map<int32_t, HyperNodeIndex>>> PlanInDomain(
    Session& ssn, QueueIndex q, JobIndex j, HyperNodeIndex domain, const std::vector<TaskIndex>& victims,
    absl::string_view action, Statement& into) {
  if (ssn.snapshot().hyper_nodes()[static_cast<size_t>(domain)].nodes.empty()) return std::nullopt;
  const EvictionSheet sheet = OrganizeEvictionSheet(ssn, j);
  if (sheet.empty()) return std::nullopt;
  const bool was_ready = ssn.JobReady(j);
  const bool hard = ContainsHardTopology(ssn.job(j));
  Statement plan(ssn);
  const TaskIndex first = sheet.front().second.front();
  const std::string reason = absl::StrCat(action, " for gang ", ssn.job(j).key);
  for (TaskIndex v : victims) VCSCHED_RETURN_IF_ERROR(plan.Evict(v, action, first, reason));
  std::map<int32_t, HyperNodeIndex> chosen;
  bool pipelined = false;
  for (const auto& [k, tasks] : sheet) {
    HyperNodeIndex winner = kNone;
    const std::vector<std::vector<HyperNodeIndex>> gradients =
        hard ? ssn.HyperNodeGradient(j, k, domain, SearchPurpose::kEvict) : std::vector<std::vector<HyperNodeIndex>>{{domain}};
    for (const std::vector<HyperNodeIndex>& row : gradients) {
      for (HyperNodeIndex hn : row) {
        VCSCHED_ASSIGN_OR_RETURN(const bool ok, TrialIn(ssn, q, j, k, tasks, hn, !victims.empty(), plan));
        if (ok) {
          winner = hn;
          break;
        }
      }
      if (winner != kNone) break;
    }
    if (winner == kNone) break;
    chosen[k] = winner;
    pipelined = ssn.JobPipelined(j);
    if (was_ready || pipelined) break;
  }
  if (!pipelined || chosen.empty()) {
    plan.Discard();
    return std::nullopt;
  }
  into.Merge(plan);
  return chosen;
}

absl::StatusOr<bool> AllocateFromNomination(Session& ssn, JobIndex j, int32_t k, const std::vector<TaskIndex>& tasks,
                                            Statement& into) {
  const HyperNodeIndex pinned = ssn.sub_job_nominated_hyper_node(j, k);
  if (pinned == kNone) return false;
  const Snapshot& snap = ssn.snapshot();
  const std::vector<NodeIndex>& leaves = snap.hyper_nodes()[static_cast<size_t>(pinned)].nodes;
  const QueueIndex q = ssn.queue_of(j);
  // Validated against the session as it is, before any of them is placed.
  std::vector<NodeIndex> plan;
  bool valid = !leaves.empty();
  for (size_t i = 0; valid && i < tasks.size(); ++i) {
    const TaskIndex t = tasks[i];
    const std::string& nominated = ssn.task(t).pod->nominated_node_name;
    const std::optional<NodeIndex> n = nominated.empty() ? std::nullopt : snap.FindNode(nominated);
    valid = (q == kNone || ssn.Allocatable(q, t)) && n.has_value() &&
            std::binary_search(leaves.begin(), leaves.end(), *n) && ssn.PrePredicate(t).ok() &&
            ssn.NodeFitsFutureIdle(ssn.task_resreq(t), *n) && ssn.Predicate(t, *n).ok();
    if (valid) plan.push_back(*n);
  }
  Statement stmt(ssn);
  for (size_t i = 0; valid && i < tasks.size(); ++i) {
    const TaskIndex t = tasks[i];
    if (!ssn.NodeFitsFutureIdle(ssn.task_resreq(t), plan[i])) {
      valid = false;  // an earlier task of the plan took the room
      break;
    }
    if (ssn.job(j).network_topology || ssn.job(j).sub_jobs[static_cast<size_t>(k)].network_topology) {
      ssn.SetTaskJobAllocatedHyperNode(t, pinned);
    }
    VCSCHED_RETURN_IF_ERROR(AllocateOrPipeline(stmt, ssn, t, plan[i]));
  }
  if (!valid) {
    stmt.Discard();
    ssn.SetSubJobNominatedHyperNode(j, k, kNone);
    return false;
  }
  ssn.SetSubJobAllocatedHyperNode(j, k, snap.HyperNodeLca(ssn.sub_job_allocated_hyper_node(j, k), pinned));
  into.Merge(stmt);
  return true;
}

}  // namespace vcsched::internal
