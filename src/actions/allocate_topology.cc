#include "src/actions/allocate_topology.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "src/actions/gang_nomination.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {

bool TopologyAllocator::Uses(const Session& ssn, JobIndex j) {
  return ssn.JobHasSubGroupPolicy(j) || HasNetworkTopology(ssn.job(j));
}

// Volcano's ContainsHardTopology || ContainsSubJobPolicy: the gradient search. Other
// jobs with network topology (a hard limit whose tier name no HyperNode carries) are
// placed in the whole cluster, their pods still scored by network distance.
bool TopologyAllocator::HardOrPolicy(JobIndex j) const {
  return ssn_.JobHasSubGroupPolicy(j) || ContainsHardTopology(ssn_.job(j));
}

// ---------------------------------------------------------------- heaps

bool TopologyAllocator::SubJobBefore(JobIndex j, const JobSheet& sheet, int32_t a, int32_t b) const {
  const bool ra = sheet.required->count(a) > 0, rb = sheet.required->count(b) > 0;
  if (ra != rb) return ra;
  return ssn_.SubJobOrderLess(j, a, b);
}
void TopologyAllocator::PushSubJob(JobIndex j, JobSheet& sheet, int32_t k) const {
  sheet.order.push_back(k);
  std::push_heap(sheet.order.begin(), sheet.order.end(),
                 [&](int32_t a, int32_t b) { return SubJobBefore(j, sheet, b, a); });
}
int32_t TopologyAllocator::PopSubJob(JobIndex j, JobSheet& sheet) const {
  std::pop_heap(sheet.order.begin(), sheet.order.end(),
                [&](int32_t a, int32_t b) { return SubJobBefore(j, sheet, b, a); });
  const int32_t k = sheet.order.back();
  sheet.order.pop_back();
  return k;
}
TaskIndex TopologyAllocator::PopTask(SubSheet& sheet) const {
  const TaskIndex t = sheet.tasks.back();
  sheet.tasks.pop_back();
  return t;
}

// ---------------------------------------------------------------- worksheet

bool TopologyAllocator::Open(JobIndex j) {
  const Session& s = ssn_;
  const JobInfo& job = s.job(j);
  JobSheet sheet;
  // The sub-groups minSubGroups still needs go before the others.
  sheet.required = std::make_shared<std::set<int32_t>>(RequiredSubJobs(s, j));
  for (int32_t k = 0; k < static_cast<int32_t>(job.sub_jobs.size()); ++k) {
    const std::vector<TaskIndex>& members = job.sub_jobs[static_cast<size_t>(k)].tasks;
    if (std::any_of(members.begin(), members.end(), [&](TaskIndex t) { return s.TaskHasFitErrors(t); })) {
      with_errors_.insert({j, k});  // recorded before this action
    }
    SubSheet sub;
    sub.tasks = SubJobPendingTasks(s, j, k);
    if (sub.tasks.empty()) continue;
    // Task order does not change while the job is visited: the first is taken last.
    std::reverse(sub.tasks.begin(), sub.tasks.end());
    sheet.subs.emplace(k, std::move(sub));
    PushSubJob(j, sheet, k);
  }
  if (sheet.order.empty()) return false;
  sheets_[j] = std::move(sheet);
  return true;
}

bool TopologyAllocator::Empty(JobIndex j) const {
  auto it = sheets_.find(j);
  return it == sheets_.end() || it->second.order.empty();
}

// ---------------------------------------------------------------- visits

