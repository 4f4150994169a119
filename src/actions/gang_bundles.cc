#include "src/actions/gang_bundles.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "absl/container/flat_hash_set.h"

namespace vcsched::internal {
namespace {

Resource Sum(const Session& ssn, const std::vector<TaskIndex>& tasks) {
  Resource r(ssn.dims());
  for (TaskIndex t : tasks) r += ssn.task_resreq(t);
  return r;
}

// How much of the need a bundle covers per unit of the job it breaks; infinite for a
// bundle that breaks nothing.
double Roi(const Bundle& b, const Resource& need) {
  auto score = [&](const Resource& r, bool cap) {
    double total = 0;
    for (int d = 0; d < need.dims(); ++d) {
      if (need[d] <= 0) continue;
      double v = static_cast<double>(r[d]);
      if (cap) v = std::min(v, static_cast<double>(need[d]));
      total += v / static_cast<double>(need[d]);
    }
    return total;
  };
  const double global = score(b.global, false);
  if (global == 0) return std::numeric_limits<double>::infinity();
  return score(b.local, true) / global;
}

}  // namespace

std::vector<Bundle> JobBundles(const Session& ssn, JobIndex j, std::vector<TaskIndex> tasks) {
  const JobInfo& job = ssn.job(j);
  std::sort(tasks.begin(), tasks.end(), [&](TaskIndex a, TaskIndex b) {
    if (ssn.task(a).priority != ssn.task(b).priority) return ssn.task(a).priority < ssn.task(b).priority;
    return ssn.task(a).uid < ssn.task(b).uid;
  });
  int32_t job_surplus = ssn.JobReadyTaskNum(j) - ssn.job_min_member(j);
  // Already not gang-ready: evicting more breaks nothing further.
  if (job_surplus < 0) return {{BundleType::kSafe, j, tasks, Sum(ssn, tasks), Resource(ssn.dims())}};

  // Roles count only when the job's minimum covers their minimums (gang's CheckTaskReady).
  const bool enforce_roles = job.pod_group.min_member >= job.task_min_available_total;
  std::map<std::string, int32_t> role_surplus;
  if (enforce_roles) {
    std::map<std::string, int32_t> ready;
    for (TaskIndex t : job.tasks) {
      const TaskStatus st = ssn.task_status(t);
      if (IsAllocatedStatus(st) || st == TaskStatus::kSucceeded || (st == TaskStatus::kPending && ssn.task(t).best_effort)) {
        ++ready[ssn.task(t).role];
      }
    }
    for (const auto& [role, min] : job.pod_group.min_task_member) role_surplus[role] = ready[role] - min;
  }
  // Sub-group policies: ready sub-groups per policy above its minSubGroups.
  const bool enforce_sub_jobs = ssn.JobHasSubGroupPolicy(j);
  std::map<int32_t, int32_t> group_surplus;
  std::vector<bool> broken(job.sub_jobs.size(), false);
  if (enforce_sub_jobs) {
    for (int32_t k = 0; k < static_cast<int32_t>(job.sub_jobs.size()); ++k) {
      if (ssn.SubJobIsReady(j, k)) ++group_surplus[job.sub_jobs[static_cast<size_t>(k)].policy];
      else broken[static_cast<size_t>(k)] = true;
    }
    const auto& policies = job.pod_group.sub_group_policy;
    for (size_t p = 0; p < policies.size(); ++p) group_surplus[static_cast<int32_t>(p)] -= policies[p].min_sub_groups;
  }

  std::vector<TaskIndex> safe, whole;
  for (TaskIndex t : tasks) {
    const std::string& role = ssn.task(t).role;
    const bool has_role_min = enforce_roles && job.pod_group.min_task_member.count(role) > 0;
    const bool role_safe = !has_role_min || role_surplus[role] > 0;
    const int32_t k = ssn.task(t).sub_job;
    bool group_safe = true;
    if (enforce_sub_jobs) {
      group_safe = k != kNone && (broken[static_cast<size_t>(k)] ||
                                  group_surplus[job.sub_jobs[static_cast<size_t>(k)].policy] > 0);
    }
    if (job_surplus > 0 && role_safe && group_safe) {
      safe.push_back(t);
      --job_surplus;
      if (has_role_min) --role_surplus[role];
      if (enforce_sub_jobs && k != kNone && !broken[static_cast<size_t>(k)]) {
        broken[static_cast<size_t>(k)] = true;  // its first loss costs the policy a ready sub-group
        --group_surplus[job.sub_jobs[static_cast<size_t>(k)].policy];
      }
    } else {
      whole.push_back(t);
    }
  }
  std::vector<Bundle> out;
  if (!safe.empty()) out.push_back({BundleType::kSafe, j, safe, Sum(ssn, safe), Resource(ssn.dims())});
  if (!whole.empty()) out.push_back({BundleType::kWhole, j, whole, Sum(ssn, whole), Sum(ssn, job.tasks)});
  return out;
}

void SortBundles(const Session& ssn, EvictionKind kind, QueueIndex preemptor_queue, const Resource& need,
                 std::vector<Bundle>& bundles) {
  std::vector<double> roi;
  roi.reserve(bundles.size());
  for (const Bundle& b : bundles) roi.push_back(Roi(b, need));
  std::vector<size_t> order(bundles.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto victim_queue_first = [&](QueueIndex l, QueueIndex r) {
    return preemptor_queue == kNone ? ssn.QueueOrderLess(l, r) : ssn.VictimQueueOrderLess(l, r, preemptor_queue);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Bundle& l = bundles[a];
    const Bundle& r = bundles[b];
    if (l.type != r.type) return l.type < r.type;
    if (kind == EvictionKind::kGangPreempt && l.job != r.job) {
      // The job the order ranks later loses first.
      const bool lb = !ssn.JobOrderLess(l.job, r.job), rb = !ssn.JobOrderLess(r.job, l.job);
      if (lb != rb) return lb;
    }
    if (kind == EvictionKind::kGangReclaim) {
      const QueueIndex lq = ssn.queue_of(l.job), rq = ssn.queue_of(r.job);
      if (lq != rq) {
        const bool lb = victim_queue_first(lq, rq), rb = victim_queue_first(rq, lq);
        if (lb != rb) return lb;
      }
    }
    if (roi[a] != roi[b]) return roi[a] > roi[b];
    if (l.job != r.job) return ssn.job(l.job).key < ssn.job(r.job).key;
    const std::string& lu = ssn.task(l.tasks.front()).uid;
    const std::string& ru = ssn.task(r.tasks.front()).uid;
    if (lu != ru) return lu < ru;
    return l.tasks.size() < r.tasks.size();
  });
  std::vector<Bundle> sorted;
  sorted.reserve(bundles.size());
  for (size_t i : order) sorted.push_back(std::move(bundles[i]));
  bundles = std::move(sorted);
}

std::vector<Bundle> KeepAllowed(const Session& ssn, const std::vector<Bundle>& bundles,
                                const std::vector<TaskIndex>& allowed) {
  const absl::flat_hash_set<TaskIndex> ok(allowed.begin(), allowed.end());
  std::vector<Bundle> out;
  for (const Bundle& b : bundles) {
    std::vector<TaskIndex> approved;
    for (TaskIndex t : b.tasks) {
      if (ok.contains(t)) approved.push_back(t);
    }
    if (b.type == BundleType::kWhole) {
      if (approved.size() == b.tasks.size()) out.push_back(b);
      continue;
    }
    if (approved.empty()) continue;
    Bundle kept = b;
    kept.local = Sum(ssn, approved);
    kept.tasks = std::move(approved);
    out.push_back(std::move(kept));
  }
  return out;
}

}  // namespace vcsched::internal
