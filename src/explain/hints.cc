// The search behind each hint kind: the smallest change is found by doubling, then by
// halving the gap between the last change that failed and the first that worked; every
// step is a real session on a changed copy, counted against the budget.
#include "src/explain/hints.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "src/framework/session_sharding.h"
#include "src/model/revocable_window.h"
#include "src/snapshot/snapshot_impl.h"
#include "src/snapshot/csi_volumes.h"
#include "vcsched/cluster.h"
#include "vcsched/policy.h"
#include "src/util/status_macros.h"

namespace vcsched::internal {
namespace {

constexpr int64_t kMaxAddedNodes = 64;
constexpr int64_t kMaxWeightFactor = 64;

int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

// A change applied to a copy of the cluster; false when it cannot be made.
using Change = std::function<absl::Status(Cluster&)>;

class HintSearch {
 public:
  HintSearch(const Snapshot& snapshot, const SchedulerConfig& config, const RunOptions& options,
             const JobExplanation& job, int32_t* budget)
      : snapshot_(snapshot), config_(config), options_(options), job_(job), budget_(budget) {
    const JobIndex j = *snapshot.FindJob(job.job);
    job_index_ = j;
    for (TaskIndex t : snapshot.jobs()[static_cast<size_t>(j)].tasks) {
      const TaskInfo& task = snapshot.tasks()[static_cast<size_t>(t)];
      if (task.status == TaskStatus::kPending) pending_.insert(task.key);
    }
  }

  // Whether the job runs with `change`: every pod pending in the snapshot is bound (or,
  // with `pipelined_counts`, bound or pipelined onto room evictions free: a change that
  // lets preemption proceed shows in the session after). nullopt when the budget is spent.
  // `at`, when given, is another session clock.
  absl::StatusOr<std::optional<bool>> Runs(const Change& change, bool pipelined_counts = false,
                                           std::optional<int64_t> at = std::nullopt) {
    if (*budget_ <= 0) return std::optional<bool>();
    --*budget_;
    Cluster cluster = Cluster::FromSnapshot(snapshot_);
    if (!change(cluster).ok()) return std::optional<bool>(false);
    absl::StatusOr<Snapshot> changed = cluster.Snapshot();
    if (!changed.ok()) return std::optional<bool>(false);
    RunOptions options = options_;
    if (at) options.now_seconds = *at;
    std::optional<SchedulerMemory> memory;  // each re-run starts from the same memory
    if (options_.memory != nullptr) options.memory = &memory.emplace(*options_.memory);
    VCSCHED_ASSIGN_OR_RETURN(Decisions d, RunSession(*changed, config_, options));
    size_t bound = 0;
    for (const Bind& b : d.binds) bound += pending_.count(std::string(b.task));
    if (pipelined_counts) {
      for (const Pipelined& p : d.pipelined) bound += pending_.count(std::string(p.task));
    }
    return std::optional<bool>(!pending_.empty() && bound == pending_.size());
  }

  // The smallest k in [1, limit] for which make(k) runs, by doubling then bisection.
  absl::StatusOr<std::optional<int64_t>> Smallest(int64_t limit, const std::function<Change(int64_t)>& make,
                                                  bool pipelined_counts = false) {
    int64_t failed = 0, worked = 0;
    for (int64_t k = 1; k <= limit; k = k * 2 > limit && k < limit ? limit : k * 2) {
      VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs(make(k), pipelined_counts));
      if (!r) return std::optional<int64_t>();
      if (*r) {
        worked = k;
        break;
      }
      failed = k;
      if (k == limit) break;
    }
    if (worked == 0) return std::optional<int64_t>();
    while (worked - failed > 1) {
      const int64_t mid = failed + (worked - failed) / 2;
      VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs(make(mid), pipelined_counts));
      if (!r) break;
      if (*r) worked = mid;
      else failed = mid;
    }
    return std::optional<int64_t>(worked);
  }