absl::StatusOr<std::optional<Statement>> TopologyAllocator::Visit(JobIndex j) {
  JobSheet& sheet = sheets_.at(j);
  const HyperNodeIndex root = ssn_.snapshot().hyper_node_root();
  if (HardOrPolicy(j)) {
    VCSCHED_ASSIGN_OR_RETURN(std::optional<Statement> stmt, AllocateForJob(j, sheet, root));
    if (!stmt) ExplainRefusal(j, sheet);
    return stmt;
  }
  // Topology without a hard limit: the default sub-group's tasks in the whole cluster.
  const int32_t k = PopSubJob(j, sheet);
  SubSheet& sub = sheet.subs.at(k);
  VCSCHED_ASSIGN_OR_RETURN(std::optional<Statement> stmt, AllocateTasksIn(j, k, sub, root));
  if (!sub.tasks.empty()) PushSubJob(j, sheet, k);
  return stmt;
}

void TopologyAllocator::ExplainRefusal(JobIndex j, const JobSheet& sheet) {
  const Session& s = ssn_;
  const JobInfo& job = s.job(j);
  const std::optional<NetworkTopologySpec>& t = job.network_topology;
  if (!t || !t->highest_tier_allowed) return;  // a sub-group's own limit: its fit errors tell
  const int32_t tier = *t->highest_tier_allowed;
  std::vector<TaskIndex> pending;
  for (const auto& [k, sub] : sheet.subs) pending.insert(pending.end(), sub.tasks.begin(), sub.tasks.end());
  // Smallest requests first: how many would the best HyperNode's free room take?
  const size_t dims = static_cast<size_t>(s.dims());
  std::vector<std::pair<HyperNodeRoom::Amount, TaskIndex>> by_size;
  by_size.reserve(pending.size());
  for (TaskIndex p : pending) {
    HyperNodeRoom::Amount sum = 0;
    for (int64_t r : s.task_resreq(p)) sum += r;
    by_size.emplace_back(sum, p);
  }
  std::sort(by_size.begin(), by_size.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // The greedy fill takes task k while the first k requests, summed, fit the room: with
  // requests never negative those sums only grow, so the count is a binary search.
  std::vector<HyperNodeRoom::Amount> prefix((by_size.size() + 1) * dims, 0);
  bool growing = true;
  for (size_t k = 0; k < by_size.size(); ++k) {
    const absl::Span<const int64_t> r = s.task_resreq(by_size[k].second);
    for (size_t d = 0; d < dims; ++d) {
      growing = growing && r[d] >= 0;
      prefix[(k + 1) * dims + d] = prefix[k * dims + d] + r[d];
    }
  }
  const auto fits_first = [&](size_t k, absl::Span<const HyperNodeRoom::Amount> room) {
    for (size_t d = 0; d < dims; ++d) {
      if (prefix[k * dims + d] > room[d]) return false;
    }
    return true;
  };
  HyperNodeIndex best = kNone;
  size_t best_count = 0;
  for (const HyperNodeInfo& h : s.snapshot().hyper_nodes()) {
    if (h.tier > tier) continue;
    const absl::Span<const HyperNodeRoom::Amount> room = room_.Of(h.index);
    size_t count = 0;
    if (growing) {
      size_t lo = 0, hi = by_size.size();  // fits_first(lo) holds (or lo == 0); find the last that does
      while (lo < hi) {
        const size_t mid = lo + (hi - lo + 1) / 2;
        if (fits_first(mid, room)) lo = mid;
        else hi = mid - 1;
      }
      count = lo;
    } else {
      while (count < by_size.size() && fits_first(count + 1, room)) ++count;
    }
    if (best == kNone || count > best_count) {
      best = h.index;
      best_count = count;
      if (best_count == by_size.size()) break;  // no later HyperNode can do better
    }
  }
  const std::string text =
      best == kNone
          ? absl::StrCat("network topology: no HyperNode of tier <= ", tier, " (highestTierAllowed) exists")
          : absl::StrCat("network topology: no HyperNode of tier <= ", tier,
                         " (highestTierAllowed) could take the gang; the roomiest, ",
                         s.snapshot().hyper_nodes()[static_cast<size_t>(best)].name, " (tier ",
                         s.snapshot().hyper_nodes()[static_cast<size_t>(best)].tier, "), has free room for ", best_count,
                         " of the ", pending.size(), " pending tasks");
  for (TaskIndex p : pending) {
    if (!ssn_.TaskHasFitErrors(p)) {
      ssn_.RecordTaskError(p, text);
      with_errors_.insert({j, s.task(p).sub_job});
    }
  }
  if (ssn_.explaining() && !pending.empty()) {
    ssn_.ExplainJob(s.job_of(pending.front()), reason_code::kTopologyPlacementFailed, text,
                    {{"highestTierAllowed", absl::StrCat(tier)},
                     {"pendingPods", absl::StrCat(pending.size())},
                     {"roomiestHyperNode", best == kNone ? "" : s.snapshot().hyper_nodes()[static_cast<size_t>(best)].name},
                     {"podsItHasRoomFor", absl::StrCat(best_count)}});
  }
}

void TopologyAllocator::CommitDecision(JobIndex j) {
  auto it = job_decision_.find(j);
  if (it == job_decision_.end()) return;
  const Snapshot& snap = ssn_.snapshot();
  const HyperNodeIndex chosen = it->second;
  ssn_.SetJobAllocatedHyperNode(j, snap.HyperNodeLca(ssn_.job_allocated_hyper_node(j), chosen));
  for (const auto& [k, hn] : sub_decisions_[j][chosen]) {
    ssn_.SetSubJobAllocatedHyperNode(j, k, snap.HyperNodeLca(ssn_.sub_job_allocated_hyper_node(j, k), hn));
    ssn_.SetSubJobNominatedHyperNode(j, k, kNone);  // redeemed
  }
  job_decision_.erase(it);
}

absl::StatusOr<Statement> TopologyAllocator::Replay(const Placements& placements) {
  Statement stmt(ssn_);
  for (const Statement::Placement& p : placements) {
    if (p.pipelined) {
      VCSCHED_RETURN_IF_ERROR(stmt.Pipeline(p.task, p.node));
    } else {
      VCSCHED_RETURN_IF_ERROR(stmt.Allocate(p.task, p.node));
    }
  }
  return stmt;
}

absl::StatusOr<std::optional<TopologyAllocator::JobTry>> TopologyAllocator::TryJobIn(
    JobIndex j, const JobSheet& sheet, HyperNodeIndex hn, const std::vector<HyperNodeIndex>& saved, bool keep) {
  for (auto it = failed_roles_.begin(); it != failed_roles_.end();) {
    it = it->first.first == j ? failed_roles_.erase(it) : std::next(it);
  }
  ResetFitErrors(j, kNone);  // each try starts clean (Volcano's ResetFitErr)
  last_try_ = hn;
  JobTry t{hn, {}, sheet, 0.0, 0, std::nullopt};
  std::vector<Statement> stmts;
  sub_decisions_[j][hn].clear();
  while (!t.rest.order.empty()) {
    const int32_t k = PopSubJob(j, t.rest);
    SubSheet& sub = t.rest.subs.at(k);
    double sub_score = 0;
    VCSCHED_ASSIGN_OR_RETURN(std::optional<Statement> stmt, AllocateForSubJob(j, k, sub, hn, &sub_score));
    if (stmt && !stmt->empty()) {
      stmts.push_back(*std::move(stmt));
      t.score += sub_score;
      ++t.rounds;
      if (!sub.tasks.empty()) PushSubJob(j, t.rest, k);
      if (ssn_.JobReady(j)) break;
    }
  }
  for (size_t k = 0; k < saved.size(); ++k) ssn_.SetSubJobAllocatedHyperNode(j, static_cast<int32_t>(k), saved[k]);
  for (const Statement& stmt : stmts) {
    const Placements p = stmt.Placements();
    t.placements.insert(t.placements.end(), p.begin(), p.end());
  }
  const bool kept = !t.placements.empty() && (ssn_.JobReady(j) || ssn_.JobPipelined(j));
  if (kept && keep && t.rounds == 1) {
    t.applied.emplace(ssn_);
    for (Statement& stmt : stmts) t.applied->Merge(stmt);
    return std::optional<JobTry>(std::move(t));
  }
  for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) it->Discard();
  if (!kept) return std::optional<JobTry>();
  return std::optional<JobTry>(std::move(t));
}

