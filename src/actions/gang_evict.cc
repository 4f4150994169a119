// gangpreempt / gangreclaim: evict whole "bundles" so a starving gang becomes pipelined
// in one step (docs/reference/scheduler.md §9.7). Without network topology the only domain is the whole
// cluster.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "absl/strings/str_cat.h"
#include "src/actions/actions.h"
#include "src/actions/helpers.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

enum class BundleType { kSafe = 0, kWhole = 1 };

struct Bundle {
  BundleType type;
  JobIndex job;
  std::vector<TaskIndex> tasks;
  Resource local;   // what evicting the bundle frees
  Resource global;  // the whole job's request (whole bundles), else empty
};

class GangEvictAction : public Action {
 public:
  GangEvictAction(EvictionKind kind, bool allow_whole) : kind_(kind), allow_whole_(allow_whole) {}

  absl::Status Execute(Session& ssn) override {
    const Session& s = ssn;
    auto queues = QueueHeap(ssn);
    std::map<QueueIndex, OrderedHeap<JobIndex>> preemptors = StarvingJobsByQueue(ssn, queues);
    while (!queues.empty()) {
      const QueueIndex q = queues.Pop();
      if (kind_ == EvictionKind::kGangReclaim && ssn.Overused(q)) continue;
      auto& jobs = preemptors.at(q);
      while (!jobs.empty()) {
        const JobIndex j = jobs.Pop();
        // A ready gang has no unready sub-job to help (sub-jobs are not modelled).
        if (ssn.JobReady(j)) continue;
        std::vector<TaskIndex> pending;
        for (TaskIndex t : s.job(j).tasks) {
          const TaskInfo& info = s.task(t);
          if (s.task_status(t) == TaskStatus::kPending && !info.pod->scheduling_gated &&
              !info.best_effort) {
            pending.push_back(t);
          }
        }
        if (pending.empty()) continue;
        if (kind_ == EvictionKind::kGangReclaim && !ssn.Preemptive(q, pending)) continue;
        Resource need(s.dims());
        for (TaskIndex t : pending) need += s.task_resreq(t);
        Statement stmt(ssn);
        VCSCHED_RETURN_IF_ERROR(TryJob(ssn, j, pending, need, stmt));
        if (ssn.JobPipelined(j)) stmt.Commit();
        else stmt.Discard();
      }
    }
    return absl::OkStatus();
  }

 private:
  const char* Name() const { return kind_ == EvictionKind::kGangPreempt ? "gangpreempt" : "gangreclaim"; }

  static bool JobPreemptableForGang(const JobInfo& job) {
    for (const Labels* m : {&job.pod_group.annotations, &job.pod_group.labels}) {
      auto it = m->find("volcano.sh/preemptable");
      if (it != m->end()) return it->second == "true" || it->second == "True" || it->second == "1";
    }
    return true;
  }

  std::vector<TaskIndex> Candidates(const Session& ssn, JobIndex pj) const {
    const Session& s = ssn;
    const JobInfo& preemptor = s.job(pj);
    std::vector<TaskIndex> out;
    for (const TaskInfo& t : s.snapshot().tasks()) {
      const TaskStatus st = s.task_status(t.index);
      const bool status_ok = kind_ == EvictionKind::kGangReclaim
                                 ? st == TaskStatus::kRunning
                                 : (st == TaskStatus::kRunning || st == TaskStatus::kBound);
      if (!status_ok || !t.preemptable || t.job == kNone || t.job == pj) continue;
      // A pod whose node is not in the snapshot sits on Volcano's placeholder node,
      // which frees nothing a pending task could use: never a victim.
      if (s.task_node(t.index) == kNone) continue;
      const JobInfo& vj = s.job(t.job);
      if (vj.queue == kNone || !JobPreemptableForGang(vj)) continue;
      if (kind_ == EvictionKind::kGangPreempt) {
        if (vj.queue != preemptor.queue || vj.priority >= preemptor.priority) continue;
      } else if (vj.queue == preemptor.queue || !s.queue(vj.queue).spec.reclaimable) {
        continue;
      }
      out.push_back(t.index);
    }
    return out;
  }

