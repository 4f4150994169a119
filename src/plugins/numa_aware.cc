// numa-aware: Guaranteed pods whose volcano.sh/numa-topology-policy names the topology
// manager policy of a node go only where the kubelet's CPU manager and topology manager
// would admit them, as the node's Numatopology object describes it (vcsched/policy.h);
// nodes score higher when the CPUs the pod would get span fewer NUMA nodes. The CPUs a
// placement takes are taken from the node for the rest of the session
// (docs/reference/scheduler.md, "numa-aware").
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/model/cpu_topology.h"
#include "src/model/pod_facts.h"
#include "src/plugins/plugins.h"
#include "src/util/status_macros.h"
#include "vcsched/arguments.h"
#include "vcsched/policy.h"
#include "vcsched/quantity.h"

namespace vcsched::internal {
namespace {

constexpr const char* kPolicyAnnotation = "volcano.sh/numa-topology-policy";
constexpr const char* kCpuPolicy = "CPUManagerPolicy";
constexpr const char* kTopologyPolicy = "TopologyManagerPolicy";
constexpr int64_t kMaxNodeScore = 100;

using ResourceSets = std::map<std::string, CpuSet>;

// What the plugin knows of a node with a Numatopology.
struct NumaNode {
  const NumatopologySpec* spec = nullptr;
  std::optional<CpuTopology> topology;
  CpuSet numa_nodes;
  CpuSet reserved;    // the CPUs the kubelet keeps for itself (resReserved cpu, by topology)
  ResourceSets free;  // per resource, the CPUs not taken, in this session
  std::string Policy(const char* name) const {
    auto it = spec->policies.find(name);
    return it == spec->policies.end() ? std::string() : it->second;
  }
};

std::string TaskPolicy(const PodSpec& pod) {
  auto it = pod.annotations.find(kPolicyAnnotation);
  return it == pod.annotations.end() ? std::string() : it->second;
}

// The CPU manager's request: whole CPUs, or 0 for a fractional or missing request.
int WholeCpus(const Container& c) {
  auto it = c.requests.find("cpu");
  if (it == c.requests.end() || it->second % 1000 != 0) return 0;
  return static_cast<int>(std::min<int64_t>(it->second / 1000, INT32_MAX));
}

class NumaAwarePlugin : public Plugin {
 public:
  explicit NumaAwarePlugin(int64_t weight) : weight_(weight) {}

  absl::Status OnSessionOpen(Session& ssn) override {
    ssn_ = &ssn;
    const Snapshot& snap = ssn.snapshot();
    nodes_.assign(static_cast<size_t>(ssn.num_nodes()), NumaNode());
    assigned_.clear();
    placed_on_.clear();
    const auto& topologies = snap.policy().numatopologies;
    for (NodeIndex n = 0; n < ssn.num_nodes(); ++n) {
      auto it = topologies.find(ssn.node_info(n).spec.name);
      if (it == topologies.end()) continue;
      NumaNode& node = nodes_[static_cast<size_t>(n)];
      node.spec = &it->second;
      node.topology.emplace(it->second.cpus);
      node.numa_nodes = NumaNodesOf(it->second.cpus);
      for (const auto& [name, res] : it->second.resources) node.free[name] = CpuSet(res.allocatable.begin(), res.allocatable.end());
      HoldUnreportedClaims(ssn.memory(), it->second, &node.free);
      if (auto r = it->second.reserved.find("cpu"); r != it->second.reserved.end()) {
        absl::StatusOr<int64_t> milli = ParseMilliValue(r->second);
        const int64_t whole = milli.ok() ? (std::max<int64_t>(*milli, 0) + 999) / 1000 : 0;
        std::optional<CpuSet> taken = TakeByTopology(*node.topology, CpusOf(it->second.cpus),
                                                     static_cast<int>(std::min<int64_t>(whole, INT32_MAX)));
        if (taken) node.reserved = *taken;
      }
    }
    numa_info_empty_ = ssn.InternReason("numa info is empty");
    not_static_ = ssn.InternReason("cpu manager policy isn't static");
    cpu_map_empty_ = ssn.InternReason("cpu allocatable map is empty");
    ssn.AddEventHandler({[this](TaskIndex t) { Placed(t, true); }, [this](TaskIndex t) { Placed(t, false); }});
    ssn.AddPredicateFn([this](TaskIndex t, NodeIndex n) { return Predicate(t, n); });
    ssn.AddBatchNodeOrderFn([this](TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) {
      Score(t, nodes, scores);
    });
    return absl::OkStatus();
  }