std::optional<std::vector<int64_t>> TopologyAllocator::LeastNeeded(JobIndex j, const JobSheet& sheet) const {
  const Session& s = ssn_;
  const int32_t need = s.job_min_member(j) - s.JobReadyTaskNum(j) - s.JobWaitingTaskNum(j) - s.JobPendingBestEffortNum(j);
  if (need <= 0) return std::nullopt;
  const size_t dims = static_cast<size_t>(s.dims());
  std::vector<std::vector<int64_t>> requests(dims);
  size_t pending = 0;
  for (const auto& [k, sub] : sheet.subs) {
    for (TaskIndex t : sub.tasks) {
      const absl::Span<const int64_t> r = s.task_resreq(t);
      for (size_t d = 0; d < dims; ++d) requests[d].push_back(std::max<int64_t>(r[d], 0));
      ++pending;
    }
  }
  if (pending < static_cast<size_t>(need)) return std::nullopt;  // other rules decide
  std::vector<int64_t> least(dims, 0);
  for (size_t d = 0; d < dims; ++d) {
    std::vector<int64_t>& r = requests[d];
    std::nth_element(r.begin(), r.begin() + (need - 1), r.end());
    // Saturating: huge requests must not wrap into a small sum.
    for (int32_t i = 0; i < need; ++i) least[d] = SaturatingAdd(least[d], r[static_cast<size_t>(i)]);
  }
  return least;
}