  // Safe tasks can go without breaking the victim's gang; the rest form a whole bundle.
  static std::vector<Bundle> JobBundles(const Session& ssn, JobIndex j, std::vector<TaskIndex> tasks) {
    const Session& s = ssn;
    const JobInfo& job = s.job(j);
    std::sort(tasks.begin(), tasks.end(), [&](TaskIndex a, TaskIndex b) {
      if (s.task(a).priority != s.task(b).priority) return s.task(a).priority < s.task(b).priority;
      return s.task(a).uid < s.task(b).uid;
    });
    auto sum = [&](const std::vector<TaskIndex>& ts) {
      Resource r(s.dims());
      for (TaskIndex t : ts) r += s.task_resreq(t);
      return r;
    };
    int32_t surplus = ssn.JobReadyTaskNum(j) - ssn.job_min_member(j);
    if (surplus < 0) return {{BundleType::kSafe, j, tasks, sum(tasks), Resource(s.dims())}};
    std::map<std::string, int32_t> role_surplus;
    const bool enforce_roles = job.pod_group.min_member >= job.task_min_available_total;
    if (enforce_roles) {
      std::map<std::string, int32_t> ready;
      for (TaskIndex t : job.tasks) {
        const TaskStatus st = s.task_status(t);
        if (IsAllocatedStatus(st) || st == TaskStatus::kSucceeded ||
            (st == TaskStatus::kPending && s.task(t).best_effort)) {
          ++ready[s.task(t).role];
        }
      }
      for (const auto& [role, min] : job.pod_group.min_task_member) role_surplus[role] = ready[role] - min;
    }
    std::vector<TaskIndex> safe, whole;
    for (TaskIndex t : tasks) {
      const std::string& role = s.task(t).role;
      const bool has_min = enforce_roles && job.pod_group.min_task_member.count(role) > 0;
      const bool role_safe = !has_min || role_surplus[role] > 0;
      if (surplus > 0 && role_safe) {
        safe.push_back(t);
        --surplus;
        if (has_min) --role_surplus[role];
      } else {
        whole.push_back(t);
      }
    }
    std::vector<Bundle> out;
    if (!safe.empty()) out.push_back({BundleType::kSafe, j, safe, sum(safe), Resource(s.dims())});
    if (!whole.empty()) out.push_back({BundleType::kWhole, j, whole, sum(whole), sum(job.tasks)});
    return out;
  }

