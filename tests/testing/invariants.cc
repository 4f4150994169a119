#include "tests/testing/invariants.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/model/k8s_match.h"

namespace vcsched::testing {
namespace {

// Whether plugin `name` is configured with extension point `point` switched on: a plugin
// whose switch is off (e.g. predicates with enablePredicate: false) constrains nothing.
bool PluginOn(const SchedulerConfig& c, const std::string& name, Switch point) {
  for (const Tier& t : c.tiers) {
    for (const PluginOption& p : t.plugins) {
      if (p.name == name && p.Enabled(point)) return true;
    }
  }
  return false;
}

// Whether the predicates plugin's boolean argument `arg` is true (default true) in the
// first tier entry that configures predicates.
bool PredicateArgOn(const SchedulerConfig& c, const std::string& arg) {
  for (const Tier& t : c.tiers) {
    for (const PluginOption& p : t.plugins) {
      if (p.name != "predicates") continue;
      absl::StatusOr<bool> on = p.arguments.GetBool(arg, true);
      return !on.ok() || *on;
    }
  }
  return true;
}

bool Holds(const TaskInfo& t) {
  return t.node != kNone && t.status != TaskStatus::kPending && t.status != TaskStatus::kSucceeded &&
         t.status != TaskStatus::kFailed;
}

// Hard network-topology limits (network-topology-aware's gradients on): the pods a job
// or sub-group holds and got in this session share a HyperNode of at most the limit's
// tier; one whose held pods already spread wider gets none.
void CheckTopologyLimits(const Snapshot& snap, const SchedulerConfig& config, const Decisions& d,
                         std::vector<std::string>& bad) {
  if (!snap.hyper_nodes_ready()) return;
  std::map<TaskIndex, NodeIndex> placed;
  for (const Bind& b : d.binds) {
    if (auto t = snap.FindTask(b.task), n = snap.FindNode(b.node); t && n) placed[*t] = *n;
  }
  // Volcano's reclaim pipelines without regard to topology.
  const bool reclaim = std::find(config.actions.begin(), config.actions.end(), "reclaim") != config.actions.end();
  for (const Pipelined& p : reclaim ? std::vector<Pipelined>{} : d.pipelined) {
    if (auto t = snap.FindTask(p.task), n = snap.FindNode(p.node); t && n) placed[*t] = *n;
  }
  const auto check = [&](const JobInfo& job, const std::optional<NetworkTopologySpec>& limit, int32_t k) {
    if (!limit || limit->mode != NetworkTopologySpec::Mode::kHard || !limit->highest_tier_allowed) return;
    const int32_t tier = *limit->highest_tier_allowed;
    HyperNodeIndex held = kNone, all = kNone;
    bool got = false;
    for (TaskIndex t : job.tasks) {
      const TaskInfo& task = snap.tasks()[static_cast<size_t>(t)];
      if (k != kNone && task.sub_job != k) continue;
      NodeIndex n = kNone;
      if (Holds(task)) {
        n = task.node;
        held = snap.HyperNodeLca(held, snap.lowest_tier_hyper_node(n));
      } else if (auto it = placed.find(t); it != placed.end() && !task.best_effort) {  // backfill ignores topology
        n = it->second;
        got = true;
      }
      if (n != kNone) all = snap.HyperNodeLca(all, snap.lowest_tier_hyper_node(n));
    }
    if (!got) return;
    const auto tier_of = [&](HyperNodeIndex h) { return h == kNone ? 0 : snap.hyper_nodes()[static_cast<size_t>(h)].tier; };
    const std::string who = k == kNone ? job.key : absl::StrCat(job.key, " sub-group ", job.sub_jobs[static_cast<size_t>(k)].id);
    if (tier_of(held) > tier) {
      bad.push_back(absl::StrCat("pods placed for ", who, " whose held pods already spread past tier ", tier));
    } else if (tier_of(all) > tier) {
      bad.push_back(absl::StrCat("pods of ", who, " span tier ", tier_of(all), " past its hard limit ", tier));
    }
  };
  for (const JobInfo& job : snap.jobs()) {
    check(job, job.network_topology, kNone);
    for (int32_t k = 0; k < static_cast<int32_t>(job.sub_jobs.size()); ++k) {
      check(job, job.sub_jobs[static_cast<size_t>(k)].network_topology, k);
    }
  }
}

}  // namespace

std::vector<std::string> CheckInvariants(const Snapshot& snap, const SchedulerConfig& config, const Decisions& d) {
  std::vector<std::string> bad;
  const int dims = snap.dims();
  const bool predicates_on = PluginOn(config, "predicates", Switch::kPredicate);
  std::map<std::string, std::string> bound;
  for (const Bind& b : d.binds) {
    if (!bound.emplace(b.task, b.node).second) bad.push_back(absl::StrCat("pod bound twice: ", b.task));
    auto t = snap.FindTask(b.task);
    auto n = snap.FindNode(b.node);
    if (!t || !n) {
      bad.push_back(absl::StrCat("bind of an unknown pod or node: ", b.task, " -> ", b.node));
      continue;
    }
    const TaskInfo& task = snap.tasks()[static_cast<size_t>(*t)];
    if (task.status != TaskStatus::kPending) bad.push_back(absl::StrCat("bind of a pod that was not pending: ", b.task));
    if (predicates_on) {
      const NodeSpec& node = snap.nodes()[static_cast<size_t>(*n)].spec;
      if (!internal::MatchNodeSelectorAndAffinity(*task.pod, node)) {
        bad.push_back(absl::StrCat("bind against node selector/affinity: ", b.task, " -> ", b.node));
      }
      if (node.unschedulable &&
          !internal::ToleratesTaint(task.pod->tolerations, {"node.kubernetes.io/unschedulable", "", "NoSchedule"})) {
        bad.push_back(absl::StrCat("bind onto an unschedulable node: ", b.task, " -> ", b.node));
      }
      for (const Taint& taint : node.taints) {
        if ((taint.effect == "NoSchedule" || taint.effect == "NoExecute") &&
            !internal::ToleratesTaint(task.pod->tolerations, taint)) {
          bad.push_back(absl::StrCat("bind against a taint: ", b.task, " -> ", b.node));
        }
      }
    }
  }
  // Required pod anti-affinity (Kubernetes' InterPodAffinity filter, both directions):
  // no pod bound now shares a topology domain with a pod that one of the two keeps out.
  // Pairs of pods placed before the session are not judged (the input may hold them).
  if (predicates_on && PredicateArgOn(config, "predicate.PodAffinityEnable")) {
    std::vector<std::pair<const TaskInfo*, const NodeSpec*>> placed;
    std::set<std::string> evicted;
    for (const Eviction& e : d.evictions) evicted.insert(std::string(e.task));
    for (const TaskInfo& t : snap.tasks()) {
      if (Holds(t) && !evicted.count(t.key)) placed.push_back({&t, &snap.nodes()[static_cast<size_t>(t.node)].spec});
    }
    const size_t held = placed.size();
    for (const Bind& b : d.binds) {
      auto t = snap.FindTask(b.task);
      auto n = snap.FindNode(b.node);
      if (t && n) placed.push_back({&snap.tasks()[static_cast<size_t>(*t)], &snap.nodes()[static_cast<size_t>(*n)].spec});
    }
    const auto same_domain = [](const std::string& key, const NodeSpec& x, const NodeSpec& y) {
      auto a = x.labels.find(key);
      auto b = y.labels.find(key);
      return a != x.labels.end() && b != y.labels.end() && a->second == b->second;
    };
    for (size_t i = held; i < placed.size(); ++i) {
      for (size_t j = 0; j < placed.size(); ++j) {
        if (i == j) continue;
        const auto [x, xn] = placed[i];
        const auto [y, yn] = placed[j];
        for (const auto& [owner, other, on, other_on] : {std::make_tuple(x, y, xn, yn), std::make_tuple(y, x, yn, xn)}) {
          for (const PodAffinityTerm& term : owner->pod->affinity.required_pod_anti_affinity) {
            if (internal::PodMatchesTerm(term, *owner->pod, *other->pod) && same_domain(term.topology_key, *on, *other_on)) {
              bad.push_back(absl::StrCat("bind against required anti-affinity: ", x->key, " -> ", xn->name, " beside ",
                                         y->key, " on ", yn->name));
            }
          }
        }
      }
    }
  }
  // Node capacity.
  std::vector<Resource> before(snap.nodes().size(), Resource(dims)), after;
  for (const TaskInfo& t : snap.tasks()) {
    if (Holds(t)) before[static_cast<size_t>(t.node)] += t.resreq;
  }
  after = before;
  // Evicted pods are on their way out; backfill may already use their pod slot (the
  // predicates' pod count no longer sees them), as Volcano does.
  for (const Eviction& e : d.evictions) {
    if (auto t = snap.FindTask(e.task); t && Holds(snap.tasks()[static_cast<size_t>(*t)])) {
      const TaskInfo& task = snap.tasks()[static_cast<size_t>(*t)];
      after[static_cast<size_t>(task.node)] -= task.resreq;
    }
  }
  // Backfill makes no fit test of its own (docs/reference/scheduler.md §9.3), but the
  // cache's check at dispatch refuses a bind past a node's pod slots, with the
  // predicates plugin or without it.
  for (const Bind& b : d.binds) {
    auto t = snap.FindTask(b.task);
    auto n = snap.FindNode(b.node);
    if (!t || !n) continue;
    after[static_cast<size_t>(*n)] += snap.tasks()[static_cast<size_t>(*t)].resreq;
  }
  // Pods with requests are bound into idle resources only (allocate never binds onto
  // resources still being released).
  std::vector<Resource> requested = before;
  for (const Bind& b : d.binds) {
    auto t = snap.FindTask(b.task);
    auto n = snap.FindNode(b.node);
    if (t && n && !snap.tasks()[static_cast<size_t>(*t)].best_effort) {
      requested[static_cast<size_t>(*n)] += snap.tasks()[static_cast<size_t>(*t)].resreq;
    }
  }
  for (const NodeInfo& n : snap.nodes()) {
    const size_t i = static_cast<size_t>(n.index);
    if (!LessEqual(before[i].span(), n.allocatable.span())) continue;  // over-committed before
    if (!LessEqual(requested[i].span(), n.allocatable.span())) {
      bad.push_back(absl::StrCat("binds of pods with requests exceed idle resources: ", n.spec.name));
    }
    if (!LessEqual(after[i].span(), n.allocatable.span())) {
      bad.push_back(absl::StrCat("node over its allocatable after binds: ", n.spec.name));
    }
  }
  // Gangs: all or nothing.
  if (PluginOn(config, "gang", Switch::kJobReady)) {
    std::map<JobIndex, int32_t> ready;
    std::set<JobIndex> got_binds;
    for (const TaskInfo& t : snap.tasks()) {
      if (t.job == kNone) continue;
      // Volcano counts pending best-effort pods as ready (JobInfo.IsReady).
      if (IsAllocatedStatus(t.status) || t.status == TaskStatus::kSucceeded ||
          (t.status == TaskStatus::kPending && t.best_effort && !bound.count(t.key))) {
        ++ready[t.job];
      }
      if (bound.count(t.key)) {
        ++ready[t.job];
        got_binds.insert(t.job);
      }
    }
    for (JobIndex j : got_binds) {
      const JobInfo& job = snap.jobs()[static_cast<size_t>(j)];
      if (ready[j] < job.pod_group.min_member) {
        bad.push_back(absl::StrCat("gang bound below minMember: ", job.key, " holds ", ready[j], " of ",
                                   job.pod_group.min_member));
      }
    }
  }
  // Queue capability.
  if (PluginOn(config, "proportion", Switch::kAllocatable) || PluginOn(config, "capacity", Switch::kAllocatable)) {
    std::vector<Resource> qbefore(snap.queues().size(), Resource(dims));
    std::set<QueueIndex> touched;
    for (const TaskInfo& t : snap.tasks()) {
      if (t.job == kNone) continue;
      const QueueIndex q = snap.jobs()[static_cast<size_t>(t.job)].queue;
      if (q == kNone) continue;
      if (IsAllocatedStatus(t.status)) qbefore[static_cast<size_t>(q)] += t.resreq;
    }
    std::vector<Resource> qafter = qbefore;
    for (const Bind& b : d.binds) {
      const TaskInfo& t = snap.tasks()[static_cast<size_t>(*snap.FindTask(b.task))];
      if (t.job == kNone) continue;
      const QueueIndex q = snap.jobs()[static_cast<size_t>(t.job)].queue;
      qafter[static_cast<size_t>(q)] += t.resreq;
      touched.insert(q);
    }
    for (QueueIndex q : touched) {
      const QueueInfo& info = snap.queues()[static_cast<size_t>(q)];
      if (info.spec.capability.empty()) continue;
      for (int dim = 0; dim < dims; ++dim) {
        if (dim == kPods || info.capability[dim] >= kUnlimited) continue;
        if ((dim == kCpu || dim == kMemory) && info.capability[dim] <= 0) continue;
        if (qbefore[static_cast<size_t>(q)][dim] <= info.capability[dim] &&
            qafter[static_cast<size_t>(q)][dim] > info.capability[dim]) {
          bad.push_back(absl::StrCat("queue over its capability: ", info.spec.name, " ", snap.space().name(dim)));
        }
      }
    }
  }
  // Evictions.
  std::set<std::string> pipelined;
  for (const Pipelined& p : d.pipelined) pipelined.emplace(p.task);
  for (const Eviction& e : d.evictions) {
    auto t = snap.FindTask(e.task);
    if (!t) {
      bad.push_back(absl::StrCat("eviction of an unknown pod: ", e.task));
      continue;
    }
    const TaskStatus st = snap.tasks()[static_cast<size_t>(*t)].status;
    if (st != TaskStatus::kRunning && st != TaskStatus::kBound) {
      bad.push_back(absl::StrCat("eviction of a pod that was not running: ", e.task));
    }
    if (bound.count(std::string(e.task)) || pipelined.count(std::string(e.task))) bad.push_back(absl::StrCat("evicted and placed: ", e.task));
  }
  if (PluginOn(config, "network-topology-aware", Switch::kHyperNodeGradient)) CheckTopologyLimits(snap, config, d, bad);
  return bad;
}

std::string SnapshotDigest(const Snapshot& snap) {
  std::string out;
  for (const NodeInfo& n : snap.nodes()) absl::StrAppend(&out, n.spec.name, n.allocatable.ToString(snap.space()), ";");
  for (const TaskInfo& t : snap.tasks()) {
    absl::StrAppend(&out, t.key, TaskStatusName(t.status), t.node, t.job, t.resreq.ToString(snap.space()), ";");
  }
  for (const JobInfo& j : snap.jobs()) absl::StrAppend(&out, j.key, j.pod_group.phase, j.queue, ";");
  for (const QueueInfo& q : snap.queues()) absl::StrAppend(&out, q.spec.name, q.spec.weight, q.spec.state, ";");
  return out;
}

}  // namespace vcsched::testing