bool TopologyAllocator::CannotHold(const std::vector<int64_t>& least, HyperNodeIndex hn) {
  const absl::Span<const HyperNodeRoom::Amount> room = room_.Of(hn);
  for (size_t d = 0; d < least.size(); ++d) {
    if (least[d] > room[d]) return true;
  }
  return false;
}

absl::StatusOr<std::optional<Statement>> TopologyAllocator::AllocateForJob(JobIndex j, JobSheet& sheet,
                                                                           HyperNodeIndex within) {
  if (sheet.order.empty()) return std::optional<Statement>();
  const JobInfo& job = ssn_.job(j);
  std::vector<HyperNodeIndex> saved(job.sub_jobs.size());
  for (size_t k = 0; k < saved.size(); ++k) saved[k] = ssn_.sub_job_allocated_hyper_node(j, static_cast<int32_t>(k));
  const std::optional<std::vector<int64_t>> least = LeastNeeded(j, sheet);
  const std::vector<std::vector<HyperNodeIndex>> gradients = ssn_.HyperNodeGradient(j, kNone, within);
  if (!gradients.empty() && !gradients.back().empty() && QueueRefusesAll(j, sheet)) {
    // Every try would fail alike, so only the one that leaves the tasks' fit errors is
    // run: in the last HyperNode of the last gradient, as the failed search ends. It
    // stands for the others only when the search would have run a try that records
    // (one in a HyperNode with nodes) and it records too.
    const HyperNodeIndex last = gradients.back().back();
    bool any = false;
    for (const std::vector<HyperNodeIndex>& gradient : gradients) {
      for (HyperNodeIndex hn : gradient) any = any || !least || !CannotHold(*least, hn);
    }
    if (any && !ssn_.snapshot().hyper_nodes()[static_cast<size_t>(last)].nodes.empty()) {
      VCSCHED_ASSIGN_OR_RETURN(std::optional<JobTry> again, TryJobIn(j, sheet, last, saved));
      (void)again;  // it places nothing
      return std::optional<Statement>();
    }
  }
  for (const std::vector<HyperNodeIndex>& gradient : gradients) {
    // Tries that cannot place the gang's minimum in the HyperNode's room are skipped:
    // they would fail whatever the order of placement.
    std::vector<HyperNodeIndex> candidates;
    for (HyperNodeIndex hn : gradient) {
      if (!least || !CannotHold(*least, hn)) candidates.push_back(hn);
    }
    std::optional<JobTry> best;
    std::vector<double> known;
    if (KnownScores(j, sheet, candidates, &known)) {
      // Each try's score is known before it runs: the first to succeed in order of score
      // (then name) is the one the full search would choose.
      std::vector<size_t> order(candidates.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return known[a] > known[b]; });
      bool exact = true;
      for (size_t i : order) {
        VCSCHED_ASSIGN_OR_RETURN(std::optional<JobTry> t, TryJobIn(j, sheet, candidates[i], saved, /*keep=*/true));
        if (t && t->rounds != 1) {
          exact = false;  // a second round's score was not known: search them all
          break;
        }
        if (t) {
          best = std::move(t);
          break;
        }
      }
      if (!exact) best.reset();
      if (exact && !best) continue;
    }
    if (!best) {
      for (HyperNodeIndex hn : candidates) {
        VCSCHED_ASSIGN_OR_RETURN(std::optional<JobTry> t, TryJobIn(j, sheet, hn, saved));
        // The highest sum of sub-group scores; among equals the first HyperNode (by
        // name), where Volcano takes any.
        if (t && (!best || t->score > best->score)) best = std::move(t);
      }
    }
    if (!best) continue;
    // Rule: a placed job's tasks keep no fit errors of the tries (Volcano keeps those of
    // whichever HyperNode its map order tried last).
    ResetFitErrors(j, kNone);
    Statement stmt(ssn_);
    if (best->applied) {
      stmt = *std::move(best->applied);
    } else {
      VCSCHED_ASSIGN_OR_RETURN(stmt, Replay(best->placements));
    }
    sheet = std::move(best->rest);
    job_decision_[j] = best->hn;
    return std::optional<Statement>(std::move(stmt));
  }
  // No HyperNode took the job: its tasks say what the last one (by name) of the last
  // gradient said, tried again when the search skipped it or ended elsewhere.
  if (!gradients.empty() && !gradients.back().empty() && last_try_ != gradients.back().back()) {
    VCSCHED_ASSIGN_OR_RETURN(std::optional<JobTry> again, TryJobIn(j, sheet, gradients.back().back(), saved));
    (void)again;  // it fails again: the search found no try that succeeds
  }
  return std::optional<Statement>();
}