  absl::StatusOr<std::vector<Hint>> Find() {
    std::vector<Hint> hints;
    auto has = [&](absl::string_view code) {
      return std::find(job_.causes.begin(), job_.causes.end(), code) != job_.causes.end();
    };
    const bool node_problem = has(reason_code::kNoFeasibleNode) || has(reason_code::kGangShortfall) ||
                              has(reason_code::kTopologyPlacementFailed) || has(reason_code::kPreemptionPending);
    // The cheapest searches first: a few runs each for a queue's numbers and a taint.
    if (has(reason_code::kQueueCapabilityExceeded)) VCSCHED_RETURN_IF_ERROR(RaiseCapability(hints));
    if (has(reason_code::kQueueShareExceeded)) VCSCHED_RETURN_IF_ERROR(RaiseWeight(hints));
    if (has(reason_code::kResourceQuotaExceeded)) VCSCHED_RETURN_IF_ERROR(RaiseQuota(hints));
    if (has(reason_code::kDisruptionBudgetProtected)) VCSCHED_RETURN_IF_ERROR(AllowDisruptions(hints));
    if (node_problem) VCSCHED_RETURN_IF_ERROR(TolerateTaints(hints));
    if (node_problem && NodesSay(kNotInShardText)) VCSCHED_RETURN_IF_ERROR(WidenShard(hints));
    if (node_problem) VCSCHED_RETURN_IF_ERROR(RevocableZones(hints));
    if (node_problem || has(reason_code::kQueueShareExceeded)) VCSCHED_RETURN_IF_ERROR(ListCsiDrivers(hints));
    if (node_problem || has(reason_code::kQueueShareExceeded)) VCSCHED_RETURN_IF_ERROR(AddVolumes(hints));
    if (node_problem || has(reason_code::kQueueShareExceeded) || has(reason_code::kClusterOvercommitted)) {
      VCSCHED_RETURN_IF_ERROR(AddNodes(hints));
    }
    if (node_problem) VCSCHED_RETURN_IF_ERROR(Preempt(hints));
    return hints;
  }

 private:
  const JobInfo& job_info() const { return snapshot_.jobs()[static_cast<size_t>(job_index_)]; }

  // The job's pending pods' requests, per resource name.
  std::map<std::string, int64_t> PendingRequest() const {
    std::map<std::string, int64_t> out;
    const ResourceSpace& space = snapshot_.space();
    for (TaskIndex t : job_info().tasks) {
      const TaskInfo& task = snapshot_.tasks()[static_cast<size_t>(t)];
      if (task.status != TaskStatus::kPending) continue;
      for (int d = 0; d < space.size(); ++d) {
        if (d == kPods || task.resreq[d] <= 0) continue;
        out[space.name(d)] = SaturatingAdd(out[space.name(d)], task.resreq[d]);
      }
    }
    return out;
  }

  // The capability the deciding check asks for, per resource it refused: what enqueue
  // admits against (minResources + allocated + inqueue − elastic) or allocate places
  // against (allocated + request). Empty when the check is another one.
  std::map<std::string, int64_t> CapabilityTheCheckNeeds() const {
    std::map<std::string, std::map<std::string, int64_t>> by_resource;  // resource -> field -> amount
    for (const auto& [key, text] : job_.check) {
      const size_t dot = key.rfind('.');
      if (dot == std::string::npos) continue;
      const std::string name = key.substr(0, dot);
      bool tracked = false;
      absl::StatusOr<int64_t> v = ParseResourceQuantity(name, text, &tracked);
      if (v.ok()) by_resource[name][key.substr(dot + 1)] = *v;
    }
    std::map<std::string, int64_t> out;
    for (auto& [name, f] : by_resource) {
      if (!f.count("capability")) continue;
      const int64_t need = f.count("request")
                               ? SaturatingAdd(f["allocated"], f["request"])
                               : SaturatingAdd(SaturatingAdd(f["minResources"], f["allocated"]), f["inqueue"]) - f["elastic"];
      if (need > f["capability"]) out[name] = need;
    }
    return out;
  }

