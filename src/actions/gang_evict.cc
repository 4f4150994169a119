// gangpreempt / gangreclaim: evict whole "bundles" so a starving gang becomes pipelined
// in one step, inside one network domain (docs/reference/scheduler.md §9.7; Volcano
// HEAD's actions/gangpreempt and actions/gangreclaim). Without network topology the only
// domain is the whole cluster.
#include <map>

#include "src/actions/actions.h"
#include "src/actions/gang_bundles.h"
#include "src/actions/gang_nomination.h"
#include "src/actions/helpers.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

// PodGroup volcano.sh/preemptable: absent allows gang eviction; given, it decides.
bool JobPreemptableForGang(const JobInfo& job) {
  for (const Labels* m : {&job.pod_group.annotations, &job.pod_group.labels}) {
    if (m->count("volcano.sh/preemptable") > 0) return job.preemptable;
  }
  return true;
}

class GangEvictAction : public Action {
 public:
  GangEvictAction(EvictionKind kind, bool allow_whole, int64_t max_domains)
      : kind_(kind), allow_whole_(allow_whole), max_domains_(max_domains) {}

  absl::Status Execute(Session& ssn) override {
    auto queues = QueueHeap(ssn);
    std::map<QueueIndex, OrderedHeap<JobIndex>> preemptors = StarvingJobsByQueue(ssn, queues);
    while (!queues.empty()) {
      const QueueIndex q = queues.Pop();
      if (kind_ == EvictionKind::kGangReclaim && ssn.Overused(q)) continue;
      auto it = preemptors.find(q);
      if (it == preemptors.end()) continue;
      while (!it->second.empty()) {
        const JobIndex j = it->second.Pop();
        Statement stmt(ssn);
        VCSCHED_ASSIGN_OR_RETURN(const auto nominated, TryInDomains(ssn, q, j, stmt));
        if (ssn.JobPipelined(j)) {
          stmt.Commit();
          for (const auto& [k, hn] : nominated) ssn.SetSubJobNominatedHyperNode(j, k, hn);
        } else {
          stmt.Discard();
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  const char* Name() const { return kind_ == EvictionKind::kGangPreempt ? "gangpreempt" : "gangreclaim"; }

  // Tasks on the domain's nodes that may be evicted for job pj, before the plugins vote.
  std::vector<TaskIndex> Candidates(const Session& ssn, JobIndex pj, const std::vector<NodeIndex>& nodes) const {
    std::vector<TaskIndex> out;
    for (NodeIndex n : nodes) {
      for (TaskIndex t : ssn.node_tasks(n)) {
        const TaskStatus st = ssn.task_status(t);
        const bool status_ok = kind_ == EvictionKind::kGangReclaim
                                   ? st == TaskStatus::kRunning
                                   : (st == TaskStatus::kRunning || st == TaskStatus::kBound);
        const JobIndex vj = ssn.job_of(t);
        if (!status_ok || !ssn.task(t).preemptable || vj == kNone || vj == pj) continue;
        const QueueIndex vq = ssn.queue_of(vj);
        if (vq == kNone || !JobPreemptableForGang(ssn.job(vj))) continue;
        if (kind_ == EvictionKind::kGangPreempt) {
          if (vq != ssn.queue_of(pj) || ssn.job_priority(vj) >= ssn.job_priority(pj)) continue;
        } else if (vq == ssn.queue_of(pj) || !ssn.queue(vq).spec.reclaimable) {
          continue;
        }
        out.push_back(t);
      }
    }
    return out;
  }

  // The domain's bundles in the order they are taken, after the plugins' vote.
  std::vector<Bundle> DomainBundles(const Session& ssn, JobIndex pj, const std::vector<NodeIndex>& nodes,
                                    const Resource& need) const {
    std::map<JobIndex, std::vector<TaskIndex>> by_job;
    for (TaskIndex t : Candidates(ssn, pj, nodes)) by_job[ssn.job_of(t)].push_back(t);
    std::vector<Bundle> bundles;
    for (auto& [vj, tasks] : by_job) {
      for (Bundle& b : JobBundles(ssn, vj, std::move(tasks))) bundles.push_back(std::move(b));
    }
    if (bundles.empty()) return {};
    const QueueIndex pq = ssn.queue_of(pj);
    SortBundles(ssn, kind_, pq, need, bundles);
    std::vector<TaskIndex> ordered;
    for (const Bundle& b : bundles) ordered.insert(ordered.end(), b.tasks.begin(), b.tasks.end());
    const std::vector<TaskIndex> allowed = ssn.UnifiedEvictable(kind_, pj, ordered);
    if (allowed.empty()) return {};
    std::vector<Bundle> valid = KeepAllowed(ssn, bundles, allowed);
    SortBundles(ssn, kind_, pq, need, valid);
    std::vector<Bundle> out;
    for (Bundle& b : valid) {
      if (b.type == BundleType::kWhole && !allow_whole_) continue;
      out.push_back(std::move(b));
    }
    return out;
  }

  // Tries the job's candidate domains in order; in each, bundles are added until the
  // domain's idle and releasing room plus what they free covers the need, and a dry run
  // is made each time. The first that pipelines the job stays in `stmt`.
  absl::StatusOr<std::map<int32_t, HyperNodeIndex>> TryInDomains(Session& ssn, QueueIndex q, JobIndex j,
                                                                 Statement& stmt) const {
    const std::vector<TaskIndex> pending = PendingForGangEviction(ssn, j);
    if (pending.empty()) return std::map<int32_t, HyperNodeIndex>{};
    if (kind_ == EvictionKind::kGangReclaim && !ssn.Preemptive(q, pending)) return std::map<int32_t, HyperNodeIndex>{};
    Resource need(ssn.dims());
    for (TaskIndex t : pending) need += ssn.task_resreq(t);
    for (HyperNodeIndex domain : CandidateDomains(ssn, j, max_domains_)) {
      const std::vector<NodeIndex>& nodes = ssn.snapshot().hyper_nodes()[static_cast<size_t>(domain)].nodes;
      if (nodes.empty()) continue;
      const std::vector<Bundle> bundles = DomainBundles(ssn, j, nodes, need);
      if (bundles.empty()) continue;
      Resource available(ssn.dims());
      for (NodeIndex n : nodes) {
        available += ssn.node_idle(n);
        available += ssn.node_releasing(n);
      }
      std::vector<TaskIndex> victims;
      for (const Bundle& b : bundles) {
        victims.insert(victims.end(), b.tasks.begin(), b.tasks.end());
        available += b.local;
        if (!LessEqual(need.span(), available.span())) continue;
        VCSCHED_ASSIGN_OR_RETURN(auto chosen, PlanInDomain(ssn, q, j, domain, victims, Name(), stmt));
        if (chosen) return *std::move(chosen);
      }
    }
    return std::map<int32_t, HyperNodeIndex>{};
  }

  EvictionKind kind_;
  bool allow_whole_;
  int64_t max_domains_;
};

absl::StatusOr<std::unique_ptr<Action>> NewGangEvict(const Arguments& args, EvictionKind kind) {
  VCSCHED_ASSIGN_OR_RETURN(int64_t max_domains, args.GetInt("maxDomains", 8));
  if (max_domains <= 0) max_domains = 8;  // Volcano's fallback
  VCSCHED_ASSIGN_OR_RETURN(const bool allow_whole, args.GetBool("allowWholeBundle", true));
  return std::unique_ptr<Action>(new GangEvictAction(kind, allow_whole, max_domains));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Action>> NewGangPreemptAction(const Arguments& args) {
  return NewGangEvict(args, EvictionKind::kGangPreempt);
}

absl::StatusOr<std::unique_ptr<Action>> NewGangReclaimAction(const Arguments& args) {
  return NewGangEvict(args, EvictionKind::kGangReclaim);
}

}  // namespace vcsched::internal