bool TopologyAllocator::QueueRefusesAll(JobIndex j, const JobSheet& sheet) const {
  const Session& s = ssn_;
  const QueueIndex queue = s.queue_of(j);
  if (s.explaining() || queue == kNone) return false;
  for (const auto& [k, sub] : sheet.subs) {
    if (s.sub_job_nominated_hyper_node(j, k) != kNone) return false;
    for (TaskIndex t : sub.tasks) {
      if (!(s.task_flags(t) & kTaskGated) && s.Allocatable(queue, t)) return false;
    }
  }
  return true;
}

void TopologyAllocator::ResetFitErrors(JobIndex j, int32_t k) {
  const JobInfo& job = ssn_.job(j);
  const int32_t from = k == kNone ? 0 : k, to = k == kNone ? static_cast<int32_t>(job.sub_jobs.size()) : k + 1;
  for (int32_t sub = from; sub < to; ++sub) {
    if (with_errors_.erase({j, sub}) == 0) continue;  // nothing recorded since the last reset
    for (TaskIndex t : job.sub_jobs[static_cast<size_t>(sub)].tasks) ssn_.ResetTaskFitErrors(t);
  }
}

bool TopologyAllocator::KnownScores(JobIndex j, const JobSheet& sheet, const std::vector<HyperNodeIndex>& candidates,
                                    std::vector<double>* scores) const {
  // One sub-group to place, whose own search in each candidate is that candidate alone:
  // its score is the candidate's HyperNode score now.
  if (sheet.order.size() != 1 || candidates.size() < 2) return false;
  const int32_t k = sheet.order.front();
  for (HyperNodeIndex hn : candidates) {
    const std::vector<std::vector<HyperNodeIndex>> g = ssn_.HyperNodeGradient(j, k, hn);
    if (g.size() != 1 || g[0].size() != 1 || g[0][0] != hn) return false;
  }
  scores->assign(candidates.size(), 0.0);
  for (size_t i = 0; i < candidates.size(); ++i) {
    const HyperNodeIndex one[] = {candidates[i]};
    ssn_.ScoreHyperNodes(j, k, one, absl::MakeSpan(&(*scores)[i], 1));
  }
  return true;
}