 private:
  // The CPUs a placement was given are taken from its node (and given back when undone:
  // the session has cleared the task's node by then, so the plugin keeps it).
  void Placed(TaskIndex t, bool placed) {
    NodeIndex n = ssn_->task_node(t);
    if (placed) {
      placed_on_[t] = n;
    } else if (auto it = placed_on_.find(t); it != placed_on_.end()) {
      n = it->second;
      placed_on_.erase(it);
    }
    auto task = assigned_.find(t);
    if (n == kNone || task == assigned_.end()) return;
    auto sets = task->second.find(n);
    if (sets == task->second.end()) return;
    ResourceSets& free = nodes_[static_cast<size_t>(n)].free;
    for (const auto& [name, cpus] : sets->second) {
      auto it = free.find(name);
      if (it == free.end()) continue;
      it->second = placed ? Difference(it->second, cpus) : Union(it->second, cpus);
    }
  }

  // What Volcano remembers of earlier sessions (UnassignedNumaPods): while the
  // Numatopology lists some pod numa-aware gave CPUs to as not yet assigned, the CPUs of
  // every such claim on the node stay taken; once it lists them all, they are forgotten.
  static void HoldUnreportedClaims(SchedulerMemory& memory, const NumatopologySpec& spec, ResourceSets* free) {
    auto claims = memory.numa_claims.find(spec.name);
    if (claims == memory.numa_claims.end()) return;
    const auto reported = [&spec](const NumaClaim& c) {
      return std::any_of(spec.pod_allocations.begin(), spec.pod_allocations.end(), [&c](const NumaPodAllocation& p) {
        return p.uid == c.uid || (p.name == c.name && p.namespace_ == c.namespace_);
      });
    };
    if (std::all_of(claims->second.begin(), claims->second.end(), reported)) {
      memory.numa_claims.erase(claims);
      return;
    }
    for (const NumaClaim& c : claims->second) {
      for (const auto& [name, cpus] : c.sets) {
        if (auto it = free->find(name); it != free->end()) it->second = Difference(it->second, CpuSet(cpus.begin(), cpus.end()));
      }
    }
  }

  FitResult Fail(FitCode code, ReasonId reason) const { return FitResult::Fail(code, reason); }

  FitResult Predicate(TaskIndex t, NodeIndex n) {
    const PodSpec& pod = *ssn_->task(t).pod;
    if (QosClassOf(pod) != PodQos::kGuaranteed) return FitResult::Success();
    const NumaNode& node = nodes_[static_cast<size_t>(n)];
    const std::string policy = TaskPolicy(pod);
    if (!policy.empty() && policy != "none") {
      if (node.spec == nullptr) return Fail(FitCode::kError, numa_info_empty_);
      if (node.Policy(kCpuPolicy) != "static") return Fail(FitCode::kError, not_static_);
      if (policy != node.Policy(kTopologyPolicy)) {
        return Fail(FitCode::kError, ssn_->InternReason(absl::StrCat("task topology policy[", policy,
                                                                     "] is different with node[",
                                                                     node.Policy(kTopologyPolicy), "]")));
      }
      auto cpu = node.free.find("cpu");
      if (cpu == node.free.end() || cpu->second.empty()) return Fail(FitCode::kError, cpu_map_empty_);
    } else if (node.spec == nullptr || node.Policy(kCpuPolicy) != "static" || node.Policy(kTopologyPolicy) == "none" ||
               node.Policy(kTopologyPolicy).empty()) {
      return FitResult::Success();
    }
    ResourceSets free = node.free;
    ResourceSets assignment;
    const std::string node_policy = node.Policy(kTopologyPolicy);
    for (const Container& c : pod.containers) {
      auto cpus = free.find("cpu");
      const int request = WholeCpus(c);
      std::optional<std::vector<NumaHint>> hints;  // none: no preference
      if (c.requests.count("cpu") && request > 0 && cpus != free.end()) {
        hints = CpuTopologyHints(Difference(cpus->second, node.reserved), node.spec->cpus, request);
      }
      const PolicyVerdict verdict = ApplyTopologyPolicy(node_policy, node.numa_nodes, {hints});
      if (!verdict.admit) {
        return Fail(FitCode::kUnschedulableAndUnresolvable,
                    ssn_->InternReason(absl::StrCat("container ", c.name, " cannot be assigned by numa")));
      }
      const CpuSet available = cpus == free.end() ? CpuSet() : Difference(cpus->second, node.reserved);
      const CpuSet given = AllocateCpus(*node.topology, available, verdict.best, request);
      assignment["cpu"] = Union(assignment["cpu"], given);
      free["cpu"] = Difference(free["cpu"], given);
    }
    assigned_[t][n] = std::move(assignment);
    return FitResult::Success();
  }