  // How much of the need a bundle covers per unit of the job it breaks.
  static double Roi(const Bundle& b, const Resource& need) {
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

  void SortBundles(const Session& ssn, std::vector<Bundle>& bundles, const Resource& need) const {
    const Session& s = ssn;
    const JobIndex any = bundles.empty() ? kNone : bundles.front().job;
    (void)any;
    auto policy = [&](const Bundle& l, const Bundle& r) -> int {
      if (l.type != r.type) return l.type < r.type ? -1 : 1;
      if (l.job != r.job) {
        const int32_t lp = s.job_priority(l.job), rp = s.job_priority(r.job);
        if (lp != rp) return lp < rp ? -1 : 1;
        if (kind_ == EvictionKind::kGangPreempt) {
          // The job the order ranks later loses first.
          const bool lb = !ssn.JobOrderLess(l.job, r.job), rb = !ssn.JobOrderLess(r.job, l.job);
          if (lb != rb) return lb ? -1 : 1;
        }
      }
      return 0;
    };
    std::stable_sort(bundles.begin(), bundles.end(), [&](const Bundle& l, const Bundle& r) {
      if (kind_ == EvictionKind::kGangReclaim) {
        const QueueIndex lq = s.job(l.job).queue, rq = s.job(r.job).queue;
        if (lq != rq) {
          // The preemptor's queue is unknown here; victim queues are ordered as
          // Volcano's default: the queue QueueOrder ranks later loses first.
          const bool lb = !ssn.QueueOrderLess(lq, rq), rb = !ssn.QueueOrderLess(rq, lq);
          if (lb != rb) return lb;
          return lq < rq;
        }
      }
      if (const int c = policy(l, r); c != 0) return c < 0;
      const double li = Roi(l, need), ri = Roi(r, need);
      if (li != ri) return li > ri;
      if (l.job != r.job) return l.job < r.job;
      return s.task(l.tasks.front()).uid < s.task(r.tasks.front()).uid;
    });
  }

  // Keeps the bundles the plugins allow, replaying the accepted prefix each time; safe
  // bundles become one-task units so selection can stop early.
  std::vector<Bundle> FilterBundles(const Session& ssn, JobIndex pj, const std::vector<Bundle>& bundles) const {
    const Session& s = ssn;
    std::vector<TaskIndex> accepted;
    std::vector<Bundle> out;
    auto attempt = [&](const Bundle& b) {
      std::vector<TaskIndex> trial = accepted;
      trial.insert(trial.end(), b.tasks.begin(), b.tasks.end());
      const std::vector<TaskIndex> allowed = ssn.UnifiedEvictable(kind_, pj, trial);
      for (TaskIndex t : trial) {
        if (std::find(allowed.begin(), allowed.end(), t) == allowed.end()) return;
      }
      accepted = std::move(trial);
      out.push_back(b);
    };
    for (const Bundle& b : bundles) {
      if (b.type == BundleType::kWhole) {
        if (allow_whole_) attempt(b);
        continue;
      }
      for (TaskIndex t : b.tasks) {
        Bundle unit{b.type, b.job, {t}, Resource::FromSpan(s.task_resreq(t)), b.global};
        attempt(unit);
      }
    }
    return out;
  }

  // Evicts `victims` and places the job's pending tasks; keeps the operations in
  // `stmt` only when the job ends up pipelined.
  absl::StatusOr<bool> TryPlan(Session& ssn, JobIndex j, const std::vector<TaskIndex>& pending,
                               const std::vector<TaskIndex>& victims, Statement& stmt) const {
    const Session& s = ssn;
    Statement trial(ssn);
    const TaskIndex first = pending.front();
    for (TaskIndex v : victims) {
      VCSCHED_RETURN_IF_ERROR(trial.Evict(v, Name(), first, absl::StrCat(Name(), " for gang ", s.job(j).key)));
    }
    const ResourceReasons reasons(ssn);
    const std::vector<NodeIndex> all = AllNodes(ssn);
    auto order = TaskHeap(ssn);
    for (TaskIndex t : pending) order.Push(t);
    while (!order.empty()) {
      const TaskIndex t = order.Pop();
      if (!ssn.PrePredicate(t).ok()) continue;
      const std::vector<NodeIndex> nodes = FeasibleNodes(ssn, t, all, true, reasons, nullptr);
      const NodeIndex best = SelectBestNodeByGradient(ssn, t, nodes);
      if (best == kNone) continue;
      VCSCHED_RETURN_IF_ERROR(trial.Pipeline(t, best));
    }
    if (ssn.JobPipelined(j)) {
      stmt.Merge(trial);
      return true;
    }
    trial.Discard();
    return false;
  }

  absl::Status TryJob(Session& ssn, JobIndex j, const std::vector<TaskIndex>& pending, const Resource& need,
                      Statement& stmt) const {
    const Session& s = ssn;
    std::map<JobIndex, std::vector<TaskIndex>> by_job;
    for (TaskIndex t : Candidates(ssn, j)) by_job[s.job_of(t)].push_back(t);
    std::vector<Bundle> bundles;
    for (auto& [vj, tasks] : by_job) {
      for (Bundle& b : JobBundles(ssn, vj, std::move(tasks))) bundles.push_back(std::move(b));
    }
    if (bundles.empty()) return absl::OkStatus();
    SortBundles(ssn, bundles, need);
    bundles = FilterBundles(ssn, j, bundles);
    // Available = idle + releasing over the domain, grown with each chosen victim.
    Resource available(s.dims());
    for (size_t n = 0; n < s.snapshot().nodes().size(); ++n) {
      available += s.node_idle(static_cast<NodeIndex>(n));
      available += s.node_releasing(static_cast<NodeIndex>(n));
    }
    std::vector<TaskIndex> victims;
    for (const Bundle& b : bundles) {
      Resource probe = available;
      probe += b.local;
      if (!LessEqual(need.span(), probe.span())) {
        available = probe;  // the whole bundle is needed
        victims.insert(victims.end(), b.tasks.begin(), b.tasks.end());
        continue;
      }
      for (size_t i = 0; i < b.tasks.size(); ++i) {
        available += s.task_resreq(b.tasks[i]);
        victims.push_back(b.tasks[i]);
        if (b.type == BundleType::kWhole && i + 1 < b.tasks.size()) continue;
        if (!LessEqual(need.span(), available.span())) continue;
        VCSCHED_ASSIGN_OR_RETURN(const bool placed, TryPlan(ssn, j, pending, victims, stmt));
        if (placed) return absl::OkStatus();
      }
    }
    return absl::OkStatus();
  }

  EvictionKind kind_;
  bool allow_whole_;
};

absl::StatusOr<std::unique_ptr<Action>> NewGangEvict(const Arguments& args, EvictionKind kind) {
  VCSCHED_RETURN_IF_ERROR(args.GetInt("maxDomains", 8).status());  // one domain without topology
  VCSCHED_ASSIGN_OR_RETURN(const bool allow_whole, args.GetBool("allowWholeBundle", true));
  return std::unique_ptr<Action>(new GangEvictAction(kind, allow_whole));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Action>> NewGangPreemptAction(const Arguments& args) {
  return NewGangEvict(args, EvictionKind::kGangPreempt);
}

absl::StatusOr<std::unique_ptr<Action>> NewGangReclaimAction(const Arguments& args) {
  return NewGangEvict(args, EvictionKind::kGangReclaim);
}

}  // namespace vcsched::internal