absl::StatusOr<std::optional<Statement>> TopologyAllocator::AllocateForSubJob(JobIndex j, int32_t k, SubSheet& sheet,
                                                                              HyperNodeIndex for_job, double* score) {
  if (sheet.tasks.empty()) return std::optional<Statement>();
  if (ssn_.sub_job_nominated_hyper_node(j, k) != kNone) {  // gangpreempt/gangreclaim made room
    const std::vector<TaskIndex> tasks(sheet.tasks.rbegin(), sheet.tasks.rend());
    Statement stmt(ssn_);
    VCSCHED_ASSIGN_OR_RETURN(const bool placed, AllocateFromNomination(ssn_, j, k, tasks, stmt));
    if (placed) {
      sheet.tasks.clear();
      sub_decisions_[j][for_job][k] = ssn_.sub_job_allocated_hyper_node(j, k);
      *score = 0;
      return std::optional<Statement>(std::move(stmt));
    }
  }
  for (const std::vector<HyperNodeIndex>& gradient : ssn_.HyperNodeGradient(j, k, for_job)) {
    std::vector<HyperNodeIndex> candidates;
    std::vector<std::pair<Placements, SubSheet>> results;
    for (HyperNodeIndex hn : gradient) {
      failed_roles_.erase({j, k});
      ResetFitErrors(j, k);  // Volcano's ResetSubJobFitErr
      SubSheet copy = sheet;
      VCSCHED_ASSIGN_OR_RETURN(std::optional<Statement> stmt, AllocateTasksIn(j, k, copy, hn));
      if (stmt && !stmt->empty()) {
        candidates.push_back(hn);
        results.emplace_back(stmt->Placements(), std::move(copy));
        stmt->Discard();
      }
    }
    if (candidates.empty()) continue;
    std::vector<double> scores(candidates.size(), 0.0);
    ssn_.ScoreHyperNodes(j, k, candidates, absl::MakeSpan(scores));
    size_t best = 0;  // the first of the highest (by name), where Volcano takes any
    for (size_t i = 1; i < candidates.size(); ++i) {
      if (scores[i] > scores[best]) best = i;
    }
    ResetFitErrors(j, k);  // the rule of AllocateForJob: placed, no errors of the tries
    VCSCHED_ASSIGN_OR_RETURN(Statement stmt, Replay(results[best].first));
    const HyperNodeIndex widened =
        ssn_.snapshot().HyperNodeLca(ssn_.sub_job_allocated_hyper_node(j, k), candidates[best]);
    ssn_.SetSubJobAllocatedHyperNode(j, k, widened);
    sheet = std::move(results[best].second);
    sub_decisions_[j][for_job][k] = widened;
    *score = scores[best];
    return std::optional<Statement>(std::move(stmt));
  }
  return std::optional<Statement>();
}