  absl::Status RaiseCapability(std::vector<Hint>& hints) {
    const std::string queue = job_.queue;
    auto it = snapshot_.FindQueue(queue);
    if (!it) return absl::OkStatus();
    const QueueSpec spec = snapshot_.queues()[static_cast<size_t>(*it)].spec;
    auto with = [&](const std::map<std::string, int64_t>& capability) -> Change {
      return [=](Cluster& c) {
        QueueSpec q = spec;
        for (const auto& [name, amount] : capability) q.capability[name] = amount;
        return c.PutQueue(std::move(q));
      };
    };
    std::map<std::string, int64_t> found;
    std::string how;
    // First the exact numbers of the refusing check: one run, and any less fails that check.
    std::map<std::string, int64_t> exact = CapabilityTheCheckNeeds();
    for (auto e = exact.begin(); e != exact.end();) e = spec.capability.count(e->first) ? std::next(e) : exact.erase(e);
    if (!exact.empty()) {
      VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs(with(exact)));
      if (r && *r) {
        found = exact;
        how = "the least the refusing check admits";
      }
    }
    if (found.empty()) {
      // Else the pending request added 1..4 times, then each resource searched down alone.
      std::map<std::string, int64_t> request;
      for (const auto& [name, amount] : PendingRequest()) {
        if (spec.capability.count(name)) request[name] = amount;
      }
      if (request.empty()) return absl::OkStatus();
      auto raised = [&](int64_t factor) {
        std::map<std::string, int64_t> c;
        for (const auto& [name, amount] : request) c[name] = SaturatingAdd(spec.capability.at(name), SaturatingMul(amount, factor));
        return c;
      };
      VCSCHED_ASSIGN_OR_RETURN(std::optional<int64_t> k, Smallest(4, [&](int64_t f) { return with(raised(f)); }));
      if (!k) return absl::OkStatus();
      found = raised(*k);
      how = "searched: each resource lowered until the job no longer runs";
      for (auto& [name, amount] : found) {
        const int64_t base = spec.capability.at(name);
        const int64_t unit = name == "memory" ? int64_t{1} << 20 : 1000;  // 1Mi, or one core / one device
        int64_t lo = 0, hi = (amount - base + unit - 1) / unit;  // in units above the current capability
        while (hi - lo > 1) {
          const int64_t mid = lo + (hi - lo) / 2;
          std::map<std::string, int64_t> trial = found;
          trial[name] = std::min(amount, SaturatingAdd(base, SaturatingMul(mid, unit)));
          VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs(with(trial)));
          if (!r) break;
          if (*r) hi = mid;
          else lo = mid;
        }
        amount = std::min(amount, SaturatingAdd(base, SaturatingMul(hi, unit)));
      }
    }
    std::vector<std::string> parts;
    for (const auto& [name, amount] : found) {
      parts.push_back(absl::StrCat(name, " ", FormatAmount(name, spec.capability.at(name)), " -> ", FormatAmount(name, amount)));
    }
    hints.push_back({"raise-capability",
                     absl::StrCat("raise queue ", queue, "'s capability: ", absl::StrJoin(parts, ", "), " (", how, ")"),
                     queue, 0});
    return absl::OkStatus();
  }

  absl::Status RaiseWeight(std::vector<Hint>& hints) {
    auto it = snapshot_.FindQueue(job_.queue);
    if (!it) return absl::OkStatus();
    const QueueSpec spec = snapshot_.queues()[static_cast<size_t>(*it)].spec;
    const int64_t base = std::max<int32_t>(spec.weight, 1);
    const int64_t limit = std::min<int64_t>(base * kMaxWeightFactor, INT32_MAX) - base;
    if (limit < 1) return absl::OkStatus();
    auto make = [&](int64_t extra) -> Change {
      return [=](Cluster& c) {
        QueueSpec q = spec;
        q.weight = static_cast<int32_t>(base + extra);
        return c.PutQueue(std::move(q));
      };
    };
    VCSCHED_ASSIGN_OR_RETURN(std::optional<int64_t> k, Smallest(limit, make));
    if (!k) return absl::OkStatus();
    hints.push_back({"raise-weight", absl::StrCat("raise queue ", job_.queue, "'s weight from ", spec.weight, " to ", base + *k),
                     job_.queue, base + *k});
    return absl::OkStatus();
  }

  // The refusing quota's hard limits raised to what the check needs (used + admitted this
  // session + requested), in spec and status alike.
  absl::Status RaiseQuota(std::vector<Hint>& hints) {
    if (job_.reason != reason_code::kResourceQuotaExceeded) return absl::OkStatus();
    std::string key;
    std::map<std::string, std::map<std::string, int64_t>> by_name;  // resource -> field -> amount
    for (const auto& [k, text] : job_.check) {
      if (k == "resourcequota") key = text;
      const size_t dot = k.rfind('.');
      if (dot == std::string::npos) continue;
      const std::string name = k.substr(0, dot);
      if (absl::StatusOr<int64_t> v = ParseQuotaQuantity(name, text); v.ok()) by_name[name][k.substr(dot + 1)] = *v;
    }
    auto it = snapshot_.policy().quotas.find(key);
    if (it == snapshot_.policy().quotas.end()) return absl::OkStatus();
    ResourceQuotaSpec raised = it->second;
    std::string what;
    for (auto& [name, f] : by_name) {
      const int64_t need = SaturatingAdd(SaturatingAdd(f["used"], f["admitted"]), f["requested"]);
      if (need <= f["hard"]) continue;
      raised.hard[name] = need;
      raised.spec_hard[name] = need;
      absl::StrAppend(&what, what.empty() ? "" : ", ", name, " from ", FormatQuotaAmount(name, f["hard"]), " to ",
                      FormatQuotaAmount(name, need));
    }
    if (what.empty()) return absl::OkStatus();
    VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs([&](Cluster& c) { return c.PutResourceQuota(raised); }));
    if (r && *r) hints.push_back({"raise-quota", absl::StrCat("raise ResourceQuota ", key, "'s hard ", what), key, 0});
    return absl::OkStatus();
  }

  // For each budget (at most three) that selects a running pod, the fewest more
  // disruptions it must allow for the job to run (lower minAvailable, raise maxUnavailable).
  absl::Status AllowDisruptions(std::vector<Hint>& hints) {
    int tried = 0;
    for (const auto& [key, budget] : snapshot_.policy().disruption_budgets) {
      if (tried == 3) break;
      int64_t selected = 0;
      for (const TaskInfo& t : snapshot_.tasks()) {
        if (t.status == TaskStatus::kRunning && t.pod->namespace_ == budget.namespace_ && budget.selector &&
            !t.pod->labels.empty() && MatchesLabelSelector(*budget.selector, t.pod->labels)) {
          ++selected;
        }
      }
      if (selected == 0) continue;
      ++tried;
      const PodDisruptionBudgetSpec spec = budget;
      auto make = [&](int64_t more) -> Change {
        return [=](Cluster& c) {
          PodDisruptionBudgetSpec b = spec;
          b.disruptions_allowed = static_cast<int32_t>(std::min<int64_t>(INT32_MAX, b.disruptions_allowed + more));
          return c.PutPodDisruptionBudget(std::move(b));
        };
      };
      VCSCHED_ASSIGN_OR_RETURN(std::optional<int64_t> k, Smallest(selected, make, /*pipelined_counts=*/true));
      if (!k) continue;
      hints.push_back({"allow-disruptions",
                       absl::StrCat("let PodDisruptionBudget ", key, " allow ", *k, " more disruption", *k == 1 ? "" : "s",
                                    " (disruptionsAllowed ", spec.disruptions_allowed, " -> ",
                                    spec.disruptions_allowed + *k, ": lower spec.minAvailable or raise spec.maxUnavailable)"),
                       key, *k});
    }
    return absl::OkStatus();
  }

  // Nodes to copy: one per distinct shape (allocatable, labels but the hostname, taints),
  // the largest in the resources the job asks for first, at most three shapes.
  std::vector<const NodeSpec*> Templates() const {
    const std::map<std::string, int64_t> need = PendingRequest();
    std::vector<const NodeSpec*> out;
    std::set<std::string> shapes;
    for (const NodeInfo& n : snapshot_.nodes()) {
      if (n.spec.unschedulable) continue;
      std::string shape;
      for (const auto& [k, v] : n.spec.allocatable) absl::StrAppend(&shape, k, "=", v, ";");
      for (const auto& [k, v] : n.spec.labels) {
        if (k != "kubernetes.io/hostname") absl::StrAppend(&shape, k, ":", v, ";");
      }
      for (const Taint& t : n.spec.taints) absl::StrAppend(&shape, t.key, "=", t.value, ":", t.effect, ";");
      if (shapes.insert(shape).second) out.push_back(&n.spec);
    }
    auto room = [&](const NodeSpec* n) {
      int64_t covered = 0;  // how many of the asked resources the node has at least one pod's worth of
      for (const auto& [name, amount] : need) {
        auto it = n->allocatable.find(name);
        if (it != n->allocatable.end() && it->second > 0) ++covered;
      }
      return covered;
    };
    std::stable_sort(out.begin(), out.end(), [&](const NodeSpec* a, const NodeSpec* b) { return room(a) > room(b); });
    if (out.size() > 3) out.resize(3);
    return out;
  }

  absl::Status AddNodes(std::vector<Hint>& hints) {
    std::optional<int64_t> best;
    const NodeSpec* best_template = nullptr;
    for (const NodeSpec* tmpl : Templates()) {
      const int64_t limit = best ? *best - 1 : kMaxAddedNodes;
      if (limit < 1) break;
      auto make = [&](int64_t k) -> Change {
        return [=](Cluster& c) {
          for (int64_t i = 0; i < k; ++i) {
            NodeSpec n = *tmpl;
            n.name = absl::StrCat(tmpl->name, "-copy-", i);
            if (n.labels.count("kubernetes.io/hostname")) n.labels["kubernetes.io/hostname"] = n.name;
            VCSCHED_RETURN_IF_ERROR(c.PutNode(std::move(n)));
          }
          return absl::OkStatus();
        };
      };
      VCSCHED_ASSIGN_OR_RETURN(std::optional<int64_t> k, Smallest(limit, make));
      if (k) {
        best = k;
        best_template = tmpl;
      }
    }
    if (!best) return absl::OkStatus();
    hints.push_back({"add-nodes", absl::StrCat("add ", *best, " node(s) like ", best_template->name), best_template->name, *best});
    return absl::OkStatus();
  }

  // Hard sharding kept the job off nodes it might use: the fewest nodes outside the
  // scheduler's NodeShard (most allocatable cpu first, then by name) that, added to its
  // nodesDesired and taken from the other shards' nodesInUse, let it run.
  absl::Status WidenShard(std::vector<Hint>& hints) {
    absl::StatusOr<SchedulerFlags> flags = ParseSchedulerArgs(config_.scheduler_args);
    if (!flags.ok() || flags->sharding_mode != ShardingMode::kHard) return absl::OkStatus();
    const std::string shard = flags->sharding_name;
    const auto in_shard = NodesInShard(snapshot_.policy(), shard);
    std::vector<std::pair<int64_t, const NodeInfo*>> outside;
    for (const NodeInfo& n : snapshot_.nodes()) {
      if (in_shard.count(n.spec.name)) continue;
      outside.push_back({n.allocatable[kCpu], &n});
    }
    std::sort(outside.begin(), outside.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second->spec.name < b.second->spec.name;
    });
    if (outside.empty()) return absl::OkStatus();
    auto make = [&](int64_t k) -> Change {
      return [&, k](Cluster& c) {
        PolicyObjects policy = c.policy();
        NodeShardSpec own;
        if (auto it = policy.node_shards.find(shard); it != policy.node_shards.end()) own = it->second;
        own.name = shard;
        std::set<std::string> added;
        for (int64_t i = 0; i < k; ++i) added.insert(outside[static_cast<size_t>(i)].second->spec.name);
        own.nodes_desired.insert(own.nodes_desired.end(), added.begin(), added.end());
        for (const auto& [name, other] : policy.node_shards) {
          if (name == shard) continue;
          NodeShardSpec changed = other;
          changed.nodes_in_use.erase(std::remove_if(changed.nodes_in_use.begin(), changed.nodes_in_use.end(),
                                                    [&](const std::string& n) { return added.count(n) != 0; }),
                                     changed.nodes_in_use.end());
          VCSCHED_RETURN_IF_ERROR(c.PutNodeShard(std::move(changed)));
        }
        return c.PutNodeShard(std::move(own));
      };
    };
    VCSCHED_ASSIGN_OR_RETURN(std::optional<int64_t> k, Smallest(static_cast<int64_t>(outside.size()), make));
    if (!k) return absl::OkStatus();
    std::vector<std::string> names;
    for (int64_t i = 0; i < *k; ++i) names.push_back(outside[static_cast<size_t>(i)].second->spec.name);
    hints.push_back({"widen-shard",
                     absl::StrCat("add ", *k, " node(s) to NodeShard \"", shard, "\": ", absl::StrJoin(names, ", "),
                                  " (or run the scheduler with --scheduler-sharding-mode=soft)"),
                     shard, *k});
    return absl::OkStatus();
  }

  // Whether a node verdict of the job starts with `prefix`.
  bool NodesSay(absl::string_view prefix) const {
    for (const auto& [cause, count] : job_.nodes) {
      if (absl::StartsWith(cause, prefix)) return true;
    }
    return false;
  }

  // The job's pending pods' claims, each once.
  std::vector<const PersistentVolumeClaimSpec*> PendingClaims() const {
    std::vector<const PersistentVolumeClaimSpec*> out;
    const StorageObjects& st = snapshot_.storage();
    for (TaskIndex t : job_info().tasks) {
      const TaskInfo& task = snapshot_.tasks()[static_cast<size_t>(t)];
      if (task.status != TaskStatus::kPending) continue;
      for (const PodVolumeClaim& v : task.pod->volume_claims) {
        auto it = st.claims.find(absl::StrCat(task.pod->namespace_, "/", v.claim));
        if (it != st.claims.end() && std::find(out.begin(), out.end(), &it->second) == out.end()) {
          out.push_back(&it->second);
        }
      }
    }
    return out;
  }

  // Claims counted against an attach limit that no node offers: list the driver in every
  // node's CSINode (what the scheduler would see once the driver runs there; running
  // vc-scheduler with --ignored-provisioners has the same effect).
  // The CSI drivers the job's claims are counted against that no node offers.
  std::set<std::string> UnofferedDrivers() const {
    std::set<std::string> drivers;
    for (const PersistentVolumeClaimSpec* c : PendingClaims()) {
      const std::string driver = ClaimCsiDriver(*c, snapshot_.storage());
      if (driver.empty() || IgnoredProvisioner(snapshot_.options(), driver)) continue;
      const std::string resource = CsiAttachLimitResource(driver);
      bool offered = false;
      for (const NodeInfo& n : snapshot_.nodes()) offered = offered || n.spec.allocatable.count(resource) > 0;
      if (!offered) drivers.insert(driver);
    }
    return drivers;
  }

  // Every node's CSINode with `drivers` listed (no attach limit).
  absl::Status ListDrivers(Cluster& c, const std::set<std::string>& drivers) const {
    for (const NodeInfo& n : snapshot_.nodes()) {
      CSINodeSpec csi;
      if (auto it = snapshot_.storage().csi_nodes.find(n.spec.name); it != snapshot_.storage().csi_nodes.end()) {
        csi = it->second;
      }
      csi.name = n.spec.name;
      for (const std::string& d : drivers) csi.drivers.push_back({d, n.spec.name, std::nullopt, {}});
      VCSCHED_RETURN_IF_ERROR(c.PutCSINode(std::move(csi)));
    }
    return absl::OkStatus();
  }

  absl::Status ListCsiDrivers(std::vector<Hint>& hints) {
    const std::set<std::string> drivers = UnofferedDrivers();
    if (drivers.empty()) return absl::OkStatus();
    const Change change = [&](Cluster& c) { return ListDrivers(c, drivers); };
    VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs(change));
    if (r && *r) {
      const std::string list = absl::StrJoin(drivers, ",");
      hints.push_back({"csi-driver",
                       absl::StrCat("Volcano counts the job's claims against the attach limit of ", list,
                                    ", which no node's CSINode lists: run vc-scheduler with --ignored-provisioners=",
                                    list, ", or list the driver in the nodes' CSINodes"),
                       list, static_cast<int64_t>(drivers.size())});
    }
    return absl::OkStatus();
  }

  // Unbound WaitForFirstConsumer claims that no volume matches: one Available volume each,
  // of the claim's class, size, access and volume modes, usable from every node.
  // (With the drivers their claims count against listed too, when no node offers them.)
  absl::Status AddVolumes(std::vector<Hint>& hints) {
    const StorageObjects& st = snapshot_.storage();
    std::vector<const PersistentVolumeClaimSpec*> claims;
    for (const PersistentVolumeClaimSpec* c : PendingClaims()) {
      const std::string cls = ClaimStorageClass(*c);
      auto sc = st.classes.find(cls);
      if (!c->volume_name.empty() || sc == st.classes.end() || sc->second.volume_binding_mode != "WaitForFirstConsumer") {
        continue;
      }
      bool candidate = false;  // an Available volume of the class, large enough, somewhere
      for (const auto& [_, pv] : st.volumes) {
        candidate = candidate || (VolumeStorageClass(pv) == cls && pv.phase == "Available" && !pv.claim_ref &&
                                  pv.capacity >= c->storage_request);
      }
      if (!candidate) claims.push_back(c);
    }
    if (claims.empty()) return absl::OkStatus();
    const std::set<std::string> drivers = UnofferedDrivers();
    const Change change = [&](Cluster& c) {
      for (const PersistentVolumeClaimSpec* claim : claims) {
        PersistentVolumeSpec pv;
        pv.name = absl::StrCat("hint-", claim->namespace_, "-", claim->name);
        pv.storage_class_name = ClaimStorageClass(*claim);
        pv.capacity = claim->storage_request;
        pv.access_modes = claim->access_modes;
        pv.volume_mode = claim->volume_mode;
        pv.volume_attributes_class_name = claim->volume_attributes_class_name;
        if (claim->selector) pv.labels = claim->selector->match_labels;
        pv.phase = "Available";
        VCSCHED_RETURN_IF_ERROR(c.PutPersistentVolume(std::move(pv)));
      }
      return ListDrivers(c, drivers);
    };
    VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs(change));
    if (!r || !*r) return absl::OkStatus();
    std::vector<std::string> parts;
    for (const PersistentVolumeClaimSpec* claim : claims) {
      parts.push_back(absl::StrCat(claim->namespace_, "/", claim->name, " (class \"", ClaimStorageClass(*claim), "\", ",
                                   FormatAmount("memory", claim->storage_request), ")"));
    }
    std::string text = absl::StrCat("add ", claims.size(), " Available PersistentVolume(s) that the nodes can use, for ",
                                    absl::StrJoin(parts, ", "));
    if (!drivers.empty()) {
      absl::StrAppend(&text, "; and run vc-scheduler with --ignored-provisioners=", absl::StrJoin(drivers, ","),
                      " (or list the driver in the nodes' CSINodes)");
    }
    hints.push_back({"add-volumes", std::move(text), absl::StrJoin(parts, ", "), static_cast<int64_t>(claims.size())});
    return absl::OkStatus();
  }

  absl::Status TolerateTaints(std::vector<Hint>& hints) {
    // The taints the node verdicts name: "node(s) had untolerated taint {key: value} (effect)".
    std::vector<Taint> taints;
    for (const auto& [cause, count] : job_.nodes) {
      absl::string_view c = cause;
      if (!absl::ConsumePrefix(&c, "node(s) had untolerated taint {")) continue;
      const size_t colon = c.find(": ");
      const size_t close = c.find("} (");
      if (colon == absl::string_view::npos || close == absl::string_view::npos || close < colon) continue;
      Taint t{std::string(c.substr(0, colon)), std::string(c.substr(colon + 2, close - colon - 2)),
              std::string(absl::StripSuffix(c.substr(close + 3), ")"))};
      taints.push_back(std::move(t));
      if (taints.size() == 3) break;
    }
    for (const Taint& taint : taints) {
      const Change change = [&](Cluster& c) {
        for (TaskIndex t : job_info().tasks) {
          const TaskInfo& task = snapshot_.tasks()[static_cast<size_t>(t)];
          PodSpec pod = *task.pod;
          Toleration tol;
          tol.key = taint.key;
          tol.op = "Equal";
          tol.value = taint.value;
          tol.effect = taint.effect;
          pod.tolerations.push_back(std::move(tol));
          VCSCHED_RETURN_IF_ERROR(c.PutPod(std::move(pod)));
        }
        return absl::OkStatus();
      };
      VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs(change));
      if (!r) break;
      if (*r) {
        hints.push_back({"tolerate-taint",
                         absl::StrCat("give the job's pods a toleration for taint ", taint.key, "=", taint.value, ":",
                                      taint.effect),
                         absl::StrCat(taint.key, "=", taint.value, ":", taint.effect), 0});
        break;
      }
    }
    return absl::OkStatus();
  }

  // tdm's refusals. A revocable zone whose window is closed (its verdict names the zone
  // and window, as tdm's "current time beyond revocable zone <zone>:<window>"): the session
  // at the window's next opening. A revocable node refusing a pod that may not use one:
  // the job's pods marked preemptable.
  absl::Status RevocableZones(std::vector<Hint>& hints) {
    const int64_t now = options_.now_seconds != 0 ? options_.now_seconds : DefaultSessionClock(snapshot_);
    for (const Tier& tier : config_.tiers) {
      for (const PluginOption& plugin : tier.plugins) {
        if (plugin.name != "tdm") continue;
        for (const auto& [key, value] : plugin.arguments.root().entries()) {
          absl::string_view zone = key;
          if (!absl::ConsumePrefix(&zone, "tdm.revocable-zone.") || !value.is_scalar()) continue;
          if (!NodesSay(absl::StrCat("current time beyond revocable zone ", zone, ":", value.text()))) continue;
          const absl::StatusOr<RevocableWindow> window = ParseRevocableWindow(value.text());
          if (!window.ok()) continue;
          int64_t opens = window->OpensAt(now);
          if (opens <= now) opens = window->OpensAt(SaturatingAdd(now, 86400));
          VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs([](Cluster&) { return absl::OkStatus(); }, true, opens));
          if (!r) return absl::OkStatus();
          if (!*r) continue;
          hints.push_back({"wait-for-window",
                           absl::StrCat("revocable zone \"", zone, "\" opens its window (", value.text(), " UTC) at ",
                                        absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixSeconds(opens),
                                                         absl::UTCTimeZone()),
                                        ", in ", ShortDuration(opens - now), ": the job runs then"),
                           std::string(zone), opens - now});
        }
      }
    }
    if (!NodesSay("not allow to dispatch to revocable node")) return absl::OkStatus();
    const Change change = [&](Cluster& c) {
      for (TaskIndex t : job_info().tasks) {
        PodSpec pod = *snapshot_.tasks()[static_cast<size_t>(t)].pod;
        pod.annotations["volcano.sh/preemptable"] = "true";
        VCSCHED_RETURN_IF_ERROR(c.PutPod(std::move(pod)));
      }
      return absl::OkStatus();
    };
    VCSCHED_ASSIGN_OR_RETURN(std::optional<bool> r, Runs(change, true));
    if (r && *r) {
      hints.push_back({"mark-preemptable",
                       "annotate the job's pods volcano.sh/preemptable: \"true\": revocable nodes take them while their "
                       "zone's window is open (shuffle evicts them when it closes, and preemption may)",
                       "volcano.sh/preemptable", 0});
    }
    return absl::OkStatus();
  }

  // "3h20m", "45s": whole units, largest first.
  static std::string ShortDuration(int64_t seconds) {
    std::string out;
    if (seconds >= 3600) absl::StrAppend(&out, seconds / 3600, "h");
    if (seconds % 3600 >= 60) absl::StrAppend(&out, seconds % 3600 / 60, "m");
    if (seconds % 60 != 0 || out.empty()) absl::StrAppend(&out, seconds % 60, "s");
    return out;
  }

  // Running pods of lower priority than the job's, lowest priority first, then by name:
  // the fewest whose removal lets the job run.
  absl::Status Preempt(std::vector<Hint>& hints) {
    const int32_t priority = job_info().priority;
    std::vector<const TaskInfo*> victims;
    for (const TaskInfo& t : snapshot_.tasks()) {
      if (t.node == kNone || !IsAllocatedStatus(t.status) || t.job == job_index_) continue;
      if (t.priority >= priority || !t.preemptable) continue;
      victims.push_back(&t);
    }
    if (victims.empty()) return absl::OkStatus();
    std::stable_sort(victims.begin(), victims.end(), [](const TaskInfo* a, const TaskInfo* b) {
      return a->priority != b->priority ? a->priority < b->priority : a->key < b->key;
    });
    auto make = [&](int64_t k) -> Change {
      return [=](Cluster& c) {
        for (int64_t i = 0; i < k; ++i) {
          const PodSpec& pod = *victims[static_cast<size_t>(i)]->pod;
          VCSCHED_RETURN_IF_ERROR(c.DeletePod(pod.namespace_, pod.name));
        }
        return absl::OkStatus();
      };
    };
    VCSCHED_ASSIGN_OR_RETURN(std::optional<int64_t> k, Smallest(static_cast<int64_t>(victims.size()), make));
    if (!k) return absl::OkStatus();
    std::vector<std::string> names;
    for (int64_t i = 0; i < *k; ++i) names.push_back(victims[static_cast<size_t>(i)]->key);
    hints.push_back({"preempt", absl::StrCat("evict ", *k, " lower-priority pod(s): ", absl::StrJoin(names, ", ")),
                     absl::StrJoin(names, ","), *k});
    return absl::OkStatus();
  }

  const Snapshot& snapshot_;
  const SchedulerConfig& config_;
  const RunOptions& options_;
  const JobExplanation& job_;
  int32_t* budget_;
  JobIndex job_index_ = kNone;
  std::set<std::string> pending_;
};

}  // namespace

absl::StatusOr<std::vector<Hint>> FindHints(const Snapshot& snapshot, const SchedulerConfig& config,
                                            const RunOptions& options, const JobExplanation& job, int32_t* budget) {
  if (!snapshot.FindJob(job.job) || *budget <= 0) return std::vector<Hint>();
  return HintSearch(snapshot, config, options, job, budget).Find();
}

}  // namespace vcsched::internal