  // Fewer NUMA nodes under the CPUs a node would give, higher: counts normalized against
  // the largest among the nodes asked, reversed, times the weight.
  void Score(TaskIndex t, absl::Span<const NodeIndex> nodes, absl::Span<double> scores) const {
    auto task = assigned_.find(t);
    const std::string policy = TaskPolicy(*ssn_->task(t).pod);
    if (task == assigned_.end() || policy.empty() || policy == "none") return;
    std::vector<int64_t> counts(nodes.size(), 0);
    int64_t max = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const NumaNode& node = nodes_[static_cast<size_t>(nodes[i])];
      auto sets = task->second.find(nodes[i]);
      if (sets == task->second.end() || node.spec == nullptr) continue;
      auto cpus = sets->second.find("cpu");
      if (cpus != sets->second.end()) counts[i] = NumaNodeCount(cpus->second, node.spec->cpus);
      max = std::max(max, counts[i]);
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
      const int64_t score = max == 0 ? kMaxNodeScore : kMaxNodeScore - kMaxNodeScore * counts[i] / max;
      scores[i] += static_cast<double>(score * weight_);
    }
  }

  // The CPUs given to the pods placed in the session, remembered for later sessions
  // until the node's Numatopology reports the pods.
  void OnSessionClose(Session& ssn) override {
    for (const auto& [t, n] : placed_on_) {
      auto task = assigned_.find(t);
      if (n == kNone || task == assigned_.end()) continue;
      auto sets = task->second.find(n);
      if (sets == task->second.end()) continue;
      const PodSpec& pod = *ssn.task(t).pod;
      NumaClaim claim{ssn.task(t).uid, pod.namespace_, pod.name, {}};
      for (const auto& [name, cpus] : sets->second) claim.sets[name].assign(cpus.begin(), cpus.end());
      std::vector<NumaClaim>& claims = ssn.memory().numa_claims[ssn.node_info(n).spec.name];
      auto same = std::find_if(claims.begin(), claims.end(), [&claim](const NumaClaim& c) {
        return c.uid == claim.uid && c.namespace_ == claim.namespace_ && c.name == claim.name;
      });
      if (same != claims.end()) *same = std::move(claim);
      else claims.push_back(std::move(claim));
    }
  }

  const int64_t weight_;
  Session* ssn_ = nullptr;
  std::vector<NumaNode> nodes_;
  // Per task, per node: the CPUs the predicate's last answer for that node gave it.
  std::map<TaskIndex, std::map<NodeIndex, ResourceSets>> assigned_;
  std::map<TaskIndex, NodeIndex> placed_on_;  // the node of each task placed in the session
  ReasonId numa_info_empty_ = 0;
  ReasonId not_static_ = 0;
  ReasonId cpu_map_empty_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Plugin>> NewNumaAwarePlugin(const Arguments& args) {
  VCSCHED_ASSIGN_OR_RETURN(const int64_t weight, args.GetInt("weight", 1));
  return std::unique_ptr<Plugin>(new NumaAwarePlugin(weight));
}

}  // namespace vcsched::internal