bool TopologyAllocator::NeedContinue(JobIndex j, int32_t k) const {
  const JobInfo& job = ssn_.job(j);
  if (ssn_.job_min_member(j) == static_cast<int32_t>(job.tasks.size())) return false;
  const SubJobInfo& sub = job.sub_jobs[static_cast<size_t>(k)];
  if (sub.min_available >= static_cast<int32_t>(sub.tasks.size())) return false;
  if (ssn_.JobHasSubGroupPolicy(j)) return true;
  static const std::set<std::string> kNoRoles;
  auto it = failed_roles_.find({j, k});
  return NeedContinueAllocating(ssn_, j, it == failed_roles_.end() ? kNoRoles : it->second);
}

absl::StatusOr<std::optional<Statement>> TopologyAllocator::AllocateTasksIn(JobIndex j, int32_t k, SubSheet& sheet,
                                                                            HyperNodeIndex hn) {
  const Session& s = ssn_;
  const std::vector<NodeIndex>& nodes = s.snapshot().hyper_nodes()[static_cast<size_t>(hn)].nodes;
  if (nodes.empty()) return std::optional<Statement>();
  const SubJobInfo& sub = s.job(j).sub_jobs[static_cast<size_t>(k)];
  const bool topology = sub.network_topology.has_value();
  const QueueIndex queue = s.queue_of(j);
  Statement stmt(ssn_);
  FitErrorBuffer errors;
  HyperNodeIndex allocated = s.sub_job_allocated_hyper_node(j, k);
  while (!sheet.tasks.empty()) {
    const TaskIndex t = PopTask(sheet);
    const TaskInfo& info = s.task(t);
    if (!ssn_.Allocatable(queue, t)) {
      ssn_.RecordQueueRefusal(t, queue);
      if (ssn_.explaining()) ExplainRefusedTask(ssn_, t, nodes, reasons_);
      continue;
    }
    if (s.task_flags(t) & kTaskGated) continue;
    std::set<std::string>& failed = failed_roles_[{j, k}];
    if (error_cache_ && !info.role.empty() && failed.count(info.role)) {
      RecordRoleFailed(ssn_, t);
      with_errors_.insert({j, k});
      continue;
    }
    const FitResult pre = ssn_.PrePredicate(t);
    if (!pre.ok()) {
      RecordPrePredicateFailure(ssn_, t, nodes, pre);
      with_errors_.insert({j, k});
      failed.insert(info.role);
      if (NeedContinue(j, k)) continue;
      break;
    }
    // A task whose other answers are node-local is ranked from kept per-node results;
    // one with no feasible node takes the full pass, which records why.
    const bool kept = s.NodeLocalScoresReusable(t) && placement_choice_.Rank(s, t, nodes);
    std::vector<NodeIndex> feasible;
    if (!kept) feasible = FeasibleNodesNominatedFirst(ssn_, t, nodes, reasons_, &errors);
    if (!kept && feasible.empty()) {
      errors.Flush(ssn_, t, hn == s.snapshot().hyper_node_root() ? kNone : hn);
      with_errors_.insert({j, k});
      failed.insert(info.role);
      if (NeedContinue(j, k)) continue;
      break;
    }
    errors.failures.clear();
    if (topology) ssn_.SetTaskJobAllocatedHyperNode(t, allocated);
    const NodeIndex best = kept ? placement_choice_.Best(s, t) : SelectBestNodeByGradient(ssn_, t, feasible);
    if (best == kNone) continue;
    VCSCHED_RETURN_IF_ERROR(AllocateOrPipeline(stmt, ssn_, t, best));
    if (topology) {
      const HyperNodeIndex h = s.snapshot().lowest_tier_hyper_node(best);
      if (h != kNone) allocated = allocated == kNone ? h : s.snapshot().HyperNodeLca(h, allocated);
    }
    if (ssn_.SubJobReady(j, k)) break;
  }
  if (ssn_.SubJobReady(j, k) || ssn_.SubJobPipelined(j, k)) return std::optional<Statement>(std::move(stmt));
  stmt.Discard();
  return std::optional<Statement>();
}

}  // namespace vcsched::internal
